"""Persistence (aiosqlite): tables, seats, hand records, match ledger, stats."""
