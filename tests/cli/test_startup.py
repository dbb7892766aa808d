"""Start-up of the ``twentyone`` command: what each command loads, and the stored figures.

A command that computes nothing heavy (``--help``, ``rules``, ``dealer``) must not load numpy
or numba: importing numba costs about half a second of CPU (issue 19, docs/performance.md).
Each command runs in a fresh interpreter (this test process has loaded the kernels long ago),
which reports the numpy/numba modules it has loaded once the command is done.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from twentyone.cli import preset_figures
from twentyone.cli.main import cli

_PROBE = """
import contextlib, io, json, sys
from twentyone.cli.main import main
sys.argv = ["twentyone", *sys.argv[1:]]
code = 0
try:
    with contextlib.redirect_stdout(io.StringIO()):
        main()
except SystemExit as stop:
    code = stop.code or 0
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "numba"))
print(json.dumps({"code": code, "heavy": heavy}))
"""


def _heavy_modules_loaded_by(*arguments: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["code"] == 0, done.stderr
    heavy: list[str] = report["heavy"]
    return heavy


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["rules", "casino"],
        ["rules"],
        ["rules", "online", "--json"],
        ["dealer"],
        ["dealer", "--decks", "inf", "--no-blackjack", "--json"],
    ],
    ids=" ".join,
)
def test_a_command_that_computes_little_loads_no_numpy_or_numba(arguments: list[str]) -> None:
    assert _heavy_modules_loaded_by(*arguments) == []


def test_the_probe_sees_numba_when_a_command_loads_it() -> None:
    """The check can fail: ``hand`` computes with the compiled kernels."""
    loaded = _heavy_modules_loaded_by("hand", "8S", "8D", "--up", "6", "--decks", "inf")
    assert "numba" in loaded and "numpy" in loaded


def test_the_stored_figures_are_what_the_analysis_computes() -> None:
    """To the last bit, for every preset that has figures; regenerate the table if not
    (``python -m twentyone.cli.preset_figures``)."""
    assert preset_figures.computed_figures() == preset_figures.STORED


def test_figures_not_stored_for_these_rules_are_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = CliRunner().invoke(cli, ["rules", "online", "--json"])
    online_rules, figures = preset_figures.STORED["online"]
    wrong = {name: value + 1.0 for name, value in figures.items()}
    changed_rules = {**online_rules, "decks": 8}  # a preset whose rules changed since
    monkeypatch.setitem(preset_figures.STORED, "online", (changed_rules, wrong))
    computed = CliRunner().invoke(cli, ["rules", "online", "--json"])
    assert stored.exit_code == computed.exit_code == 0
    assert json.loads(computed.output) == json.loads(stored.output)
    assert json.loads(computed.output)["expected_return"] == figures["expected_return"]


def _bench_module() -> Any:
    path = Path(__file__).resolve().parents[2] / "bench" / "startup.py"
    spec = importlib.util.spec_from_file_location("bench_startup", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_measures_a_command_and_refuses_a_failing_one() -> None:
    bench = _bench_module()
    assert 0 < bench.cpu_seconds_of(["--help"]) < 60
    with pytest.raises(SystemExit, match="no-such-command"):
        bench.cpu_seconds_of(["no-such-command"])
    assert set(bench.TARGETS) <= set(bench.COMMANDS) and set(bench.BEFORE) == set(bench.COMMANDS)
