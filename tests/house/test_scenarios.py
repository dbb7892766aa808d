"""Every JSON file under tests/scenarios is a rule test, replayed by the code behind `twentyone replay`.

A file holds a scenario plus ``expect``: either ``{"error": "words the error must contain"}`` or a
partial replay output that the real output must match (objects: the listed keys; lists: same
length, item by item).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from twentyone.errors import ScenarioError, TwentyOneError
from twentyone.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.json"))


def assert_matches(actual: Any, expected: Any, where: str = "output") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: missing key {key!r}"
            assert_matches(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for index, (item, want) in enumerate(zip(actual, expected, strict=True)):
            assert_matches(item, want, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    expect = data["expect"]
    if "error" in expect:
        with pytest.raises(TwentyOneError) as caught:
            run_scenario(data)
        assert isinstance(caught.value, ScenarioError | TwentyOneError)
        message = str(caught.value)
        for words in [expect["error"]] if isinstance(expect["error"], str) else expect["error"]:
            assert words in message, f"{message!r} does not say {words!r}"
        return
    output = run_scenario(data)
    assert_matches(output, expect)
    # Money is conserved: the boxes' nets are the sum of their parts.
    for box in output["boxes"]:
        parts = sum(hand["net"] for hand in box["hands"]) + box.get("insurance", {}).get("net", 0)
        assert box["net"] == parts
