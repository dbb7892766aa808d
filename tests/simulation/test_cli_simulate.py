"""``twentyone simulate``: JSON shape, reproducibility, counting options, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from twentyone.analysis.strategy import basic_strategy
from twentyone.cli.main import cli
from twentyone.presets import CASINO


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_has_the_interface_shape_and_is_reproducible() -> None:
    args = ("--preset", "online", "--rounds", "20000", "--seed", "5", "--workers", "1", "--json")
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    for key in ("rules", "rounds", "ev", "se", "sd", "hands_per_second", "seconds"):
        assert key in data
    assert data["rounds"] == 20_000 and data["rules"]["max_hands"] == 2
    again = json.loads(run(*args)[1])
    assert again["ev"] == data["ev"] and again["sd"] == data["sd"]


def test_counting_options_and_report(tmp_path: Path) -> None:
    chart = tmp_path / "chart.json"
    chart.write_text(json.dumps(basic_strategy(CASINO).to_json()))
    code, out, err = run(
        "--rounds", "30000", "--seed", "1", "--workers", "1", "--chart", str(chart),
        "--count", "hi-lo", "--indices", "hi-lo-i18-fab4", "--spread", "1:2,2:4,3:8,4:12",
        "--bankroll", "500",
    )  # fmt: skip
    assert code == 0, err
    assert "count: hi-lo, index plays: hi-lo-i18-fab4, bet spread 1-12" in out
    assert "risk of ruin (500 units)" in out
    assert "strategy: given chart" in out


def test_count_json_reports_the_count_setup() -> None:
    code, out, _ = run(
        "--rounds", "5000", "--seed", "1", "--workers", "1", "--count", "ko",
        "--spread", "1:4", "--insure-at", "3", "--json",
    )  # fmt: skip
    assert code == 0
    count = json.loads(out)["count"]
    assert count == {
        "system": "ko",
        "indices": None,
        "spread": 4,
        "ramp": [[1.0, 4]],
        "insure_at": 3.0,
    }


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    cases = [
        ("--rounds", "0"),
        ("--count", "nope"),
        ("--spread", "1:2"),
        ("--count", "hi-lo", "--spread", "a:b"),
        ("--chart", str(broken)),
        ("--chart", str(tmp_path / "missing.json")),
        ("--decks", "0"),
        ("--seed", "-1"),
        ("--count", "hi-lo", "--bankroll", "0"),
        ("--insure-at", "2"),
        ("--preset", "casino", "--boxes", "8"),
        ("--preset", "casino", "--boxes", "0"),
        ("--preset", "online", "--boxes", "2"),
        ("--strategy", "cd", "--count", "hi-lo", "--indices", "hi-lo-i18-fab4"),
        ("--strategy", "nope"),
    ]
    for args in cases:
        code, out, err = run("--workers", "1", "--rounds", "10", *args)
        assert code == 2, (args, out, err)
        assert err.startswith("twentyone: error: ") and err.count("\n") == 1, (args, err)


def test_long_runs_on_a_terminal_show_a_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from twentyone.cli import simulate as command
    from twentyone.presets import ONLINE
    from twentyone.simulation import runner

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(command, "PROGRESS_ROUNDS", 1000)
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 1000)
    monkeypatch.setattr(sys, "stderr", terminal)
    config = runner.SimulationConfig(ONLINE, basic_strategy(ONLINE))
    result = command._run(config, rounds=5000, seed=1, workers=1)
    assert result.rounds == 5000
    assert "simulating" in terminal.getvalue()


def test_boxes_and_cd_strategy() -> None:
    code, out, err = run(
        "--preset", "casino", "--boxes", "3", "--strategy", "cd", "--rounds", "20000",
        "--seed", "2", "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["boxes"] == 3 and data["rounds"] == 20_000
    assert data["strategy"].startswith("composition-dependent")
    assert data["sd"] > data["sd_per_box"] > 1
    code, out, err = run("--preset", "casino", "--boxes", "2", "--rounds", "5000", "--seed", "1")
    assert code == 0, err
    assert "boxes: 2" in out and "SD per box" in out


def test_strategy_json_output_is_a_chart_for_simulate(tmp_path: Path) -> None:
    strategy = CliRunner().invoke(cli, ["strategy", "--preset", "online", "--json"])
    assert strategy.exit_code == 0
    chart = tmp_path / "online.json"
    chart.write_text(strategy.stdout)
    code, out, err = run(
        "--preset", "online", "--chart", str(chart), "--rounds", "2000", "--seed", "1",
        "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["strategy"] == "given chart"


@pytest.mark.parametrize(
    "content",
    [
        {"hard": [1, 2], "soft": {}, "pairs": {}},
        {"hard": {"x": {}}, "soft": {}, "pairs": {}},
        [],
        {"chart": []},
    ],
)
def test_a_malformed_chart_is_one_line_without_python_text(tmp_path: Path, content: object) -> None:
    chart = tmp_path / "chart.json"
    chart.write_text(json.dumps(content))
    code, out, err = run("--chart", str(chart), "--rounds", "10", "--workers", "1")
    assert code == 2 and out == ""
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    for python in ("list indices", "object has no attribute", "invalid literal", "KeyError"):
        assert python not in err, err


def test_a_first_run_says_it_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fresh install has no compiled kernels on disk: the run says so before it waits.
    from twentyone.cli import progress
    from twentyone.simulation import runner

    monkeypatch.setattr(progress, "_said", False)
    monkeypatch.setattr(runner, "kernels_cached", lambda *args: False)
    code, out, err = run("--preset", "online", "--rounds", "1000", "--seed", "1", "--workers",
                         "1", "--json")  # fmt: skip
    assert code == 0
    assert err == "compiling kernels, first run only...\n"
    assert json.loads(out)["rounds"] == 1000  # stdout is still the one JSON object
    monkeypatch.setattr(progress, "_said", False)
    monkeypatch.setattr(runner, "kernels_cached", lambda *args: True)
    code, _, err = run("--preset", "online", "--rounds", "1000", "--seed", "1", "--workers", "1")
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--rounds", "99999999999999999999999"), "1 to 1,000,000,000,000"),
        (("--seed", "-1"), "0 to 18,446,744,073,709,551,615"),
        (("--insure-at", "nan"), "--insure-at"),
        (("--count", "hi-lo", "--insure-at", "inf"), "--insure-at"),
        (("--bankroll", "1e400"), "--bankroll"),
    ],
)
def test_numbers_out_of_range_name_the_range(args: tuple[str, ...], words: str) -> None:
    code, out, err = run("--workers", "1", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
