"""The platform-neutral game host (tables, lobby, timers, rendering). Being built: see issue 4."""
