"""A table's own options are typed values, checked once (issue 53): as a player types them
and as storage gives them back — never converted with ``float()`` or ``int()`` at each use."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.reading.table_options import TABLE_OPTION_NAMES, BadSetting, TableOptions


def test_typed_values_go_to_storage_and_back_unchanged():
    options = TableOptions().with_typed("stake", "0.5").with_typed("ai_delay", "0.25")
    options = options.with_typed("pictures", "关").with_typed("ready_seconds", "90")
    stored = options.to_json()
    assert stored["stake"] == "1/2" and stored["pictures"] is False
    assert TableOptions.from_json(stored) == options
    assert options.stake == Fraction(1, 2) and options.ready_seconds == 90


def test_a_stored_value_of_another_type_is_read_as_typed():
    """A snapshot written before the options were typed (or by hand) is checked on the way
    in: text becomes the option's type; a value no player could set keeps the default."""
    restored = TableOptions.from_json(
        {
            "stake": "2",
            "ready_seconds": "45",
            "mention_turn": "off",
            "ai_delay": 2,
            "idle_minutes": 99999,
            "retired_option": 1,
        }
    )
    assert restored.stake == Fraction(2) and restored.ready_seconds == 45
    assert restored.mention_turn is False and restored.ai_delay == 2.0
    assert isinstance(restored.ai_delay, float)
    assert restored.idle_minutes == TableOptions().idle_minutes  # out of range: the default


def test_a_value_refused_at_the_door_changes_nothing():
    options = TableOptions()
    with pytest.raises(BadSetting):
        options.with_typed("ready_seconds", "1")  # below 5
    with pytest.raises(BadSetting):
        options.with_typed("pictures", "maybe")
    assert options == TableOptions()


def test_every_option_is_shown_as_a_player_would_type_it_back():
    shown = TableOptions().shown()
    assert tuple(shown) == TABLE_OPTION_NAMES
    assert shown["pictures"] == "on" and shown["stake"] == "1" and shown["ai_delay"] == "1"
    for name, text in shown.items():
        assert TableOptions().with_typed(name, text) == TableOptions()
