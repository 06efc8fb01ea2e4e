"""Skill ratings (issue 54 item 1): the numbers are OpenSkill's own (the library called
directly here), a rated table rates each finished hand in storage, a table not rated moves
nobody, and only a group's administrators turn rating on. 二七王 is rated as three
one-against-one results (the declarer against each defender, in turn): over 200 hands among
equal players the ratings neither sink nor drift, as they did with the declarer against the
three defenders as two teams."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace
from pathlib import Path

from openskill.models import PlackettLuce

from bot.community.skill_ratings import Rating, display, rate, title_of
from bot.games import RECORD_READERS
from bot.i18n import t
from bot.reading.command import parse_command
from bot.table.state import Table
from storage import Database
from tests.bot.harness import CHAT, Harness

LIB = PlackettLuce()


def ranked_teams(game: str, result: dict) -> list[list[list[int]]] | None:
    return RECORD_READERS[game].rated_results(result)


def by_library(teams: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """openskill itself, winners first."""
    made = [[LIB.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    rated = LIB.rate(made, ranks=[float(i) for i in range(len(teams))])
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def newcomers_start(table: Table) -> dict[int, tuple[float, float]]:
    """Each seat's (μ, σ) before a table's first rated hand: a newcomer's, an AI seat's its
    level's fixed rating."""
    fixed = RECORD_READERS[table.game].ai_ratings
    return {
        index: fixed[seat.level] if seat.ai else (25.0, 25 / 3)
        for index, seat in enumerate(table.seats)
        if seat is not None
    }


async def assert_rated_as_openskill(db: Database, table: Table) -> None:
    """The one finished hand of ``table`` moved each person's rating as the library itself
    rates its results, from a newcomer's (an AI seat at its level's fixed rating); each
    person has one rated hand."""
    finished = [h.result for h in await db.hands_of(table.chat) if h.result is not None]
    (results,) = [r for f in finished if (r := ranked_teams(table.game, f)) is not None]
    assert len(results) == 1  # 四团: one result, two teams of partners
    expected = in_turn(results, newcomers_start(table))
    for index, seat in enumerate(table.seats):
        if seat is not None and not seat.ai:
            (row,) = await db.ratings_of(seat.user)
            assert (row.mu, row.sigma) == expected[index] and row.hands == 1


def in_turn(
    results: list[list[list[int]]], start: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Each seat's (μ, σ) after the library rates ``results`` one after the other."""
    now = dict(start)
    for teams in results:
        rated = by_library([[now[seat] for seat in team] for team in teams])
        for team, new in zip(teams, rated, strict=True):
            now.update(zip(team, new, strict=True))
    return now


def test_situan_rates_partners_as_a_team_as_openskill_does():
    before = [Rating(30, 5), Rating(20, 7), Rating(25, 8), Rating(27, 2)]
    results = ranked_teams("situan", {"winner": "B"})
    assert results == [[[1, 3], [0, 2]]]
    after = rate(results, before)
    (b1, b3), (a0, a2) = by_library([[(20, 7), (27, 2)], [(30, 5), (25, 8)]])
    assert [(r.mu, r.sigma) for r in after] == [a0, b1, a2, b3]
    assert after[1].mu > 20 and after[0].mu < 30  # the winners went up


def test_erqiwang_rates_the_declarer_against_each_defender_in_turn():
    before = [Rating(25, 8), Rating(26, 3), Rating(24, 4), Rating(22, 6)]
    won = ranked_teams("erqiwang", {"declarer": 2, "declarer_won": True})
    lost = ranked_teams("erqiwang", {"declarer": 2, "declarer_won": False})
    assert won == [[[2], [3]], [[2], [0]], [[2], [1]]]
    assert lost == [[[3], [2]], [[0], [2]], [[1], [2]]]
    after = rate(lost, before)
    # The library directly: the declarer (24, 4) loses to seat 3, then to seat 0, then to
    # seat 1, each time from where the last result left them; each defender wins once.
    d3, x3 = by_library([[(22, 6)], [(24, 4)]])
    d0, x0 = by_library([[(25, 8)], x3])
    d1, x1 = by_library([[(26, 3)], x0])
    assert [(r.mu, r.sigma) for r in after] == [d0[0], d1[0], x1[0], d3[0]]
    assert after[2].mu < 24 and all(after[s].mu > before[s].mu for s in (0, 1, 3))


def test_200_erqiwang_hands_among_equal_players_neither_sink_nor_drift():
    """Eight equal newcomers, four seated at random each hand, a random declarer who makes
    the contract half the time (a fixed seed): the mean μ stays at 25 and display values
    rise above 0 — where the declarer against the three defenders as two teams (the
    library called directly) sank every display value to 0."""
    draw = random.Random(54)
    ours = {player: Rating() for player in range(8)}
    as_two_teams = {player: (LIB.mu, LIB.sigma) for player in range(8)}
    for _ in range(200):
        players = draw.sample(range(8), 4)
        declarer, won = draw.randrange(4), draw.random() < 0.5
        results = ranked_teams("erqiwang", {"declarer": declarer, "declarer_won": won})
        assert results is not None
        after = rate(results, [ours[player] for player in players])
        ours.update(zip(players, after, strict=True))
        defenders = [seat for seat in range(4) if seat != declarer]
        teams = [[declarer], defenders] if won else [defenders, [declarer]]
        rated = in_turn([teams], {s: as_two_teams[p] for s, p in enumerate(players)})
        as_two_teams.update((players[seat], value) for seat, value in rated.items())
    assert abs(statistics.mean(r.mu for r in ours.values()) - 25.0) < 1.0
    shown = [display(r) for r in ours.values()]
    assert min(shown) > 600 and max(shown) < 1800, shown  # all sure of them, none far apart
    assert statistics.mean(mu for mu, _ in as_two_teams.values()) < 5.0
    assert [display(Rating(*value)) for value in as_two_teams.values()] == [0] * 8


def test_hands_that_decide_nothing_are_not_rated():
    assert ranked_teams("situan", {"winner": None}) is None  # carried over
    assert ranked_teams("erqiwang", {"redeal": True}) is None


def test_a_player_who_left_takes_the_hand_as_lost_even_when_their_team_won():
    before = [Rating(25, 8)] * 4
    after = rate([[[0, 2], [1, 3]]], before, lost=[2])
    expected = by_library([[(25, 8)], [(25, 8), (25, 8)], [(25, 8)]])
    assert (after[0].mu, after[0].sigma) == expected[0][0]
    assert (after[2].mu, after[2].sigma) == expected[2][0]
    assert after[2].mu < 25 < after[0].mu
    # 二七王: a defender who left loses their result against the declarer, who lost the rest.
    results = ranked_teams("erqiwang", {"declarer": 0, "declarer_won": False})
    assert results is not None
    after = rate(results, before, lost=[3])
    start = {seat: (25.0, 8.0) for seat in range(4)}
    moved = in_turn([[[1], [0]], [[2], [0]], [[0], [3]]], start)
    assert [(r.mu, r.sigma) for r in after] == [moved[seat] for seat in range(4)]
    assert after[3].mu < 25


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
        (results,) = [found for r in finished if (found := ranked_teams(game, r)) is not None]
        fixed = RECORD_READERS[game].ai_ratings
        start = {0: (25.0, 25 / 3), 1: (25.0, 25 / 3), 2: fixed["easy"], 3: fixed["hard"]}
        expected = in_turn(results, start)
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
    ((teams,),) = [found for r in finished if (found := ranked_teams("situan", r)) is not None]
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
