"""An Exchange Blackjack table: one card game at a time, its market, the market maker and bots.

This is the only module of the exchange that knows the card game: it opens a market per
game with the eight selections (the four players can dead-heat, the exotics cannot), gives
the market the fair prices at each round's open, lets the market maker quote, lets the
bettors act, then closes the round, turns the cards and settles what became certain.

>>> from twentyone.cards import parse_cards
>>> from twentyone.ledger import AccountKind, Ledger
>>> from twentyone.shoe import ScriptedShoe
>>> ledger = Ledger()
>>> ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
>>> _ = ledger.deposit("float", MARKET_MAKER_ACCOUNT, 10_000_00)
>>> cards = parse_cards("TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH")
>>> table = ExchangeTable(ledger, "g1", ScriptedShoe(cards), MarketMaker())
>>> table.open_round()  # round 1: the fair prices before any card, then the maker's quotes
1
>>> len(table.market.position(MARKET_MAKER_ACCOUNT).open_orders)  # a back and a lay on all eight
16
>>> table.play_out()
>>> table.market.status.value, table.market.selection_view("Player 3").status
('settled', 'winner')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from twentyone.analysis.exchange.odds import exchange_odds
from twentyone.exchange.game import Event, ExchangeGame
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.selections import PLAYER_SELECTIONS, SELECTIONS
from twentyone.exchange.state import ExchangeState
from twentyone.ledger import Ledger
from twentyone.market.errors import MarketStateError
from twentyone.market.market import Market, MarketSettings, SelectionSpec
from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker
from twentyone.shoe import Shoe

__all__ = ["EXCHANGE_SELECTIONS", "MARKET_MAKER_ACCOUNT", "Bettor", "ExchangeTable", "fair_prices"]

#: The eight selections of an Exchange Blackjack market; only player hands can dead-heat.
EXCHANGE_SELECTIONS: tuple[SelectionSpec, ...] = tuple(
    SelectionSpec(name, name in PLAYER_SELECTIONS) for name in SELECTIONS
)

FairPrices = Callable[[ExchangeState], Mapping[str, Fraction | None]]


def fair_prices(
    state: ExchangeState, table: LogicTable | None = None, exact: bool = False
) -> dict[str, Fraction | None]:
    """The fair price of every selection (``None``: it cannot win, or no figure yet).

    By default from the odds module's floating-point figures, taken exactly as
    :class:`~fractions.Fraction`: the exact rational odds can take tens of seconds for a state
    early in a game (the "All cards unique" walk), too slow for a live round, and a quote depends
    only on which ladder prices lie strictly on either side of the fair price, which an error
    of one part in 10**15 cannot change unless the fair price sits on a ladder price to that
    precision. ``exact=True`` uses the exact figures. A selection the odds give no figure for
    (None: "All cards unique" at the start under a logic table whose stored start figure was not
    regenerated) is not quoted.
    """
    odds = exchange_odds(state, table, exact=exact)
    out: dict[str, Fraction | None] = {}
    for name in SELECTIONS:
        figures = odds.get(name)
        price = None if figures is None else figures.fair_price
        out[name] = None if price is None else Fraction(price)
    return out


class Bettor(Protocol):
    """Anyone who acts once per round, after the market maker has quoted."""

    def act(self, table: ExchangeTable) -> None: ...


class ExchangeTable:
    """One game and its market; see the module documentation."""

    def __init__(
        self,
        ledger: Ledger,
        game_id: str,
        shoe: Shoe,
        market_maker: MarketMaker | None = None,
        bettors: Sequence[Bettor] = (),
        settings: MarketSettings | None = None,
        fair_price_source: FairPrices | None = None,
        logic_table: LogicTable | None = None,
    ) -> None:
        self.ledger = ledger
        self.logic_table = logic_table or load_logic_table()
        self.game = ExchangeGame(shoe, self.logic_table)
        # Only the market maker's own house account may trade (none without a market maker).
        maker_account = None if market_maker is None else market_maker.settings.account
        self.market = Market(
            game_id, ledger, EXCHANGE_SELECTIONS, settings, market_maker_account=maker_account
        )
        self.market_maker = market_maker
        self.bettors = tuple(bettors)
        self._fair_prices = fair_price_source or (
            lambda state: fair_prices(state, self.logic_table)
        )
        self.fair: dict[str, Fraction | None] = {}

    @property
    def over(self) -> bool:
        return self.game.over

    def open_round(self) -> int:
        """Open the game's next betting round on the market and let the market maker quote."""
        round_no = self.game.open_round
        if round_no is None:
            raise MarketStateError("the game is over: no more betting rounds")
        settled = self.game.settlements
        self.fair = {
            name: price
            for name, price in self._fair_prices(self.game.state()).items()
            if name not in settled
        }
        self.market.open_round(round_no, self.fair)
        if self.market_maker is not None:
            self.market_maker.quote(self.market, self.fair)
        return round_no

    def close_round(self) -> list[Event]:
        """Close the round (remainders lapse), turn the next cards, settle what is now certain."""
        self.market.close_round()
        events = self.game.end_round()
        for event in events:
            for settlement in event.settled:
                self.market.settle_selection(settlement.selection, settlement.outcome.value)
        return events

    def play_round(self) -> list[Event]:
        """A whole betting round: open, market maker, every bettor in turn, close."""
        self.open_round()
        for bettor in self.bettors:
            bettor.act(self)
        return self.close_round()

    def play_out(self) -> None:
        """Play every remaining round (a round already open is closed first)."""
        if self.market.round_open:
            self.close_round()
        while not self.game.over:
            self.play_round()
