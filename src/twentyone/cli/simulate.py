"""``twentyone simulate``: Monte Carlo with real shoes, basic strategy or a chart, card counting."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any

import click

from twentyone.cli.errors import reports_bad_input
from twentyone.cli.options import FiniteNumber, WholeNumber, seed_option, shown
from twentyone.cli.progress import say_compiling, working
from twentyone.cli.rule_options import build_rules, rule_options
from twentyone.jsonio import read_json
from twentyone.simulation.errors import CountingDataError, SimulationError

#: Runs of at least this many rounds show a progress bar (on stderr, when it is a terminal).
PROGRESS_ROUNDS = 4_000_000


def _read_json(path: str, what: str) -> Any:
    """The JSON in file ``path``, bounded in size and depth (:mod:`twentyone.jsonio`)."""
    return read_json(path, f"{what} file {path!r}")


def _round_bounds() -> tuple[int, int]:
    from twentyone.simulation.runner import MAX_ROUNDS

    return 1, MAX_ROUNDS


def _worker_bounds() -> tuple[int, int]:
    from twentyone.simulation.runner import MAX_WORKERS

    return 1, MAX_WORKERS


def _is_file(name: str) -> bool:
    return name.endswith(".json")


#: The ``--cluster`` option of ``simulate`` and ``analyze --grid``.
CLUSTER_HELP = (
    "Run on a Dask cluster: local:N (N worker processes started here for the run) or "
    "tcp://HOST:PORT (a scheduler). Needs the cluster extra: pip install 'twentyone[cluster]'."
)


def cluster_address(text: str) -> Any:
    """The :class:`~twentyone.simulation.cluster.ClusterAddress` of ``--cluster TEXT``, checked
    before anything is computed: a malformed address, or no Dask installed, is bad input."""
    from twentyone.simulation.cluster import parse_cluster, require_distributed

    where = parse_cluster(text)
    require_distributed()
    return where


@click.command("simulate")
@rule_options
@click.option(
    "--rounds",
    type=WholeNumber(bounds=_round_bounds),
    default=1_000_000,
    show_default=True,
    help="Rounds to play.",
)
@seed_option("Random seed (default: a fresh one, printed).")
@click.option(
    "--workers",
    type=WholeNumber(bounds=_worker_bounds),
    help="Worker processes (default: all cores).",
)
@click.option("--cluster", metavar="ADDRESS", help=CLUSTER_HELP)
@click.option(
    "--chart",
    "chart_file",
    help="Strategy chart JSON: a chart, or the output of `strategy --json` "
    "(default: basic strategy).",
)
@click.option(
    "--strategy",
    "strategy_kind",
    default="chart",
    show_default=True,
    help="chart: play a chart by totals; cd: the best move for each hand composition.",
)
@click.option(
    "--boxes",
    type=WholeNumber(),
    default=1,
    show_default=True,
    help="Boxes played each round, each with the same bet (1 to the table's max_boxes).",
)
@click.option(
    "--count", "count_name", help="Counting system: a name (hi-lo, ko, ...) or a JSON file."
)
@click.option("--indices", help="Index plays: a set name (hi-lo-i18-fab4) or a JSON file.")
@click.option("--spread", help="Bet ramp COUNT:UNITS,... (e.g. 1:2,2:4,3:8,4:12).")
@click.option(
    "--insure-at", type=FiniteNumber(), help="Insure at this count or more (default: never)."
)
@click.option("--bankroll", type=FiniteNumber(), help="Bankroll in units, for the risk of ruin.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def simulate(
    rules: dict[str, Any],
    rounds: int,
    seed: int | None,
    workers: int | None,
    cluster: str | None,
    chart_file: str | None,
    strategy_kind: str,
    boxes: int,
    count_name: str | None,
    indices: str | None,
    spread: str | None,
    insure_at: float | None,
    bankroll: float | None,
    as_json: bool,
) -> None:
    """Play many rounds with real shoes and report EV, SD, win rate and risk of ruin."""
    from twentyone.simulation.charts import load_chart
    from twentyone.simulation.counting import (
        BetRamp,
        CountingSystem,
        IndexSet,
        counting_system,
        index_set,
    )
    from twentyone.simulation.runner import SimulationConfig, check_request, default_workers

    game = build_rules(rules)
    if seed is None:
        seed = secrets.randbits(64)
    where = None
    if cluster is not None:
        if workers is not None:
            raise SimulationError(
                "--workers is for a run in this process; on a --cluster its workers run the "
                "chunks (local:N for N processes here)"
            )
        where = cluster_address(cluster)
        workers = 1  # the cluster's count is known once it is up
    if workers is None:
        workers = default_workers()
    # The run's bounds first: nothing is computed for a request that will be refused.
    check_request(rounds, seed, workers)
    chart = None
    if chart_file:
        # A chart, or the whole `strategy --json` output (load_chart takes either).
        chart = load_chart(_read_json(chart_file, "chart"))
    system = None
    if count_name is not None:
        if _is_file(count_name):
            system = CountingSystem.from_json(
                Path(count_name).stem, _read_json(count_name, "count")
            )
        else:
            system = counting_system(count_name)
    index_plays = None
    if indices is not None and indices != "none":
        if _is_file(indices):
            index_plays = IndexSet.from_json(Path(indices).stem, _read_json(indices, "indices"))
        else:
            index_plays = index_set(indices)
    ramp = BetRamp.parse(spread) if spread else None
    if bankroll is not None and bankroll <= 0:
        raise SimulationError(f"--bankroll must be a positive number of units, got {bankroll:g}")
    if not 1 <= boxes <= game.max_boxes:
        # Checked before any strategy is computed (the config checks it again).
        raise SimulationError(
            f"--boxes must be 1 to {game.max_boxes} (the table's max_boxes), got {boxes}"
        )
    if strategy_kind not in ("chart", "cd"):
        # Checked here rather than by click.Choice: bad input is one line on stderr.
        raise SimulationError(f"--strategy must be chart or cd, got {shown(strategy_kind)}")
    if strategy_kind == "cd" and index_plays is not None:
        raise CountingDataError("--strategy cd takes no index plays (--indices)")
    if insure_at is not None and system is None:
        raise CountingDataError("--insure-at needs a counting system (--count)")
    cd = None
    # The basic strategy and CD play are computed by the exact analysis (kernels may compile).
    with working("computing the strategy..."):
        if strategy_kind == "cd":
            from twentyone.simulation.cd import cd_strategy

            cd = cd_strategy(game)
        config = SimulationConfig.for_rules(game, chart, system, index_plays, ramp, boxes, cd)
    if insure_at is not None:
        config = SimulationConfig(
            config.rules,
            config.chart,
            config.chart_source,
            config.system,
            config.indices,
            config.ramp,
            insure_at,
            config.boxes,
            config.cd,
        )
    result = _run(config, rounds, seed, workers, where)
    out = result.to_json(bankroll)
    if where is not None:
        out["cluster"] = str(where)
    out["strategy"] = config.chart_source if cd is None else cd.source
    if system is not None:
        out["count"] = {
            "system": system.name,
            "indices": index_plays.name if index_plays else None,
            "spread": config.ramp.spread,
            "ramp": [list(step) for step in config.ramp.steps],
            "insure_at": config.insure_at,
        }
    if as_json:
        click.echo(json.dumps(out))
        return
    _print_report(out)


def _run(config: Any, rounds: int, seed: int, workers: int, where: Any = None) -> Any:
    """The run, in this process or on the cluster ``where``, with a progress bar on a terminal."""
    from twentyone.simulation.runner import simulate

    def run(progress: Any = None) -> Any:
        if where is None:
            return simulate(config, rounds, seed, workers, progress, on_compile=say_compiling)
        from twentyone.simulation.cluster import simulate_on_cluster

        return simulate_on_cluster(config, rounds, seed, where, progress, say_compiling)

    if rounds < PROGRESS_ROUNDS or not sys.stderr.isatty():
        return run()
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rounds"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        # No refresh thread: worker processes are forked, and forking a threaded process
        # can deadlock. The bar is redrawn whenever a chunk finishes instead.
        auto_refresh=False,
    )

    def advance(done: int) -> None:
        progress.advance(task, done)
        progress.refresh()

    with progress:
        task = progress.add_task("simulate", total=rounds)
        return run(advance)


def _print_report(out: dict[str, Any]) -> None:
    echo = click.echo
    where = f" on {out['cluster']}" if "cluster" in out else ""
    echo(f"strategy: {out['strategy']}")
    if "count" in out:
        count = out["count"]
        echo(
            f"count: {count['system']}, index plays: {count['indices'] or 'none'}, "
            f"bet spread 1-{count['spread']}"
        )
    echo(
        f"rounds: {out['rounds']:,}  hands: {out['hands']:,}  seed: {out['seed']}  "
        f"workers: {out['workers']}{where}  boxes: {out['boxes']}"
    )
    echo(f"EV per initial bet:   {out['ev']:+.4%} ± {out['se']:.4%} (1 standard error)")
    echo(f"SD per round:         {out['sd']:.4f} units")
    if out["boxes"] > 1:
        echo(f"SD per box:           {out['sd_per_box']:.4f} units")
    echo(f"mean initial bet:     {out['mean_bet']:.4f} units per box")
    echo(f"win per 100 rounds:   {out['win_per_100_rounds']:+.3f} units")
    if "risk_of_ruin" in out:
        echo(f"risk of ruin ({out['bankroll']:g} units): {out['risk_of_ruin']:.4%}")
    freq = out["frequencies"]
    echo(f"rounds won / pushed / lost: {freq['win']:.4f} / {freq['push']:.4f} / {freq['lose']:.4f}")
    echo(
        f"speed: {out['hands_per_second']:,.0f} hands/s, {out['rounds_per_second']:,.0f} rounds/s "
        f"({out['seconds']:.2f} s)"
    )
