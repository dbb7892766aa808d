"""Operators: read any round and statement, audit, void with a reason, configure tables; every
operator action recorded. And the create-operator command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from twentyone.cli.main import cli
from twentyone.fairness import FairnessRecord, verify_record
from twentyone.server.app import open_player
from twentyone.storage.models import OperatorAction

from .helpers import no_dealer_blackjack_or_ace, steer_next_round

pytestmark = pytest.mark.anyio


async def _operator(api: Any, name: str = "boss") -> Any:
    hashed = api.server.config.hasher.hash("operator-pass")
    async with api.server.write() as session:
        await open_player(session, api.server, name, hashed, role="operator")
    async with api.client() as c:
        token = (
            await c.post("/api/tokens", json={"name": name, "password": "operator-pass"})
        ).json()["token"]
    return api.client(token)


async def test_operator_reads_voids_audits_and_is_recorded(api: Any) -> None:
    player = await api.player("pat")
    boss = await _operator(api)
    async with player, boss:
        shoe = await steer_next_round(api.server, "pat", no_dealer_blackjack_or_ace)
        view = (await player.post("/api/online/rounds", json={"bet": 2000})).json()
        assert view["state"] == "play"
        full = (await boss.get(f"/api/admin/rounds/{view['id']}")).json()
        assert full["player"] == "pat"
        assert full["dealer"]["cards"] == [str(shoe[1]), str(shoe[3])]  # the hole card too
        verify_record(FairnessRecord.from_json(full["fairness"]))  # and the seed, while open
        assert full["events"][4]["card"] == str(shoe[3])
        assert (await boss.get("/api/admin/rounds/424242")).status_code == 404
        listed = (await boss.get("/api/admin/rounds", params={"state": "open"})).json()
        assert [r["id"] for r in listed["rounds"]] == [view["id"]]
        assert (
            await boss.get("/api/admin/rounds", params={"state": "nonsense"})
        ).status_code == 422

        statement = (await boss.get("/api/admin/accounts/PAT/statement")).json()
        assert statement["balance"] == 98_000
        assert [t["reason"] for t in statement["transfers"]] == ["stake", "grant"]
        assert (await boss.get("/api/admin/accounts/nobody/statement")).status_code == 404

        audit = (await boss.get("/api/admin/audit")).json()
        assert audit["balanced"] and audit["held"] == 2000
        assert [r["id"] for r in audit["open_rounds"]] == [view["id"]]

        assert (await boss.post(f"/api/admin/rounds/{view['id']}/void", json={})).status_code == 422
        voided = await boss.post(
            f"/api/admin/rounds/{view['id']}/void", json={"reason": "table fault"}
        )
        assert voided.status_code == 200 and voided.json()["refunded"] == 2000
        again = await boss.post(f"/api/admin/rounds/{view['id']}/void", json={"reason": "twice"})
        assert again.status_code == 409
        assert (await player.get("/api/me")).json()["balance"] == 100_000
        seen = (await player.get(f"/api/online/rounds/{view['id']}")).json()
        assert seen["state"] == "void" and seen["void_reason"] == "table fault"
        acted = await player.post(
            f"/api/online/rounds/{view['id']}/actions", json={"action": "stand"}
        )
        assert acted.status_code == 409
        audit = (await boss.get("/api/admin/audit")).json()
        assert audit["balanced"] and audit["held"] == 0
        assert audit["voids"][0]["reason"] == "table fault"

        # Players may not do any of it.
        for method, path in (
            ("GET", f"/api/admin/rounds/{view['id']}"),
            ("POST", f"/api/admin/rounds/{view['id']}/void"),
            ("GET", "/api/admin/audit"),
            ("GET", "/api/admin/tables"),
            ("GET", "/api/admin/actions"),
        ):
            refused = await player.request(method, path, json={"reason": "x"})
            assert refused.status_code == 403, path

        actions = (await boss.get("/api/admin/actions")).json()["actions"]
        done = [a["action"] for a in actions]
        assert done[:2] == ["audit", "void"] and "read round" in done and "read statement" in done
        void = next(a for a in actions if a["action"] == "void")
        assert void["details"]["reason"] == "table fault" and void["operator_id"] is not None


async def test_operator_configures_the_table(api: Any) -> None:
    player = await api.player("quinn")
    boss = await _operator(api)
    async with player, boss:
        tables = (await boss.get("/api/admin/tables")).json()
        assert [t["id"] for t in tables] == ["online"]
        assert tables[0]["effective_rules"]["max_hands"] == 2
        changed = await boss.put(
            "/api/admin/tables/online",
            json={
                "min_bet": 500,
                "max_bet": 5000,
                "rules": {"dealer_hits_soft_17": True},
                "decision_seconds": 30,
            },
        )
        assert changed.status_code == 200, changed.text
        assert changed.json()["effective_rules"]["dealer_hits_soft_17"] is True
        assert (await player.get("/api/online/table")).json()["min_bet"] == 500
        assert (await player.post("/api/online/rounds", json={"bet": 400})).status_code == 422
        assert (await player.post("/api/online/rounds", json={"bet": 6000})).status_code == 422
        dealt = (await player.post("/api/online/rounds", json={"bet": 500})).json()
        for bad in (
            {"min_bet": 0},
            {"min_bet": 9000},
            {"rules": {"peek": "sideways"}},
            {"rules": {"no_such_rule": 1}},
            {"preset": "nonsense"},
            {"decision_seconds": 0},
            {"extra": 1},
        ):
            refused = await boss.put("/api/admin/tables/online", json=bad)
            assert refused.status_code == 422, bad
        assert (await boss.put("/api/admin/tables/nothere", json={})).status_code == 404
        # The round already dealt keeps its rules: S17 as dealt.
        async with api.server.read() as session:
            from twentyone.storage.models import Round

            row = await session.get(Round, dealt["id"])
            assert row.rules["dealer_hits_soft_17"] is True
            recorded = (await session.scalars(select(OperatorAction.action))).all()
        assert "configure table" in recorded


def test_create_operator_command(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ops.db'}"
    runner = CliRunner()
    made = runner.invoke(
        cli,
        ["admin", "create-operator", "Olga", "--db", db, "--password-stdin"],
        input="long-password\n",
    )
    assert made.exit_code == 0, made.output
    assert "operator" in made.output
    again = runner.invoke(cli, ["admin", "create-operator", "olga", "--db", db], input="")
    assert again.exit_code == 0 and "now an operator" in again.output
    short = runner.invoke(
        cli, ["admin", "create-operator", "Pete", "--db", db, "--password-stdin"], input="short\n"
    )
    assert short.exit_code == 2
    nopass = runner.invoke(cli, ["admin", "create-operator", "Pete", "--db", db], input="")
    assert nopass.exit_code == 2
    bad = runner.invoke(cli, ["admin", "create-operator", "Pete", "--db", "mysql://x"])
    assert bad.exit_code == 2
    audit = runner.invoke(cli, ["audit", "--db", db, "--json"])
    assert audit.exit_code == 0 and '"operator_actions": 2' in audit.output
