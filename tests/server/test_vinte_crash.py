"""Crash safety of a live Vinte-e-um match: a real ``twentyone serve`` killed with SIGKILL
mid-round and restarted on the same database resumes at the last decision with a fresh
deadline; a match whose stored state was corrupted is voided at start-up and its buy-in returned."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from .test_crash import GRANT, Served, _audit, _player


def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def test_sigkill_mid_round_resumes_at_the_last_decision(tmp_path: Path) -> None:
    db = tmp_path / "vinte.db"
    served = Served(db, tmp_path)
    served.start()
    try:
        ann = _player(served.url, "ann")
        # A bot banks (seat 1); the other bot (seat 2) plays before ann: after her bet she has
        # a decision of her own in the players' turns (or the next round's bet).
        made = _ok(
            ann.post(
                "/api/vinte/tables",
                json={"seats": 3, "first_banker": 1, "decision_seconds": 3600, "round_limit": 50},
            ),
            201,
        )
        table_id = made["table"]["id"]
        paid = _ok(
            ann.post(
                "/api/vinte/tables",
                json={"seats": 2, "stack": 10, "for_balance": True, "chip_value": 100},
            ),
            201,
        )["table"]["id"]
        url = f"/api/vinte/tables/{table_id}"
        view = _ok(ann.post(f"{url}/start"))["view"]
        assert view["phase"] == "betting" and view["to_act"] == [0]
        # One acknowledged step inside the round: it must survive the kill.
        answer = _ok(ann.post(f"{url}/actions", json={"action": "bet", "chips": 1}))
        before = answer["view"]
        assert 0 in before["to_act"] and before["deadline"] is not None
        _ok(ann.post(f"/api/vinte/tables/{paid}/start"))
        assert _ok(ann.get("/api/me"))["balance"] == GRANT - 1000
        served.kill()

        # The paid table's state is corrupted while the server is down.
        with sqlite3.connect(db) as connection:
            connection.execute(
                "update vinte_tables set state = ? where id = ?", ('{"match": 1}', paid)
            )
        time.sleep(1.0)  # a later wall-clock time: the fresh deadline must be later too
        restarted = time.time()
        served.start()
        ann = _player_again(served.url, ann)
        after = _ok(ann.get(url))["view"]
        assert after["round"] == before["round"] and after["phase"] == before["phase"]
        assert after["to_act"] == before["to_act"] and after["hands"] == before["hands"]
        assert after["banker_cards"] == before["banker_cards"]
        assert after["deadline"] >= restarted + 3600 > before["deadline"]
        assert not any(e["kind"] == "timeout" for e in after["history"])
        legal = after["legal"]
        action = {"action": "stand"} if "stand 0" in legal else {"action": "bet", "chips": 1}
        _ok(ann.post(f"{url}/actions", json=action))

        voided = _ok(ann.get(f"/api/vinte/tables/{paid}"))["table"]
        assert voided["status"] == "void" and "voided at start-up" in voided["void_reason"]
        assert _ok(ann.get("/api/me"))["balance"] == GRANT
    finally:
        served.stop()
    report = _audit(db)
    assert report["balanced"], report["problems"]


def _player_again(base: str, old: httpx.Client) -> httpx.Client:
    """The same bearer token on the restarted server (tokens are stored)."""
    client = httpx.Client(base_url=base, timeout=10)
    client.headers["Authorization"] = old.headers["Authorization"]
    return client
