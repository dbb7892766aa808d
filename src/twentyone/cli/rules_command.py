"""``twentyone rules [PRESET]``: a preset's rules in words and as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.presets import PRESETS, preset
from twentyone.rules import Rules
from twentyone.rules_text import describe_preset


def _house_game_figures(rules: Rules) -> dict[str, float]:
    from twentyone.analysis.house_edge import basic_strategy_ev, expected_return

    return {
        "expected_return": expected_return(rules),
        "basic_strategy_ev": basic_strategy_ev(rules),
    }


def _exchange_figures(rules: Rules) -> dict[str, float]:
    from twentyone.exchange.solver import overall_ev

    return {"hand_expected_return": float(overall_ev(rules.dealer_hits_soft_17))}


#: How each preset's theoretical return is computed (Vinte-e-um has none: players bet each other).
FIGURES: dict[str, Callable[[Rules], dict[str, float]]] = {
    "casino": _house_game_figures,
    "online": _house_game_figures,
    "exchange": _exchange_figures,
}

LABELS = {
    "expected_return": "house edge with perfect play",
    "basic_strategy_ev": "house edge with basic strategy",
    "hand_expected_return": "house edge of a hand played by the logic table",
}


@click.command("rules")
@click.argument("preset_name", required=False, metavar="[PRESET]")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def rules_command(preset_name: str | None, as_json: bool) -> None:
    """Show the rules of PRESET (all presets if omitted), with the house edge."""
    names = [preset_name] if preset_name else sorted(PRESETS)
    presets = {name: preset(name) for name in names}
    out: dict[str, Any] = {}
    for name, rules in presets.items():
        out[name] = {"rules": rules.to_json(), "description": describe_preset(name, rules)}
        if name in FIGURES:
            out[name].update(FIGURES[name](rules))
    if as_json:
        click.echo(json.dumps(out if preset_name is None else out[preset_name], indent=2))
        return
    for name, entry in out.items():
        click.echo(f"{name}:")
        for line in entry["description"]:
            click.echo(f"  - {line}")
        for key, label in LABELS.items():
            if key in entry:
                click.echo(f"  {label}: {-entry[key]:.4%}")
