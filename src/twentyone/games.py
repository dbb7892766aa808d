"""The registry of games: what each game is, as data, and where its parts live.

Every place that picks a game by name (``replay``, ``rules``, the ``--preset`` of the analysis
commands, the server) asks this registry instead of loading modules by name: each game's
scenario runner and theoretical figures are reached through a plain function that imports
its module on first use, so importing the registry (and the command line) stays cheap and no
game loads another game's code.

>>> list(GAMES)
['casino', 'online', 'vinte', 'exchange']
>>> game("online").rules.max_boxes, game("online").house_banked
(1, True)
>>> [entry.name for entry in GAMES.values() if entry.house_banked]
['casino', 'online']
>>> game("poker")
Traceback (most recent call last):
...
twentyone.games.UnknownGameError: unknown game 'poker' (expected one of casino, online, vinte, exchange)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twentyone.errors import TwentyOneError
from twentyone.presets import preset
from twentyone.rules import Rules

#: Plays a scenario object (``interfaces.md``) and returns everything that happened.
ScenarioRunner = Callable[[dict[str, Any]], dict[str, Any]]
#: A preset's theoretical figures (``expected_return``, ...), as plain fractions of a unit bet.
Figures = Callable[[Rules], dict[str, float]]


class UnknownGameError(TwentyOneError):
    """A game name the registry does not know."""


@dataclass(frozen=True)
class GameEntry:
    """One game: its name (also the name of its rule preset), what it is, and its parts.

    ``house_banked``: the house banks every bet against a dealer playing fixed rules, so the
    house-game analysis (``dealer``, ``analyze``, ``strategy``, ``simulate``) describes it.
    ``load_scenario_runner`` and ``load_figures`` import their modules when called.
    """

    name: str
    title: str
    house_banked: bool
    load_scenario_runner: Callable[[], ScenarioRunner]
    load_figures: Callable[[], Figures] | None = None

    @property
    def rules(self) -> Rules:
        """The game's rule preset."""
        return preset(self.name)


# ---------------------------------------------------------------- the parts, loaded on demand


def _house_scenario_runner() -> ScenarioRunner:
    from twentyone.scenario import run_house_scenario

    return run_house_scenario


def _exchange_scenario_runner() -> ScenarioRunner:
    from twentyone.exchange.scenario import run_exchange_scenario

    return run_exchange_scenario


def _vinte_scenario_runner() -> ScenarioRunner:
    from twentyone.vinte.scenario import run_vinte_scenario

    return run_vinte_scenario


def _house_figures() -> Figures:
    from twentyone.analysis.house_edge import basic_strategy_ev, expected_return

    def figures(rules: Rules) -> dict[str, float]:
        return {
            "expected_return": expected_return(rules),
            "basic_strategy_ev": basic_strategy_ev(rules),
        }

    return figures


def _exchange_figures() -> Figures:
    from twentyone.analysis.exchange.solver import overall_ev

    def figures(rules: Rules) -> dict[str, float]:
        return {"hand_expected_return": float(overall_ev(rules.dealer_hits_soft_17))}

    return figures


#: Every game, in the order they are listed to users. Vinte-e-um has no theoretical return:
#: its players bet against each other.
GAMES: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry("casino", "Casino Blackjack", True, _house_scenario_runner, _house_figures),
        GameEntry("online", "Online Blackjack", True, _house_scenario_runner, _house_figures),
        GameEntry("vinte", "Vinte-e-um", False, _vinte_scenario_runner),
        GameEntry(
            "exchange", "Exchange Blackjack", False, _exchange_scenario_runner, _exchange_figures
        ),
    )
}


def game(name: object) -> GameEntry:
    """The registered game called ``name``; anything else is an :class:`UnknownGameError`."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise UnknownGameError(f"unknown game {name!r} (expected one of {', '.join(GAMES)})")


def house_banked_games() -> list[str]:
    """The names of the games the house-game analysis describes (``casino``, ``online``)."""
    return [name for name, entry in GAMES.items() if entry.house_banked]
