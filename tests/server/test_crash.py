"""Crash safety: a real ``twentyone serve`` killed with SIGKILL mid-round, restarted on the same
database, finishes the round with every minor unit accounted for; a round whose stored events
were corrupted is voided and refunded at start-up, and ``twentyone audit`` shows the void."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

BIN = Path(sys.executable).parent / "twentyone"
GRANT = 100_000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Served:
    def __init__(self, db: Path, cwd: Path) -> None:
        self.db, self.cwd = db, cwd
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                str(BIN),
                "serve",
                "--port",
                str(self.port),
                "--db",
                f"sqlite:///{self.db}",
                "--log-level",
                "warning",
            ],
            cwd=self.cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve exited: {self.process.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("serve did not answer in 60 s")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def _player(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    assert (
        client.post("/api/accounts", json={"name": name, "password": "password123"}).status_code
        == 201
    )
    token = client.post("/api/tokens", json={"name": name, "password": "password123"}).json()[
        "token"
    ]
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def _finish(client: httpx.Client, view: dict[str, Any]) -> dict[str, Any]:
    while view["legal_actions"]:
        action = "stand" if "stand" in view["legal_actions"] else "no-insurance"
        view = client.post(
            f"/api/online/rounds/{view['id']}/actions", json={"action": action}
        ).json()
    return view


def _open_round(client: httpx.Client, nets: list[int]) -> dict[str, Any]:
    """Deal until a round is left waiting for a decision (settled ones are counted)."""
    while True:
        view = client.post("/api/online/rounds", json={"bet": 1000}).json()
        if view["legal_actions"]:
            return view
        nets.append(view["net"])


def _audit(db: Path) -> dict[str, Any]:
    done = subprocess.run(
        [str(BIN), "audit", "--db", f"sqlite:///{db}", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    assert (done.returncode == 0) == out["balanced"]
    return out


def test_sigkill_mid_round_then_resume_and_void_corrupted(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    served = Served(db, tmp_path)
    served.start()
    try:
        ann, bob = _player(served.url, "ann"), _player(served.url, "bob")
        ann_nets: list[int] = []
        bob_nets: list[int] = []
        ann_round = _open_round(ann, ann_nets)
        # One acknowledged step inside the round: it must survive the kill.
        if "no-insurance" in ann_round["legal_actions"]:
            ann_round = ann.post(
                f"/api/online/rounds/{ann_round['id']}/actions", json={"action": "no-insurance"}
            ).json()
        if ann_round["legal_actions"] and ann_round["hands"][0]["total"] <= 11:
            ann_round = ann.post(
                f"/api/online/rounds/{ann_round['id']}/actions", json={"action": "hit"}
            ).json()
        if not ann_round["legal_actions"]:  # the step ended it: deal another to leave open
            ann_nets.append(ann_round["net"])
            ann_round = _open_round(ann, ann_nets)
        bob_round = _open_round(bob, bob_nets)
        cid = _player(served.url, "cid")
        cid_nets: list[int] = []
        cid_round = _open_round(cid, cid_nets)
        cid.close()
        before_kill = ann.get(f"/api/online/rounds/{ann_round['id']}").json()
        ann.close()
        bob.close()
        served.kill()

        # Someone corrupts bob's stored round while the server is down.
        with sqlite3.connect(db) as raw:
            raw.execute(
                "update round_events set data = ? where round_id = ? and seq = 1",
                (
                    json.dumps({"type": "card", "to": "box", "box": 0, "hand": 0, "card": "ZZ"}),
                    bob_round["id"],
                ),
            )
            # ... and cid's stored decisions are no longer JSON at all.
            raw.execute("update rounds set actions = 'not json' where id = ?", (cid_round["id"],))
        held_before = _audit(db)
        assert held_before["balanced"] and len(held_before["open_rounds"]) == 3

        served.start()
        ann = httpx.Client(base_url=served.url, headers=dict(ann.headers), timeout=10)
        bob = httpx.Client(base_url=served.url, headers=dict(bob.headers), timeout=10)
        resumed = ann.get(f"/api/online/rounds/{ann_round['id']}").json()
        assert resumed == before_kill  # the same state, step and events, nothing hidden shown
        done = _finish(ann, resumed)
        assert done["state"] == "settled"
        ann_nets.append(done["net"])
        assert ann.get("/api/me").json()["balance"] == GRANT + sum(ann_nets)

        voided = bob.get(f"/api/online/rounds/{bob_round['id']}").json()
        assert voided["state"] == "void"
        # The stake came back: bob has his grant plus the nets of his settled rounds only.
        assert bob.get("/api/me").json()["balance"] == GRANT + sum(bob_nets)
        statement = bob.get("/api/me/statement").json()["transfers"]
        assert statement[0]["reason"] == "void refund" and statement[0]["amount"] == 1000
        # And bob can play on.
        new_round = bob.post("/api/online/rounds", json={"bet": 100})
        assert new_round.status_code == 201
        # The server deals from its CSPRNG here: a natural (his or the dealer's) settles the
        # round at once, which leaves nothing held.
        still_open = new_round.json()["state"] != "settled"
        ann.close()
        bob.close()
    finally:
        served.stop()
    report = _audit(db)
    assert report["balanced"] and report["total"] == 0
    assert [v["id"] for v in report["voids"]] == [bob_round["id"], cid_round["id"]]
    # bob's new round, if it is still open, holds its stake
    assert report["held"] == (100 if still_open else 0)
    assert len(report["open_rounds"]) == (1 if still_open else 0)
    assert "start-up" in report["voids"][0]["reason"]
    text = subprocess.run(
        [str(BIN), "audit", "--db", f"sqlite:///{db}"], capture_output=True, text=True, check=False
    )
    assert text.returncode == 0 and f"void round {bob_round['id']}" in text.stdout


def test_audit_fails_when_the_ledger_does_not_balance(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    served = Served(db, tmp_path)
    served.start()
    try:
        _player(served.url, "carl").close()
    finally:
        served.stop()
    assert _audit(db)["balanced"]
    with sqlite3.connect(db) as raw:
        raw.execute("update ledger_accounts set balance = balance + 5 where id = 'player:carl'")
    done = subprocess.run(
        [str(BIN), "audit", "--db", f"sqlite:///{db}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and "DOES NOT BALANCE" in done.stdout
    bad = subprocess.run(
        [str(BIN), "audit", "--db", "mysql://x"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("args", [["--db", "oracle://x"], ["--port", "99999"]])
def test_serve_refuses_bad_options(args: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN), "serve", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
