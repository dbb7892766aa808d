"""``twentyone play casino|online``: a house-banked table in the terminal.

A thin client of :class:`twentyone.tables.house.HouseTable`, which deals the rounds and keeps
the money in the ledger (stakes are checked against the bankroll before a round is dealt and
before every double, split and insurance, so the bankroll never goes below 0). This module only
reads the player's input and prints the table.

Leaving (``q``, the end of input, Ctrl-C) in the middle of a round finishes it with the
standard decision (no insurance, no surrender, stand): a started round is never refunded.

The table shows cards with suit symbols in colour on a terminal (plain ``AS``/``TH`` otherwise,
:mod:`twentyone.cli.play_look`), totals as ``soft 15``, ``BJ`` or ``BUST``; at the bet prompt
Enter deals again with the last bets and ``x2`` with twice them; an action that cannot be taken
is answered with why; the session ends with its summary (:mod:`twentyone.tables.summary`).
``--record FILE`` writes every round as a scenario that ``twentyone replay`` plays back.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.options import SEED
from twentyone.cli.play_input import (
    Leave,
    money_option,
    read_line,
    source_for,
)
from twentyone.cli.play_look import Look, hand_summary, summary_table, total_label
from twentyone.cli.rule_options import build_rules, rule_options
from twentyone.errors import TwentyOneError
from twentyone.hand import is_blackjack
from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Phase, Round
from twentyone.house.strategy_player import chart_action
from twentyone.money import MoneyError, format_money, parse_money
from twentyone.rules import Rules
from twentyone.rules_text import describe
from twentyone.scenario import scenario_of_round
from twentyone.shoe import shoe_for
from twentyone.strategy_chart import StrategyChart
from twentyone.tables.house import HouseTable
from twentyone.tables.listeners import TableEvent
from twentyone.tables.summary import SessionSummary, track_house

__all__ = ["TerminalTable", "casino", "money", "online", "record_file", "record_rounds"]

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

#: The letter of each action (``h`` ...).
KEY_OF = {kind: key for key, kind in KEYS.items()}

#: Minor units as the terminal prints them (``1,234.50``).
money = format_money


#: A refusal's "box 1 hand 1 has 3 cards; ..." said of the hand the player is asked about.
_WHO = re.compile(r"^box \d+(?: hand \d+)? ")


def why_not(action: Action, reason: str) -> str:
    """Why ``action`` cannot be taken, as the terminal says it (``double: this hand has ...``)."""
    return f"{action.kind.value}: {_WHO.sub('this hand ', reason)}"


class TerminalTable:
    """Input and output for a :class:`HouseTable`; the runner does everything else."""

    def __init__(
        self,
        table: HouseTable,
        console: Console,
        hint_chart: StrategyChart | None = None,
        look: Look | None = None,
    ) -> None:
        self.table = table
        self.rules: Rules = table.rules
        self.console = console
        self.hint_chart = hint_chart
        self.look = look or Look.for_console(console)
        self.summary: SessionSummary = track_house(table)
        table.subscribe(self.on_event)

    # ------------------------------------------------------------------ input
    def ask(self, prompt: str) -> str:
        return read_line(self.console, prompt)

    def bet_prompt(self) -> str:
        rules = self.rules
        boxes = (
            "" if rules.max_boxes == 1 else f", one amount per box, up to {rules.max_boxes} boxes"
        )
        prompt = f"Bet ({money(rules.min_bet)}-{money(rules.max_bet)}{boxes}; q to leave)"
        last = self.table.last_bets
        if last is not None:
            again = " ".join(money(bet) for bet in last)
            twice = " ".join(money(2 * bet) for bet in last)
            prompt += f" [Enter: rebet {again}, x2: {twice}]"
        return prompt + ":"

    def deal(self, text: str) -> None:
        """Deal the next round with the bets typed: Enter deals the last bets again, ``x2``
        twice them (the runner's :meth:`~HouseTable.rebet` and :meth:`~HouseTable.double_bet`).
        A refused bet raises a typed error and deals nothing."""
        if self.table.last_bets is not None and text.lower() in ("", "x2"):
            if text:
                self.table.double_bet()
            else:
                self.table.rebet()
            return
        # Boxes are separated by spaces only: a comma is the thousands separator that the
        # prompt itself prints (1,000.00).
        self.table.start_round([parse_money(word) for word in text.split()])

    def deal_next(self) -> None:
        """Ask for the bets until a round is dealt."""
        while True:
            try:
                self.deal(self.ask(self.bet_prompt()))
            except TwentyOneError as error:
                self.console.print(f"[red]{error}[/red]", markup=True)
                continue
            return

    # ---------------------------------------------------------------- display
    def dealer_row(self, round_: Round) -> tuple[str, str]:
        visible = round_.dealer if round_.hole_card_revealed else round_.dealer[:1]
        cards = self.look.cards(visible)
        if len(round_.dealer) > len(visible):
            cards += " ??"
        natural = len(visible) == 2 and is_blackjack(visible)
        return cards, total_label(visible, self.rules.aces_high, natural)

    def show(self, round_: Round) -> None:
        table = Table(show_header=True, header_style="bold")
        table.add_column("")
        table.add_column("cards")
        table.add_column("total", justify="right")
        table.add_column("stake", justify="right")
        table.add_column("result")
        table.add_row("dealer", *self.dealer_row(round_), "", "")
        current = round_.current_hand if round_.phase is Phase.PLAY else None
        aces_high = self.rules.aces_high
        for box_index, box in enumerate(round_.boxes):
            for hand_index, hand in enumerate(box.hands):
                marker = ">" if hand is current else " "
                result = ""
                if hand.result is not None:
                    net = hand.net or 0
                    result = f"{hand.result.value} {'+' if net > 0 else ''}{money(net)}"
                table.add_row(
                    f"{marker} box {box_index + 1}"
                    + (f".{hand_index + 1}" if len(box.hands) > 1 else ""),
                    self.look.cards(hand.cards),
                    total_label(hand.cards, aces_high, hand.natural),
                    money(hand.stake),
                    result,
                )
            if box.insurance:
                paid = "" if box.insurance_net is None else money(box.insurance_net)
                table.add_row(f"  box {box_index + 1}", "insurance", "", money(box.insurance), paid)
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
        playing = box.hands[round_.hand_index]
        which = f".{round_.hand_index + 1}" if len(box.hands) > 1 else ""
        holding = hand_summary(playing.cards, self.rules.aces_high, playing.natural)
        while True:
            text = self.ask(f"Box {round_.box_index + 1}{which} ({holding}): {labels}?").lower()
            for action in legal:
                if text in (action.kind.value, KEY_OF[action.kind]):
                    return action
            wanted = KEYS.get(text) or next(
                (kind for kind in KEYS.values() if kind.value == text), None
            )
            reason = None if wanted is None else self.table.refusal(Action(wanted))
            if wanted is not None and reason is not None:
                self.console.print(f"[red]{why_not(Action(wanted), reason)}[/red]")
            else:
                self.console.print(f"[red]choose one of: {labels}[/red]")

    def play_round(self) -> None:
        self.deal_next()
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
            self.console.print(summary_table(self.summary))
            self.console.print("You cannot cover the minimum bet. Thanks for playing.")
        except Leave:
            if self.table.in_round:
                self.console.print(
                    "\nYou leave in the middle of a round: it is played out with the standard decisions"
                    " (no insurance, no surrender, stand); a started round is never refunded."
                )
            self.table.close()
            self.console.print()
            self.console.print(summary_table(self.summary))
            self.console.print(f"You leave with {money(self.table.bankroll)}.")


#: Where a recorded round goes: ``(round number at the table, scenario)``.
ScenarioSink = Callable[[int, dict[str, Any]], None]


def record_rounds(table: HouseTable, game: str, sink: ScenarioSink) -> Callable[[], None]:
    """Hand every round ``table`` settles from now on to ``sink`` as the ``game`` scenario that
    replays it exactly (:func:`twentyone.scenario.scenario_of_round`: the playing rules that
    differ from the preset, the bets, every card in the order dealt, every decision, the
    standard decisions of a player who left included); returns the function that stops.

    (A listener here, not in :mod:`twentyone.tables`: scenarios are the interfaces' layer.)

    >>> from twentyone.cards import parse_cards
    >>> from twentyone.house.actions import STAND
    >>> from twentyone.presets import ONLINE
    >>> from twentyone.scenario import run_scenario
    >>> from twentyone.shoe import ScriptedShoe
    >>> table = HouseTable.session(ONLINE, ScriptedShoe(parse_cards("9S 7H 8C 9D TH")), 100_00)
    >>> recorded = []
    >>> _ = record_rounds(table, "online", lambda number, scenario: recorded.append(scenario))
    >>> _ = table.start_round([10_00]); table.act(STAND)
    >>> recorded[0]["cards"], recorded[0]["decisions"]
    (['9S', '7H', '8C', '9D', 'TH'], ['stand'])
    >>> run_scenario(recorded[0])["boxes"][0]["net"] == table.last_net
    True
    """

    def on_event(event: TableEvent) -> None:
        if event.kind == "round-settled" and table.round is not None:
            sink(table.rounds, scenario_of_round(table.round, game))

    return table.subscribe(on_event)


def record_file(path: Path, number: int) -> Path:
    """Where round ``number`` of ``--record FILE`` goes: ``FILE`` with ``-N`` before its suffix
    (``hands.json`` -> ``hands-1.json``): one scenario per file, as ``replay`` reads them."""
    suffix = path.suffix or ".json"
    return path.with_name(f"{path.stem if path.suffix else path.name}-{number}{suffix}")


def recorder(path: Path, console: Console) -> ScenarioSink:
    """The sink of ``--record``: each round's scenario to its own file, said in one line."""

    def write(number: int, scenario: dict[str, Any]) -> None:
        target = record_file(path, number)
        target.write_text(json.dumps(scenario, indent=2) + "\n", encoding="utf-8")
        # A path is never wrapped (it must stay copyable) nor read as markup.
        console.print(
            f"[dim]recorded round {number} to {escape(str(target))}[/dim]", soft_wrap=True
        )

    return write


def house_command(name: str) -> click.Command:
    @click.command(name, help=f"Play {name.capitalize()} Blackjack in the terminal.")
    @click.option(
        "--seed",
        type=SEED,
        help="Reproducible (non-secure) shuffles, for practice and tests (0 to 2**64-1).",
    )
    @click.option("--bankroll", default="1000.00", show_default=True, help="Starting play money.")
    @click.option("--hint", is_flag=True, help="Show the basic strategy move at each decision.")
    @click.option(
        "--record",
        "record_path",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        help="Write every round as a scenario for 'twentyone replay' (FILE-1.json, FILE-2.json, ...).",
    )
    @rule_options
    @reports_bad_input
    def command(
        seed: int | None,
        bankroll: str,
        hint: bool,
        record_path: Path | None,
        rules: dict[str, Any],
    ) -> None:
        table_rules = build_rules(rules)
        start = money_option(
            "--bankroll",
            bankroll,
            minimum=table_rules.min_bet,
            minimum_is="the table's minimum bet",
        )
        if record_path is not None and not record_path.parent.is_dir():
            raise UserInputError(f"--record: no folder {str(record_path.parent)!r}")
        console = Console(highlight=False)
        chart = None
        if hint:
            from twentyone.analysis.strategy import basic_strategy

            chart = basic_strategy(table_rules)
        table = HouseTable.session(table_rules, shoe_for(table_rules, source_for(seed)), start)
        terminal = TerminalTable(table, console, chart)
        if record_path is not None:  # after the terminal: the round is shown, then recorded
            record_rounds(table, name, recorder(record_path, console))
        terminal.run()

    # The game is the command's name: the rule options without --preset, which it fills in.
    command.params = [param for param in command.params if param.name != "preset_name"]
    assert command.callback is not None
    command.callback = functools.partial(command.callback, preset_name=name)
    return command


casino = house_command("casino")
online = house_command("online")
