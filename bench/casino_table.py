"""Load test of a live Casino table: 7 boxes of bots and N spectators on WebSockets.

Starts one ``twentyone serve`` process on loopback (a fresh SQLite file in a temporary folder),
makes an operator (``twentyone admin create-operator``) who shortens the table's pause between
rounds (``--pause``, so that a short run plays many rounds), opens 7 bot accounts through the
API and seats one bot on each box. Then N spectators watch the table's stream (the
``websockets`` package) and the bots play: each bets in every betting window and decides by a
compact basic strategy (never insurance) the moment it is its turn, reacting to the frames of
its own stream as a browser does.

Measured, for every bet and decision: the time from sending the request to the moment the LAST
spectator has received the frame showing that step (the first frame whose ``seq`` is at least
the step the answer names): p50, p99 and max, against the target p99 < 100 ms; the time to the
HTTP answer (``answer_ms``); frames per second over all spectators; and the CPU of the server,
of the bots' process and of the spectators' processes, apart. A spectator keeps only the
arrival time and the step of each frame (read from the frame's head, ``{"type":"state",
"seq":N,``, not by decoding the whole frame), and the spectators run in ``--client-processes``
child processes (default 1; 0: in the bots' own loop), so that reading 200 sockets neither
delays the bots nor is delayed by them. Clients and server still share this machine's cores:
a spectator's receive time includes its process's own work on the frames before it, so the
figure is an upper bound of the server's part.

Bounded: ``--rounds`` settled rounds or ``--seconds``, whichever comes first (the spectators
connect before the clock starts), then at most 5 s for the last frames. ``--short`` is the
test's mode (20 spectators, 2 rounds). ``--profile DIR`` runs the server under cProfile
(``DIR/casino-table.prof``; read it with ``python -m pstats``) to see where the time goes.

Found with ``--profile`` (200 spectators): with permessage-deflate (which browsers always
offer and uvicorn accepts by default) most of the server's time goes to compressing each frame
once per socket; ``--compression none`` measures without it. Without it, the time goes to the
per-socket sends (Starlette -> uvicorn -> the socket: one task wake and one write each) and to
the bets' burst (seven transactions and seven fan-outs); docs/casino-live.md, "Load test",
has the figures before and after what was done about both.

Prints one JSON object. Run: ``python bench/casino_table.py [--spectators 200] [--rounds 20]
[--seconds 60] [--pause 0.2] [--short] [--profile DIR] [--compression deflate|none]
[--client-processes 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

# The helpers shared with the other load bench, beside this script (also when it is loaded
# from a test by its path).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import cpu_seconds, free_port, percentile

BIN = Path(sys.executable).parent / "twentyone"
TABLE = "casino-1"
BOXES = 7
OPERATOR, PASSWORD = "bench-operator", "bench-password"
TARGET_P99_MS = 100.0


def _summary(values: list[float]) -> dict[str, float | int]:
    return {
        "count": len(values),
        "p50": round(1000 * percentile(values, 0.50), 1),
        "p99": round(1000 * percentile(values, 0.99), 1),
        "max": round(1000 * max(values, default=0.0), 1),
    }


# ------------------------------------------------------------------------ the bots' play
def _value(card: str) -> int:
    rank = card[0]
    return 11 if rank == "A" else 10 if rank in "TJQK" else int(rank)


def basic_strategy(cards: list[str], total: int, soft: bool, up: str, legal: list[str]) -> str:
    """A compact basic strategy (no hole card, S17): the bots' decision, one of ``legal``.

    >>> basic_strategy(["8S", "8D"], 16, False, "TH", ["hit", "stand", "double", "split"])
    'split'
    >>> basic_strategy(["TS", "6D"], 16, False, "5H", ["hit", "stand", "double"])
    'stand'
    >>> basic_strategy(["5S", "6D"], 11, False, "9H", ["hit", "stand", "double"])
    'double'
    """
    dealer = _value(up)
    want = "stand"
    if "split" in legal and len(cards) == 2 and _value(cards[0]) == _value(cards[1]):
        pair = _value(cards[0])
        if (
            pair in (11, 8)
            or (pair == 9 and dealer not in (7, 10, 11))
            or (pair in (2, 3, 7) and dealer <= 7)
            or (pair == 6 and dealer <= 6)
        ):
            return "split"
    if soft:
        if total >= 19 or (total == 18 and dealer <= 8):
            want = "stand"
        elif total in (17, 18) and dealer in (3, 4, 5, 6) and "double" in legal:
            want = "double"
        else:
            want = "hit"
    elif total in (10, 11) and dealer < total and "double" in legal:
        want = "double"
    elif total >= 17 or (13 <= total <= 16 and dealer <= 6) or (total == 12 and 4 <= dealer <= 6):
        want = "stand"
    else:
        want = "hit"
    if want not in legal:
        want = "hit" if want == "double" and "hit" in legal else "stand"
    return want if want in legal else legal[0]


@dataclass
class Sent:
    kind: str  # "bet" or "action"
    at: float
    step: int
    answered: float  # when its HTTP answer came (the server committed it before)


@dataclass
class Run:
    sent: list[Sent] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    last_error: str = ""
    settled_rounds: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def error(self, where: str, text: str) -> None:
        self.errors[where] = self.errors.get(where, 0) + 1
        self.last_error = f"{where}: {text[:200]}"


class Bot:
    """One bot player on one box: its own HTTP client (signed in with its cookie)."""

    def __init__(self, url: str, name: str, box: int, run: Run) -> None:
        self.client = httpx.AsyncClient(base_url=url, timeout=30)
        self.name, self.box, self.run = name, box, run
        self.busy = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.latest: dict[str, Any] | None = None  # the newest state seen (while busy too)
        self.done: set[tuple[str, int]] = set()  # (what, round or step) already sent

    async def open(self) -> None:
        answer = await self.client.post(
            "/api/accounts", json={"name": self.name, "password": PASSWORD}
        )
        answer.raise_for_status()
        answer = await self.client.post(f"/api/casino/tables/{TABLE}/seats", json={"box": self.box})
        answer.raise_for_status()

    def _start(self, request: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(request)
        self.tasks.add(task)  # kept until done (the loop holds tasks weakly)
        task.add_done_callback(self.tasks.discard)

    async def _send(self, kind: str, path: str, body: dict[str, Any]) -> None:
        self.busy = True
        try:
            at = time.perf_counter()
            answer = await self.client.post(path, json=body)
            if answer.status_code >= 400:
                self.run.error(kind, f"{answer.status_code} {answer.text}")
                return
            answered = time.perf_counter()
            self.run.sent.append(Sent(kind, at, int(answer.json()["step"]), answered))
        except httpx.HTTPError as error:
            self.run.error(kind, repr(error))
        finally:
            self.busy = False
        if self.latest is not None:  # a frame that came while the request was out
            self.react(self.latest)

    def react(self, table: dict[str, Any]) -> None:
        """Bet in a betting window, decide on its turn (as a task: the stream reader goes on)."""
        self.latest = table
        if self.busy or self.run.done.is_set():  # done: no new requests while the run ends
            return
        mine = table["boxes"][self.box - 1]
        open_for_bets = table["phase"] in ("waiting", "betting")  # a bet also opens a window
        if open_for_bets and not mine["bet"] and ("bet", table["round"]) not in self.done:
            self.done.add(("bet", table["round"]))
            body = {
                "box": self.box,
                "amount": table["min_bet"] * (1 + self.box % 3),
                "round": table["round"],
            }
            self._start(self._send("bet", f"/api/casino/tables/{TABLE}/bets", body))
            return
        turn = table.get("turn")
        if table["phase"] != "playing" or not turn or turn["box"] != self.box:
            return
        if ("action", table["step"]) in self.done:
            return
        self.done.add(("action", table["step"]))
        legal = table["legal_actions"]
        if any(action.startswith("insurance") for action in legal) or "no-insurance" in legal:
            action = "no-insurance" if "no-insurance" in legal else legal[0]
        else:
            hand = mine["hands"][turn["hand"] or 0]
            up = table["dealer"]["cards"][0]
            action = basic_strategy(hand["cards"], hand["total"], hand["soft"], up, legal)
        body = {"box": self.box, "action": action, "step": table["step"]}
        self._start(self._send("action", f"/api/casino/tables/{TABLE}/actions", body))


async def _drive(url: str, bots: list[Bot], run: Run, rounds: int) -> None:
    """The bots' own stream: every frame is offered to every bot; settled rounds counted."""
    last_phase = None
    async with _connect(url) as stream:
        async for message in stream:
            frame = json.loads(message)
            if frame.get("type") != "state":
                continue
            table = frame["table"]
            if table["phase"] == "settled" and last_phase != "settled":
                run.settled_rounds += 1
                if run.settled_rounds >= rounds:
                    run.done.set()
            last_phase = table["phase"]
            for bot in bots:
                bot.react(table)


#: What the clients offer: "deflate" (permessage-deflate, as every browser does) or "none".
COMPRESSION = {"deflate": "deflate", "none": None}
_compression: str | None = "deflate"


def _connect(url: str) -> Any:
    return connect(_ws(url), max_size=2**22, compression=_compression)


def _ws(url: str) -> str:
    return url.replace("http://", "ws://") + f"/api/casino/tables/{TABLE}/stream"


# ------------------------------------------------------------------------ the spectators
_STATE_PREFIX = '{"type":"state","seq":'


def frame_step(message: str | bytes) -> int | None:
    """The step of a state frame, read from its head (the server writes ``type`` and ``seq``
    first): a spectator needs only that and the arrival time, not the whole frame decoded.

    >>> frame_step('{"type":"state","seq":42,"table":{}}')
    42
    >>> frame_step('{"type":"pong"}') is None
    True
    """
    if isinstance(message, bytes):
        message = message.decode()
    if message.startswith(_STATE_PREFIX):
        start = len(_STATE_PREFIX)
        return int(message[start : message.index(",", start)])
    frame = json.loads(message)  # another writer's field order: decode it after all
    return int(frame["seq"]) if frame.get("type") == "state" else None


class Spectator:
    """One watcher: the step and receive time of every state frame, in order."""

    def __init__(self) -> None:
        self.steps: list[int] = []
        self.times: list[float] = []
        self.closed = False

    async def watch(self, socket: ClientConnection) -> None:
        try:
            async for message in socket:
                received = time.perf_counter()
                step = frame_step(message)
                if step is not None:
                    self.steps.append(step)
                    self.times.append(received)
        except Exception:  # a dropped connection is counted below (its frames are missing)
            pass
        self.closed = True

    def seen(self, step: int) -> float | None:
        """When this spectator first had a frame showing ``step`` or later (None: never)."""
        index = bisect.bisect_left(self.steps, step)
        return self.times[index] if index < len(self.steps) else None


async def _watchers(
    url: str, count: int
) -> tuple[list[Spectator], list[ClientConnection], list[asyncio.Task[None]]]:
    spectators = [Spectator() for _ in range(count)]
    sockets: list[ClientConnection] = []
    for start in range(0, count, 50):  # in batches: the server's accept queue is not the test
        batch = await asyncio.gather(*(_connect(url) for _ in range(start, min(count, start + 50))))
        sockets.extend(batch)
    readers = [
        asyncio.create_task(spectator.watch(sock))
        for spectator, sock in zip(spectators, sockets, strict=True)
    ]
    return spectators, sockets, readers


async def _until_seen(spectators: list[Spectator], last: int) -> None:
    """The last frames on their way: until every spectator has ``last`` (5 s at most; what is
    still missing then is counted as missing)."""
    for _ in range(50):
        if all(spectator.seen(last) is not None for spectator in spectators):
            return
        await asyncio.sleep(0.1)


async def _worker(url: str, count: int) -> None:
    """``--watch-worker``: ``count`` spectators in this process (its own loop and core share).

    Prints ``ready`` once every socket is open, watches until the last step sent comes as a
    line on stdin (or it closes), waits (5 s at most) until each spectator has it, then prints one JSON line: each spectator's steps and receive times
    (``time.perf_counter`` is the system's monotonic clock, the same in every process).
    """
    spectators, sockets, readers = await _watchers(url, count)
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await _until_seen(spectators, int(line or 0))
    for sock in sockets:
        await sock.close()
    await asyncio.gather(*readers)
    out = [[s.steps, s.times, s.closed] for s in spectators]
    print(json.dumps(out), flush=True)


class WorkerSpectators:
    """Spectators watching from ``processes`` child processes (so that reading 200 sockets
    does not delay the bots' loop, nor the other way round); their CPU is counted apart."""

    def __init__(self, url: str, count: int, processes: int) -> None:
        self.children: list[subprocess.Popen[str]] = []
        shares = [
            count // processes + (1 if n < count % processes else 0) for n in range(processes)
        ]
        for share in shares:
            if share == 0:
                continue
            command = [
                sys.executable,
                __file__,
                "--watch-worker",
                url,
                "--spectators",
                str(share),
                "--compression",
                "none" if _compression is None else "deflate",
            ]
            self.children.append(
                subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            )

    async def ready(self) -> None:
        for child in self.children:
            assert child.stdout is not None
            line = await asyncio.to_thread(child.stdout.readline)
            if line.strip() != "ready":
                raise SystemExit(f"bench/casino_table.py: a spectator process said {line!r}")

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(child.pid) for child in self.children)

    async def finish(self, last: int) -> list[Spectator]:
        """Every spectator's frames, once each has the frame of ``last`` (or 5 s passed)."""
        spectators: list[Spectator] = []
        for child in self.children:
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write(f"{last}\n")
            child.stdin.flush()
        for child in self.children:
            assert child.stdout is not None
            line = await asyncio.to_thread(child.stdout.readline)
            await asyncio.to_thread(child.wait, 30)
            for steps, times, closed in json.loads(line):
                spectator = Spectator()
                spectator.steps, spectator.times, spectator.closed = steps, times, closed
                spectators.append(spectator)
        return spectators

    def kill(self) -> None:
        for child in self.children:
            if child.poll() is None:
                child.kill()
                child.wait()


# ------------------------------------------------------------------------ the run
async def _wait_up(url: str, process: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            if process.poll() is not None:
                raise SystemExit(f"bench/casino_table.py: serve exited with {process.returncode}")
            try:
                if (await client.get(f"{url}/api/health", timeout=1)).status_code == 200:
                    return
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
    raise SystemExit("bench/casino_table.py: serve did not start")


async def _configure(url: str, pause: float) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as operator:
        signed = await operator.post("/api/session", json={"name": OPERATOR, "password": PASSWORD})
        signed.raise_for_status()
        answer = await operator.put(
            f"/api/admin/casino/tables/{TABLE}", json={"pause_seconds": pause}
        )
        answer.raise_for_status()


async def bench(
    spectator_count: int,
    rounds: int,
    seconds: float,
    pause: float,
    profile: Path | None,
    processes: int = 1,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'casino.db'}"
        made = subprocess.run(
            [str(BIN), "admin", "create-operator", OPERATOR, "--db", db, "--password-stdin"],
            input=f"{PASSWORD}\n".encode(),
            capture_output=True,
            check=False,
        )
        if made.returncode != 0:
            raise SystemExit(f"create-operator failed: {made.stderr.decode()[-500:]}")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = [str(BIN), "serve", "--port", str(port), "--db", db, "--log-level", "warning"]
        if profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
            out = (profile / "casino-table.prof").resolve()
            command = [sys.executable, "-m", "cProfile", "-o", str(out), *command]
        process = subprocess.Popen(command, cwd=folder)
        run = Run()
        bots: list[Bot] = []
        workers: WorkerSpectators | None = None
        try:
            await _wait_up(url, process)
            await _configure(url, pause)
            if processes > 0:
                workers = WorkerSpectators(url, spectator_count, processes)
                await workers.ready()
            else:
                spectators, sockets, readers = await _watchers(url, spectator_count)
            bots = [Bot(url, f"bench-bot-{box}", box, run) for box in range(1, BOXES + 1)]
            for bot in bots:  # not timed (password hashing); one at a time: seats in box order
                await bot.open()
            server_cpu, driver_cpu = cpu_seconds(process.pid), time.process_time()
            watcher_cpu = workers.cpu_seconds() if workers is not None else 0.0
            begin = time.perf_counter()
            driver = asyncio.create_task(_drive(url, bots, run, rounds))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.done.wait(), seconds)
            await asyncio.sleep(0.2)  # answers still on their way
            last = max((sent.step for sent in run.sent), default=0)
            if workers is not None:
                # CPU read before the workers wait and report (that is not the run).
                watcher_cpu = workers.cpu_seconds() - watcher_cpu
                spectators = await workers.finish(last)
            else:
                await _until_seen(spectators, last)
            elapsed = time.perf_counter() - begin
            server_cpu = cpu_seconds(process.pid) - server_cpu
            driver_cpu = time.process_time() - driver_cpu
            driver.cancel()
            if workers is None:
                for sock in sockets:
                    await sock.close()
                await asyncio.gather(*readers)
        finally:
            for bot in bots:
                await bot.client.aclose()
            if workers is not None:
                workers.kill()
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    latency: dict[str, list[float]] = {"bet": [], "action": []}
    missing = 0
    for sent in run.sent:
        seen = [spectator.seen(sent.step) for spectator in spectators]
        if any(when is None for when in seen):
            missing += 1
            continue
        latency[sent.kind].append(max(when for when in seen if when is not None) - sent.at)
    every = latency["bet"] + latency["action"]
    frames = sum(len(spectator.steps) for spectator in spectators)
    summary = _summary(every)
    return {
        "bench": "casino_table",
        "database": "sqlite",
        "spectators": spectator_count,
        "boxes": BOXES,
        "rounds": run.settled_rounds,
        "seconds": round(elapsed, 2),
        "pause_seconds": pause,
        "compression": _compression or "none",
        # From sending a bet or a decision to the last spectator holding the frame of its step.
        "to_last_spectator_ms": summary,
        "by_request": {kind: _summary(values) for kind, values in latency.items()},
        # From sending it to its HTTP answer (committed; the frame is queued before it).
        "answer_ms": _summary([sent.answered - sent.at for sent in run.sent]),
        "target_p99_ms": TARGET_P99_MS,
        "meets_target": bool(every) and summary["p99"] < TARGET_P99_MS,
        "frames": frames,
        "frames_per_second": round(frames / elapsed, 1) if elapsed else 0.0,
        "missing": missing,
        "dropped_spectators": sum(
            1 for spectator in spectators if spectator.closed and not spectator.steps
        ),
        "errors": run.errors,
        **({"last_error": run.last_error} if run.last_error else {}),
        "client_processes": processes,
        # CPU over the run: the server; the bots' process (with the spectators when
        # --client-processes 0); the spectator processes.
        "server_cpu_seconds": round(server_cpu, 2),
        "client_cpu_seconds": round(driver_cpu + watcher_cpu, 2),
        "bots_cpu_seconds": round(driver_cpu, 2),
        "spectators_cpu_seconds": round(watcher_cpu, 2),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        **({"profile": str(profile / "casino-table.prof")} if profile is not None else {}),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument(
        "--rounds", type=int, default=20, help="stop after this many settled rounds"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long at most")
    parser.add_argument("--pause", type=float, default=0.2, help="the table's pause between rounds")
    parser.add_argument(
        "--short", action="store_true", help="the test's mode: 20 spectators, 2 rounds"
    )
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the server into DIR")
    parser.add_argument(
        "--compression",
        choices=sorted(COMPRESSION),
        default="deflate",
        help="what the clients offer: permessage-deflate as browsers do, or none",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=1,
        help="spectators in this many child processes (0: in the bots' own process)",
    )
    parser.add_argument("--watch-worker", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global _compression
    _compression = COMPRESSION[args.compression]
    if args.watch_worker:
        await _worker(args.watch_worker, args.spectators)
        return
    if args.short:
        args.spectators, args.rounds, args.seconds = 20, 2, min(args.seconds, 30.0)
    result = await bench(
        args.spectators,
        args.rounds,
        args.seconds,
        args.pause,
        args.profile,
        max(0, args.client_processes),
    )
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
