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
    FiveCardHand,
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

#: Exchange Blackjack (spec/exchange-blackjack.md): infinite deck, dealer stands on all 17s,
#: no hole card (the dealer's second card comes after round 3), a five-card hand beats
#: blackjack, player hands only hit or stand. The betting limits are the exchange's business.
EXCHANGE = Rules(
    decks=None,
    shuffle=Shuffle.CONTINUOUS,
    dealer_hits_soft_17=False,
    peek=Peek.NONE,
    double=Double.NONE,
    double_after_split=False,
    max_hands=1,
    surrender=Surrender.NONE,
    insurance=False,
    ties=Ties.PUSH,
    five_card_hand=FiveCardHand.BEATS_BLACKJACK,
    max_boxes=4,
)

#: Vinte-e-um (spec/vinte-e-um.md): one deck shuffled every round without a cut, ties to the
#: bank, ace 1 or 11, bets of 1-5 chips (one chip = one minor unit), 1-7 players against the
#: banker. The house-banked options (peek, double, split, surrender, insurance) do not exist
#: in this game and are off; the table settings only this game has are in twentyone.vinte.
VINTE = Rules(
    decks=1,
    shuffle=Shuffle.EVERY_ROUND,
    peek=Peek.NONE,
    blackjack_pays=Fraction(1),
    double=Double.NONE,
    double_after_split=False,
    max_hands=1,
    resplit_aces=False,
    hit_split_aces=False,
    surrender=Surrender.NONE,
    insurance=False,
    ties=Ties.DEALER_WINS,
    aces_high=True,
    five_card_hand=FiveCardHand.NONE,
    min_bet=1,
    max_bet=5,
    max_boxes=7,
)

PRESETS: dict[str, Rules] = {
    "casino": CASINO,
    "online": ONLINE,
    "exchange": EXCHANGE,
    "vinte": VINTE,
}


def preset(name: str) -> Rules:
    """The preset called ``name``; an unknown name is an :class:`InvalidRulesError`."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidRulesError(
            f"unknown preset {name!r} (expected one of {', '.join(sorted(PRESETS))})"
        ) from None
