"""Every command, declared once (`registry`: its name, facts, and handler), and what runs the
ones that are not a table's own: a table's two kinds of step (`steps`: a command routed to its
handler, or time passing), the commands a chat answers before or beside its table (`chat`),
`/notify` and the invitations it sends (`notices`), and which table a private chat's command
acts at (`private_chat`). Help, menus and slash commands are made from the registry."""
