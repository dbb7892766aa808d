"""The Exchange Blackjack rule preset (defined with the others in :mod:`twentyone.presets`).

>>> EXCHANGE.infinite, EXCHANGE.dealer_hits_soft_17, EXCHANGE.five_card_hand.value
(True, False, 'beats-blackjack')
"""

from __future__ import annotations

from twentyone.presets import EXCHANGE

__all__ = ["EXCHANGE"]
