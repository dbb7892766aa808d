"""``twentyone replay``: the project's own scenario files, text for every game, one card rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from twentyone.cli.main import cli

TESTS = Path(__file__).parent.parent
EXCHANGE_FILES = sorted((TESTS / "exchange" / "scenarios").glob("*.json"))
VINTE_FILES = sorted((TESTS / "vinte" / "scenarios").glob("*.json"))
SPEC_EXAMPLE = TESTS / "scenarios" / "casino_example_from_spec.json"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_there_are_exchange_scenario_files() -> None:
    assert len(EXCHANGE_FILES) >= 5


@pytest.mark.parametrize("path", EXCHANGE_FILES, ids=[path.stem for path in EXCHANGE_FILES])
def test_replay_plays_the_wrapped_exchange_rule_tests(path: Path) -> None:
    # The files wrap the scenario: {"description": ..., "scenario": {...}, "expect": {...}}.
    expect = json.loads(path.read_text())["expect"]
    code, out, err = run("replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["selections"] == expect["selections"]
    assert data["hands"]["Dealer"]["cards"] == expect["dealer"]


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def test_exchange_replay_prints_text_without_json() -> None:
    code, out, err = run("replay", str(EXCHANGE_FILES[0]))
    assert code == 0, err
    assert not _is_json(out)
    lines = out.splitlines()
    assert lines[0].startswith("Player 1: ") and any(line.startswith("Dealer: ") for line in lines)
    assert any(
        line.startswith("All cards unique") and "settled after round" in line for line in lines
    )


def _finished_vinte_file() -> Path:
    for path in VINTE_FILES:
        data = json.loads(path.read_text())
        if "expect_error" not in data and data.get("expect", {}).get("phase") == "deal":
            return path
    raise AssertionError("no finished vinte scenario")


def test_vinte_replay_prints_text_without_json_and_json_with_it() -> None:
    path = _finished_vinte_file()
    code, out, err = run("replay", str(path))
    assert code == 0, err
    assert not _is_json(out)
    assert out.startswith("round 1: seat ") and "banks" in out and "chips: seat 0 " in out
    code, out, _ = run("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["game"] == "vinte"


def test_casino_replay_shows_money_in_units_and_boxes_from_one() -> None:
    code, out, err = run("replay", str(SPEC_EXAMPLE))
    assert code == 0, err
    assert out.splitlines() == [
        "box 1 hand 1: 9S 2C TH (21) bet 20.00 win +20.00",
        "box 1 net +20.00",
        "box 2 hand 1: 7H 9D (16) bet 5.00 lose -5.00",
        "box 2 insurance 2.50 -2.50",
        "box 2 net -7.50",
        "dealer: AD 6S (17)",
    ]


def test_replay_json_keeps_minor_units() -> None:
    code, out, _ = run("replay", str(SPEC_EXAMPLE), "--json")
    assert code == 0
    boxes = json.loads(out)["boxes"]
    assert [box["net"] for box in boxes] == [2000, -750]
    assert boxes[1]["insurance"] == {"bet": 250, "net": -250}


# ---------------------------------------------------------------- one rule for extra cards


def _replay_json(scenario: dict[str, Any]) -> dict[str, Any]:
    code, out, err = run("replay", "-", "--json", stdin=json.dumps(scenario))
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_cards_never_reached_are_the_rest_of_the_shoe_in_a_house_game() -> None:
    scenario = json.loads(SPEC_EXAMPLE.read_text())
    longer = {**scenario, "cards": [*scenario["cards"], "5C", "5D"]}
    assert _replay_json(longer)["boxes"] == _replay_json(scenario)["boxes"]


def test_cards_never_reached_are_the_rest_of_the_shoe_in_an_exchange_game() -> None:
    scenario = json.loads(EXCHANGE_FILES[0].read_text())["scenario"]
    longer = {**scenario, "cards": [*scenario["cards"], "2S"]}
    assert _replay_json(longer)["selections"] == _replay_json(scenario)["selections"]


def test_a_shoe_that_runs_out_names_the_missing_card() -> None:
    scenario = json.loads(SPEC_EXAMPLE.read_text())
    short = {**scenario, "cards": scenario["cards"][:-1]}
    code, _, err = run("replay", "-", stdin=json.dumps(short))
    assert code == 2 and err.count("\n") == 1 and "'cards' is too short" in err


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        ({"game": "poker"}, "unknown game 'poker'"),
        ({"game": ["casino"]}, "unknown game"),
        ({"scenario": {"game": "chess"}}, "unknown game 'chess'"),
        ([], "must be a JSON object"),
    ],
)
def test_unknown_games_are_one_line(scenario: Any, words: str) -> None:
    code, out, err = run("replay", "-", stdin=json.dumps(scenario))
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
