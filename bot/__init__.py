"""The platform-neutral game host: tables (`bot.table`), their commands (`bot.registry`,
`bot.lobby`, `bot.playing`), what people see (`bot.hand_views`, `bot.games`), and the
manager that routes, stores and times them (`bot.manager`)."""
