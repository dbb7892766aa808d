"""``twentyone analyze --grid FILE``: one row per rule set, the rows of single ``analyze`` runs;
bad grid files are one line and exit status 2 (the Dask runs: tests/simulation/test_cluster.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from twentyone.cli.main import cli

#: Two rule sets of the infinite shoe (an analysis of a second or less each).
GRID = [
    {"decks": "inf"},
    {"preset": "online", "decks": "inf", "s17": False, "bj_pays": "6:5", "surrender": "late"},
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, content: Any) -> str:
    path = tmp_path / "grid.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def without_seconds(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "seconds"}


def test_two_rule_sets_give_the_rows_of_two_single_runs(tmp_path: Path) -> None:
    code, out, err = run("analyze", "--grid", write(tmp_path, GRID), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["split_strategy"] == "cdz-" and "cluster" not in data
    single = [
        ("--decks", "inf"),
        (
            "--preset",
            "online",
            "--decks",
            "inf",
            "--h17",
            "--bj-pays",
            "6:5",
            "--surrender",
            "late",
        ),
    ]
    assert len(data["rows"]) == 2
    for row, options in zip(data["rows"], single, strict=True):
        code, out, err = run("analyze", *options, "--json")
        assert code == 0, err
        assert without_seconds(row) == without_seconds(json.loads(out))
        assert row["seconds"] >= 0
    first, second = data["rows"]
    assert first["rules"]["max_hands"] == 4 and second["rules"]["max_hands"] == 2
    assert second["rules"]["blackjack_pays"] == "6:5" and second["ev"] < first["ev"]


def test_the_text_has_one_row_per_rule_set(tmp_path: Path) -> None:
    code, out, err = run("analyze", "--grid", write(tmp_path, GRID))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["#", "EV", "optimal", "EV", "basic", "insurance", "rules"]
    assert lines[1].split()[0] == "1" and "infinite deck, S17" in lines[1]
    assert lines[2].split()[0] == "2" and "H17" in lines[2] and "blackjack pays 6:5" in lines[2]
    assert lines[3].startswith("(2 rule sets, cdz- splits, ")


def test_exact_and_the_split_strategy_apply_to_every_row(tmp_path: Path) -> None:
    grid = write(tmp_path, GRID)
    code, out, err = run("analyze", "--grid", grid, "--exact", "--split-strategy", "cdp1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["split_strategy"] == "cdp1"
    for row in data["rows"]:
        numerator, denominator = map(int, row["ev_exact"].split("/"))
        assert numerator / denominator == pytest.approx(row["ev"], abs=1e-9)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[{", ("grid file", "not valid JSON")),
        ({"decks": 6}, ("non-empty JSON list",)),
        ([], ("non-empty JSON list",)),
        ([{"decks": "inf"}, 6], ("rule set 2", "object of rule options")),
        ([{"deck": 6}], ("rule set 1", "unknown rule option 'deck'")),
        ([{"decks": "many"}], ("rule set 1", "decks")),
        ([{"s17": "yes"}], ("rule set 1", "s17 must be true or false")),
        ([{"preset": "vinte"}], ("rule set 1", "preset must be casino or online", "vinte")),
        ([{"preset": 3}], ("rule set 1", "preset must be")),
        ([{"max_hands": 0}], ("rule set 1", "max_hands must be 1 to 16")),
    ],
)
def test_a_bad_grid_file_is_one_line_and_exit_2(
    tmp_path: Path, content: Any, words: tuple[str, ...]
) -> None:
    code, out, err = run("analyze", "--grid", write(tmp_path, content))
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--grid", "MISSING"), ("cannot read grid file",)),
        (("--grid", "GRID", "--decks", "2"), ("--grid", "no rule options")),
        (("--grid", "GRID", "--preset", "online"), ("no rule options",)),
        (("--grid", "GRID", "--split-strategy", "cdp"), ("unknown split strategy",)),
        (("--grid", "FINITE", "--exact"), ("rule set 1", "infinite shoe")),
        (("--cluster", "local:2"), ("--grid FILE",)),
    ],
)
def test_bad_grid_options_are_one_line_and_exit_2(
    tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    files = {
        "GRID": write(tmp_path, GRID),
        "MISSING": str(tmp_path / "missing.json"),
        "FINITE": str(tmp_path / "finite.json"),
    }
    Path(files["FINITE"]).write_text(json.dumps([{"decks": 6}]))
    code, out, err = run("analyze", *(files.get(arg, arg) for arg in args))
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)
