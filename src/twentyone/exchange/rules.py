"""The Exchange Blackjack rule preset.

>>> EXCHANGE.infinite, EXCHANGE.dealer_hits_soft_17, EXCHANGE.five_card_hand.value
(True, False, 'beats-blackjack')
"""

from __future__ import annotations

from twentyone.rules import (
    Double,
    FiveCardHand,
    Peek,
    Rules,
    Shuffle,
    Surrender,
    Ties,
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
