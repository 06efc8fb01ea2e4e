"""四团's 亮牌 with the partner's consent (``show_consent = partner``) through real
python-telegram-bot against the fake Bot API: the request and the answer as private buttons
to the partner, and the group told each step."""

from __future__ import annotations

from pathlib import Path

from tests.telegram.fake_bot_api import FakeBotAPI
from tests.telegram.world import (
    PLAYERS,
    TelegramWorld,
    buttons_of,
    wait_for_group_message,
)
from tests.waiting import eventually

ANN, BOB, CAI, DEE = PLAYERS  # seats 0-3: Ann & Cai, Bob & Dee are partners


async def open_table_with_consent(world: TelegramWorld) -> str:
    for user_id in PLAYERS:
        await world.say(user_id, "/start", chat_id=user_id)
    await world.say(ANN, "/new situan")
    await world.say(ANN, "/settings show_consent partner")
    await world.settle()
    lobby = await wait_for_group_message(world, "/join")
    for user_id in (BOB, CAI, DEE):
        await world.press(user_id, lobby, "/join")
    await world.press(ANN, lobby, "/start")
    return world.key()


def commands_of(message: dict) -> list[str]:
    return [b["callback_data"].split("|")[-1] for b in buttons_of(message)]


def group_texts(world: TelegramWorld) -> list[str]:
    return [m["text"] for m in world.group_messages() if m.get("text")]


async def group_says(world: TelegramWorld, text: str) -> None:
    await eventually(lambda: any(text in said for said in group_texts(world)), 10, 0.01, text)


def private_texts(api: FakeBotAPI, user_id: int) -> list[str]:
    return [str(m.get("text") or m.get("caption") or "") for m in api.chat_messages(user_id)]


async def test_the_partner_is_asked_by_private_buttons_and_the_group_follows(tmp_path: Path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        key = await open_table_with_consent(world)
        table = world.manager.tables[key]
        assert table.hand is not None and table.hand.rules.show_consent == "partner"

        # Ann asks; Cai, her partner, gets Agree / Refuse and refuses.
        await world.press(ANN, world.hand_message(ANN), "/show")
        await group_says(world, "Ann 请求亮牌，等对家 Cai 同意。")
        assert table.hand.phase == "show_consent"
        asked = world.hand_message(CAI)
        assert commands_of(asked)[:2] == ["/consent yes", "/consent no"]
        assert [b["text"] for b in buttons_of(asked)][:2] == ["同意亮牌", "不同意"]
        assert not any(c.startswith(("/pick", "/go")) for c in commands_of(asked))
        assert "/consent yes" not in commands_of(world.hand_message(ANN))
        answer = await world.press(CAI, asked, "/consent no")
        assert not answer.get("text")
        await group_says(world, "Cai 不同意 Ann 亮牌：继续打。")
        assert table.hand.phase == "play" and table.hand.revealed is None
        assert "/show" not in commands_of(world.hand_message(ANN))  # asked once: no more
        await world.say(ANN, "/show", chat_id=ANN)
        assert "对家本局已拒绝你的亮牌，不能再请求。" in private_texts(world.api, ANN)[-1]

        # Bob asks; Dee agrees, sees Bob's hand, and shows it.
        await world.press(BOB, world.hand_message(BOB), "/show")
        await world.press(DEE, world.hand_message(DEE), "/consent yes")
        await group_says(world, "Dee 同意 Bob 亮牌：两人互看手牌，由 Dee 选择亮谁的牌。")
        picking = world.hand_message(DEE)
        assert commands_of(picking)[:2] == ["/reveal partner", "/reveal me"]
        assert any("你的对家 Bob 的牌：" in text for text in private_texts(world.api, DEE))
        await world.press(DEE, picking, "/reveal partner")
        await group_says(world, "Bob 的牌亮给大家看。")
        assert table.hand.revealed == 1 and table.hand.show_by == 1
        assert [a["act"] for a in _recorded(table)][-3:] == [
            "show_start",
            "show_answer",
            "show_pick",
        ]
    finally:
        await world.close()


def _recorded(table) -> list[dict]:
    return [action.to_json() for action in table.hand.history]
