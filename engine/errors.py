"""The two error types of the engine.

`IllegalAction` is a rule saying no to a well-formed request: it carries a stable `code` (the
list in hand-record.md) and the facts needed to explain it in any language. `RecordError` is a
hand record or card text that cannot be read at all.
"""

from __future__ import annotations

from typing import Any

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

RECORD_ERROR_CODES = frozenset({"bad_json", "bad_record", "bad_rules", "unknown_card", "bad_deal"})


class IllegalAction(Exception):
    """An action the rules refuse. Nothing was changed by it."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        assert code in ACTION_ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.facts = facts


class RecordError(Exception):
    """A record, a rule set or a card text that cannot be read."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        assert code in RECORD_ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.facts = facts
