"""Chart files for ``simulate --chart``: a chart, or the ``strategy --json`` output as it is."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.analysis.strategy import basic_strategy
from twentyone.presets import CASINO, ONLINE
from twentyone.simulation.charts import load_chart
from twentyone.strategy_chart import InvalidChartError, StrategyChart


def strategy_output(rules: Any) -> dict[str, Any]:
    """What ``twentyone strategy --json`` prints (cli/analysis.py), through JSON text."""
    chart = basic_strategy(rules)
    out = {"rules": rules.to_json(), "chart": chart.to_json(), "basic_strategy_ev": -0.005}
    parsed: dict[str, Any] = json.loads(json.dumps(out))
    return parsed


@pytest.mark.parametrize("rules", [CASINO, ONLINE], ids=["casino", "online"])
def test_the_strategy_command_output_is_a_chart_file(rules: Any) -> None:
    assert load_chart(strategy_output(rules)) == basic_strategy(rules)


def test_a_bare_chart_loads_as_before() -> None:
    chart = basic_strategy(CASINO)
    data = json.loads(json.dumps(chart.to_json()))
    assert load_chart(data) == chart == StrategyChart.from_json(data)


def test_ten_and_ace_may_be_written_as_numbers() -> None:
    data = basic_strategy(CASINO).to_json()
    data["pairs"]["10"] = data["pairs"].pop("T")
    data["hard"]["16"]["1"] = data["hard"]["16"].pop("A")
    assert load_chart(data) == basic_strategy(CASINO)


def _broken(change: Any) -> dict[str, Any]:
    data = strategy_output(CASINO)
    change(data["chart"])
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected an object with hard, soft and pairs, got a list"),
        ({"rules": {}, "chart": [1, 2]}, "got a list"),
        (_broken(lambda c: c.pop("soft")), 'the "soft" table is missing'),
        (_broken(lambda c: c.update(hard=[["H"]])), '"hard" must be an object of rows, got a list'),
        (_broken(lambda c: c["hard"].update({"22": c["hard"]["21"]})), "hard row '22' is not"),
        (_broken(lambda c: c["hard"].update({"٢": {}})), "is not a hard total"),
        (_broken(lambda c: c["soft"].update({"17": ["H"] * 10})), "soft[17] must be an object"),
        (_broken(lambda c: c["pairs"]["8"].update({"11": "P"})), "has up card '11'"),
        (_broken(lambda c: c["pairs"].update({"10": c["pairs"]["T"]})), "repeated"),
        (_broken(lambda c: c["hard"]["16"].update({"T": 1})), "must be a code, got a number"),
        (_broken(lambda c: c["hard"]["16"].update({"T": "X"})), "must be one of"),
        (_broken(lambda c: c["hard"].pop("12")), "hard table has no row 12"),
    ],
)
def test_malformed_charts_are_typed_errors_in_plain_words(data: Any, message: str) -> None:
    with pytest.raises(InvalidChartError) as caught:
        load_chart(data)
    text = str(caught.value)
    assert message in text
    for python_text in (
        "indices must be",
        "object has no attribute",
        "KeyError",
        "not subscriptable",
    ):
        assert python_text not in text


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["hard", "soft", "pairs", "chart", "16", "T", "A", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(data=JSON_VALUES)
def test_any_json_is_a_chart_or_a_typed_error(data: Any) -> None:
    try:
        chart = load_chart(data)
    except InvalidChartError:
        return
    assert isinstance(chart, StrategyChart)
