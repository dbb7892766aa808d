"""Immutable records of everything that happens in a house-banked round.

A round's events, in order, are its complete audit trail: the cards in the order dealt,
every decision, the peek, and every settlement with its money.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twentyone.cards import Card


@dataclass(frozen=True, slots=True)
class RoundStarted:
    bets: tuple[int, ...]

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "round-started", "bets": list(self.bets)}


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card to a box's hand, or to the dealer (``box`` None). Hole cards are face down."""

    card: Card
    box: int | None = None
    hand: int | None = None
    face_up: bool = True

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        shown = str(self.card) if self.face_up or reveal else None
        out: dict[str, Any] = {"type": "card", "to": "dealer" if self.box is None else "box"}
        if self.box is not None:
            out.update(box=self.box, hand=self.hand)
        out["card"] = shown
        if not self.face_up:
            out["face_up"] = False
        return out


@dataclass(frozen=True, slots=True)
class Decided:
    """A box's decision; ``hand`` is None for insurance and early surrender."""

    box: int
    hand: int | None
    action: str

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "decision", "box": self.box, "hand": self.hand, "action": self.action}


@dataclass(frozen=True, slots=True)
class Peeked:
    dealer_blackjack: bool

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "peek", "dealer_blackjack": self.dealer_blackjack}


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    card: Card

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "hole-card-revealed", "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class HandSettled:
    box: int
    hand: int
    result: str
    net: int

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {
            "type": "hand-settled",
            "box": self.box,
            "hand": self.hand,
            "result": self.result,
            "net": self.net,
        }


@dataclass(frozen=True, slots=True)
class InsuranceSettled:
    box: int
    net: int

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "insurance-settled", "box": self.box, "net": self.net}


@dataclass(frozen=True, slots=True)
class RoundSettled:
    house_net: int

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "round-settled", "house_net": self.house_net}


Event = (
    RoundStarted
    | CardDealt
    | Decided
    | Peeked
    | HoleCardRevealed
    | HandSettled
    | InsuranceSettled
    | RoundSettled
)
