"""The order book of one selection and its matching engine (price-time priority).

Resting backs wait for a layer: the lowest back price is the best for a layer. Resting lays
wait for a backer: the highest lay price is the best for a backer. An incoming back at ``p``
meets resting lays priced ``>= p``, the highest first, and an incoming lay at ``p`` meets
resting backs priced ``<= p``, the lowest first; within a price, first come first served;
every fill is at the resting order's price; a remainder rests at its own price. So the book
is never crossed: every resting lay is priced below every resting back.

Each price level is a FIFO queue. A cancelled order stays in its queue with nothing
remaining and is skipped (and dropped) when reached, so a cancel is O(1); the level's total
is kept separately for the views. Per side, an integer bit mask has bit ``i`` set when level
``i`` holds something, so the next best price after a level empties is a bit operation, not
a walk along the 350 prices.

>>> from twentyone.market.orders import Order, Side
>>> book = SelectionBook()
>>> resting = Order(1, "bob", "r1", 0, Side.LAY, 120, 500, 1)
>>> book.match(resting), book.rest(resting)
([], None)
>>> taker = Order(2, "ann", "r2", 0, Side.BACK, 100, 800, 1)
>>> [(maker.order_id, stake) for maker, stake in book.match(taker)], taker.remaining
([(1, 500)], 300)
"""

from __future__ import annotations

from collections import deque

from twentyone.market.ladder import LADDER_SIZE
from twentyone.market.orders import Order, Side

_NO_BACK = LADDER_SIZE  # best back index when no back rests
_NO_LAY = -1  # best lay index when no lay rests


class SelectionBook:
    """Resting orders of one selection by side and ladder index."""

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
        self.back_levels: list[deque[Order]] = [deque() for _ in range(LADDER_SIZE)]
        self.lay_levels: list[deque[Order]] = [deque() for _ in range(LADDER_SIZE)]
        self.back_sizes = [0] * LADDER_SIZE
        self.lay_sizes = [0] * LADDER_SIZE
        self.best_back = _NO_BACK
        self.best_lay = _NO_LAY
        self.back_mask = 0  # bit i: back level i is not empty
        self.lay_mask = 0

    def match(self, taker: Order) -> list[tuple[Order, int]]:
        """Fill ``taker`` against the book as far as its limit allows; return (maker, stake)s.

        Updates the counters of ``taker`` and of every maker it meets.
        """
        fills: list[tuple[Order, int]] = []
        if taker.side is Side.BACK:
            levels, sizes = self.lay_levels, self.lay_sizes
            while taker.remaining and self.best_lay >= taker.price:
                index = self.best_lay
                self._fill_level(taker, levels[index], fills, sizes, index)
                if not sizes[index]:
                    levels[index].clear()
                    self.lay_mask &= ~(1 << index)
                    self.best_lay = self._next_lay(index)
        else:
            levels, sizes = self.back_levels, self.back_sizes
            while taker.remaining and self.best_back <= taker.price:
                index = self.best_back
                self._fill_level(taker, levels[index], fills, sizes, index)
                if not sizes[index]:
                    levels[index].clear()
                    self.back_mask &= ~(1 << index)
                    self.best_back = self._next_back(index)
        return fills

    @staticmethod
    def _fill_level(
        taker: Order,
        queue: deque[Order],
        fills: list[tuple[Order, int]],
        sizes: list[int],
        index: int,
    ) -> None:
        while taker.remaining and queue:
            maker = queue[0]
            if not maker.remaining:
                queue.popleft()
                continue
            stake = min(taker.remaining, maker.remaining)
            maker.remaining -= stake
            maker.matched += stake
            taker.remaining -= stake
            taker.matched += stake
            sizes[index] -= stake
            fills.append((maker, stake))
            if not maker.remaining:
                queue.popleft()

    def rest(self, order: Order) -> None:
        """Put an order's remainder in its queue (behind everything at its price)."""
        if not order.remaining:
            return
        index = order.price
        if order.side is Side.BACK:
            self.back_levels[index].append(order)
            self.back_sizes[index] += order.remaining
            self.back_mask |= 1 << index
            if index < self.best_back:
                self.best_back = index
        else:
            self.lay_levels[index].append(order)
            self.lay_sizes[index] += order.remaining
            self.lay_mask |= 1 << index
            if index > self.best_lay:
                self.best_lay = index

    def reduce(self, order: Order, amount: int) -> None:
        """Take ``amount`` off a resting order's remainder (the caller moves it to a counter)."""
        index = order.price
        order.remaining -= amount
        if order.side is Side.BACK:
            self.back_sizes[index] -= amount
            if not self.back_sizes[index]:
                self.back_levels[index].clear()
                self.back_mask &= ~(1 << index)
                if index == self.best_back:
                    self.best_back = self._next_back(index)
        else:
            self.lay_sizes[index] -= amount
            if not self.lay_sizes[index]:
                self.lay_levels[index].clear()
                self.lay_mask &= ~(1 << index)
                if index == self.best_lay:
                    self.best_lay = self._next_lay(index)

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

    def resting(self) -> list[Order]:
        """Every resting order, backs then lays, in priority order."""
        backs = [o for level in self.back_levels for o in level if o.remaining]
        lays = [o for level in reversed(self.lay_levels) for o in level if o.remaining]
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

    def _next_back(self, index: int) -> int:
        """The lowest non-empty back level at or above ``index`` (``LADDER_SIZE``: none)."""
        above = self.back_mask >> index
        if not above:
            return _NO_BACK
        return index + (above & -above).bit_length() - 1

    def _next_lay(self, index: int) -> int:
        """The highest non-empty lay level at or below ``index`` (-1: none)."""
        return (self.lay_mask & ((2 << index) - 1)).bit_length() - 1
