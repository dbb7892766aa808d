"""Operators' searches for the back office (beside ``app.py``'s ``/api/admin`` routes).

- ``GET /api/admin/accounts?name=&limit=&before=``: accounts, newest first, each with its role,
  balance, the money its open rounds hold and when it was opened; ``name`` keeps those whose name
  contains it (any case).
- ``GET /api/admin/search/rounds?player=&table=&since=&until=&state=&limit=&before=``: Online
  rounds of every table by player, table, time dealt (``since <= created_at < until``, server
  epoch seconds) and state, newest first. Casino rounds have their own search
  (``/api/admin/casino/rounds``); the operator pages merge the two.
- ``GET /api/admin/voids?limit=&before=``: every void, Online and Casino, newest first, with its
  reason, who made it (an operator's name, or ``null`` for the server itself), when, the refund,
  and the round's player(s), table and bet.

Every query parameter is checked (a wrong one is a 422 ``{"error"}``); a player gets 403. Like
every operator request, each search is recorded in ``operator_actions``.

Example (an operator's bearer token in ``$OP``)::

    curl -s 'localhost:8000/api/admin/search/rounds?player=pat&state=open&limit=10' \\
      -H "Authorization: Bearer $OP"
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query
from sqlalchemy import Select, select
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.i18n import N_
from twentyone.server.context import (
    NAME_PATTERN,
    PAGE_MAX,
    Cursor,
    Operator,
    Server,
    Time,
    name_key,
)
from twentyone.server.errors import marked, unprocessable
from twentyone.storage.models import (
    OPEN,
    CasinoRoundBox,
    CasinoRoundRow,
    LedgerAccount,
    OperatorAction,
    Round,
    User,
    hold_account,
)

#: Round states an operator may search for.
STATE_PATTERN = "^(open|settled|void)$"
#: A part of a name: the characters names are made of.
NAME_PART_PATTERN = "^[A-Za-z0-9_.-]{1,32}$"
#: A table id as in paths (``context.TableId``).
TABLE_PATTERN = "^[a-z0-9_-]{1,32}$"
#: The prefixes of an operator action's target that name an Online or a Casino round.
ROUND_TARGET = "round:"
CASINO_ROUND_TARGET = "casino-round:"

Limit = Annotated[int, Query(ge=1, le=PAGE_MAX)]


def install(app: FastAPI, server: Server) -> None:
    """Adds the operators' searches to the application."""

    record = server.record_operator_action

    @app.get("/api/admin/accounts", tags=["operators"])
    async def admin_accounts(
        operator: Operator,
        name: Annotated[str | None, Query(pattern=NAME_PART_PATTERN)] = None,
        limit: Limit = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        """Accounts, newest first: name, role, balance, held (by open rounds), created."""
        async with server.write() as session:
            query = select(User, LedgerAccount.balance).join(
                LedgerAccount, LedgerAccount.id == User.account_id
            )
            if name is not None:
                query = query.where(User.name_key.contains(name_key(name), autoescape=True))
            if before is not None:
                query = query.where(User.id < before)
            rows = (await session.execute(query.order_by(User.id.desc()).limit(limit))).all()
            held = await _held_by(session, [user.id for user, _ in rows])
            await record(session, operator, "list accounts", "accounts", {"name": name})
        items = [
            {
                "id": user.id,
                "name": user.name,
                "role": user.role,
                "balance": int(balance),
                "held": held.get(user.id, 0),
                "created_at": user.created_at,
            }
            for user, balance in rows
        ]
        return {"accounts": items, "next": rows[-1][0].id if len(rows) == limit else None}

    @app.get("/api/admin/search/rounds", tags=["operators"])
    async def admin_search_rounds(
        operator: Operator,
        player: Annotated[str | None, Query(max_length=64)] = None,
        table: Annotated[str | None, Query(pattern=TABLE_PATTERN)] = None,
        since: Time = None,
        until: Time = None,
        state: Annotated[str | None, Query(pattern=STATE_PATTERN)] = None,
        limit: Limit = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        """Online rounds of any player and table, newest first (``since <= dealt < until``)."""
        if player is not None and not NAME_PATTERN.fullmatch(player):
            raise unprocessable(N_("player: {name} is not an account name"), name=repr(player))
        if since is not None and until is not None and since >= until:
            raise marked(422, N_("since must be before until"))
        filters = {"player": player, "table": table, "since": since, "until": until, "state": state}
        async with server.write() as session:
            query: Select[Round, str] = select(Round, User.name).join(
                User, User.id == Round.user_id
            )
            if player is not None:
                query = query.where(User.name_key == name_key(player))
            if table is not None:
                query = query.where(Round.table_id == table)
            if since is not None:
                query = query.where(Round.created_at >= since)
            if until is not None:
                query = query.where(Round.created_at < until)
            if state is not None:
                query = query.where(Round.state == state)
            if before is not None:
                query = query.where(Round.id < before)
            rows = (await session.execute(query.order_by(Round.id.desc()).limit(limit))).all()
            await record(
                session,
                operator,
                "search rounds",
                "rounds",
                {key: value for key, value in filters.items() if value is not None},
            )
        items = [_round_json(row, owner) for row, owner in rows]
        return {"rounds": items, "next": rows[-1][0].id if len(rows) == limit else None}

    @app.get("/api/admin/voids", tags=["operators"])
    async def admin_voids(
        operator: Operator, limit: Limit = 50, before: Cursor = None
    ) -> dict[str, Any]:
        """Every void, newest first: reason, who (null: the server), when, refund, the round.

        Read from ``operator_actions``: every void is recorded there (an operator's and the
        server's own) in the transaction that makes it, by ``online.void`` and the Casino.
        """
        async with server.write() as session:
            query = select(OperatorAction).where(OperatorAction.action == "void")
            if before is not None:
                query = query.where(OperatorAction.id < before)
            actions = (
                await session.scalars(query.order_by(OperatorAction.id.desc()).limit(limit))
            ).all()
            operators = await _names(
                session, {a.operator_id for a in actions if a.operator_id is not None}
            )
            found = await _void_rounds(session, [a.target for a in actions])
            await record(session, operator, "list voids", "voids", {})
        items = []
        for action in actions:
            details = action.details or {}
            item: dict[str, Any] = {
                "id": action.id,
                "target": action.target,
                "kind": _kind_of(action.target),
                "round": _round_of(action.target),
                "reason": details.get("reason"),
                "refunded": details.get("refunded"),
                "at": action.at,
                "by": operators.get(action.operator_id) if action.operator_id else None,
                "player": None,
                "table": None,
                "bet": None,
            }
            item.update(found.get(action.target, {}))
            items.append(item)
        return {"voids": items, "next": actions[-1].id if len(actions) == limit else None}


def _round_of(target: str) -> int | None:
    """The round an operator action's target names, if any.

    >>> _round_of("round:7"), _round_of("casino-round:12"), _round_of("ledger")
    (7, 12, None)
    """
    for prefix in (ROUND_TARGET, CASINO_ROUND_TARGET):
        if target.startswith(prefix) and target[len(prefix) :].isdigit():
            return int(target[len(prefix) :])
    return None


async def _void_rounds(session: AsyncSession, targets: list[str]) -> dict[str, dict[str, Any]]:
    """The player(s), table and bet of the rounds these void targets name, by target."""
    online_ids = [_round_of(t) for t in targets if t.startswith(ROUND_TARGET)]
    casino_ids = [_round_of(t) for t in targets if t.startswith(CASINO_ROUND_TARGET)]
    out: dict[str, dict[str, Any]] = {}
    if online_ids:
        rows = await session.execute(
            select(Round.id, Round.table_id, Round.bet, User.name)
            .join(User, User.id == Round.user_id)
            .where(Round.id.in_(online_ids))
        )
        for round_id, table, bet, owner in rows.all():
            out[f"{ROUND_TARGET}{round_id}"] = {"player": owner, "table": table, "bet": bet}
    if casino_ids:
        tables = await session.execute(
            select(CasinoRoundRow.id, CasinoRoundRow.table_id).where(
                CasinoRoundRow.id.in_(casino_ids)
            )
        )
        boxes = await session.execute(
            select(CasinoRoundBox.round_id, CasinoRoundBox.bet, User.name)
            .join(User, User.id == CasinoRoundBox.user_id)
            .where(CasinoRoundBox.round_id.in_(casino_ids))
            .order_by(CasinoRoundBox.round_id, CasinoRoundBox.box)
        )
        players: dict[int, list[str]] = {}
        bets: dict[int, int] = {}
        for round_id, bet, owner in boxes.all():
            names = players.setdefault(round_id, [])
            if owner not in names:  # one person may play several boxes
                names.append(owner)
            bets[round_id] = bets.get(round_id, 0) + int(bet)
        for round_id, table in tables.all():
            out[f"{CASINO_ROUND_TARGET}{round_id}"] = {
                "player": ", ".join(players.get(round_id, [])) or None,
                "table": table,
                "bet": bets.get(round_id, 0),
            }
    return out


def _kind_of(target: str) -> str:
    """Which game a void's target belongs to: ``round:N`` Online, ``casino-round:N`` Casino."""
    if target.startswith(ROUND_TARGET):
        return "online"
    return "casino" if target.startswith(CASINO_ROUND_TARGET) else "other"


def _round_json(row: Round, owner: str) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": "online",
        "player": owner,
        "table": row.table_id,
        "state": row.state,
        "bet": row.bet,
        "net": row.net,
        "steps": row.steps,
        "created_at": row.created_at,
        "settled_at": row.settled_at,
        "void_reason": row.void_reason,
    }


async def _held_by(session: AsyncSession, user_ids: list[int]) -> dict[int, int]:
    """What the open rounds of these players hold, by player (their rounds' hold accounts)."""
    if not user_ids:
        return {}
    open_rounds = (
        await session.execute(
            select(Round.id, Round.user_id).where(Round.user_id.in_(user_ids), Round.state == OPEN)
        )
    ).all()
    if not open_rounds:
        return {}
    owner_of = {hold_account(round_id): user_id for round_id, user_id in open_rounds}
    balances = (
        await session.execute(
            select(LedgerAccount.id, LedgerAccount.balance).where(
                LedgerAccount.id.in_(list(owner_of))
            )
        )
    ).all()
    held: dict[int, int] = {}
    for account, balance in balances:
        held[owner_of[account]] = held.get(owner_of[account], 0) + int(balance)
    return held


async def _names(session: AsyncSession, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = (await session.execute(select(User.id, User.name).where(User.id.in_(user_ids)))).all()
    return {user_id: name for user_id, name in rows}
