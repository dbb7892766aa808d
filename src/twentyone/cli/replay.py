"""``twentyone replay FILE``: run a scenario and print what happened.

Text by default, for every game, the way its table shows it (house games: money in units,
boxes and hands counted from 1); ``--json`` prints the replay JSON of ``interfaces.md``.
A file that wraps its scenario (``{"scenario": {...}, "expect": ...}``, as the Exchange rule
tests do) is replayed too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.jsonio import read_input
from twentyone.money import format_money
from twentyone.scenario import load_scenario, run_scenario, unwrap_scenario


def input_name(path: str, what: str) -> str:
    """How an input is named in messages: ``scenario file 'x.json'`` or ``scenario on stdin``."""
    return f"{what} on standard input" if path == "-" else f"{what} file {path!r}"


def _signed(minor: int) -> str:
    return ("-" if minor < 0 else "+") + format_money(abs(minor))


def _house_lines(out: dict[str, Any]) -> list[str]:
    lines = []
    for number, box in enumerate(out["boxes"], start=1):
        for hand_number, hand in enumerate(box["hands"], start=1):
            lines.append(
                f"box {number} hand {hand_number}: {' '.join(hand['cards'])} ({hand['total']}) "
                f"bet {format_money(hand['bet'])} {hand['result']} {_signed(hand['net'])}"
            )
        if "insurance" in box:
            insurance = box["insurance"]
            lines.append(
                f"box {number} insurance {format_money(insurance['bet'])} "
                f"{_signed(insurance['net'])}"
            )
        lines.append(f"box {number} net {_signed(box['net'])}")
    dealer = out["dealer"]
    lines.append(f"dealer: {' '.join(dealer['cards'])} ({dealer['total']})")
    return lines


def _hand_text(hand: dict[str, Any]) -> str:
    cards = " ".join(hand.get("cards", [])) or "-"
    shown = ", ".join(str(part) for part in (hand.get("total"), hand.get("hand")) if part)
    return f"{cards} ({shown})" if shown else cards


def _exchange_lines(out: dict[str, Any]) -> list[str]:
    lines = [f"{name}: {_hand_text(hand)}" for name, hand in out.get("hands", {}).items()]
    width = max((len(name) for name in out.get("selections", {})), default=0)
    for name, selection in out.get("selections", {}).items():
        lines.append(
            f"{name:<{width}}  {selection['result']:<6}  settled after round "
            f"{selection['settled_after_round']}"
        )
    return lines


def _vinte_lines(out: dict[str, Any]) -> list[str]:
    lines = []
    for played in out["rounds"]:
        banker = played["banker"]
        cards = " ".join(played["banker_cards"])
        lines.append(
            f"round {played['number']}: seat {banker} banks, {cards} ({played['banker_total']})"
        )
        for hand in played["hands"]:
            result = hand["result"] or hand["status"]
            net = "" if hand["net"] is None else f" {hand['net']:+d}"
            lines.append(
                f"  seat {hand['seat']}: {' '.join(hand['cards'])} ({hand['total']}) "
                f"bet {hand['bet']} {result}{net}"
            )
        lines.append(f"  banker net {played['banker_net']:+d}")
    stacks = ", ".join(f"seat {seat} {chips}" for seat, chips in enumerate(out["stacks"]))
    lines.append(f"chips: {stacks}")
    if out.get("winners"):
        lines.append(f"winners: {', '.join(f'seat {seat}' for seat in out['winners'])}")
    return lines


#: How each game's replay reads as text, by the registry's game name.
TEXT: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "casino": _house_lines,
    "online": _house_lines,
    "exchange": _exchange_lines,
    "vinte": _vinte_lines,
}


@click.command("replay")
@click.argument("path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def replay(path: str, as_json: bool) -> None:
    """Replay the scenario in FILE ('-' reads standard input)."""
    what = input_name(path, "scenario")
    scenario = unwrap_scenario(load_scenario(read_input(path, what), what))
    out = run_scenario(scenario)
    if as_json:
        click.echo(json.dumps(out))
        return
    for line in TEXT[scenario["game"]](out):
        click.echo(line)
