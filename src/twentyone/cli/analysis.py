"""``twentyone dealer``, ``twentyone analyze`` and ``twentyone strategy``: the exact analysis."""

from __future__ import annotations

import io
import json
import os
import time
from typing import TYPE_CHECKING, Any

import click

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.progress import working
from twentyone.cli.rule_options import build_rules, rule_options

if TYPE_CHECKING:
    from twentyone.rules import Rules
    from twentyone.strategy_chart import StrategyChart

_JSON_HELP = "Print one JSON object."


@click.command("dealer")
@rule_options
@click.option("--no-blackjack", is_flag=True, help="Condition on the dealer not having blackjack.")
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def dealer_command(rules: dict[str, Any], no_blackjack: bool, as_json: bool) -> None:
    """The dealer's final results by up card (only the up card removed from the shoe)."""
    from twentyone.analysis.dealer import OUTCOMES, dealer_distributions

    game = build_rules(rules)
    with working("computing the dealer's outcomes..."):
        table = dealer_distributions(game, no_blackjack=no_blackjack)
    if as_json:
        click.echo(json.dumps({"rules": game.to_json(), "upcards": table}))
        return
    click.echo("up  " + " ".join(name.rjust(9) for name in OUTCOMES))
    for up, results in table.items():
        click.echo(f"{up:<3} " + " ".join(f"{results[name]:9.6f}" for name in OUTCOMES))


@click.command("analyze")
@rule_options
@click.option(
    "--exact", is_flag=True, help="Also give the EV as an exact fraction (infinite shoe only)."
)
@click.option(
    "--split-strategy",
    "split_strategy",
    default="cdz-",
    show_default=True,
    help="How split hands are played: cdz- (as outside a split), cdp1 (re-optimised for the "
    "shoe after the split). The same on an infinite shoe.",
)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def analyze_command(rules: dict[str, Any], exact: bool, split_strategy: str, as_json: bool) -> None:
    """Exact analysis: EV under optimal play, by up card, and under basic strategy."""
    from twentyone.analysis.house_edge import analyze

    game = build_rules(rules)
    started = time.perf_counter()
    with working("computing the exact analysis..."):
        result = analyze(game, split_strategy)
        fraction = None
        if exact:  # its module is imported only when asked for (start-up time)
            from twentyone.analysis.exact import exact_expected_return

            fraction = exact_expected_return(game)
    seconds = time.perf_counter() - started
    if as_json:
        out = result.to_json()
        out["seconds"] = seconds
        if fraction is not None:
            out["ev_exact"] = f"{fraction.numerator}/{fraction.denominator}"
        click.echo(json.dumps(out))
        return
    click.echo(
        f"EV, optimal composition-dependent play: {result.ev:+.6%} ({split_strategy} splits)"
    )
    # Text shows EVs one way, in percent with a sign; the exact fraction only when asked (--exact).
    if fraction is not None:
        click.echo(f"  exactly {fraction.numerator}/{fraction.denominator} (--exact)")
    click.echo(f"EV, basic strategy:                     {result.basic_strategy_ev:+.6%}")
    if result.insurance_ev is not None:
        click.echo(f"EV of insurance (per unit insured):     {result.insurance_ev:+.6%}")
    click.echo("EV by up card (dealer blackjack included):")
    for up, value in result.ev_by_upcard.items():
        click.echo(f"  {up}: {value:+.4%}")
    click.echo(f"({seconds:.3f} s)")


@click.command("strategy")
@rule_options
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    help="Also write the chart as an SVG picture (a printed strategy card) to FILE.",
)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def strategy_command(rules: dict[str, Any], svg_path: str | None, as_json: bool) -> None:
    """The total-dependent basic strategy chart (hard, soft, pairs by up card).

    In a terminal the chart is in colour, with a legend; elsewhere the same chart is plain text.
    """
    from twentyone.analysis.strategy import basic_strategy_analysis

    game = build_rules(rules)
    if svg_path is not None:
        _check_writable(svg_path)
    with working("computing the basic strategy..."):
        result = basic_strategy_analysis(game)
    footer = f"EV playing this chart: {result.ev:+.6%}"
    if svg_path is not None:
        from twentyone.cli.chart_render import chart_svg, rules_summary

        picture = chart_svg(result.chart, rules_summary(game), footer)
        try:
            with open(svg_path, "w", encoding="utf-8") as file:
                file.write(picture)
        except OSError as error:
            raise UserInputError(f"--svg {svg_path}: {error.strerror or error}") from None
    if as_json:
        chart = result.chart.to_json()
        out = {"rules": game.to_json(), "chart": chart, "basic_strategy_ev": result.ev}
        click.echo(json.dumps(out))
        return
    _print_chart(result.chart, game, footer)


def _check_writable(path: str) -> None:
    """Refuse, before the computation, a path the picture could not be written to."""
    if not path or "\x00" in path:
        raise UserInputError(f"--svg {path!r}: not a file name")
    if os.path.isdir(path):
        raise UserInputError(f"--svg {path}: is a folder, not a file")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UserInputError(f"--svg {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UserInputError(f"--svg {path}: not writable")


def _print_chart(chart: StrategyChart, game: Rules, footer: str) -> None:
    """The chart in colour on a terminal, as plain text (no colour codes) elsewhere."""
    import sys

    from rich.console import Console

    from twentyone.cli.chart_render import rules_summary, terminal_chart

    picture = terminal_chart(chart, rules_summary(game), footer)
    if sys.stdout.isatty():
        Console(file=sys.stdout, highlight=False).print(picture)
        return
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None, highlight=False).print(picture)
    # ASCII rules under the headers: a pipe or a file gets plain text.
    text = buffer.getvalue().replace("\u2500", "-")
    click.echo("\n".join(line.rstrip() for line in text.splitlines()))
