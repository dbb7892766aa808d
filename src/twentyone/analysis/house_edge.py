"""Overall expected return of a rule set: optimal composition-dependent play (CDZ- splits)
and the total-dependent basic strategy, by up card and in total.

Results are cached per :class:`~twentyone.rules.Rules` (a hashable value), so showing a
preset's house edge repeatedly costs one analysis.

>>> from twentyone.rules import Rules, EnhcLoses
>>> round(expected_return(Rules(decks=None, enhc_loses=EnhcLoses.ORIGINAL)) * 100, 6)
-0.511734
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.analysis.engine import analyze_upcard, prepare
from twentyone.analysis.shoe_counts import ACE, LABELS, TEN, UPCARD_ORDER
from twentyone.analysis.strategy import basic_strategy_analysis
from twentyone.errors import InvalidRulesError
from twentyone.rules import Rules


@dataclass(frozen=True)
class Analysis:
    """The exact analysis of one rule set (EVs per initial bet; negative = house edge)."""

    rules: Rules
    ev: float
    ev_by_upcard: dict[str, float]
    upcard_probability: dict[str, float]
    basic_strategy_ev: float
    insurance_ev: float | None
    split_strategy: str = "cdz-"  # the convention of ``ev`` and ``ev_by_upcard``

    def to_json(self) -> dict[str, Any]:
        """The ``analyze --json`` shape (without the timing, which the caller measures)."""
        return {
            "rules": self.rules.to_json(),
            "split_strategy": self.split_strategy,
            "ev": self.ev,
            "ev_by_upcard": dict(self.ev_by_upcard),
            "basic_strategy_ev": self.basic_strategy_ev,
            "insurance_ev": self.insurance_ev,
        }


@functools.lru_cache(maxsize=32)
def optimal_by_upcard(rules: Rules, convention: str = "cdz-") -> dict[int, float]:
    """The player's EV given each up card (index 0 = ace), optimal CD play, splits played by
    ``convention`` (``"cdz-"`` or ``"cdp1"``)."""
    setup = prepare(rules, convention=convention)
    return {up: analyze_upcard(setup, up).ev for up in range(10)}


def expected_return(rules: Rules, convention: str = "cdz-") -> float:
    """The player's EV per initial bet under optimal composition-dependent play."""
    setup = prepare(rules, convention=convention)
    by_upcard = optimal_by_upcard(rules, convention)
    return sum(setup.card_probability(up) * ev for up, ev in by_upcard.items())


def basic_strategy_ev(rules: Rules) -> float:
    """The player's EV per initial bet playing the total-dependent basic strategy."""
    return basic_strategy_analysis(rules).ev


def insurance_ev(rules: Rules) -> float | None:
    """EV of one unit of insurance against an ace, from the full shoe (None: not offered)."""
    if not rules.insurance:
        return None
    setup = prepare(rules)
    if setup.infinite:
        return 3.0 * float(setup.shoe[TEN]) - 1.0
    unseen = [int(count) for count in setup.shoe]
    unseen[ACE] -= 1
    return insurance_value(unseen)


def insurance_value(unseen: Sequence[int]) -> float:
    """EV of one unit of insurance given the cards the player has not seen (by value, A..T;
    the dealer's ace up and every card on the table already taken out): it pays 2:1 when
    the hole card is a ten.

    >>> round(insurance_value([3, 4, 4, 4, 4, 4, 4, 4, 4, 16]), 6)  # one deck, only the ace out
    -0.058824
    """
    counts = list(unseen)
    if len(counts) != 10 or any(count < 0 for count in counts) or sum(counts) == 0:
        raise InvalidRulesError(f"unseen cards are ten counts >= 0 (A, 2..9, T), got {unseen!r}")
    return 3.0 * counts[TEN] / sum(counts) - 1.0


def analyze(rules: Rules, convention: str = "cdz-") -> Analysis:
    """Everything ``twentyone analyze`` shows; ``convention``: how split hands are played in
    the optimal EV (the basic strategy plays them by its chart)."""
    setup = prepare(rules, convention=convention)
    by_upcard = optimal_by_upcard(rules, convention)
    return Analysis(
        rules=rules,
        split_strategy=convention,
        ev=expected_return(rules, convention),
        ev_by_upcard={LABELS[up]: by_upcard[up] for up in UPCARD_ORDER},
        upcard_probability={LABELS[up]: setup.card_probability(up) for up in UPCARD_ORDER},
        basic_strategy_ev=basic_strategy_ev(rules),
        insurance_ev=insurance_ev(rules),
    )
