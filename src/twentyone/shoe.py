"""Shoes: N decks with a cut card, shuffled every round or continuously; infinite; scripted.

A shoe draws cards and is told when a round starts and ends; the policy decides when to
shuffle. The randomness is injected.

>>> from twentyone.randomness import SeededRandomSource
>>> shoe = FiniteShoe(1, SeededRandomSource(1))
>>> shoe.start_round(); len({str(shoe.draw()) for _ in range(52)})
52
>>> scripted = ScriptedShoe(parse_cards("AS KD"))
>>> str(scripted.draw()), str(scripted.draw())
('AS', 'KD')
>>> scripted.draw()
Traceback (most recent call last):
...
twentyone.errors.ShoeExhaustedError: the shoe ran out: card #3 was needed but only 2 were given
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from twentyone.cards import DECK, Card, parse_cards  # noqa: F401  (parse_cards: doctests)
from twentyone.errors import InvalidRulesError, ShoeExhaustedError
from twentyone.randomness import RandomSource
from twentyone.rules import Rules, Shuffle

_CUT_CARD = Shuffle.CUT_CARD


class Shoe(Protocol):
    def start_round(self) -> None:
        """Called before the first card of a round; the shoe may shuffle here."""
        ...

    def draw(self) -> Card: ...

    def end_round(self) -> None:
        """Called when a round is settled; its cards go to the discards."""
        ...


class FiniteShoe:
    """``decks`` 52-card decks. ``shuffle`` says when the discards go back in."""

    def __init__(
        self,
        decks: int,
        source: RandomSource,
        shuffle: Shuffle = Shuffle.EVERY_ROUND,
        penetration: Fraction = Fraction(3, 4),
    ) -> None:
        if decks < 1:
            raise InvalidRulesError(f"decks must be >= 1, got {decks}")
        self.decks = decks
        self.shuffle_policy = shuffle
        self._randbelow = source.randbelow  # bound once: drawing is the hottest path of a table
        self._cards: list[Card] = list(DECK) * decks
        self._position = 0
        # The cut card sits this many cards from the top.
        self.cut_position = int(len(self._cards) * penetration)
        self._needs_shuffle = True
        self.shuffles = 0

    @property
    def size(self) -> int:
        return len(self._cards)

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._position

    @property
    def dealt(self) -> int:
        return self._position

    def start_round(self) -> None:
        # _CUT_CARD: an enum member looked up on every round costs 0.2 us (Python 3.11).
        if self._needs_shuffle or self.shuffle_policy is not _CUT_CARD:
            self._shuffle()
        self._needs_shuffle = False

    def _shuffle(self) -> None:
        # Every card goes back in. The shuffle itself is lazy: each draw finishes one step of
        # Fisher-Yates (a uniform pick among the cards not yet dealt), so the order dealt is a
        # uniformly random permutation while a round costs only as many random numbers as
        # cards it uses.
        self._position = 0
        self.shuffles += 1

    def draw(self) -> Card:
        position = self._position
        cards = self._cards
        if position >= len(cards):
            # A round that outlasts the shoe reshuffles the discards (rare; small shoes only).
            # The cards on the table are not in them, but this keeps the game going.
            self._shuffle()
            position = 0
        pick = position + self._randbelow(len(cards) - position)
        cards[position], cards[pick] = cards[pick], cards[position]
        self._position = position + 1
        return cards[position]

    def end_round(self) -> None:
        if self._position >= self.cut_position:
            self._needs_shuffle = True


class InfiniteShoe:
    """Each card drawn independently and uniformly from the 52."""

    def __init__(self, source: RandomSource) -> None:
        self._source = source

    def start_round(self) -> None:
        pass

    def draw(self) -> Card:
        return DECK[self._source.randbelow(52)]

    def end_round(self) -> None:
        pass


class ScriptedShoe:
    """A fixed card order from the top (tests, scenarios, replays)."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self._cards = list(cards)
        self._position = 0

    @property
    def used(self) -> int:
        return self._position

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._position

    def start_round(self) -> None:
        pass

    def draw(self) -> Card:
        if self._position >= len(self._cards):
            raise ShoeExhaustedError(
                f"the shoe ran out: card #{self._position + 1} was needed "
                f"but only {len(self._cards)} were given"
            )
        card = self._cards[self._position]
        self._position += 1
        return card

    def end_round(self) -> None:
        pass


def shoe_for(rules: Rules, source: RandomSource) -> FiniteShoe | InfiniteShoe:
    """The shoe a table with these rules deals from."""
    if rules.decks is None:
        return InfiniteShoe(source)
    return FiniteShoe(rules.decks, source, rules.shuffle, rules.penetration)


def check_possible(cards: Sequence[Card], decks: int | None) -> None:
    """Raise if ``cards`` could not all come from a shoe of ``decks`` decks."""
    if decks is None:
        return
    for card, count in Counter(cards).items():
        if count > decks:
            raise InvalidRulesError(
                f"card {card} appears {count} times but a {decks}-deck shoe holds only {decks}"
            )
