"""Running the bot as a service: its settings read from the environment (`config`, with the
defaults it shares with the host in `defaults`), the command line, logs with secrets masked,
Prometheus metrics, the cores the AI workers may use, and the operators' store commands."""
