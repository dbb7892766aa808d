"""Named rule presets, one per game (see the spec's game files).

>>> {'casino', 'online'} <= set(PRESETS)
True
>>> ONLINE.max_hands, ONLINE.shuffle.value, ONLINE.peek.value
(2, 'round', 'ace-ten')
"""

from __future__ import annotations

from fractions import Fraction

from twentyone.errors import InvalidRulesError
from twentyone.rules import (
    Double,
    EnhcLoses,
    Peek,
    Rules,
    Shuffle,
    SplitBy,
    Surrender,
    Ties,
)

#: Casino Blackjack: European no-hole-card table (spec/casino.md).
CASINO = Rules(
    decks=6,
    shuffle=Shuffle.CUT_CARD,
    penetration=Fraction(3, 4),
    dealer_hits_soft_17=False,
    peek=Peek.NONE,
    enhc_loses=EnhcLoses.ALL,
    blackjack_pays=Fraction(3, 2),
    double=Double.ANY,
    double_after_split=True,
    split_by=SplitBy.VALUE,
    max_hands=4,
    resplit_aces=False,
    hit_split_aces=False,
    surrender=Surrender.LATE,
    insurance=True,
    ties=Ties.PUSH,
    min_bet=100,
    max_bet=50_000,
    max_boxes=7,
)

#: Online Blackjack: one box, fresh 6-deck shoe every round, dealer peeks (spec/online.md).
ONLINE = Rules(
    decks=6,
    shuffle=Shuffle.EVERY_ROUND,
    dealer_hits_soft_17=False,
    peek=Peek.ACE_TEN,
    enhc_loses=EnhcLoses.ALL,
    blackjack_pays=Fraction(3, 2),
    double=Double.ANY,
    double_after_split=True,
    split_by=SplitBy.VALUE,
    max_hands=2,
    resplit_aces=False,
    hit_split_aces=False,
    surrender=Surrender.NONE,
    insurance=True,
    ties=Ties.PUSH,
    min_bet=100,
    max_bet=100_000,
    max_boxes=1,
)

PRESETS: dict[str, Rules] = {"casino": CASINO, "online": ONLINE}


def preset(name: str) -> Rules:
    """The preset called ``name``; an unknown name is an :class:`InvalidRulesError`."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(
            f"unknown preset {name!r} (expected one of {', '.join(sorted(PRESETS))})"
        ) from None
