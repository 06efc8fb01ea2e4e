"""One table in one chat: its state (`state.Table`, the only code that changes it), where it is
in its life (`table_phases`), its seats and stored snapshot, the lobby and match around the
hands (`lobby`), the running hand (`playing`), and what each person sees of it (`hand_views`:
the group's table message, every seat's private hand). A step returns `effects`: what to
store, then what to send; nothing here stores, sends or waits — `bot.hosting` does."""
