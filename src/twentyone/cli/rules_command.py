"""``twentyone rules [PRESET]``: a preset's rules in words and as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.presets import PRESETS, preset
from twentyone.rules_text import describe


def house_edge_figures(name: str) -> dict[str, float]:
    """The exact expected return of a preset, where the analysis supports its game."""
    if name not in ("casino", "online"):
        return {}
    from twentyone.analysis.house_edge import expected_return

    return {"expected_return": expected_return(preset(name))}


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
        out[name] = {"rules": rules.to_json(), "description": describe(rules)}
        out[name].update(house_edge_figures(name))
    if as_json:
        click.echo(json.dumps(out if preset_name is None else out[preset_name], indent=2))
        return
    for name, entry in out.items():
        click.echo(f"{name}:")
        for line in entry["description"]:
            click.echo(f"  - {line}")
        if "expected_return" in entry:
            edge = -entry["expected_return"]
            click.echo(f"  house edge with perfect play: {edge:.4%}")
