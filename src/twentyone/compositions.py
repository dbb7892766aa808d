"""Exhaustive enumeration of player hand compositions (a "perft" for blackjack).

A composition is how many cards of each value (ace .. ten) a hand holds; suits and the order
of the cards do not matter. The counts are regression checks against published figures.

>>> count_hand_compositions(1)
2008
>>> count_hand_compositions(None) == count_hand_compositions(6) == 3072
True
"""

from __future__ import annotations

from collections.abc import Iterator

from twentyone.hand import BLACKJACK_TOTAL


def available_by_value(decks: int | None) -> list[int]:
    """Cards of each value 1..10 in the shoe (index 0 = aces); infinite: unlimited (21)."""
    if decks is None:
        return [BLACKJACK_TOTAL] * 10  # more of a value than could ever fit in a non-bust hand
    return [4 * decks] * 9 + [16 * decks]


def hand_compositions(decks: int | None, min_cards: int = 2) -> Iterator[tuple[int, ...]]:
    """Every non-bust composition (hard total <= 21) of at least ``min_cards`` cards."""
    available = available_by_value(decks)
    counts = [0] * 10

    def extend(value: int, total: int, cards: int) -> Iterator[tuple[int, ...]]:
        # Place cards of values >= value only, so each multiset is produced once.
        if cards >= min_cards:
            yield tuple(counts)
        for next_value in range(value, 11):
            if total + next_value > BLACKJACK_TOTAL:
                break
            if counts[next_value - 1] < available[next_value - 1]:
                counts[next_value - 1] += 1
                yield from extend(next_value, total + next_value, cards + 1)
                counts[next_value - 1] -= 1

    yield from extend(1, 0, 0)


def count_hand_compositions(decks: int | None) -> int:
    """Distinct non-bust player hand compositions of two or more cards."""
    return sum(1 for _ in hand_compositions(decks))
