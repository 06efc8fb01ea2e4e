"""One table in one chat: its state (`state.Table`, the only code that changes it), where it is
in its life (`table_phases`), its seats and settings, and the two kinds of step that move it
(`steps`: a command or time passing) — the lobby and match around the hands (`lobby`) and the
running hand (`playing`). A step returns `effects`: what to store, then what to send. Nothing
here stores, sends or waits; `bot.hosting` does that with what a step returns."""
