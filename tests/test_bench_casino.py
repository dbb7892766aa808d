"""bench/casino_table.py, the live Casino table's load test: its frame scan and its short mode
(moved here from tests/web/test_casino_page.py: it needs no browser)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "casino_table.py"


def _bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("casino_table_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_spectator_reads_the_step_from_the_head_of_the_frame() -> None:
    """The server's frame as it writes it (type and seq first) gives its step without decoding
    the whole frame; a frame written in another field order is decoded after all."""
    bench = _bench_module()
    frame = json.dumps(
        {"type": "state", "seq": 1234, "table": {"step": 1234}, "event": None},
        separators=(",", ":"),
    )
    assert bench.frame_step(frame) == 1234
    assert bench.frame_step(frame.encode()) == 1234
    assert bench.frame_step('{"seq":7,"type":"state","table":{}}') == 7
    assert bench.frame_step('{"type":"pong"}') is None
    assert bench.frame_step('{"type":"private","balance":5,"boxes":[1]}') is None


@pytest.mark.slow
def test_the_load_bench_runs_in_its_short_mode() -> None:
    """bench/casino_table.py --short: a real server, 7 bots, 20 spectators in one child
    process, 2 rounds; one JSON object with the action-to-last-spectator latency (its value is
    not asserted: this machine's load decides it; the bench's own target is reported in
    ``meets_target``)."""
    done = subprocess.run(
        [sys.executable, str(BENCH), "--short", "--seconds", "60"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["spectators"] == 20 and result["boxes"] == 7
    assert result["rounds"] == 2, result
    assert result["errors"] == {}, result
    assert result["by_request"]["bet"]["count"] >= 14  # 7 boxes bet in each round
    assert result["by_request"]["action"]["count"] >= 14  # every box decides at least once
    latency = result["to_last_spectator_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert result["answer_ms"]["p50"] > 0
    assert result["frames"] > 0 and result["dropped_spectators"] == 0 and result["missing"] == 0
    assert result["client_processes"] == 1 and result["spectators_cpu_seconds"] > 0
    assert result["client_cpu_seconds"] >= result["bots_cpu_seconds"]
