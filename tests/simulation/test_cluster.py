"""Simulations and analysis batches on Dask (``--cluster``): the same sums as in process.

One ``LocalCluster`` of two worker processes is started for the module (a few seconds); the
command-line tests start their own (``local:N``), as a user's command does.
"""

from __future__ import annotations

import io
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from twentyone.analysis.grid import analyze_grid
from twentyone.analysis.strategy import basic_strategy
from twentyone.cli.main import cli
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Rules
from twentyone.simulation import cluster, runner
from twentyone.simulation.errors import SimulationError
from twentyone.simulation.runner import SimulationConfig, simulate

pytestmark = pytest.mark.slow


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with cluster.connect("local:2") as connected:
        assert cluster.worker_count(connected) == 2
        yield connected


def test_two_workers_give_the_in_process_sums_to_the_last_digit(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several chunks (a short chunk at the end), any worker running any of them: equal totals,
    so the EV is equal to the last digit; another seed gives other totals (the test can fail)."""
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 40_000)
    config = SimulationConfig(CASINO, basic_strategy(CASINO))
    one = simulate(config, rounds=250_000, seed=42, workers=1)
    two = simulate(config, rounds=250_000, seed=42, workers=2)
    told: list[int] = []
    on_cluster = cluster.simulate_on_cluster(config, 250_000, 42, client, told.append)
    assert on_cluster.totals == one.totals == two.totals
    assert on_cluster == one and on_cluster.ev == one.ev and on_cluster.sd == one.sd
    assert on_cluster.workers == 2
    assert sorted(told) == [10_000] + [40_000] * 6  # each chunk once, as it finished
    other = cluster.simulate_on_cluster(config, 250_000, 43, client)
    assert other.totals != one.totals


def test_the_table_kernel_runs_on_the_cluster_too(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table kernel (3 boxes) on the workers: the same sums as in process."""
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 10_000)
    config = SimulationConfig.for_rules(CASINO, boxes=3)
    here = simulate(config, rounds=25_000, seed=7)  # first: a cold kernel compiles here once
    assert cluster.simulate_on_cluster(config, 25_000, 7, client).totals == here.totals


def test_results_come_back_in_task_order_whatever_order_they_finish_in(client: Any) -> None:
    """The first task waits until the client has seen the second finish (a Dask event set by
    the progress callback, no sleep): the second is reported first, and still yielded second."""
    import distributed

    event_of: Any = distributed.Event  # untyped in Dask
    name = f"test-order-{id(client)}"

    def task(index: int) -> int:
        if index == 0:
            assert event_of(name).wait(timeout=60)
        return index

    finished: list[int] = []

    def reported(index: int) -> None:
        finished.append(index)
        if index == 1:  # only now may the first task end: the order of reports is fixed
            event_of(name, client=client).set()

    results = list(cluster.ordered_map(client, task, [(0,), (1,)], 2, reported))
    assert results == [0, 1]
    assert finished == [1, 0]


def test_a_task_error_is_raised_as_it_is(client: Any) -> None:
    def task(value: int) -> int:
        if value == 2:
            raise SimulationError("rounds must be a whole number")
        return value

    with pytest.raises(SimulationError, match="rounds must be"):
        list(cluster.ordered_map(client, task, [(1,), (2,), (3,)], 2))


def test_the_progress_bar_is_fed_by_the_cluster(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from twentyone.cli import simulate as command

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(command, "PROGRESS_ROUNDS", 1000)
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 1000)
    monkeypatch.setattr(sys, "stderr", terminal)
    config = SimulationConfig(ONLINE, basic_strategy(ONLINE))
    result = command._run(config, rounds=5000, seed=1, workers=1, where=client)
    assert result.rounds == 5000 and result.workers == 2
    assert "simulating" in terminal.getvalue()


def test_a_grid_on_the_cluster_gives_the_rows_of_the_in_process_analysis(client: Any) -> None:
    grid = [Rules(decks=None), Rules(decks=None, dealer_hits_soft_17=True, max_hands=2)]
    told: list[None] = []
    on_cluster = analyze_grid(grid, client=client, progress=lambda: told.append(None))
    here = analyze_grid(grid)
    for row in (*on_cluster, *here):
        row.pop("seconds")
    assert on_cluster == here and len(told) == 2
    assert on_cluster[0]["ev"] != on_cluster[1]["ev"]


def test_a_scheduler_address_reaches_the_same_cluster(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tcp://HOST:PORT``: a second client of the module's cluster, through its scheduler."""
    monkeypatch.setattr(runner, "CHUNK_ROUNDS", 20_000)
    address = client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    config = SimulationConfig(ONLINE, basic_strategy(ONLINE))
    remote = cluster.simulate_on_cluster(config, 50_000, 3, address)
    assert remote.workers == 2
    assert remote.totals == simulate(config, rounds=50_000, seed=3).totals


def test_a_scheduler_without_workers_is_a_cluster_error() -> None:
    import distributed

    local_cluster: Any = distributed.LocalCluster  # untyped in Dask
    with local_cluster(
        n_workers=0,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    ) as empty:
        address = empty.scheduler_address
        with (
            pytest.raises(cluster.ClusterError, match="has no workers"),
            cluster.connect(address, timeout=0.5),
        ):
            pass


def test_the_command_gives_the_same_result_on_one_local_worker() -> None:
    """``simulate --cluster local:1`` starts and stops its own cluster: the in-process JSON."""
    args = ["simulate", "--preset", "online", "--rounds", "30000", "--seed", "11", "--json"]
    code, out, err = run(*args, "--cluster", "local:1")
    assert code == 0, err
    on_cluster = json.loads(out)
    here = json.loads(run(*args, "--workers", "1")[1])
    assert on_cluster["cluster"] == "local:1" and on_cluster["workers"] == 1
    for key in ("ev", "se", "sd", "hands", "shuffles", "frequencies"):
        assert on_cluster[key] == here[key], key


def test_analyze_grid_on_a_local_cluster_from_the_command_line(tmp_path: Path) -> None:
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps([{"decks": "inf"}, {"preset": "online", "decks": "inf"}]))
    code, out, err = run("analyze", "--grid", str(grid), "--cluster", "local:2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["cluster"] == "local:2" and len(data["rows"]) == 2
    here = json.loads(run("analyze", "--grid", str(grid), "--json")[1])
    assert [row["ev"] for row in data["rows"]] == [row["ev"] for row in here["rows"]]


@pytest.mark.parametrize(
    "address",
    ["foo", "local:", "local:0", "local:x", "local:257", "tcp://", "tcp://host:99999", "ws://h:1"],
)
def test_a_malformed_address_is_exit_2(address: str) -> None:
    code, _, err = run("simulate", "--rounds", "1000", "--cluster", address)
    assert_one_line_error(code, err, "--cluster")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # nothing listens there once the socket is closed


def test_a_scheduler_that_does_not_answer_is_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    code, _, err = run("simulate", "--preset", "online", "--rounds", "1000", "--cluster", address)
    assert_one_line_error(code, err, "cannot reach the Dask scheduler", address)


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--rounds", "1000", "--cluster", "local:2"),
        ("analyze", "--grid", "GRID", "--cluster", "tcp://127.0.0.1:8786"),
    ],
)
def test_without_the_extra_cluster_is_exit_2_saying_what_to_install(
    args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps([{"decks": "inf"}]))
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    code, _, err = run(*(str(grid) if arg == "GRID" else arg for arg in args))
    assert_one_line_error(code, err, "pip install 'twentyone[cluster]'")


def test_workers_and_cluster_together_are_exit_2() -> None:
    code, _, err = run("simulate", "--rounds", "1000", "--workers", "2", "--cluster", "local:2")
    assert_one_line_error(code, err, "--workers", "--cluster")
