"""``twentyone train basic|count``: the basic-strategy drill and the counting drill.

The drills themselves are :mod:`twentyone.analysis.training`; this module reads the player's
answers line by line and prints the feedback and the summary. ``q``, the end of the input or
Ctrl-C end a drill with its summary.
"""

from __future__ import annotations

import re
import sys
import time
from typing import IO, TYPE_CHECKING, Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.cli.options import FiniteNumber, WholeNumber, seed_option
from twentyone.cli.rule_options import build_rules, rule_options
from twentyone.randomness import RandomSource, SeededRandomSource, SystemRandomSource

if TYPE_CHECKING:  # the drills load the analysis, which only running a drill should wait for
    from twentyone.analysis.training import CountDrill, StrategyDrill

_QUIT = {"q", "quit", "exit"}
_WHOLE = re.compile(r"[+-]?[0-9]{1,6}")


def _percent(value: float) -> str:
    return f"{value:+.2%}"


def _read(stream: IO[str], prompt: str) -> str | None:
    """One answer, or None at the end of the input or on ``q``."""
    click.echo(prompt, nl=False)
    line = stream.readline()
    if not line:
        click.echo("")
        return None
    text = line.strip()
    return None if text.lower() in _QUIT else text


def _source(seed: int | None) -> RandomSource:
    return SystemRandomSource() if seed is None else SeededRandomSource(seed)


@click.command("train")
@click.argument("drill", type=click.Choice(["basic", "count"]))
@click.option(
    "--rounds",
    type=WholeNumber(1, 1_000_000),
    help="Hands (basic) or count checks (count); default: until q or the end of the input.",
)
@seed_option("Seed for a reproducible drill (default: the system's secure randomness).")
@click.option(
    "--every", type=WholeNumber(1, 52), default=6, show_default=True, help="count: cards per check."
)
@click.option(
    "--group",
    type=WholeNumber(1, 52),
    default=3,
    show_default=True,
    help="count: cards shown on one line.",
)
@click.option("--system", default="hi-lo", show_default=True, help="count: counting system.")
@click.option(
    "--delay",
    type=FiniteNumber(0, 10),
    default=0.0,
    show_default=True,
    help="count: seconds between two lines of cards.",
)
@rule_options
@reports_bad_input
def train_command(
    drill: str,
    rounds: int | None,
    seed: int | None,
    every: int,
    group: int,
    system: str,
    delay: float,
    rules: dict[str, Any],
) -> None:
    """Drills: basic strategy (type h/s/d/p/r; each mistake's EV cost from the exact
    analysis) or the running count (Hi-Lo by default) every --every cards."""
    from twentyone.analysis.training import CountDrill, StrategyDrill

    game = build_rules(rules)
    stream = sys.stdin
    if drill == "basic":
        strategy = StrategyDrill(game, _source(seed))
        try:
            _basic(strategy, stream, rounds)
        except KeyboardInterrupt:
            click.echo("")
        _basic_summary(strategy)
    else:
        counting = CountDrill(game, _source(seed), system=system, every=every)
        try:
            _count(counting, stream, rounds, group, delay)
        except KeyboardInterrupt:
            click.echo("")
        _count_summary(counting)


_MOVE_HELP = {
    "h": "[h]it",
    "s": "[s]tand",
    "d": "[d]ouble",
    "p": "s[p]lit",
    "r": "su[r]render",
}


def _basic(drill: StrategyDrill, stream: IO[str], rounds: int | None) -> None:
    from twentyone.analysis.training import TrainingInputError

    click.echo("Basic strategy drill: type the move for each hand; q ends with the summary.")
    number = 0
    while rounds is None or number < rounds:
        number += 1
        hand = drill.deal()
        cards = " ".join(str(card) for card in hand.cards)
        keys = " ".join(_MOVE_HELP[key] for key in _MOVE_HELP if key in hand.allowed)
        click.echo(
            f"\nHand {number}: {cards} ({hand.hand_type}, {hand.total}) against {hand.upcard}"
        )
        while True:
            text = _read(stream, f"{keys} > ")
            if text is None:
                return
            try:
                answer = drill.answer(hand, text)
                break
            except TrainingInputError as error:
                click.echo(f"  {error}")
        best = hand.best
        # The footing the choice is made on (early surrender: before the peek).
        values = hand.calculation.decision_values
        best_ev = values[best]
        if answer.correct:
            click.secho(f"  right: {best} ({_percent(best_ev)})", fg="green")
        else:
            chosen_ev = values[answer.move]
            click.secho(
                f"  wrong: the best is {best} ({_percent(best_ev)}); {answer.move} "
                f"({_percent(chosen_ev)}) costs {answer.cost:.2%} of the bet",
                fg="red",
            )


def _basic_summary(drill: StrategyDrill) -> None:
    summary = drill.summary
    click.echo("\nSummary")
    if not summary.hands:
        click.echo("  no hands played")
        return
    click.echo(f"  hands: {summary.hands}, right: {summary.right} ({summary.accuracy:.1%})")
    for name, score in summary.by_type.items():
        if score.hands:
            click.echo(f"  {name:<5} {score.right}/{score.hands} ({score.accuracy:.1%})")
    click.echo(
        f"  EV given away: {summary.cost:.2%} of a bet in all, "
        f"{summary.cost / summary.hands:.2%} per hand"
    )
    worst = summary.worst
    if worst is not None:
        cards = " ".join(str(card) for card in worst.hand.cards)
        click.echo(
            f"  costliest mistake: {worst.move} on {cards} against {worst.hand.upcard} "
            f"({worst.cost:.2%}; {worst.hand.best} was right)"
        )


def _count(
    drill: CountDrill, stream: IO[str], rounds: int | None, group: int, delay: float
) -> None:
    click.echo(f"Counting drill ({drill.system.name}): keep the running count.")
    click.echo(
        f"Every {drill.every} cards, type it; q ends with the summary. "
        f"The count starts at {drill.running_count}."
    )
    number = 0
    while rounds is None or number < rounds:
        number += 1
        cards, shuffled = drill.deal()
        if shuffled:
            click.echo(
                f"(shuffle: the count starts again at {drill.system.initial_running_count(drill.rules.decks)})"
            )
        click.echo("")
        for start in range(0, len(cards), group):
            if start and delay:
                time.sleep(delay)
            click.echo("  " + " ".join(str(card) for card in cards[start : start + group]))
        while True:
            text = _read(stream, "running count? ")
            if text is None:
                return
            if _WHOLE.fullmatch(text):
                break
            click.echo("  a whole number, like -3 or 2")
        answer = drill.check(int(text))
        where = ""
        if answer.true_count is not None:
            where = f" (true count {answer.true_count:+.1f}, {drill.decks_left:.1f} decks left)"
        if answer.correct:
            click.secho(f"  right: {answer.expected:+d}{where}", fg="green")
        else:
            click.secho(
                f"  wrong: it is {answer.expected:+d}, not {answer.given:+d}{where}", fg="red"
            )


def _count_summary(drill: CountDrill) -> None:
    summary = drill.summary
    click.echo("\nSummary")
    if not summary.checks:
        click.echo(f"  no counts checked ({summary.cards} cards seen)")
        return
    click.echo(
        f"  checks: {summary.checks}, right: {summary.right} ({summary.accuracy:.1%}), "
        f"cards seen: {summary.cards}, shuffles: {summary.shuffles}"
    )
    if summary.largest_miss:
        click.echo(f"  largest miss: {summary.largest_miss}")
