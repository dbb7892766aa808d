"""Cards and the card notation.

>>> Card.parse("10h")
Card('TH')
>>> str(Card.parse("qc")), Card.parse("QC").value
('QC', 10)
>>> [str(c) for c in parse_cards("AS 7d")]
['AS', '7D']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from twentyone.errors import InvalidCardError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
#: Blackjack value of each rank (the ace counted as 1).
RANK_VALUES = {rank: min(index + 1, 10) for index, rank in enumerate(RANKS)}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card; ``rank`` in ``RANKS``, ``suit`` in ``SUITS``."""

    rank: str
    suit: str
    #: Blackjack value: 1 for an ace, 10 for T, J, Q, K, else the pip count (stored: hot path).
    value: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank not in RANKS or len(self.rank) != 1:
            raise InvalidCardError(f"unknown rank {self.rank!r} (expected one of {RANKS})")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise InvalidCardError(f"unknown suit {self.suit!r} (expected one of {SUITS})")
        object.__setattr__(self, "value", RANK_VALUES[self.rank])

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def is_ten_value(self) -> bool:
        return self.value == 10

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``th``, ``10h``; raise :class:`InvalidCardError` otherwise."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card must be a string like 'AS', not {text!r}")
        cleaned = text.strip().upper()
        card = _BY_NAME.get(cleaned)
        if card is None:
            raise InvalidCardError(
                f"unknown card {text!r}: expected rank (A,2-9,T/10,J,Q,K) then suit (S,H,D,C)"
            )
        return card

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card('{self}')"


def _build_index() -> dict[str, Card]:
    index: dict[str, Card] = {}
    for rank in RANKS:
        for suit in SUITS:
            card = Card(rank, suit)
            index[rank + suit] = card
            if rank == "T":
                index["10" + suit] = card
    return index


_BY_NAME = _build_index()
#: One standard 52-card deck in a fixed order (spades, hearts, diamonds, clubs).
DECK: tuple[Card, ...] = tuple(_BY_NAME[r + s] for s in SUITS for r in RANKS)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace/comma separated string or an iterable of card strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Sequence[Card]) -> str:
    """Canonical space-separated notation.

    >>> format_cards(parse_cards(["as", "10d"]))
    'AS TD'
    """
    return " ".join(str(card) for card in cards)
