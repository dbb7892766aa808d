"""The presets' theoretical figures, computed once and stored, for ``twentyone rules``.

A preset's rules never change between runs, so neither do its house edges; computing them
takes the exact analysis (numpy, numba, about two seconds of CPU) and ``twentyone rules``
only shows them. Each figure is stored with the rules it was computed for (their JSON), and
is used only while the preset's rules are still exactly those: a preset whose rules change
is computed again, as before, until this table is regenerated
(``python -m twentyone.cli.preset_figures`` prints it). ``tests/cli/test_startup.py``
checks every stored figure against the analysis, to the last bit.

>>> from twentyone.games import game
>>> stored_figures("casino", game("casino").rules)["expected_return"] < 0
True
"""

from __future__ import annotations

import json
from typing import Any

from twentyone.rules import Rules

#: preset name -> (the rules the figures were computed for, as JSON; the figures).
STORED: dict[str, tuple[dict[str, Any], dict[str, float]]] = {
    "casino": (
        {
            "aces_high": True,
            "blackjack_pays": "3:2",
            "dealer_hits_soft_17": False,
            "decks": 6,
            "double": "any",
            "double_after_split": True,
            "enhc_loses": "all",
            "five_card_hand": "none",
            "hit_split_aces": False,
            "insurance": True,
            "max_bet": 50000,
            "max_boxes": 7,
            "max_hands": 4,
            "min_bet": 100,
            "peek": "none",
            "resplit_aces": False,
            "shuffle": "cut:0.75",
            "split_by": "value",
            "surrender": "late",
            "ties": "push",
        },
        {"expected_return": -0.004352971206912755, "basic_strategy_ev": -0.00438772800547825},
    ),
    "online": (
        {
            "aces_high": True,
            "blackjack_pays": "3:2",
            "dealer_hits_soft_17": False,
            "decks": 6,
            "double": "any",
            "double_after_split": True,
            "enhc_loses": "all",
            "five_card_hand": "none",
            "hit_split_aces": False,
            "insurance": True,
            "max_bet": 100000,
            "max_boxes": 1,
            "max_hands": 2,
            "min_bet": 100,
            "peek": "ace-ten",
            "resplit_aces": False,
            "shuffle": "round",
            "split_by": "value",
            "surrender": "none",
            "ties": "push",
        },
        {"expected_return": -0.004568862972933754, "basic_strategy_ev": -0.00459935593621591},
    ),
    "exchange": (
        {
            "aces_high": True,
            "blackjack_pays": "3:2",
            "dealer_hits_soft_17": False,
            "decks": "inf",
            "double": "none",
            "double_after_split": False,
            "enhc_loses": "all",
            "five_card_hand": "beats-blackjack",
            "hit_split_aces": False,
            "insurance": False,
            "max_bet": 50000,
            "max_boxes": 4,
            "max_hands": 1,
            "min_bet": 100,
            "peek": "none",
            "resplit_aces": False,
            "shuffle": "continuous",
            "split_by": "value",
            "surrender": "none",
            "ties": "push",
        },
        {"hand_expected_return": -0.03896031181657643},
    ),
}


def stored_figures(name: str, rules: Rules) -> dict[str, float] | None:
    """The stored figures of preset ``name`` if they were computed for ``rules``, else None."""
    entry = STORED.get(name)
    if entry is None or entry[0] != rules.to_json():
        return None
    return dict(entry[1])


def computed_figures() -> dict[str, tuple[dict[str, Any], dict[str, float]]]:
    """Every preset's figures, computed now by the analysis (what :data:`STORED` holds)."""
    from twentyone.games import GAMES

    out: dict[str, tuple[dict[str, Any], dict[str, float]]] = {}
    for name, entry in GAMES.items():
        if entry.load_figures is not None:
            out[name] = (entry.rules.to_json(), entry.load_figures()(entry.rules))
    return out


def _print_table() -> None:
    table: dict[str, Any] = computed_figures()
    print(json.dumps(table, indent=2))


if __name__ == "__main__":
    _print_table()
