"""Skill ratings (issue 54 item 1): the numbers are OpenSkill's own (the library called
directly here), a rated table rates each finished hand in storage, a table not rated moves
nobody, and only a group's administrators turn rating on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from openskill.models import PlackettLuce

from bot.community.skill_ratings import Rating, display, rate, title_of
from bot.games import RECORD_READERS
from bot.i18n import t
from bot.reading.command import parse_command
from tests.bot.harness import CHAT, Harness

LIB = PlackettLuce()


def ranked_teams(game: str, result: dict) -> list[list[int]] | None:
    return RECORD_READERS[game].rated_teams(result)


def by_library(teams: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """openskill itself, winners first."""
    made = [[LIB.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    rated = LIB.rate(made, ranks=[float(i) for i in range(len(teams))])
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def test_situan_rates_partners_as_a_team_as_openskill_does():
    before = [Rating(30, 5), Rating(20, 7), Rating(25, 8), Rating(27, 2)]
    teams = ranked_teams("situan", {"winner": "B"})
    assert teams == [[1, 3], [0, 2]]
    after = rate(teams, before)
    (b1, b3), (a0, a2) = by_library([[(20, 7), (27, 2)], [(30, 5), (25, 8)]])
    assert [(r.mu, r.sigma) for r in after] == [a0, b1, a2, b3]
    assert after[1].mu > 20 and after[0].mu < 30  # the winners went up


def test_erqiwang_rates_the_declarer_against_the_three_defenders():
    before = [Rating(25, 8), Rating(26, 3), Rating(24, 4), Rating(22, 6)]
    won = ranked_teams("erqiwang", {"declarer": 2, "declarer_won": True})
    lost = ranked_teams("erqiwang", {"declarer": 2, "declarer_won": False})
    assert won == [[2], [0, 1, 3]] and lost == [[0, 1, 3], [2]]
    after = rate(lost, before)
    (d0, d1, d3), (alone,) = by_library([[(25, 8), (26, 3), (22, 6)], [(24, 4)]])
    assert [(r.mu, r.sigma) for r in after] == [d0, d1, alone, d3]


def test_hands_that_decide_nothing_are_not_rated():
    assert ranked_teams("situan", {"winner": None}) is None  # carried over
    assert ranked_teams("erqiwang", {"redeal": True}) is None


def test_a_player_who_left_takes_the_hand_as_lost_even_when_their_team_won():
    before = [Rating(25, 8)] * 4
    after = rate([[0, 2], [1, 3]], before, lost=[2])
    expected = by_library([[(25, 8)], [(25, 8), (25, 8)], [(25, 8)]])
    assert (after[0].mu, after[0].sigma) == expected[0][0]
    assert (after[2].mu, after[2].sigma) == expected[2][0]
    assert after[2].mu < 25 < after[0].mu


def test_the_display_value_and_the_titles():
    assert display(Rating()) == 0  # a newcomer: 25 − 3 × 25/3
    assert display(Rating(35, 2)) == (29 * 60)
    assert display(Rating(80, 1)) == 3000 and display(Rating(10, 8)) == 0
    assert [t("zh-Hans", title_of(v)) for v in (0, 599, 600, 1200, 1800, 2400, 3000)] == [
        "新手",
        "新手",
        "熟手",
        "高手",
        "大师",
        "宗师",
        "宗师",
    ]
    assert t("en", title_of(1900)) == "Master" and t("zh-Hant", title_of(1900)) == "大師"


async def as_admin(harness: Harness, user: str, text: str) -> None:
    command = parse_command(text, user, user.title(), CHAT, False, "en")
    assert command is not None
    await harness.deliver(replace(command, admin=True))


async def play_one_hand(harness: Harness, game: str, rated: bool) -> None:
    await harness.say("ann", f"/new {game}", lang="en")
    await harness.say("bob", "/join", lang="en")
    await harness.say("ann", "/settings max_hands 1")
    if rated:
        await as_admin(harness, "ann", "/settings rated on")
    await harness.say("ann", "/addbot easy")
    await harness.say("ann", "/addbot hard")
    await harness.say("ann", "/start")
    await harness.say("ann", "/auto on")
    await harness.say("bob", "/auto on")
    await harness.run_until(lambda: not harness.table().is_open())


async def test_a_rated_table_rates_its_hand_by_openskills_numbers(tmp_path: Path):
    for game, seed in (("situan", 3), ("erqiwang", 5)):
        harness = await Harness.open(str(tmp_path / f"{game}.db"), seed=seed)
        await play_one_hand(harness, game, rated=True)
        finished = [h.result for h in await harness.db.hands_of(CHAT) if h.result is not None]
        (teams,) = [teams for r in finished if (teams := ranked_teams(game, r)) is not None]
        fixed = RECORD_READERS[game].ai_ratings
        start = {0: (25.0, 25 / 3), 1: (25.0, 25 / 3), 2: fixed["easy"], 3: fixed["hard"]}
        rated = by_library([[start[seat] for seat in team] for team in teams])
        expected = {
            seat: value
            for team, new in zip(teams, rated, strict=True)
            for seat, value in zip(team, new, strict=True)
        }
        for seat, user in ((0, "ann"), (1, "bob")):
            (row,) = await harness.db.ratings_of(user)
            assert (row.game, row.hands, row.name) == (game, 1, user.title())
            assert (row.mu, row.sigma) == expected[seat]
        moves = await harness.db.rating_moves(game, 0.0)
        assert [m.user for m in moves] == ["ann", "bob"]
        # The post ending the hand says the new ratings, and how far they moved.
        after = [display(Rating(m.mu, m.sigma)) for m in moves]
        before = [display(Rating(m.mu_before, m.sigma_before)) for m in moves]
        shown = ", ".join(
            f"{m.name} {now} ({now - was:+d})"
            for m, now, was in zip(moves, after, before, strict=True)
        )
        said = [text for text in harness.recorder.texts("group") if "Ratings: " in text]
        assert len(said) == 1 and f"\nRatings: {shown}" in said[0]
        await harness.db.close()


async def test_a_table_not_rated_moves_nobody(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "plain.db"), seed=3)
    await play_one_hand(harness, "situan", rated=False)
    assert [h for h in await harness.db.hands_of(CHAT) if h.result is not None]
    assert await harness.db.ratings_of("ann") == []
    await harness.db.close()


async def test_only_an_administrator_turns_rating_on(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "admins.db"))
    await harness.say("ann", "/new situan", lang="en")
    said = await harness.say("ann", "/settings rated on")
    assert [m.text for m in said] == ["Only the group's administrators turn rating on or off."]
    assert harness.table().table_options.rated is False
    await as_admin(harness, "ann", "/settings rated on")
    assert harness.table().table_options.rated is True
    await harness.db.close()


async def test_a_player_who_leaves_mid_hand_is_rated_as_having_lost_it(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "left.db"), seed=3)
    await harness.say("ann", "/new situan", lang="en")
    await harness.say("bob", "/join", lang="en")
    await harness.say("ann", "/settings max_hands 1")
    await as_admin(harness, "ann", "/settings rated on")
    await harness.say("ann", "/addbot normal")
    await harness.say("ann", "/addbot normal")
    await harness.say("ann", "/start")
    await harness.say("ann", "/auto on")
    await harness.say("bob", "/leave")  # mid-hand: 托管 plays for Bob
    assert harness.table().seats[1].left
    await harness.run_until(lambda: not harness.table().is_open())
    finished = [h.result for h in await harness.db.hands_of(CHAT) if h.result is not None]
    (teams,) = [teams for r in finished if (teams := ranked_teams("situan", r)) is not None]
    fixed = RECORD_READERS["situan"].ai_ratings["normal"]
    start = {0: (25.0, 25 / 3), 1: (25.0, 25 / 3), 2: fixed, 3: fixed}
    groups = [[seat for seat in team if seat != 1] for team in teams] + [[1]]
    rated = by_library([[start[seat] for seat in group] for group in groups])
    (bob,) = await harness.db.ratings_of("bob")
    assert (bob.mu, bob.sigma) == rated[-1][0] and bob.mu < 25.0  # last: lost
    (ann,) = await harness.db.ratings_of("ann")
    place = next(i for i, group in enumerate(groups) if 0 in group)
    assert (ann.mu, ann.sigma) == rated[place][0]
    assert len(await harness.db.leaves_since("bob", 0.0)) == 1  # counted for /quick's pause
    assert await harness.db.leaves_since("ann", 0.0) == []
    await harness.db.close()


async def test_report_puts_the_last_hand_on_the_operators_list(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "report.db"), seed=3)
    (early,) = await harness.say("bob", "/report", private=True, lang="en")
    assert early.text == "/report is for a hand you played, and you have not finished one yet."
    await play_one_hand(harness, "situan", rated=False)
    (group,) = await harness.say("bob", "/report rude", lang="zh-Hans")
    assert group.text == "/report 要在和机器人的私聊里说：在那里发给我。"
    assert await harness.db.reports() == []
    (done,) = await harness.say("bob", "/report rude name", private=True, lang="zh-Hant")
    assert done.text == "謝謝：你上一局的記錄已交給管理者。"
    last = [h for h in await harness.db.hands_of(CHAT) if h.result is not None][-1]
    ((user, chat, hand, note, _),) = await harness.db.reports()
    assert (user, chat, hand, note) == ("bob", CHAT, last.id, "rude name")
    await harness.db.close()
