"""``twentyone hand CARDS --up X``: the exact EV of every option of one hand (the calculator).

Text shows EVs in percent with a sign; ``--json`` gives them as fractions of one unit bet:
floats, and exact ``"n/d"`` strings where they are computed (every option on the infinite
shoe; standing, surrendering, a blackjack and insurance on a finite one; otherwise null).
"""

from __future__ import annotations

import json
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.cli.rule_options import build_rules, rule_options
from twentyone.rules import Rules

_NAMES = {
    "stand": "stand",
    "hit": "hit",
    "double": "double",
    "split": "split",
    "surrender": "surrender",
    "blackjack": "blackjack (paid at once)",
}


def _percent(value: float) -> str:
    return f"{value:+.2%}"


def _rules_line(rules: Rules) -> str:
    decks = "infinite shoe" if rules.decks is None else f"{rules.decks} deck(s)"
    dealer = "H17" if rules.dealer_hits_soft_17 else "S17"
    peek = {"ace-ten": "peek A/T", "ace": "peek A", "none": "no hole card"}[rules.peek.value]
    pays = rules.blackjack_pays
    return (
        f"{decks}, {dealer}, {peek}, blackjack {pays.numerator}:{pays.denominator}, "
        f"double {rules.double.value}, {'DAS' if rules.double_after_split else 'no DAS'}, "
        f"surrender {rules.surrender.value}"
    )


@click.command("hand")
@click.argument("cards", nargs=-1, required=True)
@click.option("--up", "upcard", required=True, help="The dealer's up card, e.g. 6H or 6.")
@rule_options
@click.option(
    "--split-strategy",
    "split_strategy",
    default="cdz-",
    show_default=True,
    help="How split hands are played: cdz- (as outside a split) or cdp1.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def hand_command(
    cards: tuple[str, ...],
    upcard: str,
    rules: dict[str, Any],
    split_strategy: str,
    as_json: bool,
) -> None:
    """The exact EV of every option of CARDS (e.g. 8S 8D) against the up card, from the
    shoe that remains (the full shoe less these cards)."""
    from twentyone.analysis.hand_calculator import calculate

    game = build_rules(rules)
    result = calculate(game, list(cards), upcard, convention=split_strategy)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    kind = "soft" if result.soft else "hard"
    if result.blackjack:
        kind = "blackjack,"
    elif result.pair:
        kind = f"pair, {kind}"
    hand = " ".join(card.text for card in result.hand)
    click.echo(f"{hand} ({kind} {result.total}) against {result.upcard.text}")
    click.echo(f"rules: {_rules_line(game)}")
    if result.remaining is not None:
        shoe = " ".join(
            f"{label}:{count}" for label, count in zip("A23456789T", result.remaining, strict=True)
        )
        click.echo(f"shoe that remains: {sum(result.remaining)} cards ({shoe})")
    else:
        click.echo("shoe: infinite (the cards dealt change nothing)")
    if result.peeked:
        click.echo("EV per initial bet, given the dealer has no blackjack (he peeked):")
    else:
        click.echo("EV per initial bet (a dealer blackjack included, as the rules take it):")
    best = result.best
    width = max(len(_NAMES[name]) for name in result.actions)
    for name, value in result.actions.items():
        mark = "  <- best" if name == best else ""
        click.echo(f"  {_NAMES[name]:<{width}}  {_percent(value):>9}{mark}")
    if result.early_surrender_blackjack is not None:
        click.echo(
            "early surrender is decided before the peek (-50.00% whatever the dealer holds): "
            "the best is chosen before the peek"
        )
    if result.insurance is not None:
        verdict = "worth taking" if result.insurance > 0 else "not worth taking"
        click.echo(
            f"insurance: {_percent(result.insurance)} per unit insured ({verdict}), "
            "decided before any peek"
        )
