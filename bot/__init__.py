"""The platform-neutral game host: tables (`bot.table.state`), their commands
(`bot.commands.registry`, `bot.table.lobby`, `bot.table.playing`), what people see
(`bot.table.hand_views`, `bot.games`), and the manager that routes, stores and times them
(`bot.hosting.manager`)."""
