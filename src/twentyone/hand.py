"""Hand values: hard and soft totals, blackjack, bust, five-card hands.

>>> value = hand_value(parse_cards("AS 6D"))
>>> value.total, value.soft, value.hard
(17, True, 7)
>>> hand_value(parse_cards("AS 6D TC")).total
17
>>> is_blackjack(parse_cards("AH KD")), is_blackjack(parse_cards("AH KD"), from_split=True)
(True, False)
>>> is_soft(7, True), best_total(7, True), best_total(17, True)
(True, 17, 17)
>>> cards_by_value(parse_cards("AS 6D TC KH"))
(0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from twentyone.cards import Card, parse_cards  # noqa: F401  (parse_cards: doctests)

BLACKJACK_TOTAL = 21


def is_soft(hard: int, has_ace: bool, aces_high: bool = True) -> bool:
    """The one soft-total rule: an ace counts 11 when that does not bust the hand."""
    return aces_high and has_ace and hard + 10 <= BLACKJACK_TOTAL


def best_total(hard: int, has_ace: bool, aces_high: bool = True) -> int:
    """The best total of a hand with hard total ``hard`` (aces counted 1)."""
    return hard + 10 if aces_high and has_ace and hard + 10 <= BLACKJACK_TOTAL else hard


def cards_by_value(cards: Iterable[Card]) -> tuple[int, ...]:
    """How many cards of each value: index 1 (ace) to 10 (ten-value); index 0 is always 0."""
    counts = [0] * 11
    for card in cards:
        counts[card.value] += 1
    return tuple(counts)


class HandValue(NamedTuple):
    """The value of a hand: ``total`` is always the best total."""

    hard: int
    soft: bool

    @property
    def total(self) -> int:
        return self.hard + 10 if self.soft else self.hard

    @property
    def bust(self) -> bool:
        return self.hard > BLACKJACK_TOTAL


def value_of(values: Sequence[int], aces_high: bool = True) -> HandValue:
    """Value of card values (ace = 1). ``aces_high=False`` counts aces as 1 only."""
    hard = sum(values)
    return HandValue(hard, is_soft(hard, 1 in values, aces_high))


def hand_value(cards: Sequence[Card], aces_high: bool = True) -> HandValue:
    """Value of a hand of cards."""
    return value_of([card.value for card in cards], aces_high)


def is_blackjack(cards: Sequence[Card], from_split: bool = False) -> bool:
    """Exactly two cards, an ace and a ten-value card, not from a split."""
    if from_split or len(cards) != 2:
        return False
    first, second = cards
    return (first.is_ace and second.is_ten_value) or (second.is_ace and first.is_ten_value)


def is_five_card_hand(cards: Sequence[Card], aces_high: bool = True) -> bool:
    """Exactly five cards and not bust ("five-card Charlie")."""
    return len(cards) == 5 and not hand_value(cards, aces_high).bust
