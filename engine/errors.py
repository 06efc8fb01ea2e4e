"""The engine's one error channel: `EngineError` and its two kinds.

`IllegalAction` is a rule saying no to a well-formed request: it carries a stable `code` (the
list in hand-record.md) and the facts needed to explain it in any language. `RecordError` is a
hand record, an action's record form or a card text that cannot be read at all. Both are
`EngineError`, a `ValueError`: a caller that only wants to know that the engine said no
catches that.
"""

from __future__ import annotations

from typing import Any, ClassVar

ACTION_ERROR_CODES = frozenset(
    {
        "wrong_phase",
        "not_your_turn",
        "not_in_hand",
        "not_a_combination",
        "cannot_beat",
        "must_lead",
        "wrong_count",
        "must_follow_suit",
        "must_follow_shape",
        "throw_not_allowed",
        "bid_not_allowed",
        "surrender_not_allowed",
        "no_bonus",
        "show_not_allowed",
        "bad_action",
    }
)

RECORD_ERROR_CODES = frozenset(
    {"bad_json", "bad_record", "bad_rules", "unknown_card", "bad_deal", "bad_action"}
)
"""``bad_action``: one action's record form is not a well-formed action (a replay gives that
action this verdict and goes on); the others make the whole record unreadable."""


class EngineError(ValueError):
    """Something the engine says no to: a stable ``code`` of its kind's list, a ``message``
    in English, and the ``facts`` needed to say it in any language."""

    codes: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        assert code in self.codes, code  # the engine's own codes: a typo is a bug
        super().__init__(message)
        self.code = code
        self.message = message
        self.facts = facts


class IllegalAction(EngineError):
    """An action the rules refuse. Nothing was changed by it."""

    codes = ACTION_ERROR_CODES


class RecordError(EngineError):
    """A record, an action's record form, a rule set or a card text that cannot be read."""

    codes = RECORD_ERROR_CODES
