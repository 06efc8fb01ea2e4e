"""What people type and press, declared once: the registry of every command and its facts
(`registry`), how a typed line becomes a command (`parsing`, and the words players type instead
of one, `words`), the commands a chat answers before or beside its table (`chat`), which table a
private chat's command acts at (`private_chat`), and what a refusal repeats of the input
(`echo`). Help, menus and slash commands are made from the registry."""
