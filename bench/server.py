"""Benchmark of the server: N concurrent bot clients playing Online rounds over the API.

Starts one ``twentyone serve`` process on loopback (a fresh SQLite file, and a fresh PostgreSQL
database ``twentyone_bench`` on 127.0.0.1:5432 when it answers), opens N accounts in the
database first (not timed), then lets N asyncio clients play rounds for a fixed time (deal, then
stand or decline insurance until settled) and prints one JSON object: rounds per second and the
p50/p99 latency of each request, per database and load model. The clients share the machine's
cores with the server (they speak HTTP/1.1 on raw asyncio streams to stay cheap).

Load models (``--think-ms``, one run per value): a player pauses between his requests as a
real one does. Each pause is drawn uniformly from 0.5x to 1.5x the given mean (seeded, so the
clients do not fire in lockstep), and each client starts at a random point of its first pause.
Latencies and rounds are counted from the end of that ramp up (1.5 mean pauses, at most half
the run), when every client is playing. ``0`` is the saturation mode: every client fires its next request the moment the last answer
arrives, so the server is never idle and the latency is mostly queueing.

Run: ``python bench/server.py [--clients 200] [--seconds 10] [--db sqlite|postgresql|both]
[--think-ms 250 0] [--profile DIR] [--samples DIR]``; ``--profile`` runs the server under cProfile and writes
``DIR/<database>-<clients>-<think>.prof`` (read it with ``python -m pstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

# The helpers shared with the other load bench, beside this script (also when it is loaded
# from a test by its path).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import cpu_seconds, free_port, percentile

BIN = Path(sys.executable).parent / "twentyone"
PG = "postgresql://postgres@127.0.0.1:5432"


async def _fresh_pg_database() -> str | None:
    try:
        import asyncpg

        conn = await asyncpg.connect(f"{PG.replace('postgresql', 'postgres')}/test", timeout=3)
    except Exception:
        return None
    try:
        await conn.execute("DROP DATABASE IF EXISTS twentyone_bench")
        await conn.execute("CREATE DATABASE twentyone_bench")
    finally:
        await conn.close()
    return f"{PG}/twentyone_bench"


async def _wait_up(url: str, process: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            if process.poll() is not None:
                raise SystemExit(f"bench/server.py: serve exited with {process.returncode}")
            try:
                if (await client.get(f"{url}/api/health", timeout=1)).status_code == 200:
                    return
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
    raise SystemExit("bench/server.py: serve did not start")


async def _seed_players(db_url: str, count: int) -> list[str]:
    """Open ``count`` accounts and a bearer token each straight in the database (not timed:
    hashing 200 passwords with Argon2 is not what is measured)."""
    import hashlib
    import secrets

    from twentyone.server.app import open_player
    from twentyone.server.config import ServerConfig, fast_hasher
    from twentyone.server.context import Server
    from twentyone.storage.models import AuthToken

    server = Server(ServerConfig(db_url=db_url, hasher=fast_hasher(), recover_at_start=False))
    tokens = []
    try:
        await server.start()
        async with server.write() as session:
            hashed = server.config.hasher.hash("bench-password")
            for index in range(count):
                user = await open_player(session, server, f"bot{index:04d}", hashed)
                token = secrets.token_urlsafe(32)
                session.add(
                    AuthToken(
                        token_hash=hashlib.sha256(token.encode()).hexdigest(),
                        user_id=user.id,
                        kind="bearer",
                        created_at=server.now(),
                    )
                )
                tokens.append(token)
    finally:
        await server.stop()
    return tokens


class _Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: the bench's clients share the
    cores with the server, and a full client library costs several times the CPU per request."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port = host, port
        self.head = f"Host: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\n{self.head}Content-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _warm_up(url: str, token: str) -> None:
    host, port = url.removeprefix("http://").split(":")
    connection = _Connection(host, int(port), token)
    try:
        status, data = await connection.request("GET", "/api/me", {})
        if status != 200:
            raise SystemExit(f"bench/server.py: warm-up refused: {data[:200]!r}")
    finally:
        connection.close()


async def _play(
    url: str, token: str, until: float, stats: dict[str, Any], think: float, seed: int
) -> None:
    host, port = url.removeprefix("http://").split(":")
    connection = _Connection(host, int(port), token)
    pauses = random.Random(seed)

    async def pause() -> None:
        if think > 0:
            await asyncio.sleep(think * pauses.uniform(0.5, 1.5))

    async def timed(kind: str, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        status, data = await connection.request(method, path, body)
        stats["requests_all"] += 1
        if start >= stats["measured_from"]:
            took = time.perf_counter() - start
            stats["latency"].setdefault(kind, []).append(took)
            stats["samples"].append((kind, round(start - stats["measured_from"], 4), took))
        if status >= 400:
            stats["errors"] += 1
            stats["last_error"] = data.decode(errors="replace")
            return {"legal_actions": []}
        out: dict[str, Any] = json.loads(data)
        return out

    try:
        if think > 0:  # spread the first requests over one pause
            await asyncio.sleep(think * pauses.random())
        while time.perf_counter() < until:
            view = await timed("deal", "POST", "/api/online/rounds", {"bet": 100})
            while view.get("legal_actions"):
                await pause()
                if time.perf_counter() >= until:
                    return
                action = "stand" if "stand" in view["legal_actions"] else "no-insurance"
                view = await timed(
                    "act", "POST", f"/api/online/rounds/{view['id']}/actions", {"action": action}
                )
            if view.get("state") == "settled" and time.perf_counter() >= stats["measured_from"]:
                stats["rounds"] += 1
            await pause()
    finally:
        connection.close()


async def _run(
    db_name: str,
    db_url: str,
    clients: int,
    seconds: float,
    think_ms: float,
    profile: Path | None,
    samples_dir: Path | None = None,
) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    tokens = await _seed_players(db_url, clients)
    command = [str(BIN), "serve", "--port", str(port), "--db", db_url, "--log-level", "warning"]
    if profile is not None:
        profile.mkdir(parents=True, exist_ok=True)
        out = profile / f"{db_name}-{clients}-{think_ms:g}.prof"
        command = [sys.executable, "-m", "cProfile", "-o", str(out.resolve()), *command]
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(command, cwd=folder)
        try:
            await _wait_up(url, process)
            # Warm-up, not timed: every client once, all at once (the server's token cache
            # and its whole connection pool filled, as in a server that has been up a while).
            await asyncio.gather(*(_warm_up(url, token) for token in tokens))
            think = think_ms / 1000
            begin = time.perf_counter()
            # The clients start over their first pause (a ramp up): counted from its end,
            # when every client is playing.
            ramp = min(think * 1.5, seconds / 2)
            stats: dict[str, Any] = {
                "rounds": 0,
                "requests_all": 0,
                "errors": 0,
                "latency": {},
                "samples": [],
                "measured_from": begin + ramp,
            }
            server_cpu, client_cpu = cpu_seconds(process.pid), time.process_time()
            players = (
                _play(url, token, begin + seconds, stats, think, index)
                for index, token in enumerate(tokens)
            )
            # Bounded: a client finishes its request in flight, then stops.
            await asyncio.wait_for(asyncio.gather(*players), seconds + 60)
            # The window in which requests were started (the last answers come after it).
            elapsed = seconds - ramp
            server_cpu = cpu_seconds(process.pid) - server_cpu
            client_cpu = time.process_time() - client_cpu
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    if samples_dir is not None:  # every request: kind, start (s into the window), latency (s)
        samples_dir.mkdir(parents=True, exist_ok=True)
        (samples_dir / f"{db_name}-{clients}-{think_ms:g}.json").write_text(
            json.dumps(stats["samples"])
        )
    every = [value for values in stats["latency"].values() for value in values]
    return {
        "database": db_name,
        "clients": clients,
        "think_ms": think_ms,
        # The measured window (after the ramp up); CPU is over the whole run.
        "seconds": round(elapsed, 2),
        "ramp_seconds": round(ramp, 2),
        "rounds": stats["rounds"],
        "rounds_per_second": round(stats["rounds"] / elapsed, 1),
        "requests": len(every),
        "requests_per_second": round(len(every) / elapsed, 1),
        "errors": stats["errors"],
        # Where the time went: CPU seconds of the server process and of the clients over the run.
        "server_cpu_seconds": round(server_cpu, 1),
        "client_cpu_seconds": round(client_cpu, 1),
        "server_cpu_ms_per_request": round(1000 * server_cpu / max(1, stats["requests_all"]), 1),
        "latency_ms": {
            "p50": round(1000 * percentile(every, 0.50), 1),
            "p99": round(1000 * percentile(every, 0.99), 1),
            "max": round(1000 * max(every, default=0.0), 1),
        },
        "latency_ms_by_request": {
            kind: {
                "p50": round(1000 * percentile(values, 0.50), 1),
                "p99": round(1000 * percentile(values, 0.99), 1),
                "count": len(values),
            }
            for kind, values in sorted(stats["latency"].items())
        },
        **({"last_error": stats["last_error"][:200]} if stats.get("last_error") else {}),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--think-ms",
        type=float,
        nargs="+",
        default=[250.0, 0.0],
        help="mean pause of a player between requests (one run per value; 0: saturation)",
    )
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the server into DIR")
    parser.add_argument(
        "--samples", type=Path, default=None, help="write every request's latency into DIR"
    )
    args = parser.parse_args()
    results = []
    for think_ms in args.think_ms:
        if args.db in ("sqlite", "both"):
            with tempfile.TemporaryDirectory() as folder:
                db = f"sqlite:///{Path(folder) / 'bench.db'}"
                results.append(
                    await _run(
                        "sqlite",
                        db,
                        args.clients,
                        args.seconds,
                        think_ms,
                        args.profile,
                        args.samples,
                    )
                )
        if args.db in ("postgresql", "both"):
            pg = await _fresh_pg_database()
            if pg is None:
                results.append({"database": "postgresql", "skipped": "PostgreSQL does not answer"})
            else:
                results.append(
                    await _run(
                        "postgresql",
                        pg,
                        args.clients,
                        args.seconds,
                        think_ms,
                        args.profile,
                        args.samples,
                    )
                )
    print(
        json.dumps(
            {
                "benchmark": "server",
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                "target": "200 concurrent players at p99 < 100 ms",
                "load_model": (
                    "think_ms: mean pause of each player between requests, each pause uniform"
                    " in 0.5x-1.5x of it; 0 = no pause (saturation)"
                ),
                "results": results,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
