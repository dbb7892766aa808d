"""``twentyone play exchange``: watch Exchange Blackjack games and bet on the exchange.

Each round shows the cards, the eight selections with their fair prices and the best three
prices to back and to lay, and your position. You trade against the house market maker
(labelled) and, with ``--bots``, a few labelled simulated bettors. Commands at the prompt::

    back SEL PRICE STAKE     back selection SEL (1-8) at PRICE or better for STAKE
    lay SEL PRICE STAKE      lay it (STAKE is the backer's stake; you risk STAKE x (PRICE - 1))
    cancel ORDER [AMOUNT]    cancel all or part of an order's unmatched remainder
    bets                     your open orders and matched bets
    (enter) / next           end the betting round and turn the next cards
    q / quit                 leave (a game in progress is played out first)
"""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.play_house import money, parse_money
from twentyone.errors import TwentyOneError
from twentyone.exchange.selections import SELECTIONS
from twentyone.ledger import AccountKind, Ledger
from twentyone.market.bots import FavouriteBacker, LongshotLayer, RandomBettor
from twentyone.market.ladder import price_text
from twentyone.market.market_maker import (
    MARKET_MAKER_ACCOUNT,
    MARKET_MAKER_LABEL,
    MarketMaker,
    MarketMakerSettings,
)
from twentyone.market.table import Bettor, ExchangeTable
from twentyone.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from twentyone.shoe import InfiniteShoe

YOU = "you"
HOUSE_FLOAT = 1_000_000_00
BOT_BANKROLL = 10_000_00


class LeaveTable(Exception):
    """The player asked to leave, or the input ended."""


def _label(account: str) -> str:
    if account == YOU:
        return "you"
    if account == MARKET_MAKER_ACCOUNT:
        return MARKET_MAKER_LABEL
    return f"{account} (bot)"


class ExchangeSession:
    """A terminal session: a ledger with your account, the market maker and the bots."""

    def __init__(
        self,
        source: RandomSource,
        balance: int,
        console: Console,
        maker: MarketMakerSettings,
        bots: bool,
        lines: Sequence[str] | None = None,
    ) -> None:
        self.source = source
        self.console = console
        self.maker = MarketMaker(maker)
        self.ledger = Ledger()
        self.ledger.open_account(YOU, AccountKind.CUSTOMER)
        self.ledger.deposit("grant/you", YOU, balance)
        self.start = balance
        self.ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
        self.ledger.deposit("float/market-maker", MARKET_MAKER_ACCOUNT, HOUSE_FLOAT)
        self.bots: list[Bettor] = []
        if bots:
            for bot in (
                FavouriteBacker("bot:favourite-backer", 5_00),
                LongshotLayer("bot:longshot-layer", 3_00),
                RandomBettor("bot:random", 4_00, source=source),
            ):
                self.ledger.open_account(bot.account, AccountKind.CUSTOMER)
                self.ledger.deposit(f"grant/{bot.account}", bot.account, BOT_BANKROLL)
                self.bots.append(bot)
        self.games = 0

    # -- input ------------------------------------------------------------------------------
    def ask(self) -> str:
        self.console.print("exchange>", end=" ", markup=False)
        try:
            answer = input()
        except EOFError:
            raise LeaveTable from None
        return answer.strip()

    # -- display ----------------------------------------------------------------------------
    def show(self, table: ExchangeTable) -> None:
        game = table.game
        hands = Table(show_header=False, box=None)
        for index, hand in enumerate(game.players, start=1):
            hands.add_row(f"Player {index}", " ".join(str(c) for c in hand) or "(face down)")
        hands.add_row("Dealer", " ".join(str(c) for c in game.dealer) or "(face down)")
        self.console.print(hands)
        book = Table(title=f"{table.market.market_id}, betting round {table.market.round}")
        for column in (
            "#",
            "selection",
            "status",
            "fair",
            "back (best 3)",
            "lay (best 3)",
            "matched",
        ):
            book.add_column(column)
        for number, name in enumerate(SELECTIONS, start=1):
            view = table.market.selection_view(name)
            fair = table.fair.get(name)
            book.add_row(
                str(number),
                name,
                view.status,
                "-" if fair is None else f"{float(fair):.2f}",
                "  ".join(f"{p} ({money(s)})" for p, s in view.to_back),
                "  ".join(f"{p} ({money(s)})" for p, s in view.to_lay),
                money(view.matched),
            )
        self.console.print(book)
        self.show_position(table, brief=True)

    def show_position(self, table: ExchangeTable, brief: bool = False) -> None:
        market = table.market
        position = market.position(YOU)
        ledger = self.ledger
        self.console.print(
            f"Balance {money(ledger.balance(YOU))}, held {money(ledger.held(YOU))},"
            f" available {money(ledger.available(YOU))}"
        )
        for name, outcomes in position.outcomes.items():
            if any(outcomes.values()):
                figures = ", ".join(f"{k} {money(v)}" for k, v in outcomes.items())
                self.console.print(f"  {name}: if it {figures}")
        if brief:
            return
        for order in position.open_orders:
            self.console.print(
                f"  order {order.order_id}: {order.side.value} {SELECTIONS[order.selection]}"
                f" at {price_text(order.price)}, {money(order.remaining)} unmatched of"
                f" {money(order.size)}"
            )
        for fill in position.matched_bets:
            side = "backed" if fill.backer == YOU else "laid"
            other = _label(fill.layer if fill.backer == YOU else fill.backer)
            self.console.print(
                f"  {side} {SELECTIONS[fill.selection]} {money(fill.stake)} at"
                f" {price_text(fill.price)} against {other} ({market.fill_result(fill)})"
            )

    # -- commands ---------------------------------------------------------------------------
    def command(self, table: ExchangeTable, text: str) -> bool:
        """Run one command; ``True`` when the round should end."""
        words = text.split()
        if not words or words[0] in ("n", "next"):
            return True
        verb = words[0].lower()
        if verb in ("q", "quit", "exit"):
            raise LeaveTable
        if verb in ("bets", "b"):
            self.show_position(table)
            return False
        if verb in ("back", "lay") and len(words) == 4:
            name = self._selection(words[1])
            stake = self._amount(words[3])
            market = table.market
            reference = f"you/{market.market_id}/{len(market.log)}"
            result = market.place(YOU, reference, name, verb, words[2], stake, market.round)
            matched = ", ".join(
                f"{money(f.stake)} at {price_text(f.price)} with {_label(f.layer if verb == 'back' else f.backer)}"
                for f in result.fills
            )
            self.console.print(
                f"order {result.order.order_id}: matched {money(result.order.matched)}"
                + (f" ({matched})" if matched else "")
                + f", {money(result.order.remaining)} waiting"
            )
            return False
        if verb == "cancel" and len(words) in (2, 3):
            amount = self._amount(words[2]) if len(words) == 3 else None
            done = table.market.cancel(YOU, self._whole(words[1]), amount)
            self.console.print(f"cancelled {money(done.cancelled)} of order {done.order.order_id}")
            return False
        raise UserInputError(
            "commands: back SEL PRICE STAKE, lay SEL PRICE STAKE, cancel ORDER [AMOUNT], bets,"
            " next (or enter), q"
        )

    @staticmethod
    def _selection(word: str) -> str:
        if word.isdigit() and 1 <= int(word) <= len(SELECTIONS):
            return SELECTIONS[int(word) - 1]
        raise UserInputError(
            f"selection must be a number from 1 to {len(SELECTIONS)}, got {word!r}"
        )

    @staticmethod
    def _amount(word: str) -> int:
        try:
            return parse_money(word)
        except ValueError as error:
            raise UserInputError(str(error)) from None

    @staticmethod
    def _whole(word: str) -> int:
        if not word.isdigit():
            raise UserInputError(f"order number expected, got {word!r}")
        return int(word)

    # -- the game loop ----------------------------------------------------------------------
    def play_game(self) -> None:
        self.games += 1
        table = ExchangeTable(
            self.ledger, f"game {self.games}", InfiniteShoe(self.source), self.maker, self.bots
        )
        leaving = False
        before = self.ledger.balance(YOU)
        while not table.over:
            table.open_round()
            for bot in self.bots:
                bot.act(table)
            if not leaving:
                self.show(table)
                leaving = self._take_commands(table)
            for event in table.close_round():
                self._report(event.to_json())
        net = self.ledger.balance(YOU) - before
        colour = "green" if net > 0 else "red" if net < 0 else "white"
        self.console.print(
            f"Game {self.games} settled: your profit [{colour}]{money(net)}[/{colour}]"
            f" (commission {money(table.market.commissions.get(YOU, 0))}),"
            f" house commission {money(sum(table.market.commissions.values()))}."
        )
        if leaving:
            raise LeaveTable

    def _take_commands(self, table: ExchangeTable) -> bool:
        """Read commands until the round ends; ``True`` if the player wants to leave."""
        while True:
            try:
                if self.command(table, self.ask()):
                    return False
            except LeaveTable:
                return True
            except TwentyOneError as error:  # a refused order: say why and go on
                self.console.print(f"[red]{error}[/red]")
            except click.ClickException as error:
                self.console.print(f"[red]{error.format_message()}[/red]")

    def _report(self, event: dict[str, object]) -> None:
        if event.get("kind") == "reveal":
            cards = event.get("cards") or []
            if isinstance(cards, list) and cards:
                shown = ", ".join(f"{c['hand']} {c['card']}" for c in cards if isinstance(c, dict))
                self.console.print(f"Turned: {shown}")
        elif event.get("kind") == "settle":
            settled = event.get("settled")
            if isinstance(settled, dict):
                for name, result in settled.items():
                    self.console.print(f"Settled: {name} - {result}")

    def run(self, games: int) -> None:
        self.console.print(
            f"Exchange Blackjack. You have {money(self.start)}. Prices come from the"
            f" {MARKET_MAKER_LABEL} and any labelled bots."
        )
        try:
            for _ in range(games):
                self.play_game()
        except LeaveTable:
            pass
        net = self.ledger.balance(YOU) - self.start
        self.console.print(
            f"You leave with {money(self.ledger.balance(YOU))} (profit {money(net)}) after"
            f" {self.games} game(s)."
        )


@click.command("exchange")
@click.option("--seed", type=int, help="Reproducible (non-secure) cards, for practice and tests.")
@click.option("--balance", default="1000.00", show_default=True, help="Starting play money.")
@click.option(
    "--games", default=1, show_default=True, type=click.IntRange(1), help="Games to play."
)
@click.option("--bots/--no-bots", default=True, show_default=True, help="Add labelled bot bettors.")
@click.option(
    "--spread",
    default=2,
    show_default=True,
    type=click.IntRange(1),
    help="Market maker: quote the k-th ladder price beyond the fair price.",
)
@click.option(
    "--size",
    "quote_size",
    default="20.00",
    show_default=True,
    help="Market maker: stake of each quote.",
)
@reports_bad_input
def exchange(
    seed: int | None, balance: str, games: int, bots: bool, spread: int, quote_size: str
) -> None:
    """Watch Exchange Blackjack and back or lay the eight selections against the market."""
    try:
        start = parse_money(balance)
    except ValueError as error:
        raise UserInputError(f"--balance: {error}") from None
    try:
        size = parse_money(quote_size)
    except ValueError as error:
        raise UserInputError(f"--size: {error}") from None
    if size <= 0:
        raise UserInputError("--size: the market maker's stake must be above 0")
    source: RandomSource = SystemRandomSource() if seed is None else SeededRandomSource(seed)
    settings = MarketMakerSettings(steps=spread, size=size)
    ExchangeSession(source, start, Console(highlight=False), settings, bots).run(games)
