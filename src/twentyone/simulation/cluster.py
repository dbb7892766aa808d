"""Simulations (and any batch of pure tasks) on a Dask cluster: ``simulate --cluster``.

A run is cut into the same seeded chunks as the in-process runner (:func:`runner.chunk_plan`,
:func:`runner.run_chunk`): chunk ``k`` is a pure function of ``(inputs, seed, k, rounds)``, so
whichever worker runs it, it gives the same integer sums. The client plans the chunks, keeps a
bounded window of them on the cluster, feeds the progress callback as each one finishes (in any
order, :func:`distributed.as_completed`) and adds the sums up in chunk order: the result for a
seed is the same, bit for bit, as :func:`runner.simulate` with any number of workers.

Dask is an optional extra (``pip install 'twentyone[cluster]'``), imported only when a cluster
is asked for; without it :func:`connect` raises :class:`ClusterExtraMissingError`.

Where a cluster is: ``local:N`` (a :class:`distributed.LocalCluster` of ``N`` worker processes,
started and stopped around the run) or ``tcp://HOST[:PORT]`` (a running scheduler; its workers
need the same version of twentyone installed).

>>> parse_cluster("local:2")
ClusterAddress(local_workers=2, address=None)
>>> str(parse_cluster("tcp://10.0.0.5"))
'tcp://10.0.0.5:8786'
>>> parse_cluster("udp://x")
Traceback (most recent call last):
...
twentyone.simulation.cluster.ClusterError: --cluster must be local:N or tcp://HOST:PORT, got 'udp://x'
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from twentyone.errors import TwentyOneError, shown
from twentyone.simulation import kernels, runner
from twentyone.simulation.encoding import ticks_per_unit
from twentyone.simulation.errors import SimulationError
from twentyone.simulation.runner import SimulationConfig, SimulationResult

R = TypeVar("R")

#: The scheduler's port when an address names none (Dask's default).
DEFAULT_PORT = 8786
#: Seconds to wait for a scheduler to answer, and for it to have a worker.
CONNECT_TIMEOUT = 10.0
#: What to tell a user whose installation has no Dask.
INSTALL_HINT = "--cluster needs Dask: install the cluster extra (pip install 'twentyone[cluster]')"

#: A ``distributed.Client`` (typed loosely: Dask is optional, and only partly typed).
Client = Any


class ClusterError(SimulationError):
    """A cluster that cannot be used: a malformed address, a scheduler that does not answer or
    has no workers, workers that cannot run twentyone, a cluster lost during a run."""


class ClusterExtraMissingError(ClusterError):
    """Dask is not installed (the ``cluster`` extra)."""


@dataclass(frozen=True)
class ClusterAddress:
    """Where to run: ``local_workers`` processes on this machine, or a scheduler's address."""

    local_workers: int | None = None
    address: str | None = None

    def __str__(self) -> str:
        return f"local:{self.local_workers}" if self.address is None else self.address


def parse_cluster(text: str) -> ClusterAddress:
    """``local:N`` or ``tcp://HOST[:PORT]`` as a :class:`ClusterAddress`; a
    :class:`ClusterError` for anything else."""
    bad = ClusterError(f"--cluster must be local:N or tcp://HOST:PORT, got {shown(text)}")
    if not isinstance(text, str):
        raise bad
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if not count.isascii() or not count.isdigit() or len(count) > 4:
            raise bad
        workers = int(count)
        if not 1 <= workers <= runner.MAX_WORKERS:
            raise ClusterError(
                f"--cluster local:N takes 1 to {runner.MAX_WORKERS} worker processes, got {workers}"
            )
        return ClusterAddress(local_workers=workers)
    if not text.startswith("tcp://"):
        raise bad
    host, colon, port_text = text.removeprefix("tcp://").rpartition(":")
    if not colon:
        host, port_text = port_text, str(DEFAULT_PORT)
    # An IPv6 host is written in brackets ([::1]:8786); no user, path or query.
    if (
        not host
        or not host.isascii()
        or any(char in host for char in "/@?# ")
        or not port_text.isdigit()
        or not 1 <= int(port_text[:6]) <= 65535
    ):
        raise bad
    return ClusterAddress(address=f"tcp://{host}:{int(port_text)}")


def require_distributed() -> ModuleType:
    """``distributed``, imported now (only a cluster run pays for it); a
    :class:`ClusterExtraMissingError` if it is not installed."""
    try:
        import distributed
    except ImportError:
        raise ClusterExtraMissingError(INSTALL_HINT) from None
    return distributed


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


@contextlib.contextmanager
def connect(cluster: ClusterAddress | str, timeout: float | None = None) -> Iterator[Client]:
    """A Dask client for ``cluster``, closed (and a local cluster stopped) when the block ends.

    A ``local:N`` cluster has ``N`` worker processes of one thread each (the kernels hold a core
    each, as the in-process runner's processes do), listens on 127.0.0.1 only and has no
    dashboard. A remote scheduler must answer and have at least one worker within ``timeout``
    seconds (:data:`CONNECT_TIMEOUT`), else :class:`ClusterError`.
    """
    where = parse_cluster(cluster) if isinstance(cluster, str) else cluster
    distributed = require_distributed()
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    if where.local_workers is not None:
        with (
            distributed.LocalCluster(
                n_workers=where.local_workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # No dashboard; the scheduler's HTTP routes (health) on a free loopback port,
                # not on 8787, which another cluster may hold.
                dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                # Standard error stays the command's: only the cluster's errors reach it.
                silence_logs=logging.ERROR,
            ) as local,
            distributed.Client(local) as client,
        ):
            yield client
        return
    try:
        client = distributed.Client(where.address, timeout=wait)
    except (OSError, TimeoutError) as error:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {where}: {_reason(error)}"
        ) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=wait)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"the Dask scheduler at {where} has no workers (waited {wait:g} s)"
            ) from None
        yield client


def worker_count(client: Client) -> int:
    """How many workers the cluster has now."""
    return len(client.scheduler_info(n_workers=-1)["workers"])


def _twentyone_version() -> str:
    import twentyone

    return twentyone.__version__


def check_workers(client: Client) -> None:
    """Refuse workers that cannot import twentyone or run another version of it (their chunks
    could give other sums for the same seed)."""
    import twentyone

    try:
        versions = client.run(_twentyone_version)
    except Exception as error:  # what a worker without the package raises varies
        raise ClusterError(
            f"the Dask workers cannot run twentyone ({_reason(error)}): install "
            f"twentyone {twentyone.__version__} on every worker"
        ) from None
    others = sorted({version for version in versions.values() if version != twentyone.__version__})
    if others:
        raise ClusterError(
            f"the Dask workers run twentyone {', '.join(others)}, this is "
            f"{twentyone.__version__}: install the same version on every worker"
        )


def ordered_map(
    client: Client,
    function: Callable[..., R],
    tasks: Iterable[tuple[Any, ...]],
    window: int,
    finished: Callable[[R], None] | None = None,
) -> Iterator[R]:
    """``function(*task)`` for each task on the cluster, yielded in the order of ``tasks``.

    At most ``window`` tasks are on the cluster or waiting to be yielded at a time (the tasks are
    planned lazily: memory does not grow with their number); ``finished`` is told each result as
    soon as it arrives, in whatever order the workers finish. A task's own exception is raised
    as it is; a cluster that goes away is a :class:`ClusterError`.
    """
    distributed = require_distributed()
    window = max(window, 1)
    run = uuid.uuid4().hex  # keys unique to this run: a shared cluster may run others at once
    pending = iter(tasks)
    arrived = distributed.as_completed()
    live: dict[str, tuple[int, Any]] = {}  # key: (task index, future) of each task out there
    results: dict[int, R] = {}
    submitted = yielded = 0

    def submit_more() -> None:
        nonlocal submitted
        while submitted - yielded < window:
            task = next(pending, None)
            if task is None:
                return
            future = client.submit(function, *task, key=f"twentyone-{run}-{submitted}", pure=False)
            live[future.key] = (submitted, future)
            arrived.add(future)
            submitted += 1

    try:
        submit_more()
        for future in arrived:
            index, _ = live.pop(future.key)
            try:
                value = future.result()
            except TwentyOneError:
                raise
            except (OSError, TimeoutError, distributed.client.FutureCancelledError) as error:
                raise ClusterError(f"the Dask cluster went away: {_reason(error)}") from None
            except distributed.KilledWorker as error:
                # The scheduler gave the task to other workers, and they died too.
                raise ClusterError(f"Dask workers died running a task: {_reason(error)}") from None
            if finished is not None:
                finished(value)
            results[index] = value
            while yielded in results:
                value = results.pop(yielded)
                yielded += 1
                yield value
            submit_more()
    finally:
        # An error or an abandoned iteration: nothing of this run stays queued on the cluster.
        if live:
            client.cancel([future for _, future in live.values()])


def warm_up_workers(
    client: Client, table: bool, on_compile: Callable[[], None] | None = None
) -> None:
    """Load the round kernel on every worker (:func:`runner.warm_up`), so that a run's time
    is its chunks'. A worker without it in its disk cache compiles it (``on_compile`` is told
    first): one worker per host does, then the others load what it wrote (workers on one host
    share a disk, and compiling the same kernel in each of them at once would take as many
    times the CPU)."""
    cached = client.run(runner.kernels_cached, table)
    cold = [address for address, ready in cached.items() if not ready]
    if cold:
        if on_compile is not None:
            on_compile()
        hosts = client.scheduler_info(n_workers=-1)["workers"]
        first: dict[str, str] = {}
        for address in cold:
            first.setdefault(hosts.get(address, {}).get("host", address), address)
        client.run(runner.warm_up, table, workers=list(first.values()))
    client.run(runner.warm_up, table)


def simulate_on_cluster(
    config: SimulationConfig,
    rounds: int,
    seed: int,
    cluster: ClusterAddress | str | Client,
    progress: Callable[[int], None] | None = None,
    on_compile: Callable[[], None] | None = None,
) -> SimulationResult:
    """:func:`runner.simulate` with the chunks run by a Dask cluster: the same
    :class:`runner.SimulationResult` (equal totals) for the same seed.

    ``cluster``: an address (:func:`parse_cluster`) or a connected ``distributed.Client``.
    ``progress`` is told the rounds of each chunk as it finishes; ``on_compile`` is called
    before the kernel compiles (a worker without it in its disk cache). ``seconds`` counts
    from the first chunk sent to the last one back (not the cluster's start, as the in-process
    runner does not count the kernel's loading), ``workers`` is the cluster's worker count then.
    """
    runner.check_request(rounds, seed, 1)
    if isinstance(cluster, ClusterAddress | str):
        where = parse_cluster(cluster) if isinstance(cluster, str) else cluster
        table = config.boxes > 1 or config.cd is not None
        if where.local_workers is not None:
            # Compile here, once, into the disk cache the local workers then load from
            # (rather than each of them compiling the same kernel at once).
            runner.warm_up(table=table, on_compile=on_compile)
            on_compile = None
        with connect(where) as client:
            return simulate_on_cluster(config, rounds, seed, client, progress, on_compile)
    client = cluster
    check_workers(client)
    inputs = runner.KernelInputs.from_config(config)
    table = config.boxes > 1 or config.cd is not None
    warm_up_workers(client, table, on_compile)
    workers = max(worker_count(client), 1)
    plan = runner.chunk_plan(rounds)
    shared = client.scatter(inputs, broadcast=True, hash=False)  # sent to each worker once
    totals = [0] * kernels.ST_SIZE

    def arrived(stats: Any) -> None:
        if progress is not None:
            progress(int(stats[kernels.ST_ROUNDS]))

    started = time.perf_counter()
    tasks = ((shared, seed, chunk, size) for chunk, size in plan)
    window = workers * runner.IN_FLIGHT_PER_WORKER
    for stats in ordered_map(client, runner.run_chunk, tasks, window, arrived):
        # Python integers, added in chunk order: exact, whatever order the chunks finished in.
        for slot, value in enumerate(stats.tolist()):
            totals[slot] += value
    seconds = time.perf_counter() - started
    return SimulationResult(
        config.rules,
        rounds,
        seed,
        tuple(totals),
        ticks_per_unit(config.rules),
        seconds,
        workers,
        config.boxes,
    )
