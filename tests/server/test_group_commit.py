"""Group commit (SQLite): concurrent game steps share one transaction, each keeps its own
answer, nobody is answered before the commit, a failed commit keeps nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from twentyone.server.group_commit import GroupCommit
from twentyone.storage.db import StepConnection, make_sqlite_writer, sqlite_file

from .conftest import Api

pytestmark = pytest.mark.anyio


def _writer(tmp_path: Path) -> GroupCommit:
    engine = make_sqlite_writer(f"sqlite:///{tmp_path / 'g.db'}")
    assert engine is not None
    return GroupCommit(engine, asyncio.Lock())


async def _schema(writes: GroupCommit) -> None:
    async def create(c: StepConnection) -> None:
        await c.execute(text("CREATE TABLE parent (id INTEGER PRIMARY KEY)"))
        await c.execute(
            text(
                "CREATE TABLE t (x INTEGER CHECK (x > 0), parent INTEGER REFERENCES parent(id)"
                " DEFERRABLE INITIALLY DEFERRED)"
            )
        )

    await writes.run(create)


def _insert(x: int, parent: int | None = None) -> Any:
    async def step(c: StepConnection) -> int:
        await c.execute(text("INSERT INTO t VALUES (:x, :p)"), {"x": x, "p": parent})
        return int(await c.scalar(text("SELECT count(*) FROM t")))

    return step


def _rows(tmp_path: Path) -> list[int]:
    with sqlite3.connect(tmp_path / "g.db") as other:  # another connection: committed rows only
        return [x for (x,) in other.execute("SELECT x FROM t ORDER BY rowid")]


async def test_steps_waiting_together_commit_once_each_with_its_own_answer(
    tmp_path: Path,
) -> None:
    writes = _writer(tmp_path)
    await _schema(writes)
    answers = await asyncio.gather(
        *(writes.run(_insert(x)) for x in (1, 2, -3, 4)), return_exceptions=True
    )
    # One transaction for the four (the first batch was the schema); the refused one is
    # rolled back to its savepoint, so the step after it counts three rows, not four.
    assert writes.batches == 2 and writes.steps == 5
    assert answers[:2] == [1, 2] and answers[3] == 3
    assert "CHECK constraint failed" in str(answers[2])
    assert _rows(tmp_path) == [1, 2, 4]
    await writes.close()


async def test_an_answer_comes_only_once_its_step_is_committed(tmp_path: Path) -> None:
    writes = _writer(tmp_path)
    await _schema(writes)
    seen: list[list[int]] = []

    async def answered(x: int) -> None:
        await writes.run(_insert(x))
        seen.append(_rows(tmp_path))  # what another connection sees when the answer comes

    await asyncio.gather(*(answered(x) for x in (5, 6, 7)))
    assert all(5 in rows and 6 in rows and 7 in rows for rows in seen)
    await writes.close()


async def test_a_failed_commit_keeps_nothing_and_fails_every_step_of_it(tmp_path: Path) -> None:
    writes = _writer(tmp_path)
    await _schema(writes)
    # The dangling reference is only checked at COMMIT (a deferred foreign key): the whole
    # batch is refused there, the good step with it, and every request hears of it.
    answers = await asyncio.gather(
        writes.run(_insert(1)), writes.run(_insert(2, parent=99)), return_exceptions=True
    )
    assert all("FOREIGN KEY constraint failed" in str(answer) for answer in answers)
    assert _rows(tmp_path) == []
    assert await writes.run(_insert(3)) == 1  # the writer goes on with a fresh connection
    assert _rows(tmp_path) == [3]
    await writes.close()


async def test_a_step_that_waits_on_something_else_is_refused(tmp_path: Path) -> None:
    writes = _writer(tmp_path)
    await _schema(writes)

    async def waits(c: StepConnection) -> None:
        await c.execute(text("INSERT INTO t VALUES (8, NULL)"))
        await asyncio.sleep(0)  # a real suspension: not allowed inside a batch

    with pytest.raises(RuntimeError, match="must not"):
        await writes.run(waits)
    assert _rows(tmp_path) == []  # rolled back to its savepoint
    await writes.close()


def test_only_a_sqlite_file_gets_a_group_writer() -> None:
    assert sqlite_file("sqlite:////tmp/x.db") == "/tmp/x.db"
    assert make_sqlite_writer("sqlite:///:memory:") is None
    assert make_sqlite_writer("postgresql://127.0.0.1/test") is None


async def test_concurrent_rounds_through_the_api_share_commits(api: Api) -> None:
    if api.server.group is None:
        pytest.skip("group commit is the SQLite file's writer")
    players = [await api.player(f"gc{index}") for index in range(6)]
    start = [(await player.get("/api/me")).json()["balance"] for player in players]
    before = api.server.group.batches
    deals = await asyncio.gather(
        *(
            player.post("/api/online/rounds", json={"bet": start[index] + 1 if index == 2 else 100})
            for index, player in enumerate(players)
        )
    )
    assert [deal.status_code for deal in deals] == [201, 201, 422, 201, 201, 201]
    assert "error" in deals[2].json()
    # Six requests, fewer commits: they waited on the writer together.
    assert api.server.group.batches - before < 6
    for index, (player, deal) in enumerate(zip(players, deals, strict=True)):
        balance = (await player.get("/api/me")).json()["balance"]
        if index == 2:
            assert balance == start[index]  # the refused bet moved nothing
        else:
            view = deal.json()
            assert balance == view["balance"]
            assert balance == start[index] - 100 + (
                100 + view["net"] if view["state"] == "settled" else 0
            )
    for player in players:
        await player.aclose()
