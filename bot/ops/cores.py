"""How many CPU cores this process may use — what the AI workers are sized by
(``BOT_AI_WORKERS``' default): the cores it may run on, fewer where a container's CPU quota
(cgroup v1 or v2) allows less."""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
OWN_CGROUPS = Path("/proc/self/cgroup")


def usable_cores(cgroup_root: Path | None = None, own: Path | None = None) -> int:
    """The cores this process may use: those it is allowed to run on
    (``os.sched_getaffinity``, where the system has it), fewer when the cgroup's CPU quota
    (a container's ``--cpus``: cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us`` over
    ``cpu.cfs_period_us``) allows less — rounded up, at least one. ``os.cpu_count()``
    counts the host's cores, whatever the container may use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = cgroup_cpu_quota(cgroup_root or CGROUP_ROOT, own or OWN_CGROUPS)
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)


def cgroup_cpu_quota(root: Path = CGROUP_ROOT, own: Path = OWN_CGROUPS) -> float | None:
    """The CPUs the cgroup of this process (as ``own`` names it) may use, the tightest
    limit on its way up to ``root``; None where nothing limits it or no file says."""
    quotas = []
    for line in _read_lines(own):
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:  # cgroup v2: one tree
            quotas += [_v2_quota(folder) for folder in _up_to(root, path)]
        elif "cpu" in controllers.split(","):  # cgroup v1: the cpu controller's tree
            for base in (root / "cpu,cpuacct", root / "cpu"):
                quotas += [_v1_quota(folder) for folder in _up_to(base, path)]
    found = [quota for quota in quotas if quota is not None]
    return min(found) if found else None


def _up_to(root: Path, path: str) -> list[Path]:
    """The cgroup ``path``'s folder under ``root`` and each one above it up to ``root``: a
    limit set above applies below too. (In a container the path may name a folder that is
    not there; its root is then the container's own, and is read.)"""
    folder = root / path.strip().lstrip("/")
    return [folder, *(parent for parent in folder.parents if root in (parent, *parent.parents))]


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text().split("\n")
    except OSError:
        return []


def _v2_quota(folder: Path) -> float | None:
    words = (_read_lines(folder / "cpu.max") or [""])[0].split()
    if len(words) != 2 or words[0] == "max":
        return None
    try:
        quota, period = int(words[0]), int(words[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def _v1_quota(folder: Path) -> float | None:
    try:
        quota = int((_read_lines(folder / "cpu.cfs_quota_us") or [""])[0])
        period = int((_read_lines(folder / "cpu.cfs_period_us") or [""])[0])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None
