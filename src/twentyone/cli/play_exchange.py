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

Cards have suit symbols in colour on a terminal, the plain ``AS``/``TH`` anywhere else
(:mod:`twentyone.cli.play_look`); the session ends with its summary by game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

from twentyone.cards import Card
from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.options import SEED, WholeNumber
from twentyone.cli.play_input import (
    Leave,
    money_option,
    read_line,
    source_for,
)
from twentyone.cli.play_look import Look, summary_table
from twentyone.errors import TwentyOneError
from twentyone.exchange.selections import SELECTIONS
from twentyone.hand import hand_value
from twentyone.market.errors import BelowMinimumStakeError, InsufficientFundsError
from twentyone.market.ladder import price_text
from twentyone.market.market_maker import (
    MARKET_MAKER_ACCOUNT,
    MARKET_MAKER_LABEL,
    MarketMakerSettings,
)
from twentyone.market.table import ExchangeTable
from twentyone.money import MoneyError, format_money, parse_money
from twentyone.randomness import RandomSource
from twentyone.tables.exchange import ExchangeRunner
from twentyone.tables.listeners import TableEvent
from twentyone.tables.summary import track_exchange

YOU = "you"
#: The most a terminal session's market maker may quote per price.
MAX_QUOTE_SIZE = 1_000_000_00

money = format_money
#: How the terminal words each nominal outcome of a selection ("if it wins 10.60").
OUTCOME_WORDS = {"win": "wins", "lose": "loses", "tie": "dead-heats"}


def _label(account: str) -> str:
    if account == YOU:
        return "you"
    if account == MARKET_MAKER_ACCOUNT:
        return MARKET_MAKER_LABEL
    return f"{account} (bot)"


def _counterparty(other: str, own_side: str) -> str:
    """Who a fill was matched with, as the terminal says it ("your own lay": a self-match)."""
    if other == YOU:
        return f"against your own {'lay' if own_side == 'back' else 'back'}"
    return f"with {_label(other)}"


def _minor_to_money(match: re.Match[str]) -> str:
    return money(int(match.group(0)))


def explain(error: TwentyOneError, available: int) -> str:
    """A refusal as the terminal says it: money in units, addressed to the player."""
    if isinstance(error, BelowMinimumStakeError):
        return re.sub(r"\b\d+\b", _minor_to_money, str(error))
    if isinstance(error, InsufficientFundsError):
        found = re.search(r"needs (\d+) held", str(error))
        needed = f" {money(int(found.group(1)))}" if found else ""
        return (
            f"over balance: your order needs{needed} held on this market but you have"
            f" {money(available)} available"
        )
    return str(error)


class ExchangeSession:
    """A terminal session: input and output for an :class:`ExchangeRunner`."""

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
        self.runner = ExchangeRunner.practice(source, YOU, balance, maker, bots)
        self.ledger = self.runner.ledger
        self.start = balance
        self.bots = self.runner.bettors
        self.look = Look.for_console(console)
        self.summary = track_exchange(self.runner, YOU)
        self.runner.subscribe(self._report)

    @property
    def games(self) -> int:
        return self.runner.games

    # -- input ------------------------------------------------------------------------------
    def ask(self) -> str:
        try:
            return read_line(self.console, "exchange>")
        except Leave as leave:
            if not leave.typed:
                self.console.print()  # end the prompt's line
            return "q"

    # -- display ----------------------------------------------------------------------------
    def show(self, table: ExchangeTable) -> None:
        game = table.game
        hands = Table(show_header=False, box=None)
        for index, hand in enumerate(game.players, start=1):
            hands.add_row(f"Player {index}", self._hand(hand))
        hands.add_row("Dealer", self._hand(game.dealer))
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

    def _hand(self, cards: Sequence[Card]) -> str:
        if not cards:
            return "(face down)"
        text = self.look.cards(cards)
        total = hand_value(cards).total
        return f"{text} ({'BUST' if total > 21 else total})"

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
                figures = ", ".join(
                    f"{OUTCOME_WORDS.get(k, k)} {money(v)}" for k, v in outcomes.items()
                )
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
            if fill.backer == fill.layer:
                other = "yourself"
            else:
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
            raise Leave
        if verb in ("bets", "b"):
            self.show_position(table)
            return False
        if verb in ("back", "lay") and len(words) == 4:
            name = self._selection(words[1])
            stake = self._amount(words[3])
            result = self.runner.place(YOU, name, verb, words[2], stake)
            matched = ", ".join(
                f"{money(f.stake)} at {price_text(f.price)} "
                + _counterparty(f.layer if verb == "back" else f.backer, verb)
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
            done = self.runner.cancel(YOU, self._whole(words[1]), amount)
            self.console.print(f"cancelled {money(done.cancelled)} of order {done.order.order_id}")
            return False
        raise UserInputError(
            "commands: back SEL PRICE STAKE, lay SEL PRICE STAKE, cancel ORDER [AMOUNT], bets,"
            " next (or enter), q"
        )

    @staticmethod
    def _selection(word: str) -> str:
        if word.isascii() and word.isdigit() and 1 <= int(word) <= len(SELECTIONS):
            return SELECTIONS[int(word) - 1]
        raise UserInputError(
            f"selection must be a number from 1 to {len(SELECTIONS)}, got {word!r}"
        )

    @staticmethod
    def _amount(word: str) -> int:
        try:
            return parse_money(word)
        except MoneyError as error:
            raise UserInputError(str(error)) from None

    @staticmethod
    def _whole(word: str) -> int:
        if not (word.isascii() and word.isdigit()) or len(word) > 18:
            raise UserInputError(f"order number expected, got {word!r}")
        return int(word)

    # -- the game loop ----------------------------------------------------------------------
    def play_game(self) -> None:
        runner = self.runner
        table = runner.start_game()
        leaving = False
        before = self.ledger.balance(YOU)
        while True:
            if not leaving:
                self.show(table)
                leaving = self._take_commands(table)
            runner.close_window()
            if table.over:
                break
            runner.open_window()
        net = self.ledger.balance(YOU) - before
        colour = "green" if net > 0 else "red" if net < 0 else "white"
        self.console.print(
            f"Game {self.games} settled: your profit [{colour}]{money(net)}[/{colour}]"
            f" (commission {money(table.market.commissions.get(YOU, 0))}),"
            f" house commission {money(sum(table.market.commissions.values()))}."
        )
        if leaving:
            raise Leave

    def _take_commands(self, table: ExchangeTable) -> bool:
        """Read commands until the round ends; ``True`` if the player wants to leave."""
        while True:
            try:
                if self.command(table, self.ask()):
                    return False
            except Leave:
                return True
            except TwentyOneError as error:  # a refused order: say why and go on
                self.console.print(f"[red]{explain(error, self.ledger.available(YOU))}[/red]")
            except click.ClickException as error:
                self.console.print(f"[red]{error.format_message()}[/red]")

    def _report(self, event: TableEvent) -> None:
        if event.kind != "game":
            return
        data = event.data.to_json()
        if data.get("kind") == "reveal":
            cards = data.get("cards") or []
            if isinstance(cards, list) and cards:
                shown = ", ".join(
                    f"{c['hand']} {self.look.code(str(c['card']))}"
                    for c in cards
                    if isinstance(c, dict)
                )
                self.console.print(f"Turned: {shown}")
        elif data.get("kind") == "settle":
            settled = data.get("settled")
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
        except Leave:
            pass
        net = self.ledger.balance(YOU) - self.start
        self.console.print(summary_table(self.summary))
        self.console.print(
            f"You leave with {money(self.ledger.balance(YOU))} (profit {money(net)}) after"
            f" {self.games} game(s)."
        )


@click.command("exchange")
@click.option(
    "--seed",
    type=SEED,
    help="Reproducible (non-secure) cards, for practice and tests (0 to 2**64-1).",
)
@click.option("--balance", default="1000.00", show_default=True, help="Starting play money.")
@click.option(
    "--games",
    default=1,
    show_default=True,
    type=WholeNumber(1, 1000),
    help="Games to play (1-1000).",
)
@click.option("--bots/--no-bots", default=True, show_default=True, help="Add labelled bot bettors.")
@click.option(
    "--spread",
    default=2,
    show_default=True,
    type=WholeNumber(1, 100),
    help="Market maker: quote the k-th ladder price beyond the fair price (1-100).",
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
    start = money_option("--balance", balance)
    size = money_option("--size", quote_size, maximum=MAX_QUOTE_SIZE)
    if size <= 0:
        raise UserInputError("--size: the market maker's stake must be above 0")
    settings = MarketMakerSettings(steps=spread, size=size)
    ExchangeSession(source_for(seed), start, Console(highlight=False), settings, bots).run(games)
