"""Crash safety of the Exchange: a real ``twentyone serve`` killed with SIGKILL mid-window and
restarted on the same database resumes the game: the same game and round, its window reopened
with a fresh full duration, every acknowledged order and every hold intact, the ledger balanced."""

from __future__ import annotations

from pathlib import Path

from .test_crash import GRANT, Served, _audit, _player

TABLE = "exchange-1"


def test_sigkill_mid_window_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "exchange-crash.db"
    served = Served(db, tmp_path)
    served.start()
    try:
        ann = _player(served.url, "ann")
        state = ann.get(f"/api/exchange/tables/{TABLE}").json()
        game, round_no = state["game"], state["round"]
        assert state["phase"] == "betting" and state["window_closes_at"] > state["now"]
        base = {"table": TABLE, "game": game, "round": round_no}
        # One back that meets the maker's lay at once, one that rests (nobody lays at 1000).
        matched = ann.post(
            "/api/exchange/orders",
            json={
                **base,
                "selection": "Player 2",
                "side": "back",
                "price": "1.01",
                "size": 1000,
                "ref": "k1",
            },
        )
        resting = ann.post(
            "/api/exchange/orders",
            json={
                **base,
                "selection": "Player 4",
                "side": "back",
                "price": "1000",
                "size": 700,
                "ref": "k2",
            },
        )
        assert matched.status_code == 201 and resting.status_code == 201, (
            matched.text,
            resting.text,
        )
        assert matched.json()["status"] == "matched" and resting.json()["status"] == "open"
        before = ann.get(f"/api/exchange/orders?table={TABLE}").json()
        assert before["hold"] == 1700 and before["balance"] == GRANT - 1700
        after_state = ann.get(f"/api/exchange/tables/{TABLE}").json()
        assert after_state["phase"] == "betting"  # the kill comes while the window is open
        served.kill()

        held = _audit(db)
        assert held["balanced"]

        served.start()
        ann.close()
        ann = type(ann)(base_url=served.url, headers=dict(ann.headers), timeout=10)
        state = ann.get(f"/api/exchange/tables/{TABLE}").json()
        assert (state["game"], state["round"], state["phase"]) == (game, round_no, "betting")
        # A fresh full window (30 s for round 1), counted from the restart.
        assert 29.0 <= state["window_closes_at"] - state["now"] <= 30.0
        assert state["window_seconds"] == 30.0
        after = ann.get(f"/api/exchange/orders?table={TABLE}").json()
        assert after["hold"] == before["hold"] and after["balance"] == before["balance"]
        assert after["orders"] == before["orders"] and after["pnl"] == before["pnl"]
        assert ann.get("/api/me").json()["balance"] == GRANT - 1700
        # A retry of an acknowledged order returns it (200), never a second one.
        retry = ann.post(
            "/api/exchange/orders",
            json={
                **base,
                "selection": "Player 4",
                "side": "back",
                "price": "1000",
                "size": 700,
                "ref": "k2",
            },
        )
        assert retry.status_code == 200 and retry.json()["id"] == resting.json()["id"]
        # And the customer trades on: a cancel of the resting order frees its hold.
        cancelled = ann.delete(f"/api/exchange/orders/{resting.json()['id']}")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert ann.get("/api/me").json()["balance"] == GRANT - 1000
        ann.close()
    finally:
        served.stop()
    report = _audit(db)
    assert report["balanced"] and report["total"] == 0
