"""The house market maker: a back and a lay around the fair price of every undecided selection.

At each round's open, before any customer order, it posts on every selection still in play a
lay at the ``steps``-th ladder price strictly below the fair price and a back at the
``steps``-th strictly above, each for ``size`` (settings), and does not requote within the
round. It goes through :meth:`Market.place` like anyone: same matching, same holds, same
commission; a side off the ladder or refused for its hold is simply left out. Its account is
the house's market-making account, labelled as such in every view.

>>> from fractions import Fraction
>>> from twentyone.ledger import AccountKind, Ledger
>>> from twentyone.market.market import Market, SelectionSpec
>>> ledger = Ledger()
>>> ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
>>> _ = ledger.deposit("float", MARKET_MAKER_ACCOUNT, 1_000_00)
>>> market = Market("g1", ledger, [SelectionSpec("Player 1", True)])
>>> fair = {"Player 1": Fraction(5, 2)}
>>> market.open_round(1, fair)
>>> [(o.side.value, price_text(o.price)) for o in MarketMaker().quote(market, fair)]
[('lay', '2.46'), ('back', '2.54')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from twentyone.errors import InvalidRulesError, shown
from twentyone.market.errors import InvalidArgumentError, OrderRejectedError
from twentyone.market.ladder import LADDER_SIZE, index_above, index_below, price_text
from twentyone.market.market import MARKET_MAKER_ACCOUNT, Market, check_name, fair_price_pairs
from twentyone.market.orders import OrderView, Side
from twentyone.money import MAX_AMOUNT

__all__ = [
    "MARKET_MAKER_ACCOUNT",
    "MARKET_MAKER_LABEL",
    "MarketMaker",
    "MarketMakerSettings",
]

#: How every view labels the market maker's orders and bets.
MARKET_MAKER_LABEL = "House market maker"


@dataclass(frozen=True)
class MarketMakerSettings:
    """``steps`` (k, 1 to 350), ``size`` (minor units, 1 or more) and the maker's account.

    Checked when made (:class:`~twentyone.errors.InvalidRulesError`). The account must be the
    one the market lets trade (``Market(..., market_maker_account=...)``, by default
    :data:`MARKET_MAKER_ACCOUNT`).

    >>> MarketMakerSettings(steps=0)
    Traceback (most recent call last):
    ...
    twentyone.errors.InvalidRulesError: steps must be a whole number from 1 to 350, not 0
    """

    steps: int = 2  # k: quote the k-th ladder price strictly beyond the fair price
    size: int = 20_00  # minor units, the backer's stake on both sides
    account: str = MARKET_MAKER_ACCOUNT

    def __post_init__(self) -> None:
        if type(self.steps) is not int or not 1 <= self.steps <= LADDER_SIZE:
            raise InvalidRulesError(
                f"steps must be a whole number from 1 to {LADDER_SIZE}, not {shown(self.steps)}"
            )
        if type(self.size) is not int or not 1 <= self.size <= MAX_AMOUNT:
            raise InvalidRulesError(
                f"size must be a whole number of minor units from 1 to {MAX_AMOUNT}, not"
                f" {shown(self.size)}"
            )
        try:
            check_name(self.account, "the market maker's account")
        except InvalidArgumentError as error:
            raise InvalidRulesError(str(error)) from None


class MarketMaker:
    """Quotes a market at each round's open; see the module documentation."""

    def __init__(self, settings: MarketMakerSettings | None = None) -> None:
        if settings is not None and not isinstance(settings, MarketMakerSettings):
            raise InvalidArgumentError(
                f"settings must be MarketMakerSettings or None, not {shown(settings)}"
            )
        self.settings = settings or MarketMakerSettings()

    def quotes(self, fair_prices: Mapping[str, Fraction | None]) -> list[tuple[str, Side, int]]:
        """(selection, side, ladder index) of every quote for these fair prices."""
        out: list[tuple[str, Side, int]] = []
        steps = self.settings.steps
        for name, fair in fair_price_pairs(fair_prices, ordered=False):
            if fair is None:
                continue
            lay = index_below(fair, steps)
            if lay is not None:
                out.append((name, Side.LAY, lay))
            back = index_above(fair, steps)
            if back is not None:
                out.append((name, Side.BACK, back))
        return out

    def quote(self, market: Market, fair_prices: Mapping[str, Fraction | None]) -> list[OrderView]:
        """Post this round's quotes on every undecided selection of ``market``."""
        if not isinstance(market, Market):
            raise InvalidArgumentError(f"market must be a Market, not {shown(market)}")
        quotes = self.quotes(fair_prices)
        for name, _, _ in quotes:  # every name checked before the first order
            market.selection_view(name, 1)
        placed: list[OrderView] = []
        account = self.settings.account
        round_no = market.round
        for name, side, index in quotes:
            if market.selection_view(name).status != "in play":
                continue
            reference = f"mm/{market.market_id}/r{round_no}/{name}/{side.value}"
            try:
                result = market.place(
                    account, reference, name, side, price_text(index), self.settings.size, round_no
                )
            except OrderRejectedError:
                continue  # over its hold (or a settled selection): that side is left out
            placed.append(result.order)
        return placed
