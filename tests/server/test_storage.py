"""The schema: migrations against the models, and the persistent ledger's rules."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from twentyone.ledger.errors import InsufficientBalanceError, LedgerError, UnknownAccountError
from twentyone.storage import ledger
from twentyone.storage.db import downgrade, make_engine, migrate, session_maker
from twentyone.storage.models import CUSTOMER, EXTERNAL_ACCOUNT, HOLD, HOUSE_ACCOUNT, Base

pytestmark = pytest.mark.anyio


def _diff(connection: Any) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Any) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_migrations_build_exactly_the_models(database: dict[str, Any]) -> None:
    engine = make_engine(database["url"], database["schema"])
    try:
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == set()
        await migrate(engine)
        async with engine.connect() as connection:
            assert await connection.run_sync(_diff) == []
            assert await connection.run_sync(_tables) == {*Base.metadata.tables, "alembic_version"}
            version = (
                await connection.execute(text("select version_num from alembic_version"))
            ).scalar()
            assert version == "0004"  # the newest migration (v0004_vinte)
        await migrate(engine)  # running it again at the next start-up changes nothing
        await downgrade(engine)  # and the downgrade undoes it
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == {"alembic_version"}
    finally:
        await engine.dispose()


async def test_ledger_transfers_and_audit(database: dict[str, Any]) -> None:
    engine = make_engine(database["url"], database["schema"])
    await migrate(engine)
    sessions = session_maker(engine)
    try:
        async with sessions() as session, session.begin():
            await ledger.ensure_house_accounts(session, 0.0)
            await ledger.open_account(session, "player:ann", CUSTOMER, 0.0)
            await ledger.open_account(session, "round:1", HOLD, 0.0)
            await ledger.transfer(session, EXTERNAL_ACCOUNT, "player:ann", 1000, "grant", 1.0)
            await ledger.transfer(session, "player:ann", "round:1", 400, "stake", 2.0)
        async with sessions() as session, session.begin():
            with pytest.raises(InsufficientBalanceError):
                await ledger.transfer(session, "player:ann", "round:1", 601, "stake", 3.0)
            for bad in (0, -1, 1.5, True):
                with pytest.raises(LedgerError):
                    await ledger.transfer(session, "player:ann", HOUSE_ACCOUNT, bad, "x", 3.0)  # type: ignore[arg-type]
            with pytest.raises(LedgerError):
                await ledger.transfer(session, "player:ann", "player:ann", 1, "x", 3.0)
            with pytest.raises(UnknownAccountError):
                await ledger.transfer(session, "player:nobody", HOUSE_ACCOUNT, 1, "x", 3.0)
            with pytest.raises(UnknownAccountError):
                await ledger.transfer(session, "player:ann", "player:nobody", 1, "x", 3.0)
        async with sessions() as session, session.begin():
            # The house banks play money: it may go below zero; the books still balance.
            await ledger.transfer(session, HOUSE_ACCOUNT, "player:ann", 250, "winnings", 4.0)
            report = await ledger.audit(session)
            assert report["problems"] == []
            assert report["balanced"] and report["total"] == 0 and report["held"] == 400
            assert await ledger.balance(session, "player:ann") == 850
            page = await ledger.statement(session, "player:ann", 10, None)
            assert [(t["amount"], t["reason"]) for t in page] == [
                (250, "winnings"),
                (-400, "stake"),
                (1000, "grant"),
            ]
            # A balance written behind the ledger's back is found by the audit.
            await session.execute(
                text("update ledger_accounts set balance = balance + 1 where id = 'player:ann'")
            )
            report = await ledger.audit(session)
            assert not report["balanced"]
            assert any("player:ann" in p for p in report["problems"])
    finally:
        await engine.dispose()


async def test_a_batch_of_transfers_is_guarded_in_order(database: dict[str, Any]) -> None:
    """``ledger.post`` (the hot path's batch): every transfer written, each account moved by
    its net change, refused as a whole if a customer or hold account would dip below zero at
    any point of the sequence, and a refused batch leaves no trace."""
    engine = make_engine(database["url"], database["schema"])
    await migrate(engine)
    sessions = session_maker(engine)
    move = ledger.Movement
    try:
        async with sessions() as session, session.begin():
            await ledger.ensure_house_accounts(session, 0.0)
            await ledger.open_account(session, "player:bo", CUSTOMER, 0.0)
            await ledger.open_account(session, "round:7", HOLD, 0.0)
            await ledger.transfer(session, EXTERNAL_ACCOUNT, "player:bo", 300, "grant", 1.0)
        async with engine.begin() as connection:
            # A stake, then a settlement that pays it back with winnings: the hold account
            # goes up then back to zero, the player ends above where he started.
            balances = await ledger.post(
                connection,
                [
                    move("player:bo", "round:7", 200, "stake"),
                    move("round:7", "player:bo", 200, "stake returned"),
                    move(HOUSE_ACCOUNT, "player:bo", 200, "winnings"),
                ],
                2.0,
            )
            assert balances == {"player:bo": 500, "round:7": 0}
        async with engine.begin() as connection:
            # 600 of 500: refused although the batch would end positive for the player.
            with pytest.raises(InsufficientBalanceError):
                await ledger.post(
                    connection,
                    [
                        move("player:bo", "round:7", 600, "stake"),
                        move(HOUSE_ACCOUNT, "player:bo", 900, "winnings"),
                    ],
                    3.0,
                )
            # An unknown account: refused; the guarded debit before it is taken back.
            with pytest.raises(UnknownAccountError):
                await ledger.post(connection, [move("player:bo", "round:nobody", 1, "x")], 3.0)
            for bad in (0, -1, 1.5, True):
                with pytest.raises(LedgerError):
                    await ledger.post(connection, [move("player:bo", HOUSE_ACCOUNT, bad, "x")], 3.0)  # type: ignore[arg-type]
        async with sessions() as session, session.begin():
            assert await ledger.balance(session, "player:bo") == 500
            assert await ledger.balance(session, "round:7") == 0
            report = await ledger.audit(session)
            assert report["balanced"], report["problems"]
            page = await ledger.statement(session, "player:bo", 10, None)
            assert [(t["amount"], t["reason"]) for t in page] == [
                (200, "winnings"),
                (200, "stake returned"),
                (-200, "stake"),
                (300, "grant"),
            ]
    finally:
        await engine.dispose()


async def test_the_audit_checks_exchange_and_vinte_holds(database: dict[str, Any]) -> None:
    """An open exchange game must hold what its positions say; a finished game or match
    nothing; the exchange's holds are reported apart from the open rounds' stakes."""
    from twentyone.storage.models import (
        ExchangeGameRow,
        ExchangePositionRow,
        User,
        VinteTableRow,
        exchange_hold_account,
        vinte_hold_account,
    )

    engine = make_engine(database["url"], database["schema"])
    await migrate(engine)
    sessions = session_maker(engine)
    try:
        async with sessions() as session, session.begin():
            await ledger.ensure_house_accounts(session, 0.0)
            await ledger.open_account(session, "player:ann", CUSTOMER, 0.0)
            await ledger.transfer(session, EXTERNAL_ACCOUNT, "player:ann", 1000, "grant", 1.0)
            game = ExchangeGameRow(
                table_id="exchange-1", number=1, state="open", server_seed="0" * 64,
                commitment="1" * 64, client_seed="exchange-1", scripted=None, maker_float=0,
                record=None, created_at=1.0,
            )  # fmt: skip
            session.add(game)
            session.add(
                User(name="ann", name_key="ann", password_hash="x", account_id="player:ann",
                     client_seed="c", created_at=1.0)
            )  # fmt: skip
            await session.flush()
            session.add(
                VinteTableRow(
                    id="v1", name="v", creator_id=1, invite="i", settings={}, seats=[],
                    client_seed="v1", status="playing", state=None, created_at=1.0,
                    updated_at=1.0,
                )
            )  # fmt: skip
            session.add(
                ExchangePositionRow(game_id=game.id, account="player:ann", held=300, settled_net=0)
            )
            await ledger.open_account(session, exchange_hold_account(game.id), HOLD, 0.0)
            await ledger.open_account(session, vinte_hold_account("v1"), HOLD, 0.0)
            await ledger.transfer(
                session, "player:ann", exchange_hold_account(game.id), 300, "hold", 2.0
            )
            await ledger.transfer(
                session, "player:ann", vinte_hold_account("v1"), 100, "buy-in", 2.0
            )
            report = await ledger.audit(session)
            assert report["problems"] == []
            assert report["held"] == 100 and report["exchange_held"] == 300
            assert report["exchange_open_games"] == [{"id": game.id, "held": 300}]

            await session.execute(
                text("update exchange_positions set held = 200")
            )  # the positions no longer say what is held
            await session.execute(text("update vinte_tables set status = 'over'"))
            report = await ledger.audit(session)
            assert not report["balanced"]
            assert any(f"exchange game {game.id} holds 300" in p for p in report["problems"])
            assert any("vinte table v1 is over" in p for p in report["problems"])
            await session.execute(text("update exchange_games set state = 'settled'"))
            report = await ledger.audit(session)
            assert any(f"exchange game {game.id} is settled" in p for p in report["problems"])
    finally:
        await engine.dispose()
