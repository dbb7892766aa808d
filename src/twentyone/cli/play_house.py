"""``twentyone play casino|online``: a house-banked table in the terminal.

The table keeps a play-money bankroll for the session; stakes are checked against it before a
round is dealt and before every double, split and insurance, so the bankroll never goes below 0.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import click
from rich.console import Console
from rich.table import Table

from twentyone.hand import value_of
from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Phase, Round
from twentyone.house.strategy_player import chart_action
from twentyone.presets import preset
from twentyone.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from twentyone.rules import Rules
from twentyone.rules_text import describe
from twentyone.shoe import shoe_for
from twentyone.strategy_chart import StrategyChart

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


class QuitTable(Exception):
    """The player left the table (q, or the end of input)."""


def money(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    return f"{sign}{minor // 100:,}.{minor % 100:02d}"


def parse_money(text: str) -> int:
    """``12.50`` -> 1250 minor units; raises ValueError for anything else."""
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount") from None
    minor = amount * 100
    if minor != minor.to_integral_value() or minor < 0:
        raise ValueError(f"{text!r} is not an amount in whole cents")
    return int(minor)


class TerminalTable:
    def __init__(
        self,
        rules: Rules,
        source: RandomSource,
        bankroll: int,
        console: Console,
        hint_chart: StrategyChart | None = None,
    ) -> None:
        self.rules = rules
        self.hint_chart = hint_chart
        self.shoe = shoe_for(rules, source)
        self.bankroll = bankroll
        self.console = console

    # ------------------------------------------------------------------ input
    def ask(self, prompt: str) -> str:
        self.console.print(prompt, end=" ", markup=False)
        try:
            answer = input()
        except EOFError:
            raise QuitTable from None
        if answer.strip().lower() in ("q", "quit", "exit"):
            raise QuitTable
        return answer.strip()

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
                bets = [parse_money(word) for word in text.replace(",", " ").split()]
            except ValueError as error:
                self.console.print(f"[red]{error}[/red]")
                continue
            if not 1 <= len(bets) <= rules.max_boxes:
                self.console.print(f"[red]give 1 to {rules.max_boxes} amounts[/red]")
                continue
            if any(not rules.min_bet <= bet <= rules.max_bet for bet in bets):
                self.console.print(
                    f"[red]each bet must be {money(rules.min_bet)} to {money(rules.max_bet)}[/red]"
                )
                continue
            if sum(bets) > self.bankroll:
                self.console.print(f"[red]that is more than your {money(self.bankroll)}[/red]")
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

    # ---------------------------------------------------------------- playing
    def committed(self, round_: Round) -> int:
        return sum(hand.stake for box in round_.boxes for hand in box.hands) + sum(
            box.insurance for box in round_.boxes
        )

    def choose(self, round_: Round) -> Action:
        if self.hint_chart is not None:
            hint = chart_action(round_, self.hint_chart)
            self.console.print(f"[dim]basic strategy: {hint}[/dim]")
        free = self.bankroll - self.committed(round_)
        box = round_.boxes[round_.box_index]
        if round_.phase is Phase.INSURANCE:
            most = min(box.bet // 2, free)
            while True:
                text = self.ask(
                    f"Dealer shows an ace. Insurance for box {round_.box_index + 1}? "
                    f"amount up to {money(most)}, 0 for none:"
                )
                try:
                    amount = parse_money(text)
                except ValueError as error:
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
        legal = [
            action
            for action in round_.legal_actions()
            if action.kind not in (ActionKind.DOUBLE, ActionKind.SPLIT) or box.bet <= free
        ]
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
        bets = self.ask_bets()
        round_ = Round.deal(self.rules, bets, self.shoe)
        while not round_.is_settled:
            self.show(round_)
            round_.act(self.choose(round_))
        self.show(round_)
        net = sum(box.net for box in round_.boxes)
        self.bankroll += net
        colour = "green" if net > 0 else "red" if net < 0 else "white"
        self.console.print(
            f"Round: [{colour}]{money(net)}[/{colour}]   bankroll: {money(self.bankroll)}"
        )

    def run(self) -> None:
        self.console.print("[bold]Rules:[/bold] " + "; ".join(describe(self.rules)))
        self.console.print(f"Bankroll: {money(self.bankroll)}")
        try:
            while self.bankroll >= self.rules.min_bet:
                self.play_round()
            self.console.print("You cannot cover the minimum bet. Thanks for playing.")
        except QuitTable:
            self.console.print(f"\nYou leave with {money(self.bankroll)}.")


def house_command(name: str) -> click.Command:
    @click.command(name, help=f"Play {name.capitalize()} Blackjack in the terminal.")
    @click.option(
        "--seed", type=int, help="Reproducible (non-secure) shuffles, for practice and tests."
    )
    @click.option("--bankroll", default="1000.00", show_default=True, help="Starting play money.")
    @click.option("--hint", is_flag=True, help="Show the basic strategy move at each decision.")
    def command(seed: int | None, bankroll: str, hint: bool) -> None:
        from twentyone.cli.errors import UserInputError

        try:
            start = parse_money(bankroll)
        except ValueError as error:
            raise UserInputError(f"--bankroll: {error}") from None
        source: RandomSource = SystemRandomSource() if seed is None else SeededRandomSource(seed)
        console = Console(highlight=False)
        rules = preset(name)
        chart = None
        if hint:
            from twentyone.analysis.strategy import basic_strategy

            chart = basic_strategy(rules)
        TerminalTable(rules, source, start, console, chart).run()

    return command


casino = house_command("casino")
online = house_command("online")
