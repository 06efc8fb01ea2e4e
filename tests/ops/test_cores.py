"""``BOT_AI_WORKERS``' default counts the cores this process may use: its CPU affinity and
its cgroup's CPU quota (a container's ``--cpus``), not the host's ``os.cpu_count()``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.ops import cores
from bot.ops.config import load
from bot.ops.cores import cgroup_cpu_quota, usable_cores


def cgroup_files(root: Path, own: str, files: dict[str, str]) -> Path:
    """A cgroup tree under ``root`` and a /proc/self/cgroup naming this process's place."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    proc = root / "proc-self-cgroup"
    proc.write_text(own)
    return proc


def test_a_cgroup_v2_quota_limits_the_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    own = cgroup_files(
        tmp_path,
        "0::/system.slice/bot.service\n",
        {
            "cpu.max": "max 100000\n",
            "system.slice/cpu.max": "250000 100000\n",  # 2.5 CPUs, set above the bot's own
            "system.slice/bot.service/cpu.max": "max 100000\n",
        },
    )
    assert cgroup_cpu_quota(tmp_path, own) == 2.5
    assert usable_cores(tmp_path, own) == 3  # rounded up
    monkeypatch.setattr(cores, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cores, "OWN_CGROUPS", own)
    assert load({}).ai_workers == 2


def test_a_cgroup_v1_quota_in_a_container(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Docker on cgroup v1: the path names the host's folder, absent inside; the mount's
    root is the container's own."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    own = cgroup_files(
        tmp_path,
        "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n",
        {
            "cpu,cpuacct/cpu.cfs_quota_us": "100000\n",
            "cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        },
    )
    assert usable_cores(tmp_path, own) == 1


def test_no_quota_leaves_the_affinity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5})
    own = cgroup_files(tmp_path, "0::/\n", {"cpu.max": "max 100000\n"})
    assert cgroup_cpu_quota(tmp_path, own) is None
    assert usable_cores(tmp_path, own) == 3
    assert usable_cores(tmp_path, tmp_path / "no-such-file") == 3
    monkeypatch.setattr(cores, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cores, "OWN_CGROUPS", own)
    assert load({}).ai_workers == 2
    assert "BOT_AI_WORKERS=2  # default: usable cores − 1" in "\n".join(load({}).described())
    assert load({"BOT_AI_WORKERS": "0"}).ai_workers == 0
