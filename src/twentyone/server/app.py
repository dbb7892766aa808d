"""The ASGI application: the Bot API of ``spec/platform.md`` and the operators' API.

``create_app(config)`` builds it; at start-up it migrates the database (Alembic), opens the
house's accounts and the default table, and recovers every open round. Every request that
changes something runs in one database transaction; on SQLite (one writer at a time) the
writes of this process also queue on one lock, so they never meet SQLite's busy error.

Errors are 4xx with ``{"error": "<one sentence>"}``; a request body that does not parse or
does not match the schema is a 422 of the same shape (never a 500).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from twentyone import __version__
from twentyone.errors import TwentyOneError
from twentyone.fairness import FairnessError, check_client_seed
from twentyone.i18n import N_
from twentyone.server import admin, casino, hints, i18n, lab, online, records, testing, web
from twentyone.server import exchange as exchange_tables
from twentyone.server import vinte as vinte_tables
from twentyone.server.config import ServerConfig
from twentyone.server.context import (
    NAME_PATTERN,
    PAGE_MAX,
    PASSWORD_MAX,
    PASSWORD_MIN,
    SESSION_COOKIE,
    Cursor,
    Operator,
    Player,
    RoundId,
    Server,
    TableId,
    json_response,
    name_key,
    page_limit,
    token_hash,
)
from twentyone.server.errors import ApiError, Phrase, conflict, marked, not_found, unprocessable
from twentyone.server.worker import AnalysisWorker
from twentyone.storage import ledger
from twentyone.storage.models import (
    CUSTOMER,
    EXTERNAL_ACCOUNT,
    AuthToken,
    OperatorAction,
    Round,
    TableConfig,
    User,
    customer_account,
)

log = logging.getLogger("twentyone.server")

#: The parts of the API beside this module's own routes, installed in this order.
ROUTERS = (hints, records, lab, casino, vinte_tables, exchange_tables, admin, testing, i18n, web)

#: Not a hash of any password: verified against when the name is unknown (same time spent).
_DUMMY_PASSWORD = "not a password of anyone"


# --------------------------------------------------------------------------- bodies
class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Body):
    name: StrictStr = Field(max_length=64)
    password: StrictStr = Field(max_length=PASSWORD_MAX)


class BetBody(Body):
    bet: StrictInt


class ActionBody(Body):
    action: StrictStr = Field(max_length=64)
    #: Optional: the step the client saw; a different one is a stale action (409).
    step: StrictInt | None = None


class ClientSeedBody(Body):
    client_seed: StrictStr = Field(max_length=200)


class VoidBody(Body):
    #: One line of printable text (no control characters).
    reason: StrictStr = Field(min_length=1, max_length=500, pattern=r"^[^\x00-\x1f\x7f]+$")


class TableBody(Body):
    preset: StrictStr | None = Field(default=None, max_length=16)
    rules: dict[str, Any] | None = None
    min_bet: StrictInt | None = None
    max_bet: StrictInt | None = None
    decision_seconds: float | None = Field(default=None, ge=1, le=3600)


# ----------------------------------------------------------------------- the server


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The application (``twentyone serve`` runs it under uvicorn)."""
    server = Server(config or ServerConfig())

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        server.settle_heap()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(
        title="twentyone",
        version=__version__,
        description=(
            "The twentyone platform: accounts, play-money ledger, provably fair Online"
            " Blackjack over a bot API. Amounts are integer minor units; errors are 4xx with"
            ' {"error": "..."}. Authenticate with `Authorization: Bearer <token>` (POST'
            " /api/tokens) or the session cookie (POST /api/session)."
        ),
        lifespan=lifespan,
    )
    app.state.server = server
    _install_error_handlers(app)

    async def _fresh_user(session: AsyncSession, user: User) -> User:
        found = await session.get(User, user.id, with_for_update=True)
        if found is None:  # pragma: no cover
            raise ApiError(401, "the account is gone")
        return found

    async def _me(session: AsyncSession, user: User) -> dict[str, Any]:
        return {
            "name": user.name,
            "balance": await ledger.balance(session, user.account_id),
            "role": user.role,
        }

    async def _issue(session: AsyncSession, user: User, kind: str, seconds: float | None) -> str:
        token = secrets.token_urlsafe(32)
        now = server.now()
        session.add(
            AuthToken(
                token_hash=token_hash(token),
                user_id=user.id,
                kind=kind,
                created_at=now,
                expires_at=None if seconds is None else now + seconds,
            )
        )
        await session.flush()
        return token

    def _set_cookie(response: Response, token: str) -> None:
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=int(server.config.session_seconds),
            httponly=True,
            samesite="lax",
            secure=server.config.secure_cookies,
            path="/",
        )

    async def _check_password(name: str, password: str) -> User:
        user = None
        if NAME_PATTERN.fullmatch(name):  # no other name exists (nor reaches the database)
            async with server.read() as session:
                user = await session.scalar(select(User).where(User.name_key == name_key(name)))
        hashed = user.password_hash if user is not None else None
        ok = await run_in_threadpool(_verify_password, server, password, hashed)
        if user is None or not ok:
            raise marked(401, N_("wrong name or password"))
        return user

    # ------------------------------------------------------------------------ lobby
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    # --------------------------------------------------------------------- accounts
    @app.post("/api/accounts", status_code=201, tags=["accounts"])
    async def register(body: Credentials, response: Response) -> dict[str, Any]:
        """Open an account with the starting grant (and sign in with a session cookie)."""
        name, password = body.name, body.password
        check_name(name)
        check_password(password)
        hashed = await run_in_threadpool(server.config.hasher.hash, password)
        try:
            async with server.write() as session:
                user = await open_player(session, server, name, hashed)
                token = await _issue(session, user, "session", server.config.session_seconds)
                out = await _me(session, user)
        except IntegrityError:
            raise conflict(N_("the name {name} is taken"), name=repr(name)) from None
        _set_cookie(response, token)
        return {"name": out["name"], "balance": out["balance"]}

    @app.post("/api/tokens", status_code=201, tags=["accounts"])
    async def new_token(body: Credentials) -> dict[str, str]:
        """A bearer token for a program (it does not expire; keep it secret)."""
        user = await _check_password(body.name, body.password)
        async with server.write() as session:
            token = await _issue(session, user, "bearer", None)
        return {"token": token}

    @app.post("/api/session", tags=["accounts"])
    async def sign_in(body: Credentials, response: Response) -> dict[str, Any]:
        """Sign in a browser: sets an HttpOnly, SameSite session cookie."""
        user = await _check_password(body.name, body.password)
        async with server.write() as session:
            token = await _issue(session, user, "session", server.config.session_seconds)
            out = await _me(session, user)
        _set_cookie(response, token)
        return out

    @app.delete("/api/session", status_code=204, tags=["accounts"])
    async def sign_out(request: Request, response: Response) -> Response:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            server.token_cache.pop(token_hash(token), None)
            async with server.write() as session:
                found = await session.get(AuthToken, token_hash(token))
                if found is not None:
                    await session.delete(found)
        response = Response(status_code=204)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @app.get("/api/me", tags=["accounts"])
    async def me(user: Player) -> dict[str, Any]:
        """The balance does not include money held by open rounds."""
        async with server.read() as session:
            return await _me(session, user)

    @app.post("/api/me/topup", status_code=201, tags=["accounts"])
    async def top_up(user: Player) -> dict[str, Any]:
        """Play money: the top-up amount, at most once per top-up interval."""
        async with server.write() as session:
            fresh = await _fresh_user(session, user)
            now = server.now()
            interval = server.config.topup_interval
            if fresh.last_topup_at is not None and now < fresh.last_topup_at + interval:
                wait = fresh.last_topup_at + interval - now
                raise ApiError(
                    429,
                    N_("one top-up per {interval} s: wait {wait} s more"),
                    interval=f"{interval:g}",
                    wait=f"{wait:.0f}",
                )
            fresh.last_topup_at = now
            await ledger.transfer(
                session, EXTERNAL_ACCOUNT, fresh.account_id, server.config.topup, "top-up", now
            )
            out = await _me(session, fresh)
        out["next_topup_at"] = now + interval
        return out

    @app.get("/api/me/statement", tags=["accounts"])
    async def my_statement(
        user: Player,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        """Every transfer of the account, newest first; page on with ``before=next``."""
        async with server.read() as session:
            items = await ledger.statement(session, user.account_id, page_limit(limit), before)
            balance = await ledger.balance(session, user.account_id)
        return {
            "balance": balance,
            "transfers": items,
            "next": items[-1]["id"] if len(items) == limit else None,
        }

    # --------------------------------------------------------------------- fairness
    async def _fairness(session: AsyncSession, user: User) -> dict[str, Any]:
        seed = await online.pending_seed(session, user, server.config.server_seeds, server.now())
        return {"commitment": seed.commitment, "client_seed": user.client_seed, "nonce": user.nonce}

    @app.get("/api/fairness", tags=["fairness"])
    async def get_fairness(user: Player) -> dict[str, Any]:
        """The commitment, client seed and nonce of the player's next Online round."""
        async with server.write() as session:
            return await _fairness(session, await _fresh_user(session, user))

    @app.put("/api/fairness", tags=["fairness"])
    async def put_fairness(body: ClientSeedBody, user: Player) -> dict[str, Any]:
        """Set the client seed (1-64 characters from space to '~'); the nonce starts again at 0."""
        try:
            client_seed = check_client_seed(body.client_seed)
        except FairnessError as error:
            raise unprocessable(str(error)) from None
        async with server.write() as session:
            fresh = await _fresh_user(session, user)
            fresh.client_seed, fresh.nonce = client_seed, 0
            return await _fairness(session, fresh)

    # ----------------------------------------------------------------------- online
    async def _available(session: AsyncSession, user: User) -> int:
        return await ledger.balance(session, user.account_id)

    @app.get("/api/online/table", tags=["online"])
    async def online_table() -> dict[str, Any]:
        """The Online Blackjack table: its rules and limits."""
        async with server.read() as session:
            config = await session.get(TableConfig, online.ONLINE_TABLE)
            if config is None:  # pragma: no cover
                raise not_found(N_("there is no online table"))
            return online.table_json(config)

    @app.post("/api/online/rounds", status_code=201, tags=["online"], response_model=dict[str, Any])
    async def new_round(body: BetBody, user: Player) -> Response:
        """Bet and deal: the round as its player sees it (no hole card, no server seed)."""
        loaded, available = await server.step(
            lambda connection: online.deal_step(
                connection,
                user,
                body.bet,
                server.config.server_seeds,
                server.now(),
                server.config.card_script,
            )
        )
        server.keep_game(loaded)  # committed: the next step may start from it
        return json_response(online.round_view(loaded, loaded.events, available), 201)

    @app.post(
        "/api/online/rounds/{round_id}/actions", tags=["online"], response_model=dict[str, Any]
    )
    async def round_action(round_id: RoundId, body: ActionBody, user: Player) -> Response:
        """One decision: hit, stand, double, split, insurance N, no-insurance."""
        loaded, available = await server.step(
            lambda connection: online.act_step(
                connection, user, round_id, body.action, body.step, server.now(), server.games
            )
        )
        server.keep_game(loaded)  # committed: the next step may start from it
        return json_response(online.round_view(loaded, loaded.events, available))

    @app.get("/api/online/rounds/{round_id}", tags=["online"])
    async def get_round(round_id: RoundId, user: Player) -> dict[str, Any]:
        """The round; once settled also "net" and "fairness" (the provably fair record)."""
        async with server.read() as session:
            row = await online.load_own(session, user, round_id)
            return await online.view_of(session, row, await _available(session, user))

    @app.get("/api/online/rounds", tags=["online"])
    async def my_rounds(
        user: Player,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 20,
        before: Cursor = None,
    ) -> dict[str, Any]:
        """The player's rounds, newest first, each with its events; page on with ``before``."""
        async with server.read() as session:
            query = select(Round).where(Round.user_id == user.id)
            if before is not None:
                query = query.where(Round.id < before)
            rows = (await session.scalars(query.order_by(Round.id.desc()).limit(limit))).all()
            available = await _available(session, user)
            items = [await online.view_of(session, row, available) for row in rows]
        return {"rounds": items, "next": rows[-1].id if len(rows) == limit else None}

    # -------------------------------------------------------------------- operators
    _record = server.record_operator_action

    @app.get("/api/admin/rounds/{round_id}", tags=["operators"])
    async def admin_round(round_id: RoundId, operator: Operator) -> dict[str, Any]:
        """Any round with its full record and events (the seed too, even while open)."""
        async with server.write() as session:
            row = await session.get(Round, round_id)
            if row is None:
                raise not_found(N_("there is no round {round}"), round=round_id)
            owner = await session.get(User, row.user_id)
            await _record(session, operator, "read round", f"round:{round_id}", {})
            balance = await ledger.balance(session, owner.account_id) if owner else 0
            view = await online.view_of(session, row, balance, operator=True)
            view["player"] = owner.name if owner else None
            view["actions"] = row.actions
            return view

    @app.get("/api/admin/rounds", tags=["operators"])
    async def admin_rounds(
        operator: Operator,
        state: Annotated[str | None, Query(pattern="^(open|settled|void)$")] = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        async with server.write() as session:
            query = select(Round)
            if state is not None:
                query = query.where(Round.state == state)
            if before is not None:
                query = query.where(Round.id < before)
            rows = (await session.scalars(query.order_by(Round.id.desc()).limit(limit))).all()
            await _record(session, operator, "list rounds", "rounds", {"state": state})
            items = [
                {"id": r.id, "user_id": r.user_id, "state": r.state, "bet": r.bet, "net": r.net}
                for r in rows
            ]
        return {"rounds": items, "next": rows[-1].id if len(rows) == limit else None}

    @app.post("/api/admin/rounds/{round_id}/void", tags=["operators"])
    async def admin_void(round_id: RoundId, body: VoidBody, operator: Operator) -> dict[str, Any]:
        """Void an open round by hand: its stakes refunded through the ledger, the void recorded."""
        async with server.write() as session:
            refunded = await online.void(session, round_id, body.reason, operator.id, server.now())
            return {"id": round_id, "state": "void", "refunded": refunded, "reason": body.reason}

    @app.get("/api/admin/accounts/{name}/statement", tags=["operators"])
    async def admin_statement(
        name: str,
        operator: Operator,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        async with server.write() as session:
            user = None
            if NAME_PATTERN.fullmatch(name):
                user = await session.scalar(select(User).where(User.name_key == name_key(name)))
            if user is None:
                raise not_found(N_("there is no account {name}"), name=repr(name))
            await _record(session, operator, "read statement", f"account:{user.name}", {})
            items = await ledger.statement(session, user.account_id, limit, before)
            balance = await ledger.balance(session, user.account_id)
        return {
            "name": user.name,
            "balance": balance,
            "transfers": items,
            "next": items[-1]["id"] if len(items) == limit else None,
        }

    @app.get("/api/admin/audit", tags=["operators"])
    async def admin_audit(operator: Operator) -> dict[str, Any]:
        """Every account's balance recomputed from the transfers; open rounds; voids."""
        async with server.write() as session:
            await _record(session, operator, "audit", "ledger", {})
            return await ledger.audit(session)

    @app.get("/api/admin/tables", tags=["operators"])
    async def admin_tables(operator: Operator) -> list[dict[str, Any]]:
        async with server.write() as session:
            await _record(session, operator, "list tables", "tables", {})
            rows = (await session.scalars(select(TableConfig).order_by(TableConfig.id))).all()
            return [online.table_json(row) for row in rows]

    @app.put("/api/admin/tables/{table_id}", tags=["operators"])
    async def admin_configure(
        table_id: TableId, body: TableBody, operator: Operator
    ) -> dict[str, Any]:
        """Set a table's preset, rule overrides, limits or decision time (rounds already dealt
        keep their rules)."""
        async with server.write() as session:
            config = await session.get(TableConfig, table_id, with_for_update=True)
            if config is None:
                raise not_found(N_("there is no table {table}"), table=repr(table_id))
            before = online.table_json(config)
            changes = body.model_dump(exclude_unset=True)
            for key, value in changes.items():
                setattr(config, key, value)
            try:
                rules = online.table_rules(config)
            except TwentyOneError as error:
                raise unprocessable(
                    N_("the table cannot have these settings: {problem}"),
                    problem=Phrase(str(error)),
                ) from None
            if rules.five_card_hand.value != "none":
                raise marked(422, N_("five-card hands are not a house-round rule"))
            config.updated_at = server.now()
            await _record(
                session,
                operator,
                "configure table",
                f"table:{table_id}",
                {"before": before, "changes": changes},
            )
            return online.table_json(config)

    @app.get("/api/admin/actions", tags=["operators"])
    async def admin_actions(
        operator: Operator,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
        before: Cursor = None,
    ) -> dict[str, Any]:
        """The operators' own record: who did what, when (the server's start-up voids too)."""
        async with server.read() as session:
            query = select(OperatorAction)
            if before is not None:
                query = query.where(OperatorAction.id < before)
            rows = (
                await session.scalars(query.order_by(OperatorAction.id.desc()).limit(limit))
            ).all()
        items = [
            {
                "id": r.id,
                "operator_id": r.operator_id,
                "at": r.at,
                "action": r.action,
                "target": r.target,
                "details": r.details,
            }
            for r in rows
        ]
        return {"actions": items, "next": rows[-1].id if len(rows) == limit else None}

    # The other parts of the API, each a module with install(app, server); the web interface's
    # pages last, so that no page path hides an API route.
    server.add_service("analysis", AnalysisWorker(server.config.analysis_processes))
    for part in ROUTERS:
        part.install(app, server)
    return app


def check_name(name: str) -> None:
    if not NAME_PATTERN.fullmatch(name):
        raise marked(
            422,
            N_(
                "a name is 3 to 32 letters, digits, '_', '.' or '-', starting with a letter or digit"
            ),
        )


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise unprocessable(
            N_("a password has {low} to {high} characters"), low=PASSWORD_MIN, high=PASSWORD_MAX
        )


async def open_player(
    session: AsyncSession, server: Server, name: str, password_hash: str, role: str = "player"
) -> User:
    """A new account with its ledger account and the starting grant (the name is checked)."""
    check_name(name)
    key = name_key(name)
    if await session.scalar(select(User.id).where(User.name_key == key)) is not None:
        raise conflict(N_("the name {name} is taken"), name=repr(name))
    now = server.now()
    account = customer_account(key)
    await ledger.open_account(session, account, CUSTOMER, now)
    user = User(
        name=name,
        name_key=key,
        password_hash=password_hash,
        role=role,
        account_id=account,
        client_seed=server.config.client_seeds(),
        nonce=0,
        created_at=now,
    )
    session.add(user)
    await session.flush()
    if server.config.grant:
        await ledger.transfer(session, EXTERNAL_ACCOUNT, account, server.config.grant, "grant", now)
    return user


def _verify_password(server: Server, password: str, hashed: str | None) -> bool:
    hasher = server.config.hasher
    if hashed is None:
        hasher.hash(_DUMMY_PASSWORD)  # spend the same time as for a real account
        return False
    try:
        return bool(hasher.verify(password, hashed))
    except Exception:  # an unreadable stored hash: never a sign-in
        return False


def _install_error_handlers(app: FastAPI) -> None:
    # Errors answer in the request's language (docs/i18n.md): from the raise site's template
    # when it marked one, else by matching the English text against the extracted templates.
    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        message = i18n.translate_error(i18n.request_translation(request), error)
        return JSONResponse({"error": message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        # By pydantic's problem type, in the request's language (never pydantic's English).
        message = i18n.validation_message(i18n.request_translation(request), error.errors())
        return JSONResponse({"error": message}, status_code=422)

    @app.exception_handler(TwentyOneError)
    async def refused(request: Request, error: TwentyOneError) -> JSONResponse:
        message = i18n.translate_message(i18n.request_translation(request), str(error))
        return JSONResponse({"error": message}, status_code=422)

    @app.exception_handler(Exception)
    async def crashed(request: Request, error: Exception) -> JSONResponse:
        # A fault of the server's own (never of the request: those are 4xx above), logged.
        log.exception("internal error", exc_info=error)
        t = i18n.request_translation(request)
        return JSONResponse(
            {"error": t._("internal error; the request was not applied")}, status_code=500
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        t = i18n.request_translation(request)
        message = i18n.http_message(t, error.status_code, error.detail)
        return JSONResponse(
            {"error": message}, status_code=error.status_code, headers=error.headers
        )
