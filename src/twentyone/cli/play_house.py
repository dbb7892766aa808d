"""``twentyone play casino|online``: a house-banked table in the terminal.

A thin client of :class:`twentyone.tables.house.HouseTable`, which deals the rounds and keeps
the money in the ledger (stakes are checked against the bankroll before a round is dealt and
before every double, split and insurance, so the bankroll never goes below 0). This module only
reads the player's input and prints the table.

Leaving (``q``, the end of input, Ctrl-C) in the middle of a round finishes it with the
standard decision (no insurance, no surrender, stand): a started round is never refunded.
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from twentyone.cli.options import SEED
from twentyone.cli.play_input import (
    Leave,
    money_option,
    read_line,
    source_for,
)
from twentyone.errors import TwentyOneError
from twentyone.hand import value_of
from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Phase, Round
from twentyone.house.strategy_player import chart_action
from twentyone.money import MoneyError, format_money, parse_money
from twentyone.presets import preset
from twentyone.rules import Rules
from twentyone.rules_text import describe
from twentyone.shoe import shoe_for
from twentyone.strategy_chart import StrategyChart
from twentyone.tables.house import HouseTable
from twentyone.tables.listeners import TableEvent

__all__ = ["TerminalTable", "casino", "money", "online"]

KEYS = {
    "h": ActionKind.HIT,
    "s": ActionKind.STAND,
    "d": ActionKind.DOUBLE,
    "p": ActionKind.SPLIT,
    "r": ActionKind.SURRENDER,
}
LABELS = {
    ActionKind.HIT: "(h)it",
    ActionKind.STAND: "(s)tand",
    ActionKind.DOUBLE: "(d)ouble",
    ActionKind.SPLIT: "s(p)lit",
    ActionKind.SURRENDER: "su(r)render",
}

#: Minor units as the terminal prints them (``1,234.50``).
money = format_money


class TerminalTable:
    """Input and output for a :class:`HouseTable`; the runner does everything else."""

    def __init__(
        self, table: HouseTable, console: Console, hint_chart: StrategyChart | None = None
    ) -> None:
        self.table = table
        self.rules: Rules = table.rules
        self.console = console
        self.hint_chart = hint_chart
        table.subscribe(self.on_event)

    # ------------------------------------------------------------------ input
    def ask(self, prompt: str) -> str:
        return read_line(self.console, prompt)

    def ask_bets(self) -> list[int]:
        rules = self.rules
        boxes = (
            "" if rules.max_boxes == 1 else f", one amount per box, up to {rules.max_boxes} boxes"
        )
        while True:
            text = self.ask(
                f"Bet ({money(rules.min_bet)}-{money(rules.max_bet)}{boxes}; q to leave):"
            )
            try:
                # Boxes are separated by spaces only: a comma is the thousands separator that
                # the prompt itself prints (1,000.00).
                bets = [parse_money(word) for word in text.split()]
                self.table.check_bets(bets)
            except TwentyOneError as error:
                self.console.print(f"[red]{error}[/red]", markup=True)
                continue
            return bets

    # ---------------------------------------------------------------- display
    def show(self, round_: Round) -> None:
        table = Table(show_header=True, header_style="bold")
        table.add_column("")
        table.add_column("cards")
        table.add_column("total", justify="right")
        table.add_column("stake", justify="right")
        table.add_column("result")
        visible = round_.dealer if round_.hole_card_revealed else round_.dealer[:1]
        dealer = " ".join(str(card) for card in visible)
        if len(round_.dealer) > len(visible):
            dealer += " ??"
        total = value_of([card.value for card in visible], self.rules.aces_high).total
        table.add_row("dealer", dealer, str(total), "", "")
        current = round_.current_hand
        for box_index, box in enumerate(round_.boxes):
            for hand_index, hand in enumerate(box.hands):
                marker = ">" if hand is current else " "
                result = ""
                if hand.result is not None:
                    result = f"{hand.result.value} {money(hand.net or 0)}"
                table.add_row(
                    f"{marker} box {box_index + 1}"
                    + (f".{hand_index + 1}" if len(box.hands) > 1 else ""),
                    " ".join(str(card) for card in hand.cards),
                    "BJ" if hand.natural else str(hand.total(self.rules.aces_high)),
                    money(hand.stake),
                    result,
                )
            if box.insurance:
                net = "" if box.insurance_net is None else money(box.insurance_net)
                table.add_row(f"  box {box_index + 1}", "insurance", "", money(box.insurance), net)
        self.console.print(table)

    def on_event(self, event: TableEvent) -> None:
        if event.kind == "round-settled" and self.table.round is not None:
            self.show(self.table.round)
            net = event.data["net"]
            colour = "green" if net > 0 else "red" if net < 0 else "white"
            self.console.print(
                f"Round: [{colour}]{money(net)}[/{colour}]   bankroll: {money(self.table.bankroll)}"
            )

    # ---------------------------------------------------------------- playing
    def choose(self, round_: Round) -> Action:
        if self.hint_chart is not None:
            hint = chart_action(round_, self.hint_chart)
            self.console.print(f"[dim]basic strategy: {hint}[/dim]")
        if round_.phase is Phase.INSURANCE:
            most = self.table.most_insurance()
            while True:
                text = self.ask(
                    f"Dealer shows an ace. Insurance for box {round_.box_index + 1}? "
                    f"amount up to {money(most)}, 0 for none:"
                )
                try:
                    amount = parse_money(text)
                except MoneyError as error:
                    self.console.print(f"[red]{error}[/red]")
                    continue
                if amount == 0:
                    return Action(ActionKind.NO_INSURANCE)
                if amount > most:
                    self.console.print(f"[red]at most {money(most)}[/red]")
                    continue
                return Action(ActionKind.INSURANCE, amount)
        if round_.phase is Phase.EARLY_SURRENDER:
            text = self.ask(f"Early surrender box {round_.box_index + 1}? (y/n):")
            kind = ActionKind.SURRENDER if text.lower().startswith("y") else ActionKind.NO_SURRENDER
            return Action(kind)
        legal = self.table.legal_actions()
        box = round_.boxes[round_.box_index]
        labels = " ".join(LABELS[action.kind] for action in legal)
        while True:
            hand = f".{round_.hand_index + 1}" if len(box.hands) > 1 else ""
            text = self.ask(f"Box {round_.box_index + 1}{hand}: {labels}?").lower()
            for action in legal:
                if text in (
                    action.kind.value,
                    next(k for k, v in KEYS.items() if v is action.kind),
                ):
                    return action
            self.console.print(f"[red]choose one of: {labels}[/red]")

    def play_round(self) -> None:
        self.table.start_round(self.ask_bets())
        while self.table.in_round:
            round_ = self.table.round
            assert round_ is not None
            self.show(round_)
            self.table.act(self.choose(round_))

    def run(self) -> None:
        self.console.print("[bold]Rules:[/bold] " + "; ".join(describe(self.rules)))
        self.console.print(f"Bankroll: {money(self.table.bankroll)}")
        try:
            while self.table.can_cover_minimum():
                self.play_round()
            self.table.close()
            self.console.print("You cannot cover the minimum bet. Thanks for playing.")
        except Leave:
            if self.table.in_round:
                self.console.print(
                    "\nYou leave in the middle of a round: it is played out with the standard decisions"
                    " (no insurance, no surrender, stand); a started round is never refunded."
                )
            self.table.close()
            self.console.print(f"\nYou leave with {money(self.table.bankroll)}.")


def house_command(name: str) -> click.Command:
    @click.command(name, help=f"Play {name.capitalize()} Blackjack in the terminal.")
    @click.option(
        "--seed",
        type=SEED,
        help="Reproducible (non-secure) shuffles, for practice and tests (0 to 2**64-1).",
    )
    @click.option("--bankroll", default="1000.00", show_default=True, help="Starting play money.")
    @click.option("--hint", is_flag=True, help="Show the basic strategy move at each decision.")
    def command(seed: int | None, bankroll: str, hint: bool) -> None:
        rules = preset(name)
        start = money_option(
            "--bankroll", bankroll, minimum=rules.min_bet, minimum_is="the table's minimum bet"
        )
        console = Console(highlight=False)
        chart = None
        if hint:
            from twentyone.analysis.strategy import basic_strategy

            chart = basic_strategy(rules)
        table = HouseTable.session(rules, shoe_for(rules, source_for(seed)), start)
        TerminalTable(table, console, chart).run()

    return command


casino = house_command("casino")
online = house_command("online")
