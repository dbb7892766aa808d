"""Which rule sets the exact analysis can analyse, and the error for those it cannot.

>>> from twentyone.presets import CASINO
>>> check_supported(CASINO.replace(aces_high=False))
Traceback (most recent call last):
...
twentyone.errors.UnsupportedRulesError: the exact analysis needs aces worth 1 or 11 (aces_high), got aces counting 1 only
"""

from __future__ import annotations

from twentyone.errors import InvalidRulesError, UnsupportedRulesError
from twentyone.rules import FiveCardHand, Rules

__all__ = ["UnsupportedRulesError", "check_supported"]


def check_supported(rules: Rules) -> None:
    """Raise :class:`UnsupportedRulesError` for rules outside the analysis (house blackjack)."""
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"expected a Rules value, got {type(rules).__name__}")
    if not rules.aces_high:
        raise UnsupportedRulesError(
            "the exact analysis needs aces worth 1 or 11 (aces_high), got aces counting 1 only"
        )
    if rules.five_card_hand is not FiveCardHand.NONE:
        raise UnsupportedRulesError(
            "the exact analysis covers house blackjack without five-card hands, "
            f"got five_card_hand={rules.five_card_hand.value}"
        )
