"""``twentyone exchange``: Exchange Blackjack tools (``odds`` for a game state)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import click

from twentyone.analysis.exchange.odds import SelectionOdds, exchange_odds
from twentyone.cli.errors import reports_bad_input
from twentyone.cli.progress import working
from twentyone.exchange.state import ExchangeState, InvalidStateError
from twentyone.jsonio import JsonInputError, read_json


@click.group("exchange")
def exchange() -> None:
    """Exchange Blackjack: exact odds of the eight selections."""


def _read_state(path: str) -> Any:
    """The JSON in ``path`` (``-``: stdin), bounded in size and depth (:mod:`twentyone.jsonio`)."""
    try:
        return read_json(path, f"state file {path!r}")
    except JsonInputError as error:
        raise InvalidStateError(str(error)) from None


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
    with working("computing the odds..."):
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
