"""The garbage collector, set for a host that holds many tables for a long time.

Left at CPython's defaults, a host with a thousand tables spent 11.7% of its time collecting
and its slowest action waited 170 ms, for a full collection over every table
(`bench/host_throughput.py --game situan --default-collector`; settled: 2.6% and 41 ms).
Every 700 new objects start a young collection, and the messages waiting in the group
pacers (each with its snapshot of the table) live long enough to be walked again by the
older collections. Little of what the host makes is garbage in a cycle, so collecting less
often costs little memory; and the tables restored at start, alive for hours, are moved out
of the collector's sight (`gc.freeze`): a cycle among them that ends later stays in memory.
"""

from __future__ import annotations

import gc

YOUNG_OBJECTS = 10_000
"""New objects (net) that start a young collection (CPython's default: 700)."""
OLDER_EVERY = 10
"""Young collections per collection of the middle generation, and those per full one."""


def settle_after_start() -> None:
    """Once the host has restored its tables: collect what start-up left, keep everything
    alive now out of later collections, and collect less often from here on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, OLDER_EVERY, OLDER_EVERY)
