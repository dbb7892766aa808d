"""``twentyone exchange``: Exchange Blackjack tools (``odds`` for a game state)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.exchange.odds import SelectionOdds, exchange_odds
from twentyone.exchange.state import ExchangeState, InvalidStateError


@click.group("exchange")
def exchange() -> None:
    """Exchange Blackjack: exact odds of the eight selections."""


def _read_state(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise InvalidStateError(f"cannot read state file {path!r}: {error.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidStateError(f"state file {path!r} is not valid JSON: {error}") from None


def _figures(odds: SelectionOdds[Any] | None, exact: bool) -> dict[str, Any]:
    if odds is None:
        return {"win": None, "tie": None, "lose": None, "fair_price": None}
    out = odds.to_json()
    if exact:
        out["exact"] = {key: str(Fraction(odds[key])) for key in ("win", "tie", "lose")}
    return out


@exchange.command("odds")
@click.argument("state_file", metavar="STATE")
@click.option("--exact", is_flag=True, help="Exact rational arithmetic (slower); adds fractions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def odds_command(state_file: str, exact: bool, as_json: bool) -> None:
    """Probabilities of every selection for the state in STATE (a JSON file, or - for stdin).

    STATE looks like {"players": [["TS", "6H"], [...], [...], [...]], "dealer": ["7C"],
    "played": false}; empty lists before round 1.
    """
    state = ExchangeState.from_json(_read_state(state_file))
    odds = exchange_odds(state, exact=exact)
    selections = {name: _figures(o, exact) for name, o in odds.items()}
    if as_json:
        click.echo(json.dumps({"selections": selections}))
        return
    click.echo(f"{'selection':<26}{'win':>9}{'tie':>9}{'lose':>9}{'fair price':>12}")
    for name, figures in selections.items():
        if figures["win"] is None:
            click.echo(f"{name:<26}{'(not computed before round 1)':>39}")
            continue
        price = figures["fair_price"]
        shown = "-" if price is None else f"{price:.2f}"
        click.echo(
            f"{name:<26}{figures['win']:>9.4f}{figures['tie']:>9.4f}{figures['lose']:>9.4f}"
            f"{shown:>12}"
        )
