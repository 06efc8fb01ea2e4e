"""The replay page's steps say who did what in the reader's language (issue 55 item 4): the
players' names where the stored hand has them (else seats 1–4, as people count them), the
game's narration where it has one, else the move itself — never the record's raw words."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.page.replay import replay_frames
from engine import game_of
from engine.actions import Auto, Pass, Play, Timeout
from engine.ai import player

NAMES = ["安", "Bob", "AI 3", "AI 4"]


def played(game: str, seed: int) -> tuple[dict[str, Any], list[Any]]:
    """A record of a whole hand: easy AI players, seat 0 going on 托管 at once and the first
    turn of seat 1 left to time out; and the actions as played."""
    engine = game_of(game)
    hand = engine.deal(engine.rules(), seed=seed)
    record, actions = hand.start_record(), []
    players = [player(game, "easy", seat) for seat in range(4)]
    first = Auto(seat=0, on=True)
    hand.apply(first)
    actions.append(first)
    timed_out = False
    while not hand.over:
        seat = hand.to_act
        if seat == 1 and not timed_out:
            action: Any = Timeout(seat=1)
            timed_out = True
        else:
            action = players[seat].decide(hand.view(seat), hand.legal_actions(seat))
        hand.apply(action)
        actions.append(action)
    record["actions"] = [action.to_json() for action in actions]
    return record, actions


def test_each_step_says_who_did_what_in_the_readers_words() -> None:
    for game, seed in (("situan", 11), ("erqiwang", 11), ("erqiwang", 5)):  # 11: a redeal
        record, actions = played(game, seed)
        frames = replay_frames({**record, "names": NAMES}, "zh-Hans")["frames"]
        assert frames[0]["said"] == ""
        assert frames[1]["said"] == "安：托管"
        timeout = next(i for i, a in enumerate(actions) if isinstance(a, Timeout))
        assert frames[timeout + 1]["said"] == "Bob：时间到，托管代打"
        for step, action in enumerate(actions, start=1):
            said = frames[step]["said"]
            assert said, (game, step)
            assert not any(word in said for word in ("play", "pass", "timeout", "auto")), said
            if isinstance(action, Pass) and game == "situan":
                assert said == f"{NAMES[action.seat]}：不要"
            if isinstance(action, Play) and action.cards:
                assert said.startswith(f"{NAMES[action.seat]}：")
        # How it ended, at the last step only, without the amounts (no match totals here).
        assert [bool(frame["outcome"]) for frame in frames] == [False] * len(actions) + [True]
        ended = frames[-1]["outcome"]
        assert ended.startswith(("本局结束。", "大家都不叫，重新发牌。")), ended
        assert "本场" not in ended  # no match totals
        if seed == 5:  # a declarer: who held, and where the bottom went
            assert ended == (
                "本局结束。\nAI 4 守住了（闲家 100 分，叫分 120）。\n"
                "庄家 AI 4 赢了最后一轮：底牌归庄家。"
            )


def test_without_names_the_seats_are_numbered_1_to_4() -> None:
    record, _ = played("situan", 12)
    replay = replay_frames(record, "en")
    assert replay["names"] == [t("en", "seat {seat}", seat=n) for n in (1, 2, 3, 4)]
    assert replay["frames"][1]["said"] == "seat 1: Auto-play on"
