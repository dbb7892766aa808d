"""Orders and fills.

An order's size (always the backer's stake, also on a lay) is split, at every moment, into
``matched + remaining + cancelled + lapsed + voided``; only ``remaining`` rests in the book.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from twentyone.market.ladder import price_text


class Side(enum.Enum):
    BACK = "back"  # for the selection: wins S x (P - 1) if it wins
    LAY = "lay"  # against it: risks the liability S x (P - 1)


class Order:
    """A limit order on one selection; mutable counters, everything else fixed at placement."""

    __slots__ = (
        "cancelled",
        "customer",
        "lapsed",
        "matched",
        "order_id",
        "price",
        "reference",
        "remaining",
        "round",
        "selection",
        "side",
        "size",
        "voided",
    )

    def __init__(
        self,
        order_id: int,
        customer: str,
        reference: str,
        selection: int,
        side: Side,
        price: int,
        size: int,
        round_no: int,
    ) -> None:
        self.order_id = order_id
        self.customer = customer
        self.reference = reference
        self.selection = selection
        self.side = side
        self.price = price  # ladder index
        self.size = size
        self.round = round_no
        self.matched = 0
        self.remaining = size
        self.cancelled = 0
        self.lapsed = 0
        self.voided = 0

    @property
    def is_open(self) -> bool:
        return self.remaining > 0

    def snapshot(self) -> OrderView:
        view: OrderView = tuple.__new__(  # in C: skips the named tuple's Python constructor
            OrderView,
            (
                self.order_id,
                self.customer,
                self.reference,
                self.selection,
                self.side,
                self.price,
                self.size,
                self.round,
                self.matched,
                self.remaining,
                self.cancelled,
                self.lapsed,
                self.voided,
            ),
        )
        return view


class OrderView(NamedTuple):
    """An order's state at one moment (what the API returns; comparable)."""

    order_id: int
    customer: str
    reference: str
    selection: int
    side: Side
    price: int
    size: int
    round: int
    matched: int
    remaining: int
    cancelled: int
    lapsed: int
    voided: int

    def to_json(self, selection_names: tuple[str, ...]) -> dict[str, Any]:
        return {
            "order_id": self.order_id,
            "reference": self.reference,
            "selection": selection_names[self.selection],
            "side": self.side.value,
            "price": price_text(self.price),
            "size": self.size,
            "round": self.round,
            "matched": self.matched,
            "remaining": self.remaining,
            "cancelled": self.cancelled,
            "lapsed": self.lapsed,
            "voided": self.voided,
        }


class Fill(NamedTuple):
    """A matched bet: ``stake`` backed by ``backer`` and laid by ``layer`` at ``price``."""

    fill_id: int
    selection: int
    price: int  # ladder index: always the resting (maker's) order's price
    stake: int
    back_order: int
    lay_order: int
    backer: str
    layer: str
    round: int
    maker_order: int

    def to_json(self, selection_names: tuple[str, ...]) -> dict[str, Any]:
        return {
            "fill_id": self.fill_id,
            "selection": selection_names[self.selection],
            "price": price_text(self.price),
            "stake": self.stake,
            "backer": self.backer,
            "layer": self.layer,
            "round": self.round,
        }


class PlaceResult(NamedTuple):
    """What placing an order did: the order as it stood right after, and its fills."""

    order: OrderView
    fills: tuple[Fill, ...]


class CancelResult(NamedTuple):
    order: OrderView
    cancelled: int
