"""Benchmark of the server: N concurrent bot clients playing Online rounds over the API.

Starts one ``twentyone serve`` process on loopback (a fresh SQLite file, and a fresh PostgreSQL
database ``twentyone_bench`` on 127.0.0.1:5432 when it answers), opens N accounts in the
database first (not timed), then lets N asyncio clients play rounds for a fixed time (deal, then
stand or decline insurance until settled) and prints one JSON object: rounds per second and the
p50/p99 latency of each request, per database. The clients share the machine's cores with the
server.

Run: ``python bench/server.py [--clients 200] [--seconds 10] [--db sqlite|postgresql|both]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

BIN = Path(sys.executable).parent / "twentyone"
PG = "postgresql://postgres@127.0.0.1:5432"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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

    from twentyone.server.app import Server, open_player
    from twentyone.server.config import ServerConfig, fast_hasher
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


async def _play(url: str, token: str, until: float, stats: dict[str, Any]) -> None:
    host, port = url.removeprefix("http://").split(":")
    connection = _Connection(host, int(port), token)

    async def timed(kind: str, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        status, data = await connection.request(method, path, body)
        stats["latency"].setdefault(kind, []).append(time.perf_counter() - start)
        if status >= 400:
            stats["errors"] += 1
            stats["last_error"] = data.decode(errors="replace")
            return {"legal_actions": []}
        out: dict[str, Any] = json.loads(data)
        return out

    try:
        while time.perf_counter() < until:
            view = await timed("deal", "POST", "/api/online/rounds", {"bet": 100})
            while view.get("legal_actions"):
                action = "stand" if "stand" in view["legal_actions"] else "no-insurance"
                view = await timed(
                    "act", "POST", f"/api/online/rounds/{view['id']}/actions", {"action": action}
                )
            if view.get("state") == "settled":
                stats["rounds"] += 1
    finally:
        connection.close()


async def _run(db_name: str, db_url: str, clients: int, seconds: float) -> dict[str, Any]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    tokens = await _seed_players(db_url, clients)
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [str(BIN), "serve", "--port", str(port), "--db", db_url, "--log-level", "warning"],
            cwd=folder,
        )
        try:
            await _wait_up(url, process)
            stats: dict[str, Any] = {"rounds": 0, "errors": 0, "latency": {}}
            server_cpu, client_cpu = _cpu_seconds(process.pid), time.process_time()
            begin = time.perf_counter()
            await asyncio.gather(*(_play(url, t, begin + seconds, stats) for t in tokens))
            elapsed = time.perf_counter() - begin
            server_cpu = _cpu_seconds(process.pid) - server_cpu
            client_cpu = time.process_time() - client_cpu
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    every = [value for values in stats["latency"].values() for value in values]
    return {
        "database": db_name,
        "clients": clients,
        "seconds": round(elapsed, 2),
        "rounds": stats["rounds"],
        "rounds_per_second": round(stats["rounds"] / elapsed, 1),
        "requests": len(every),
        "requests_per_second": round(len(every) / elapsed, 1),
        "errors": stats["errors"],
        # Where the time went: CPU seconds of the server process and of the clients over the run.
        "server_cpu_seconds": round(server_cpu, 1),
        "client_cpu_seconds": round(client_cpu, 1),
        "server_cpu_ms_per_request": round(1000 * server_cpu / max(1, len(every)), 1),
        "latency_ms": {
            "p50": round(1000 * _percentile(every, 0.50), 1),
            "p99": round(1000 * _percentile(every, 0.99), 1),
            "max": round(1000 * max(every, default=0.0), 1),
        },
        "latency_ms_by_request": {
            kind: {
                "p50": round(1000 * _percentile(values, 0.50), 1),
                "p99": round(1000 * _percentile(values, 0.99), 1),
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
    args = parser.parse_args()
    results = []
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            db = f"sqlite:///{Path(folder) / 'bench.db'}"
            results.append(await _run("sqlite", db, args.clients, args.seconds))
    if args.db in ("postgresql", "both"):
        pg = await _fresh_pg_database()
        if pg is None:
            results.append({"database": "postgresql", "skipped": "PostgreSQL does not answer"})
        else:
            results.append(await _run("postgresql", pg, args.clients, args.seconds))
    print(
        json.dumps(
            {
                "benchmark": "server",
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                "target": "200 concurrent players at p99 < 100 ms",
                "results": results,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
