"""AI decisions that take long — the ``hard`` level's search — made off the event loop: the
pool of worker processes sized to the cores this process may use (`worker_pool`), and the
decisions pending at the tables, one per table at most (`slow_decisions`)."""
