"""The market's event log: every command it was given, in order, with its outcome.

The market is a deterministic function of its commands, so replaying the log on a ledger in
the same starting state rebuilds the same book, orders, fills, holds and balances (see
:func:`twentyone.market.market.replay`). Rejected commands are logged too: a retried
reference must meet the same answer after a replay.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from twentyone.market.ladder import PriceInput


class OpenRound(NamedTuple):
    round: int
    fair_prices: tuple[tuple[str, Fraction | None], ...] = ()


class Place(NamedTuple):
    customer: str
    reference: str
    selection: str
    side: str
    price: PriceInput
    size: int
    round: int


class Cancel(NamedTuple):
    customer: str
    order_id: int
    amount: int | None


class Reprice(NamedTuple):
    customer: str
    order_id: int
    reference: str
    price: PriceInput


class CloseRound(NamedTuple):
    """End the open round (it has no fields)."""


class Settle(NamedTuple):
    selection: str
    result: str


class Void(NamedTuple):
    reason: str


Command = OpenRound | Place | Cancel | Reprice | CloseRound | Settle | Void


class LogEntry(NamedTuple):
    """A command, its sequence number, and ``None`` or the reason it was refused."""

    sequence: int
    command: Command
    refused: str | None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"seq": self.sequence, "kind": type(self.command).__name__}
        for name in self.command._fields:
            value = getattr(self.command, name)
            if name == "fair_prices":
                value = {sel: None if p is None else str(p) for sel, p in value}
            elif isinstance(value, Fraction | Decimal):
                value = str(value)
            body[name] = value
        if self.refused is not None:
            body["refused"] = self.refused
        return body
