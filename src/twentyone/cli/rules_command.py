"""``twentyone rules [PRESET]``: a preset's rules in words and as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.cli.preset_figures import stored_figures
from twentyone.games import GAMES, game
from twentyone.presets import preset
from twentyone.rules_text import describe_preset

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
    if preset_name is not None:
        preset(preset_name)  # an unknown name is refused as a preset, the argument's name
    entries = [game(preset_name)] if preset_name is not None else list(GAMES.values())
    out: dict[str, Any] = {}
    for entry in sorted(entries, key=lambda entry: entry.name):
        rules = entry.rules
        out[entry.name] = {
            "rules": rules.to_json(),
            "description": describe_preset(entry.name, rules),
        }
        # Vinte-e-um has no theoretical return: its players bet against each other. A preset's
        # figures are stored (computing them loads the analysis: seconds of CPU, for a number
        # that only changes with the preset's rules; see cli/preset_figures.py).
        if entry.load_figures is not None:
            figures = stored_figures(entry.name, rules)
            out[entry.name].update(figures or entry.load_figures()(rules))
    if as_json:
        click.echo(json.dumps(out if preset_name is None else out[preset_name], indent=2))
        return
    for name, entry_out in out.items():
        click.echo(f"{name}:")
        for line in entry_out["description"]:
            click.echo(f"  - {line}")
        for key, label in LABELS.items():
            if key in entry_out:
                click.echo(f"  {label}: {-entry_out[key]:.4%}")
