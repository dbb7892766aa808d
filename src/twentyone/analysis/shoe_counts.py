"""Shoe counts by card value as the analysis indexes them: ten counts, index 0 the ace.

Index 0 is the ace, index 9 any ten-value card; suits and the ranks among tens never matter
to the exact analysis (see ``docs/analysis.md`` for the one rule where ranks among tens do).
(:mod:`twentyone.compositions` is another thing: the enumeration of player hand compositions.)

>>> full_shoe_counts(1)
(4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
>>> infinite_probabilities()[9]
Fraction(4, 13)
"""

from __future__ import annotations

from fractions import Fraction

ACE = 0
TEN = 9
#: Card values by index (the ace as 1).
VALUES = tuple(range(1, 11))
#: Labels of up cards and pair cards by index, as in the JSON output.
LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
#: Chart order of up cards (2..9, T, A) as indexes.
UPCARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)


def full_shoe_counts(decks: int) -> tuple[int, ...]:
    """Cards of each value in ``decks`` fresh 52-card decks."""
    return tuple(16 * decks if index == TEN else 4 * decks for index in range(10))


def infinite_probabilities() -> tuple[Fraction, ...]:
    """Probability of each value in an infinite shoe (1/13 each, 4/13 for ten-value cards)."""
    return tuple(Fraction(4 if index == TEN else 1, 13) for index in range(10))


def label_index(label: str) -> int:
    """Index of a card label: ``A``, ``2``..``9``, ``T`` (``10`` accepted)."""
    text = label.strip().upper()
    if text == "10":
        text = "T"
    if text not in LABELS:
        from twentyone.errors import InvalidCardError

        raise InvalidCardError(f"unknown card value {label!r} (expected A, 2-9 or T)")
    return LABELS.index(text)
