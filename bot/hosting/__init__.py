"""Keeping many tables running in one process, or shared by several: the `manager.TableManager`
(one table per chat, one lock per chat, storage first, then sending) and its collaborators —
the open tables and their locks, keeping (storing steps, rebuilding tables after a restart),
fault containment, the timers, and the leases by which processes sharing a database own a
table each (`table_leases`, `process_identity`)."""
