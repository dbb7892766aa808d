"""Orders and fills.

An order's size (always the backer's stake, also on a lay) is split, at every moment, into
``matched + remaining + cancelled + lapsed + voided``; only ``remaining`` rests in the book.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple, overload

from twentyone.market.ladder import price_text


class Side(enum.Enum):
    BACK = "back"  # for the selection: wins S x (P - 1) if it wins
    LAY = "lay"  # against it: risks the liability S x (P - 1)


#: ``Side`` by its code in the order table (0: back, 1: lay).
SIDE_OF_CODE = (Side.BACK, Side.LAY)

#: An order's fields fixed at placement, as stored: (reference, selection, side code, ladder
#: index of the limit price, size, round, position in the fills of the first fill it could take).
OrderFixed = tuple[str, int, int, int, int, int, int]


class OrderTable(Mapping[int, "Order"]):
    """Every order of a market by id (1, 2, ...), stored column by column.

    An order is a row across plain lists of numbers and strings (its customer, its fixed
    fields as one plain tuple, and its five counters), not an object of its own. Why: the
    hot path reads and writes the counters by order id, and CPython's collector walks every
    live object with slots at each full collection, while a plain tuple of strings and numbers
    stops being tracked once it survives a collection and a list of numbers is one object.
    ``table[order_id]`` is a live :class:`Order` view of the row.

    >>> table = OrderTable()
    >>> table.add("ann", ("r1", 0, 1, 149, 500, 1, 0))
    1
    >>> table.remaining[1] -= 200; table.cancelled[1] += 200
    >>> order = table[1]
    >>> order.side, order.remaining, order.cancelled, len(table), list(table)
    (<Side.LAY: 'lay'>, 300, 200, 1, [1])
    """

    __slots__ = ("cancelled", "customer", "fixed", "lapsed", "matched", "remaining", "voided")

    def __init__(self) -> None:
        # Position 0 is a placeholder: order ids start at 1 and index the lists directly.
        self.customer: list[str] = [""]
        self.fixed: list[OrderFixed] = [("", 0, 0, 0, 0, 0, 0)]
        self.matched: list[int] = [0]
        self.remaining: list[int] = [0]
        self.cancelled: list[int] = [0]
        self.lapsed: list[int] = [0]
        self.voided: list[int] = [0]

    def add(self, customer: str, fixed: OrderFixed) -> int:
        """A new order with nothing matched yet; returns its id."""
        order_id = len(self.customer)
        self.customer.append(customer)
        self.fixed.append(fixed)
        self.matched.append(0)
        self.remaining.append(fixed[4])
        self.cancelled.append(0)
        self.lapsed.append(0)
        self.voided.append(0)
        return order_id

    def __getitem__(self, order_id: int) -> Order:
        if type(order_id) is int and 0 < order_id < len(self.customer):
            return Order(self, order_id)
        raise KeyError(order_id)

    def __contains__(self, order_id: object) -> bool:
        return type(order_id) is int and 0 < order_id < len(self.customer)

    def __len__(self) -> int:
        return len(self.customer) - 1

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self.customer)))

    def view(self, order_id: int) -> OrderView:
        """The order's state now, as the API returns it."""
        reference, selection, side, price, size, round_no, _ = self.fixed[order_id]
        view: OrderView = tuple.__new__(  # in C: skips the named tuple's Python constructor
            OrderView,
            (
                order_id,
                self.customer[order_id],
                reference,
                selection,
                SIDE_OF_CODE[side],
                price,
                size,
                round_no,
                self.matched[order_id],
                self.remaining[order_id],
                self.cancelled[order_id],
                self.lapsed[order_id],
                self.voided[order_id],
            ),
        )
        return view


class Order:
    """A live view of one order in an :class:`OrderTable`: its fields, read when asked.

    The counters split the size: ``matched + remaining + cancelled + lapsed + voided``.
    """

    __slots__ = ("order_id", "table")

    def __init__(self, table: OrderTable, order_id: int) -> None:
        self.table = table
        self.order_id = order_id

    @property
    def customer(self) -> str:
        return self.table.customer[self.order_id]

    @property
    def reference(self) -> str:
        return self.table.fixed[self.order_id][0]

    @property
    def selection(self) -> int:
        return self.table.fixed[self.order_id][1]

    @property
    def side(self) -> Side:
        return SIDE_OF_CODE[self.table.fixed[self.order_id][2]]

    @property
    def price(self) -> int:
        """The limit price's ladder index."""
        return self.table.fixed[self.order_id][3]

    @property
    def size(self) -> int:
        return self.table.fixed[self.order_id][4]

    @property
    def round(self) -> int:
        return self.table.fixed[self.order_id][5]

    @property
    def first_fill(self) -> int:
        """Position in the market's fills of the first fill this order could take as taker.

        The fills of its placement are the ones from there on that it took (see
        ``Market.placement_result``), so a retry's answer is rebuilt, not stored.
        """
        return self.table.fixed[self.order_id][6]

    @property
    def matched(self) -> int:
        return self.table.matched[self.order_id]

    @property
    def remaining(self) -> int:
        return self.table.remaining[self.order_id]

    @property
    def cancelled(self) -> int:
        return self.table.cancelled[self.order_id]

    @property
    def lapsed(self) -> int:
        return self.table.lapsed[self.order_id]

    @property
    def voided(self) -> int:
        return self.table.voided[self.order_id]

    @property
    def is_open(self) -> bool:
        return self.remaining > 0

    def snapshot(self) -> OrderView:
        return self.table.view(self.order_id)

    def __repr__(self) -> str:
        return f"Order({self.snapshot()!r})"


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


#: A fill's fields as a plain tuple, in :class:`Fill`'s order.
FillRow = tuple[int, int, int, int, int, int, str, str, int, int]


class FillLog(Sequence[Fill]):
    """Every fill of a market in order, read as :class:`Fill` records, stored as plain tuples.

    Why: CPython's collector stops tracking an exact tuple of numbers and strings the first
    time it survives a collection, but never a named tuple (a subclass), so a market that kept
    its fills as ``Fill`` objects would make every full collection walk all of them. A fill is
    stored as its row (:data:`FillRow`) and a ``Fill`` is built when it is read.

    >>> fills = FillLog()
    >>> fills.rows.append((1, 0, 149, 500, 2, 1, "ann", "bob", 1, 1))
    >>> fills[0].stake, fills[-1] == Fill(1, 0, 149, 500, 2, 1, "ann", "bob", 1, 1), len(fills)
    (500, True, 1)
    """

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: list[FillRow] = []  # appended to directly by the market's hot path

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Fill: ...

    @overload
    def __getitem__(self, index: slice) -> list[Fill]: ...

    def __getitem__(self, index: int | slice) -> Fill | list[Fill]:
        if isinstance(index, slice):
            return [as_fill(row) for row in self.rows[index]]
        return as_fill(self.rows[index])

    def __iter__(self) -> Iterator[Fill]:
        return map(as_fill, self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FillLog):
            return self.rows == other.rows
        if isinstance(other, list):
            return self.rows == other  # a Fill equals its row
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def since(self, start: int) -> tuple[Fill, ...]:
        """The fills from position ``start`` on (an order's fills, as its placement returns)."""
        return tuple(map(as_fill, self.rows[start:]))


def as_fill(row: FillRow) -> Fill:
    """A fill's row as a :class:`Fill` (the market's hot path uses it too)."""
    fill: Fill = tuple.__new__(Fill, row)  # in C: skips the named tuple's Python constructor
    return fill
