"""Simulated bettors with simple strategies, for lively demo tables and the simulation.

Every bot is labelled (its account name says "bot") and bets through :meth:`Market.place` like
any customer. A bot whose order is refused (over its balance, say) just skips it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from twentyone.market.errors import OrderRejectedError
from twentyone.market.ladder import index_of, price_fraction, price_text
from twentyone.market.orders import Side
from twentyone.market.table import ExchangeTable
from twentyone.randomness import RandomSource


@dataclass
class _Bot:
    account: str
    stake: int
    placed: int = field(default=0, init=False)

    def _place(self, table: ExchangeTable, selection: str, side: Side, price: str) -> bool:
        market = table.market
        self.placed += 1
        reference = f"{self.account}/{market.market_id}/{self.placed}"
        try:
            market.place(self.account, reference, selection, side, price, self.stake, market.round)
        except OrderRejectedError:
            return False
        return True


def _best(table: ExchangeTable, selection: str, side: Side) -> str | None:
    """The best price available now to ``side`` on a selection (``None``: nothing there)."""
    view = table.market.selection_view(selection, depth=1)
    levels = view.to_back if side is Side.BACK else view.to_lay
    return levels[0][0] if levels else None


@dataclass
class FavouriteBacker(_Bot):
    """Backs the shortest-priced selection in play at the best price on offer."""

    def act(self, table: ExchangeTable) -> None:
        priced = [(p, name) for name, p in table.fair.items() if p is not None]
        if not priced:
            return
        _, name = min(priced)
        price = _best(table, name, Side.BACK)
        if price is not None:
            self._place(table, name, Side.BACK, price)


@dataclass
class LongshotLayer(_Bot):
    """Lays the longest-priced selection in play, if the price is at most ``max_price``."""

    max_price: Fraction = Fraction(10)

    def act(self, table: ExchangeTable) -> None:
        priced = [(p, name) for name, p in table.fair.items() if p is not None]
        if not priced:
            return
        _, name = max(priced)
        price = _best(table, name, Side.LAY)
        if price is not None and price_fraction(index_of(price)) <= self.max_price:
            self._place(table, name, Side.LAY, price)


@dataclass
class RandomBettor(_Bot):
    """Takes a random side of a random selection at the best price on offer."""

    source: RandomSource | None = None

    def act(self, table: ExchangeTable) -> None:
        if self.source is None:
            return
        names = sorted(table.fair)
        if not names:
            return
        name = names[self.source.randbelow(len(names))]
        side = (Side.BACK, Side.LAY)[self.source.randbelow(2)]
        price = _best(table, name, side)
        if price is not None:
            self._place(table, name, side, price)


@dataclass
class SpreadNarrower(_Bot):
    """Rests a back one ladder step inside the best lay offer (liquidity for other takers)."""

    def act(self, table: ExchangeTable) -> None:
        for name in sorted(table.fair):
            price = _best(table, name, Side.LAY)
            if price is None:
                continue
            index = index_of(price)
            if index > 0 and (_best(table, name, Side.BACK) or "0") != price_text(index - 1):
                self._place(table, name, Side.BACK, price_text(index - 1))
                return
