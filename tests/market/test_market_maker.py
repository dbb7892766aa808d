"""The house market maker and a table of games with bots: quotes, labels, money balanced."""

from __future__ import annotations

from fractions import Fraction

from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec, price_text
from twentyone.market.bots import FavouriteBacker, LongshotLayer, RandomBettor, SpreadNarrower
from twentyone.market.market_maker import (
    MARKET_MAKER_ACCOUNT,
    MarketMaker,
    MarketMakerSettings,
)
from twentyone.market.table import ExchangeTable
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe


def funded(amount: int) -> Ledger:
    ledger = Ledger()
    ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
    if amount:
        ledger.deposit("float", MARKET_MAKER_ACCOUNT, amount)
    return ledger


def test_quotes_the_kth_price_strictly_beyond_fair() -> None:
    maker = MarketMaker(MarketMakerSettings(steps=3, size=5_00))
    quotes = maker.quotes(
        {"a": Fraction(2), "b": Fraction(1001, 1000), "c": None, "d": Fraction(999)}
    )
    assert [(name, side.value, price_text(i)) for name, side, i in quotes] == [
        ("a", "lay", "1.97"),
        ("a", "back", "2.06"),
        ("b", "back", "1.03"),  # no ladder price below 1.001: the lay is left out
        ("d", "lay", "970"),  # none above 999 but 1000, the 1st: the 3rd is off the ladder
    ]


def test_a_side_failing_its_hold_is_left_out() -> None:
    ledger = funded(20_00)
    market = Market("g", ledger, [SelectionSpec("Player 1", True)], MarketSettings())
    market.open_round(1)
    placed = MarketMaker(MarketMakerSettings(size=10_00)).quote(market, {"Player 1": Fraction(4)})
    # The lay at 3.9 needs 29.00 held: more than the maker has; the back (10.00) fits.
    assert [(o.side.value, price_text(o.price)) for o in placed] == [("back", "4.2")]


def test_games_with_the_maker_and_bots_balance_to_the_minor_unit() -> None:
    ledger = funded(100_000_00)
    bots = [
        FavouriteBacker("bot:favourite", 5_00),
        LongshotLayer("bot:longshot", 3_00),
        RandomBettor("bot:random", 4_00, source=SeededRandomSource(5)),
        SpreadNarrower("bot:narrower", 2_50),
    ]
    for bot in bots:
        ledger.open_account(bot.account, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{bot.account}", bot.account, 1_000_00)
    source = SeededRandomSource(11)
    matched = 0
    for game in range(4):
        table = ExchangeTable(ledger, f"g{game}", InfiniteShoe(source), MarketMaker(), bots)
        table.play_out()
        assert table.market.status.value == "settled"
        matched += len(table.market.fills)
        assert table.market.commissions.get(MARKET_MAKER_ACCOUNT, 0) >= 0
    assert matched > 0
    assert ledger.total() == 0 and ledger.audit() and not ledger.holds()
    inside = sum(ledger.balance(a) for a in ledger.accounts() if a != "external")
    assert inside == 100_000_00 + 4 * 1_000_00
