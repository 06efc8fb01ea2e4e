"""Discord menus say what they hold when closed, and name each card copy as one card."""

from __future__ import annotations

from typing import Any

import discord

from adapters.discord.components import ChoiceMenu, layout
from bot.games import Stamps, front_of
from bot.views.controls import Selection, Stamp
from bot.views.outgoing import Button
from engine.erqiwang import ERQIWANG

CHANNEL = 42


def menus(buttons: list[Button]) -> list[discord.ui.Select[Any]]:
    return [item.item for item in layout(CHANNEL, buttons) if isinstance(item, ChoiceMenu)]


def test_a_pair_is_two_options_each_named_as_one_card():
    cards = [
        Button("♠A×2", "/pick SA", "s", group="card:S"),
        Button("[♠K]", "/pick SK", "s", group="card:S"),
        Button("[♠Q×2]", "/pick SQ", "s", group="card:S"),
    ]
    (menu,) = menus(cards)
    assert [o.label for o in menu.options] == ["♠A", "♠A", "[♠K]", "[♠Q]", "[♠Q]"]
    assert [o.value.split(":", 1)[1] for o in menu.options] == [
        "/pick SA",
        "/pick SA",
        "/pick SK",
        "/pick SQ",
        "/pick SQ",
    ]
    assert menu.max_values == 5  # both copies may be chosen at once


def test_every_menu_shows_its_first_options_when_closed():
    bids = [
        Button(str(points), f"/bid {points}", "s", group="bid") for points in range(120, 75, -5)
    ]
    (menu,) = menus(bids)
    assert menu.placeholder == "120 · 115 · 110 · 105 · 100 · 95 · 90 · 85 · 80"
    cards = [Button(f"♥{rank}", f"/pick H{rank}", "s", group="card:H") for rank in "AKQJ"]
    cards += [Button(f"♣{n}", f"/pick C{n}", "s", group="card:C") for n in range(2, 10)]
    placeholders = [m.placeholder for m in menus(cards)]
    assert placeholders == ["♥A · ♥K · ♥Q · ♥J", "♣2 · ♣3 · ♣4 · ♣5 · ♣6 · ♣7 · ♣8 · ♣9"]


def test_a_long_menu_shows_as_many_options_as_fit_then_an_ellipsis():
    cards = [Button(f"Card number {n}", f"/pick {n}", "s", group="card:T") for n in range(25)]
    (menu,) = menus(cards)
    assert menu.placeholder is not None
    assert menu.placeholder.startswith("Card number 0 · Card number 1 · ")
    assert menu.placeholder.endswith(" …") and len(menu.placeholder) <= 150


def test_the_bid_menu_keeps_the_highest_bids_when_there_are_more_than_fit():
    hand = ERQIWANG.deal(ERQIWANG.rules("classic", bid_max=200), seed=3)
    view = hand.view(hand.to_act)
    stamp = Stamp("t", 1, None)
    rows = front_of("erqiwang").hand_buttons(
        "en", view, hand.legal_actions(hand.to_act), Selection(), Stamps(stamp, stamp)
    )
    (menu,) = menus([b for row in rows for b in row])
    bids = [int(o.label) for o in menu.options]
    assert bids[0] == 200 and bids == sorted(bids, reverse=True) and len(bids) == 25
