"""Issue 42 on Discord, through discord.py against the fake: Manage Server / Manage Channels
give the host's commands; /notify's message comes by DM, and a member whose DMs are closed is
told so once, ephemerally."""

from __future__ import annotations

from pathlib import Path

from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import MANAGE_CHANNELS, MEMBER_PERMISSIONS, DiscordWorld
from tests.waiting import eventually


def answers_text(answers: list[dict]) -> str:
    return " ".join(a.get("data", {}).get("content", "") or "" for a in answers)


async def test_a_member_with_manage_channels_can_stop_a_table_and_one_without_cannot(
    tmp_path: Path,
):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"))
    try:
        world.permissions["25"] = MEMBER_PERMISSIONS | MANAGE_CHANNELS
        await world.slash("21", "new", game="situan")
        key = world.key()
        refused = await world.slash("22", "stop")
        assert "只有房主或本群管理员可以这样做" in answers_text(refused)
        assert world.manager.phase_at(key) == "lobby"
        await world.slash("25", "stop")
        assert not world.manager.has_table(key)  # closed, its ledger posted
        await eventually(
            lambda: any(
                "本场结束" in (m.get("content") or "")
                for m in world.fake.channel_messages(CHANNEL_ID)
            )
        )
    finally:
        await world.close()


async def test_notify_comes_by_dm_and_closed_dms_are_told_once_ephemerally(tmp_path: Path):
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), closed_dms={"24"})
    try:
        await world.slash("22", "notify")
        await world.slash("24", "notify")
        told = [
            c for c in world.fake.calls if c.method == "POST" and c.path.startswith("webhooks/")
        ]
        assert len(told) == 1 and told[0].body.get("flags") == 64
        assert "你关闭了私信" in told[0].body["content"]
        await world.slash("21", "new", game="erqiwang")
        dm = world.fake.dm_channels["22"]
        notices = [m for m in world.fake.channel_messages(dm) if m["components"]]
        assert len(notices) == 1 and "开了一桌二七王" in notices[0]["content"]
        await world.click("22", notices[0], "/join")  # the notice's Join, from the DM
        table = world.manager.tables[world.key()]
        assert table.seat_of("dc:u22") == 1
        told = [
            c for c in world.fake.calls if c.method == "POST" and c.path.startswith("webhooks/")
        ]
        assert len(told) == 1  # Dee was told once, not again when the table opened
    finally:
        await world.close()
