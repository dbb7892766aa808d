"""``twentyone replay FILE``: run a scenario and print what happened."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.scenario import load_scenario, run_scenario


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise UserInputError(f"cannot read {path}: {error.strerror}") from None


def _print_house(out: dict[str, Any]) -> None:
    for index, box in enumerate(out["boxes"]):
        for hand_index, hand in enumerate(box["hands"]):
            cards = " ".join(hand["cards"])
            click.echo(
                f"box {index} hand {hand_index}: {cards} ({hand['total']}) "
                f"bet {hand['bet']} {hand['result']} {hand['net']:+d}"
            )
        if "insurance" in box:
            click.echo(
                f"box {index} insurance {box['insurance']['bet']} {box['insurance']['net']:+d}"
            )
        click.echo(f"box {index} net {box['net']:+d}")
    dealer = out["dealer"]
    click.echo(f"dealer: {' '.join(dealer['cards'])} ({dealer['total']})")


@click.command("replay")
@click.argument("path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def replay(path: str, as_json: bool) -> None:
    """Replay the scenario in FILE ('-' reads standard input)."""
    out = run_scenario(load_scenario(_read(path)))
    if as_json or "boxes" not in out:
        click.echo(json.dumps(out, indent=None if as_json else 2))
    else:
        _print_house(out)
