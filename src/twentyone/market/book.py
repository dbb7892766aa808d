"""The order book of one selection and its matching engine (price-time priority).

Resting backs wait for a layer: the lowest back price is the best for a layer. Resting lays
wait for a backer: the highest lay price is the best for a backer. An incoming back at ``p``
meets resting lays priced ``>= p``, the highest first, and an incoming lay at ``p`` meets
resting backs priced ``<= p``, the lowest first; within a price, first come first served;
every fill is at the resting order's price; a remainder rests at its own price. So the book
is never crossed: every resting lay is priced below every resting back.

Each price level is a FIFO queue of order ids; the orders' remainders live in the market's
:class:`~twentyone.market.orders.OrderTable` (``remaining[order_id]``). A cancelled order stays
in its queue with nothing remaining and is skipped (and dropped) when reached, so a cancel is
O(1); the level's total is kept separately for the views. Per side, an integer bit mask has bit
``i`` set when level ``i`` holds something, so the next best price after a level empties is a
bit operation, not a walk along the 350 prices.

The market's hot path (``Market._execute``) runs the matching loop of :meth:`match` inline,
together with the exposure arithmetic; :meth:`match` is the plain statement of it.

>>> from twentyone.market.orders import Side
>>> book = SelectionBook()
>>> remaining = [0, 500]  # order 1: a lay of 5.00 at ladder index 120
>>> book.rest(1, Side.LAY, 120, 500)
>>> book.match(Side.BACK, 100, 800, remaining), remaining  # a back of 8.00 at index 100
([(1, 500)], [0, 0])
"""

from __future__ import annotations

from collections import deque

from twentyone.market.ladder import LADDER_SIZE
from twentyone.market.orders import Side

_NO_BACK = LADDER_SIZE  # best back index when no back rests
_NO_LAY = -1  # best lay index when no lay rests


class SelectionBook:
    """Resting orders (their ids) of one selection by side and ladder index."""

    __slots__ = (
        "back_levels",
        "back_mask",
        "back_sizes",
        "best_back",
        "best_lay",
        "lay_levels",
        "lay_mask",
        "lay_sizes",
    )

    def __init__(self) -> None:
        self.back_levels: list[deque[int]] = [deque() for _ in range(LADDER_SIZE)]
        self.lay_levels: list[deque[int]] = [deque() for _ in range(LADDER_SIZE)]
        self.back_sizes = [0] * LADDER_SIZE
        self.lay_sizes = [0] * LADDER_SIZE
        self.best_back = _NO_BACK
        self.best_lay = _NO_LAY
        self.back_mask = 0  # bit i: back level i is not empty
        self.lay_mask = 0

    def match(
        self, side: Side, price: int, amount: int, remaining: list[int]
    ) -> list[tuple[int, int]]:
        """Fill a taker on ``side`` at limit ``price`` for ``amount`` as far as it goes.

        Returns (maker id, stake) per fill, best price first and first come first served
        within a price; takes each stake off ``remaining[maker id]``.
        """
        fills: list[tuple[int, int]] = []
        if side is Side.BACK:
            levels, sizes = self.lay_levels, self.lay_sizes
            while amount and self.best_lay >= price:
                index = self.best_lay
                amount = _fill_level(amount, levels[index], fills, sizes, index, remaining)
                if not sizes[index]:
                    levels[index].clear()
                    self.lay_mask &= ~(1 << index)
                    self.best_lay = self.next_lay(index)
        else:
            levels, sizes = self.back_levels, self.back_sizes
            while amount and self.best_back <= price:
                index = self.best_back
                amount = _fill_level(amount, levels[index], fills, sizes, index, remaining)
                if not sizes[index]:
                    levels[index].clear()
                    self.back_mask &= ~(1 << index)
                    self.best_back = self.next_back(index)
        return fills

    def rest(self, order_id: int, side: Side, index: int, amount: int) -> None:
        """Queue an order's remainder ``amount`` at ladder ``index`` (behind everything there)."""
        if not amount:
            return
        if side is Side.BACK:
            self.back_levels[index].append(order_id)
            self.back_sizes[index] += amount
            self.back_mask |= 1 << index
            if index < self.best_back:
                self.best_back = index
        else:
            self.lay_levels[index].append(order_id)
            self.lay_sizes[index] += amount
            self.lay_mask |= 1 << index
            if index > self.best_lay:
                self.best_lay = index

    def reduce(self, side: Side, index: int, amount: int) -> None:
        """A resting order at ``index`` lost ``amount`` of its remainder (a cancel).

        The order stays in its queue (skipped when reached if nothing is left of it).
        """
        if side is Side.BACK:
            self.back_sizes[index] -= amount
            if not self.back_sizes[index]:
                self.back_levels[index].clear()
                self.back_mask &= ~(1 << index)
                if index == self.best_back:
                    self.best_back = self.next_back(index)
        else:
            self.lay_sizes[index] -= amount
            if not self.lay_sizes[index]:
                self.lay_levels[index].clear()
                self.lay_mask &= ~(1 << index)
                if index == self.best_lay:
                    self.best_lay = self.next_lay(index)

    def clear(self) -> None:
        """Empty the book (the caller lapses or voids the orders)."""
        for index in range(LADDER_SIZE):
            if self.back_sizes[index]:
                self.back_levels[index].clear()
                self.back_sizes[index] = 0
            if self.lay_sizes[index]:
                self.lay_levels[index].clear()
                self.lay_sizes[index] = 0
        self.best_back = _NO_BACK
        self.best_lay = _NO_LAY
        self.back_mask = self.lay_mask = 0

    def resting(self, remaining: list[int]) -> list[int]:
        """Every resting order's id, backs then lays, in priority order."""
        backs = [i for level in self.back_levels for i in level if remaining[i]]
        lays = [i for level in reversed(self.lay_levels) for i in level if remaining[i]]
        return backs + lays

    def depth(self, side: Side, levels: int) -> list[tuple[int, int]]:
        """The best ``levels`` (ladder index, total size) of resting orders on ``side``."""
        out: list[tuple[int, int]] = []
        if side is Side.BACK:
            index = self.best_back
            while index < LADDER_SIZE and len(out) < levels:
                if self.back_sizes[index]:
                    out.append((index, self.back_sizes[index]))
                index += 1
        else:
            index = self.best_lay
            while index >= 0 and len(out) < levels:
                if self.lay_sizes[index]:
                    out.append((index, self.lay_sizes[index]))
                index -= 1
        return out

    def next_back(self, index: int) -> int:
        """The lowest non-empty back level at or above ``index`` (``LADDER_SIZE``: none)."""
        above = self.back_mask >> index
        if not above:
            return _NO_BACK
        return index + (above & -above).bit_length() - 1

    def next_lay(self, index: int) -> int:
        """The highest non-empty lay level at or below ``index`` (-1: none)."""
        return (self.lay_mask & ((2 << index) - 1)).bit_length() - 1


def _fill_level(
    amount: int,
    queue: deque[int],
    fills: list[tuple[int, int]],
    sizes: list[int],
    index: int,
    remaining: list[int],
) -> int:
    """Fill ``amount`` from one price level's queue; returns what is left of it."""
    while amount and queue:
        maker = queue[0]
        if not remaining[maker]:
            queue.popleft()
            continue
        stake = min(amount, remaining[maker])
        remaining[maker] -= stake
        amount -= stake
        sizes[index] -= stake
        fills.append((maker, stake))
        if not remaining[maker]:
            queue.popleft()
    return amount
