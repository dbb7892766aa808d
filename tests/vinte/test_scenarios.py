"""Every rule sentence of the seed and every decided point, as a replayable scenario file.

Each ``scenarios/*.json`` names the rule it shows in ``description`` and carries either
``expect`` (a subset of the replay output that must match) or ``expect_error`` (a part of
the one-line message of the :class:`ScenarioError` it must raise).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from twentyone.errors import ScenarioError
from twentyone.vinte.scenario import run_vinte_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def assert_subset(expected: Any, actual: Any, where: str = "") -> None:
    """``expected`` dicts are subsets of ``actual``; lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: missing key {key!r}"
            assert_subset(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), (
            f"{where}: {len(actual)} items, expected {len(expected)}"
        )
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            assert_subset(want, got, f"{where}[{index}]")
    else:
        assert expected == actual, f"{where}: expected {expected!r}, got {actual!r}"


def test_there_is_a_scenario_per_rule() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    assert data["description"], "every scenario names the rule it shows"
    if "expect_error" in data:
        with pytest.raises(ScenarioError) as caught:
            run_vinte_scenario(data)
        message = str(caught.value)
        assert data["expect_error"] in message
        assert "\n" not in message
    else:
        assert_subset(data["expect"], run_vinte_scenario(data), path.stem)
