"""bench/exchange_table.py, the live Exchange table's load test, in its short mode: a real
server, 50 bettors over WebSockets placing and cancelling orders until the first reveal has
reached every one of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "exchange_table.py"


@pytest.mark.slow
def test_the_exchange_load_bench_runs_in_its_short_mode() -> None:
    """One JSON object with order acknowledgement times and the reveal-to-client lag; their
    values are not asserted (this machine's load decides them; ``meets_target`` reports the
    issue's target)."""
    done = subprocess.run(
        [sys.executable, str(BENCH), "--short", "--seconds", "90"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["bettors"] == 50 and result["errors"] == {}, result
    assert result["reveals_seen_by_all"] >= 1, result
    assert result["ack_ms"]["count"] > 0 and result["statuses"].get("order 201", 0) > 0
    assert not any(key.endswith(("500", "502")) for key in result["statuses"]), result
    lag = result["reveal_lag_ms"]
    assert lag["count"] >= 50 and 0 <= lag["p50"] <= lag["p99"] <= lag["max"]
    assert isinstance(result["meets_target"], bool)
