"""Bad states get a clear, typed error; good states report the open round."""

from __future__ import annotations

from typing import Any

import pytest

from twentyone.analysis.exchange.odds import exchange_odds
from twentyone.exchange.logic_table import load_logic_table
from twentyone.exchange.state import ExchangeState, InvalidStateError

EMPTY: dict[str, Any] = {"players": [[], [], [], []], "dealer": [], "played": False}
DEALT: dict[str, Any] = {
    "players": [["TS", "6H"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]],
    "dealer": ["7C"],
    "played": False,
}
PLAYED: dict[str, Any] = {
    "players": [["TS", "6H", "TC"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H", "TD"]],
    "dealer": ["7C"],
    "played": True,
}


def _state(data: dict[str, Any]) -> ExchangeState:
    return ExchangeState.from_json(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**EMPTY, "players": [[], [], []]}, "exactly 4 player hands, got 3"),
        ({**EMPTY, "players": [[], [], [], [], []]}, "exactly 4 player hands, got 5"),
        (
            {**DEALT, "players": [["TS", "XX"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]]},
            "player 1: unknown card",
        ),
        ({**DEALT, "dealer": ["7C", "2D"]}, "dealer shows 2 cards before the players"),
        (
            {**DEALT, "players": [["TS"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]]},
            "player 1 must have at least 2",
        ),
        (
            {**DEALT, "players": [["TS", "6H", "2C"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]]},
            "have not played",
        ),
        (
            {**PLAYED, "players": [["TS", "6H"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H", "TD"]]},
            "player 1 hits TS 6H",
        ),
        (
            {
                **PLAYED,
                "players": [
                    ["TS", "6H", "TC"],
                    ["9D", "9C", "2C"],
                    ["AS", "KD"],
                    ["5C", "2H", "TD"],
                ],
            },
            "player 2 stands on 9D 9C",
        ),
        ({**PLAYED, "dealer": ["7C", "KD", "2C"]}, "dealer stands at card 2"),
        (
            {
                **PLAYED,
                "players": [
                    ["TS", "6H", "TC"],
                    ["TD", "5D", "QD"],
                    ["9S", "3S", "TH"],
                    ["8C", "4C", "JC"],
                ],
                "dealer": ["7C", "2C"],
            },
            "game had ended before the dealer's card 2",
        ),
        ({**EMPTY, "played": True}, "before round 1 nothing is shown"),
        ({**EMPTY, "played": "yes"}, "played must be true or false"),
        ({**EMPTY, "extra": 1}, "unknown key"),
    ],
)
def test_bad_states_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        exchange_odds(_state(data))


def test_not_an_object() -> None:
    with pytest.raises(InvalidStateError, match="JSON object"):
        ExchangeState.from_json([])


def test_open_rounds() -> None:
    table = load_logic_table()
    assert _state(EMPTY).open_round(table) == 1
    assert _state(DEALT).open_round(table) == 2
    assert _state(PLAYED).open_round(table) == 3
    assert _state({**PLAYED, "dealer": ["7C", "2D"]}).open_round(table) == 4
    assert _state({**PLAYED, "dealer": ["7C", "KD"]}).open_round(table) is None
    assert _state(PLAYED).to_json() == PLAYED
