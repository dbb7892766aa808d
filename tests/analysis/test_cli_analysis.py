"""The ``dealer``, ``analyze`` and ``strategy`` commands: JSON contracts and bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from twentyone.cli.main import cli
from twentyone.strategy_chart import StrategyChart

UPCARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]


def _run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_dealer_json_shape() -> None:
    code, out, _ = _run("dealer", "--decks", "inf", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"]["decks"] == "inf"
    assert list(data["upcards"]) == UPCARDS
    for results in data["upcards"].values():
        assert set(results) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
        assert sum(results.values()) == pytest.approx(1.0, abs=1e-12)
    assert data["upcards"]["6"]["bust"] == pytest.approx(345176856 / 13**8, abs=1e-13)


def test_dealer_no_blackjack() -> None:
    code, out, _ = _run("dealer", "--decks", "1", "--json", "--no-blackjack")
    assert code == 0
    table = json.loads(out)["upcards"]
    assert table["A"]["blackjack"] == 0 and round(table["A"]["bust"], 6) == 0.169815


def test_analyze_json_shape() -> None:
    code, out, _ = _run("analyze", "--preset", "online", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"rules", "ev", "ev_by_upcard", "basic_strategy_ev", "seconds"} <= set(data)
    assert list(data["ev_by_upcard"]) == UPCARDS
    assert data["rules"]["max_hands"] == 2
    assert -0.01 < data["basic_strategy_ev"] <= data["ev"] < 0
    assert data["seconds"] > 0


def test_analyze_exact_infinite_deck() -> None:
    code, out, _ = _run(
        "analyze", "--decks", "inf", "--peek", "ace-ten", "--enhc-loses", "original",
        "--surrender", "none", "--max-hands", "4", "--exact", "--json",
    )  # fmt: skip
    assert code == 0
    numerator, denominator = (int(x) for x in json.loads(out)["ev_exact"].split("/"))
    assert round(numerator / denominator * 100, 6) == -0.511734


def test_strategy_json_is_a_chart() -> None:
    code, out, _ = _run("strategy", "--preset", "casino", "--json")
    assert code == 0
    data = json.loads(out)
    chart = StrategyChart.from_json(data["chart"])
    assert chart.hard[11][6] == "D"
    assert data["basic_strategy_ev"] < 0


def test_text_output() -> None:
    code, out, _ = _run("strategy", "--preset", "online")
    assert code == 0 and "pairs" in out and "EV playing this chart" in out
    code, out, _ = _run("analyze", "--preset", "online", "--decks", "inf")
    assert code == 0 and "basic strategy" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("analyze", "--decks", "-1"), "decks"),
        (("analyze", "--max-hands", "0"), "max_hands"),
        (("dealer", "--decks", "many"), "decks"),
        (("analyze", "--exact"), "infinite"),
        (("strategy", "--bj-pays", "3-2"), "ratio"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(arguments: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*arguments)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_unknown_option_is_exit_2() -> None:
    code, _, err = _run("analyze", "--colour", "red")
    assert code == 2 and "No such option" in err


def test_analyze_split_strategy_option() -> None:
    base = ["analyze", "--decks", "1", "--peek", "ace-ten", "--max-hands", "4", "--json"]
    code, out, _ = _run(*base)
    assert code == 0
    cdz = json.loads(out)
    assert cdz["split_strategy"] == "cdz-"
    code, out, _ = _run(*base, "--split-strategy", "cdp1")
    assert code == 0
    cdp1 = json.loads(out)
    assert cdp1["split_strategy"] == "cdp1"
    assert cdp1["basic_strategy_ev"] == cdz["basic_strategy_ev"]  # the chart plays its own splits
    assert 0 < abs(cdp1["ev"] - cdz["ev"]) < 1e-3
    code, out, err = _run(*base, "--split-strategy", "cdp")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "split strategy" in err


@pytest.mark.parametrize("game", ["vinte", "exchange"])
@pytest.mark.parametrize("command", ["dealer", "analyze", "strategy"])
def test_presets_of_other_games_are_refused(command: str, game: str) -> None:
    code, out, err = _run(command, "--preset", game)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "not a house-banked game" in err and "casino or online" in err


def test_a_run_that_compiles_a_kernel_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import numba

    import twentyone.analysis.dealer as dealer
    from twentyone.cli import progress

    real = dealer.dealer_distributions

    def compiling(*args: object, **kwargs: object) -> object:
        numba.njit(lambda x: x + 1)(1)  # a function numba has never seen: compiled now
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(progress, "_said", False)
    monkeypatch.setattr(dealer, "dealer_distributions", compiling)
    code, out, err = _run("dealer", "--decks", "inf", "--json")
    assert code == 0 and err == "compiling kernels, first run only...\n"
    assert json.loads(out)["rules"]["decks"] == "inf"  # stdout is still the one JSON object
    # The kernels are compiled now (or were loaded from the disk cache): nothing is said.
    monkeypatch.setattr(progress, "_said", False)
    monkeypatch.setattr(dealer, "dealer_distributions", real)
    code, _, err = _run("dealer", "--decks", "inf", "--json")
    assert code == 0 and err == ""


def test_penetration_is_shown_as_a_decimal() -> None:
    code, _, err = _run("dealer", "--shuffle", "cut:1.5")
    assert code == 2 and "1.5" in err and "3/2" not in err


def test_analyze_text_shows_every_ev_in_percent_with_a_sign() -> None:
    import re

    code, out, _ = _run("analyze", "--decks", "inf")
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("(")]
    signed = re.findall(r"[+-]\d+\.\d+%?", "\n".join(lines))
    assert len(signed) >= 12  # the EVs, insurance and ten up cards
    assert all(number.endswith("%") for number in signed), signed
    assert "/" not in out  # an exact fraction only when asked for
    code, out, _ = _run("analyze", "--decks", "inf", "--exact", "--json")
    assert "/" in json.loads(out)["ev_exact"]
