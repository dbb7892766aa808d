"""The game registry: every game as data, its parts loaded by explicit functions on demand."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from twentyone import games, scenario
from twentyone.cli import main as cli_main
from twentyone.errors import ScenarioError
from twentyone.games import GAMES, game, house_banked_games
from twentyone.presets import PRESETS

SOURCE = Path(games.__file__).parent


def test_every_preset_is_a_registered_game() -> None:
    assert set(GAMES) == set(PRESETS)
    for name, entry in GAMES.items():
        assert entry.name == name and entry.rules == PRESETS[name]
    assert house_banked_games() == ["casino", "online"]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_has_a_scenario_runner(name: str) -> None:
    assert callable(game(name).load_scenario_runner())


def test_importing_the_registry_loads_no_game() -> None:
    probe = (
        "import sys, twentyone.games, twentyone.scenario, twentyone.cli.main; "
        "print(sorted(m for m in sys.modules if m.startswith(('twentyone.exchange', "
        "'twentyone.vinte', 'twentyone.analysis', 'numpy', 'numba'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module", [games, scenario, cli_main])
def test_no_module_is_loaded_by_a_name_string(module: object) -> None:
    # The registry and the command table import their parts with plain import statements.
    tree = ast.parse(Path(module.__file__).read_text())  # type: ignore[attr-defined]
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert "importlib" not in names and "import_module" not in attributes
    assert "__import__" not in names


def test_unknown_names_are_typed_errors() -> None:
    for bad in ("poker", "", ["casino"], None, 7):
        with pytest.raises(games.UnknownGameError, match="unknown game"):
            game(bad)


def test_scenarios_are_run_by_the_registry() -> None:
    out = scenario.run_scenario(
        {
            "game": "exchange",
            "cards": ["TS", "6H", "9D", "9C", "AS", "KD", "5C", "2H", "7C", "TC", "TD", "3D", "8S"],
        }
    )
    assert out["selections"]["Player 3"] == {"result": "winner", "settled_after_round": 4}
    with pytest.raises(ScenarioError, match="unknown game 'poker'"):
        scenario.run_scenario({"game": "poker"})


def test_every_command_loader_returns_its_command() -> None:
    for name, entry in cli_main.SUBCOMMANDS.items():
        assert entry.load().name == name
