"""The market's event log: every command it was given, in order, with its outcome.

The market is a deterministic function of its commands, so replaying the log on a ledger in
the same starting state rebuilds the same book, orders, fills, holds and balances (see
:func:`twentyone.market.market.replay`). Rejected commands are logged too: a retried
reference must meet the same answer after a replay.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, overload

from twentyone.errors import shown
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
            if name == "fair_prices" and type(value) is tuple:  # the checked (name, price) pairs
                value = {sel: None if p is None else str(p) for sel, p in value}
            else:
                value = _json_value(value)
            body[name] = value
        if self.refused is not None:
            body["refused"] = self.refused
        return body


def _json_value(value: Any) -> Any:
    """A logged field as JSON: as it was if it is plain and small, else a short description.

    A refused command is logged with the values it was given, which may be anything (a
    nested list, an integer of 5,000 digits, a megabyte of text): those are described, never
    written out.
    """
    if value is None or type(value) in (bool, float):
        return value
    if type(value) is int and value.bit_length() <= 63:
        return value
    if type(value) is str and len(value) <= 1_000:
        return value
    if (
        type(value) is Fraction
        and max(value.numerator.bit_length(), value.denominator.bit_length()) <= 64
    ):
        return str(value)
    if type(value) is Decimal and value.is_finite():
        _, digits, exponent = value.as_tuple()
        if len(digits) <= 40 and abs(int(exponent)) <= 99:
            return str(value)
    return shown(value)


class EventLog(Sequence[LogEntry]):
    """The log as a sequence of :class:`LogEntry`, stored compactly.

    It keeps the commands in one list and the refusals, by sequence number, in a dict; an
    entry is built when it is read. Orders and cancels (the hot path) are stored as plain
    tuples of their fields: CPython's collector stops tracking an exact tuple of numbers and
    strings once it survives a collection, never a named tuple, so a long log of ``Place``
    records would make every full collection walk all of them. The log reads exactly as a list
    of entries would.

    >>> log = EventLog()
    >>> log.record(Void("jam"))
    >>> log.record(("ann", 3, None), "there is no order 3 on market m")  # a cancel's fields
    >>> len(log), log[1].command, [entry.refused for entry in log]
    (2, Cancel(customer='ann', order_id=3, amount=None), [None, 'there is no order 3 on market m'])
    """

    __slots__ = ("commands", "refusals")

    def __init__(self) -> None:
        # Appended to directly by the market's hot path: a command, or the plain tuple of a
        # Place's (7) or a Cancel's (3) fields.
        self.commands: list[Command | tuple[Any, ...]] = []
        self.refusals: dict[int, str] = {}

    def record(self, command: Command | tuple[Any, ...], refused: str | None = None) -> None:
        if refused is not None:
            self.refusals[len(self.commands)] = refused
        self.commands.append(command)

    def __len__(self) -> int:
        return len(self.commands)

    @overload
    def __getitem__(self, index: int) -> LogEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[LogEntry]: ...

    def __getitem__(self, index: int | slice) -> LogEntry | list[LogEntry]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.commands)))]
        if index < 0:
            index += len(self.commands)
        return LogEntry(index, _command(self.commands[index]), self.refusals.get(index))

    def __iter__(self) -> Iterator[LogEntry]:
        refusals = self.refusals
        for sequence, command in enumerate(self.commands):
            yield LogEntry(sequence, _command(command), refusals.get(sequence))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list


def _command(stored: Command | tuple[Any, ...]) -> Command:
    if type(stored) is not tuple:
        return stored  # type: ignore[return-value]  # a command record
    if len(stored) == 7:
        place: Place = tuple.__new__(Place, stored)
        return place
    cancel: Cancel = tuple.__new__(Cancel, stored)
    return cancel
