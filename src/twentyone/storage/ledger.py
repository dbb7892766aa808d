"""The persistent double-entry ledger: accounts and transfers in the database.

The database form of :mod:`twentyone.ledger`: every movement of money is one row of
``transfers`` from a debit account to a credit account, written inside the caller's
transaction (so a game step and its money commit together or not at all). Each account's
``balance`` column moves in the same statement pair; a customer or hold account that would go
below zero is refused by a guarded ``UPDATE`` (no read-then-write race, on SQLite or
PostgreSQL) and by a check constraint. :func:`audit` recomputes every balance from the
transfers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.ledger.errors import (
    DuplicateTransferError,
    InsufficientBalanceError,
    LedgerError,
    UnknownAccountError,
)
from twentyone.storage.db import StepConnection
from twentyone.storage.models import (
    CUSTOMER,
    EXTERNAL,
    EXTERNAL_ACCOUNT,
    HOLD,
    HOUSE,
    HOUSE_ACCOUNT,
    OPEN,
    VOID,
    CasinoRoundRow,
    ExchangeGameRow,
    ExchangePositionRow,
    LedgerAccount,
    OperatorAction,
    Round,
    Transfer,
    VinteTableRow,
    casino_hold_account,
    exchange_hold_account,
    hold_account,
    vinte_hold_account,
)

_KINDS = (CUSTOMER, HOUSE, HOLD, EXTERNAL)
#: Kinds whose balance may go below zero: the house banks play money, the outside world
#: is minus everything granted.
_UNLIMITED = (HOUSE, EXTERNAL)
#: Accounts whose balance is not stored but summed from their transfers when asked. Every
#: settlement moves house money: keeping the house's balance in one row would make every
#: settlement on PostgreSQL wait for that row's lock, one after another.
DERIVED = frozenset({HOUSE_ACCOUNT, EXTERNAL_ACCOUNT})


async def open_account(
    session: AsyncSession, account: str, kind: str, now: float, check: bool = True
) -> None:
    """Open an account; ``check=False`` skips the look-up for a name that cannot exist yet
    (the primary key still refuses a duplicate)."""
    if kind not in _KINDS:
        raise LedgerError(f"unknown account kind {kind!r}")
    if check and await session.get(LedgerAccount, account) is not None:
        raise DuplicateTransferError(f"account {account!r} already exists")
    session.add(LedgerAccount(id=account, kind=kind, balance=0, created_at=now))
    await session.flush()


async def ensure_house_accounts(session: AsyncSession, now: float) -> None:
    """Open the house's and the outside world's accounts if this is a new database."""
    for account, kind in ((HOUSE_ACCOUNT, HOUSE), (EXTERNAL_ACCOUNT, EXTERNAL)):
        if await session.get(LedgerAccount, account) is None:
            await open_account(session, account, kind, now)


async def transfer(
    session: AsyncSession,
    debit: str,
    credit: str,
    amount: int,
    reason: str,
    now: float,
    round_id: int | None = None,
) -> None:
    """Move ``amount`` minor units from ``debit`` to ``credit`` inside the session's transaction."""
    if type(amount) is not int or amount <= 0:
        raise LedgerError(f"a transfer is a positive whole number of minor units, got {amount!r}")
    if debit == credit:
        raise LedgerError(f"transfer from {debit!r} to itself")
    if not reason:
        raise LedgerError("a transfer needs a reason")
    # The credit first (it fails only for an unknown account), then the guarded debit; a
    # refused debit takes the credit back, so a refused transfer leaves no trace at all
    # even inside a transaction the caller goes on with.
    if credit not in DERIVED:
        given = await session.execute(
            update(LedgerAccount)
            .where(LedgerAccount.id == credit)
            .values(balance=LedgerAccount.balance + amount)
            .execution_options(synchronize_session=False)
        )
        if given.rowcount != 1:  # type: ignore[attr-defined]
            raise UnknownAccountError(f"there is no account {credit!r}")
    if debit not in DERIVED:
        taken = await session.execute(
            update(LedgerAccount)
            .where(
                LedgerAccount.id == debit,
                or_(LedgerAccount.kind.in_(_UNLIMITED), LedgerAccount.balance >= amount),
            )
            .values(balance=LedgerAccount.balance - amount)
            .execution_options(synchronize_session=False)
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            if credit not in DERIVED:
                await session.execute(
                    update(LedgerAccount)
                    .where(LedgerAccount.id == credit)
                    .values(balance=LedgerAccount.balance - amount)
                    .execution_options(synchronize_session=False)
                )
            found = await session.get(LedgerAccount, debit)
            if found is None:
                raise UnknownAccountError(f"there is no account {debit!r}")
            raise InsufficientBalanceError(
                f"account {debit} has {found.balance}, less than the {amount} asked for"
            )
    await session.execute(
        insert(Transfer).values(
            debit=debit,
            credit=credit,
            amount=amount,
            reason=reason,
            round_id=round_id,
            created_at=now,
        )
    )


#: :func:`post`'s statements, built once: an account's balance moved by ``change``, and the
#: same refused (no row) when a limited account holds less than ``need``.
_CHANGE = (
    update(LedgerAccount)
    .where(LedgerAccount.id == bindparam("account"))
    .values(balance=LedgerAccount.balance + bindparam("change"))
    .returning(LedgerAccount.balance)
)
_GUARDED_CHANGE = (
    update(LedgerAccount)
    .where(
        LedgerAccount.id == bindparam("account"),
        # Not ``kind.in_(...)``: an IN list is rendered again at every execution.
        or_(
            *(LedgerAccount.kind == kind for kind in _UNLIMITED),
            LedgerAccount.balance >= bindparam("need"),
        ),
    )
    .values(balance=LedgerAccount.balance + bindparam("change"))
    .returning(LedgerAccount.balance)
)
_INSERT_TRANSFERS = insert(Transfer)


class Movement(NamedTuple):
    """One transfer of a batch (:func:`post`): ``amount`` from ``debit`` to ``credit``."""

    debit: str
    credit: str
    amount: int
    reason: str


async def post(
    connection: StepConnection,
    movements: Sequence[Movement],
    now: float,
    round_id: int | None = None,
) -> dict[str, int]:
    """Write a batch of transfers, as if one after another, in few statements (the hot path
    of a game step): one ``UPDATE ... RETURNING`` per stored account touched (its net change,
    guarded so that a customer or hold account never goes below zero at any point of the
    sequence) and one multi-row ``INSERT`` of the transfers. Returns the new balance of every
    stored account touched. A refused batch raises :class:`InsufficientBalanceError` (or
    :class:`UnknownAccountError`) and leaves no trace, like :func:`transfer`.
    """
    change: dict[str, int] = {}
    # The lowest an account's balance dips below its start during the sequence: the guard.
    dip: dict[str, int] = {}
    for debit, credit, amount, reason in movements:
        if type(amount) is not int or amount <= 0:
            raise LedgerError(
                f"a transfer is a positive whole number of minor units, got {amount!r}"
            )
        if debit == credit:
            raise LedgerError(f"transfer from {debit!r} to itself")
        if not reason:
            raise LedgerError("a transfer needs a reason")
        for account, delta in ((debit, -amount), (credit, amount)):
            if account not in DERIVED:
                change[account] = now_at = change.get(account, 0) + delta
                dip[account] = min(dip.get(account, 0), now_at)
    # Guarded accounts first: a refusal then has only the guarded ones before it to undo.
    order = sorted(change, key=lambda account: dip[account] == 0)
    balances: dict[str, int] = {}
    for account in order:
        found = (
            await connection.execute(
                _GUARDED_CHANGE if dip[account] < 0 else _CHANGE,
                {"account": account, "change": change[account], "need": -dip[account]},
            )
        ).first()
        if found is None:
            for done in balances:  # take back what this batch already moved
                await connection.execute(
                    update(LedgerAccount)
                    .where(LedgerAccount.id == done)
                    .values(balance=LedgerAccount.balance - change[done])
                )
            held = await connection.scalar(
                select(LedgerAccount.balance).where(LedgerAccount.id == account)
            )
            if held is None:
                raise UnknownAccountError(f"there is no account {account!r}")
            raise InsufficientBalanceError(
                f"account {account} has {held}, less than the {-dip[account]} asked for"
            )
        balances[account] = int(found[0])
    if movements:
        await connection.execute(
            _INSERT_TRANSFERS,
            [
                {
                    "debit": debit,
                    "credit": credit,
                    "amount": amount,
                    "reason": reason,
                    "round_id": round_id,
                    "created_at": now,
                }
                for debit, credit, amount, reason in movements
            ],
        )
    return balances


async def balance(session: AsyncSession, account: str) -> int:
    if account in DERIVED:
        return await _summed(session, account)
    found = await session.scalar(select(LedgerAccount.balance).where(LedgerAccount.id == account))
    if found is None:
        raise UnknownAccountError(f"there is no account {account!r}")
    return int(found)


async def _summed(session: AsyncSession, account: str) -> int:
    """An account's balance summed from its transfers."""
    credits = await session.scalar(
        select(func.coalesce(func.sum(Transfer.amount), 0)).where(Transfer.credit == account)
    )
    debits = await session.scalar(
        select(func.coalesce(func.sum(Transfer.amount), 0)).where(Transfer.debit == account)
    )
    return int(credits or 0) - int(debits or 0)


async def total(session: AsyncSession) -> int:
    """The sum of every account's balance: always 0 (stored balances plus the derived ones)."""
    stored = await session.scalar(
        select(func.coalesce(func.sum(LedgerAccount.balance), 0)).where(
            LedgerAccount.id.not_in(DERIVED)
        )
    )
    derived = [await _summed(session, account) for account in sorted(DERIVED)]
    return int(stored or 0) + sum(derived)


async def statement(
    session: AsyncSession, account: str, limit: int, before: int | None
) -> list[dict[str, Any]]:
    """The account's transfers, newest first: ``limit`` of them with ids below ``before``."""
    query = select(Transfer).where(or_(Transfer.debit == account, Transfer.credit == account))
    if before is not None:
        query = query.where(Transfer.id < before)
    rows = (await session.scalars(query.order_by(Transfer.id.desc()).limit(limit))).all()
    return [
        {
            "id": row.id,
            "at": row.created_at,
            "amount": row.amount if row.credit == account else -row.amount,
            "reason": row.reason,
            "round": row.round_id,
            "counterparty": row.debit if row.credit == account else row.credit,
        }
        for row in rows
    ]


async def audit(session: AsyncSession) -> dict[str, Any]:
    """Recompute every balance from the transfers; list open rounds and voids.

    ``balanced`` is true when the stored balances equal the recomputed ones, they sum to zero,
    no customer or hold account is below zero, every open round's hold account carries money
    only while the round is open, and every settled or void round's hold account is empty;
    an open exchange game's hold account carries exactly what its stored positions hold, and a
    finished Vinte-e-um match for balance holds nothing. ``held`` is what open rounds and
    matches hold; ``exchange_held`` what the exchange markets hold (the maker's quotes too).
    """
    accounts = (await session.scalars(select(LedgerAccount).order_by(LedgerAccount.id))).all()
    debits = dict(
        (
            await session.execute(
                select(Transfer.debit, func.sum(Transfer.amount)).group_by(Transfer.debit)
            )
        ).all()
    )
    credits = dict(
        (
            await session.execute(
                select(Transfer.credit, func.sum(Transfer.amount)).group_by(Transfer.credit)
            )
        ).all()
    )
    problems: list[str] = []
    listed: list[dict[str, Any]] = []
    total = 0
    by_account: dict[str, int] = {}
    for account in accounts:
        computed = int(credits.get(account.id, 0) or 0) - int(debits.get(account.id, 0) or 0)
        if account.id in DERIVED:
            if account.balance != 0:
                problems.append(f"account {account.id}: a derived balance is stored")
            account_balance = computed
        else:
            account_balance = account.balance
        by_account[account.id] = account_balance
        total += account_balance
        if computed != account_balance:
            problems.append(
                f"account {account.id}: stored balance {account.balance}, transfers give {computed}"
            )
        if account.kind in (CUSTOMER, HOLD) and account_balance < 0:
            problems.append(f"account {account.id} is below zero ({account_balance})")
        listed.append({"account": account.id, "kind": account.kind, "balance": account_balance})
    if total != 0:
        problems.append(f"the balances sum to {total}, not 0")
    rounds = (await session.execute(select(Round.id, Round.state))).all()
    for round_id, state in rounds:
        held = by_account.get(hold_account(round_id), 0)
        if state != OPEN and held != 0:
            problems.append(f"round {round_id} is {state} but its hold account carries {held}")
    casino_rounds = (await session.execute(select(CasinoRoundRow.id, CasinoRoundRow.state))).all()
    for round_id, state in casino_rounds:
        held = by_account.get(casino_hold_account(round_id), 0)
        if state != OPEN and held != 0:
            problems.append(
                f"casino round {round_id} is {state} but its hold account carries {held}"
            )
    # An exchange game holds, while it is open, exactly what its stored positions say it
    # holds for each account; a settled or void game holds nothing.
    positions = dict(
        (
            await session.execute(
                select(ExchangePositionRow.game_id, func.sum(ExchangePositionRow.held)).group_by(
                    ExchangePositionRow.game_id
                )
            )
        ).all()
    )
    exchange_games = (
        await session.execute(select(ExchangeGameRow.id, ExchangeGameRow.state))
    ).all()
    for game_id, state in exchange_games:
        held = by_account.get(exchange_hold_account(game_id), 0)
        if state != OPEN and held != 0:
            problems.append(
                f"exchange game {game_id} is {state} but its hold account carries {held}"
            )
        expected = int(positions.get(game_id, 0) or 0)
        if state == OPEN and held != expected:
            problems.append(f"exchange game {game_id} holds {held}, its positions say {expected}")
    # A for-balance Vinte-e-um match holds its buy-ins until it is over, void or closed.
    vinte_tables = (await session.execute(select(VinteTableRow.id, VinteTableRow.status))).all()
    for table_id, status in vinte_tables:
        held = by_account.get(vinte_hold_account(table_id), 0)
        if status in ("over", "void", "closed") and held != 0:
            problems.append(
                f"vinte table {table_id} is {status} but its hold account carries {held}"
            )
    open_rounds = (
        await session.execute(
            select(Round.id, Round.user_id, Round.bet, Round.steps).where(Round.state == OPEN)
        )
    ).all()
    voids = (
        await session.execute(
            select(Round.id, Round.user_id, Round.void_reason, Round.settled_at).where(
                Round.state == VOID
            )
        )
    ).all()
    holds = sum(
        balance
        for account, balance in by_account.items()
        if account.startswith(("round:", "casino:", "vinte:"))
    )
    casino_voids = (
        await session.execute(
            select(CasinoRoundRow.id, CasinoRoundRow.void_reason, CasinoRoundRow.settled_at).where(
                CasinoRoundRow.state == VOID
            )
        )
    ).all()
    actions = await session.scalar(select(func.count()).select_from(OperatorAction))
    return {
        "balanced": not problems,
        "problems": problems,
        "total": total,
        "held": holds,
        "accounts": listed,
        "open_rounds": [
            {"id": r.id, "held": by_account.get(hold_account(r.id), 0), "steps": r.steps}
            for r in open_rounds
        ],
        "voids": [{"id": v.id, "reason": v.void_reason, "at": v.settled_at} for v in voids],
        "casino_open_rounds": [
            {"id": round_id, "held": by_account.get(casino_hold_account(round_id), 0)}
            for round_id, state in casino_rounds
            if state == OPEN
        ],
        "casino_voids": [
            {"id": v.id, "reason": v.void_reason, "at": v.settled_at} for v in casino_voids
        ],
        # Kept apart from "held" (the stakes of open rounds and matches): the exposure the
        # Exchange markets hold, the house market maker's included, from the moment a table opens.
        "exchange_held": sum(
            balance for account, balance in by_account.items() if account.startswith("exchange:")
        ),
        "exchange_open_games": [
            {"id": game_id, "held": by_account.get(exchange_hold_account(game_id), 0)}
            for game_id, state in exchange_games
            if state == OPEN
        ],
        "vinte_held": [
            {
                "table": table_id,
                "status": status,
                "held": by_account.get(vinte_hold_account(table_id), 0),
            }
            for table_id, status in vinte_tables
            if by_account.get(vinte_hold_account(table_id), 0)
        ],
        "operator_actions": int(actions or 0),
    }


async def refund_hold(session: AsyncSession, hold: str, reason: str, now: float) -> int:
    """Give back what each account paid into the hold account ``hold`` (its transfers in, less
    its transfers out), as transfers with ``reason``: a void's refund. Returns the total.
    A hold account that was never opened refunds nothing."""
    if await session.get(LedgerAccount, hold) is None:
        return 0
    paid: dict[str, int] = {}
    for debit, amount in (
        await session.execute(
            select(Transfer.debit, func.sum(Transfer.amount))
            .where(Transfer.credit == hold)
            .group_by(Transfer.debit)
        )
    ).all():
        paid[debit] = paid.get(debit, 0) + int(amount)
    for credit, amount in (
        await session.execute(
            select(Transfer.credit, func.sum(Transfer.amount))
            .where(Transfer.debit == hold)
            .group_by(Transfer.credit)
        )
    ).all():
        paid[credit] = paid.get(credit, 0) - int(amount)
    total = 0
    for account, amount in sorted(paid.items()):
        if amount > 0:
            await transfer(session, hold, account, amount, reason, now)
            total += amount
    return total
