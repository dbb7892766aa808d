"""Immutable records of everything that happens in a house-banked round.

A round's events, in order, are its complete audit trail: the cards in the order dealt,
every decision, the peek, and every settlement with its money. They are named tuples: immutable,
and cheap to create on the engine's hot path.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twentyone.cards import Card


class RoundStarted(NamedTuple):
    bets: tuple[int, ...]

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "round-started", "bets": list(self.bets)}


class CardDealt(NamedTuple):
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


class Decided(NamedTuple):
    """A box's decision; ``hand`` is None for insurance and early surrender. ``timed_out``: the
    standard decision taken when the decision time ran out."""

    box: int
    hand: int | None
    action: str
    timed_out: bool = False

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "decision",
            "box": self.box,
            "hand": self.hand,
            "action": self.action,
        }
        if self.timed_out:
            out["timed_out"] = True
        return out


class Peeked(NamedTuple):
    dealer_blackjack: bool

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "peek", "dealer_blackjack": self.dealer_blackjack}


class HoleCardRevealed(NamedTuple):
    card: Card

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "hole-card-revealed", "card": str(self.card)}


class HandSettled(NamedTuple):
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


class InsuranceSettled(NamedTuple):
    box: int
    net: int

    def to_json(self, reveal: bool = True) -> dict[str, Any]:
        return {"type": "insurance-settled", "box": self.box, "net": self.net}


class RoundSettled(NamedTuple):
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
