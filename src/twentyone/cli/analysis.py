"""``twentyone dealer``, ``twentyone analyze`` and ``twentyone strategy``: the exact analysis."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.cli.progress import working
from twentyone.cli.rule_options import build_rules, rule_options

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
    from twentyone.analysis.exact import exact_expected_return
    from twentyone.analysis.house_edge import analyze

    game = build_rules(rules)
    started = time.perf_counter()
    with working("computing the exact analysis..."):
        result = analyze(game, split_strategy)
        fraction = exact_expected_return(game) if exact else None
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
    if fraction is not None:
        click.echo(f"  exactly {fraction.numerator}/{fraction.denominator}")
    click.echo(f"EV, basic strategy:                     {result.basic_strategy_ev:+.6%}")
    if result.insurance_ev is not None:
        click.echo(f"EV of insurance (per unit insured):     {result.insurance_ev:+.6%}")
    click.echo("EV by up card (dealer blackjack included):")
    for up, value in result.ev_by_upcard.items():
        click.echo(f"  {up}: {value:+.6f}")
    click.echo(f"({seconds:.3f} s)")


@click.command("strategy")
@rule_options
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def strategy_command(rules: dict[str, Any], as_json: bool) -> None:
    """The total-dependent basic strategy chart (hard, soft, pairs by up card)."""
    from twentyone.analysis.strategy import basic_strategy_analysis

    game = build_rules(rules)
    with working("computing the basic strategy..."):
        result = basic_strategy_analysis(game)
    chart = result.chart.to_json()
    if as_json:
        out = {"rules": game.to_json(), "chart": chart, "basic_strategy_ev": result.ev}
        click.echo(json.dumps(out))
        return
    for name in ("hard", "soft", "pairs"):
        table = chart[name]
        upcards = next(iter(table.values())).keys()
        click.echo(f"{name:<6}" + "".join(up.rjust(4) for up in upcards))
        for row, codes in table.items():
            click.echo(f"{row:<6}" + "".join(code.rjust(4) for code in codes.values()))
        click.echo("")
    click.echo(f"EV playing this chart: {result.ev:+.6%}")
