"""Online Blackjack on the server: the house round, its money and its record, step by step.

A round's whole state is its seeds, its rules, its bet and its decisions so far: the cards
follow from the seeds (:mod:`twentyone.fairness`), so loading a round is dealing it again from
the same shoe and replaying the decisions (:func:`rebuild`). Each step is one database
transaction: the engine's new events, the stakes moved into or out of the round's hold
account, and the round row with its optimistic version (``steps``) bumped. A step that lost a
race to another (the same round acted on twice at once) is refused, never applied twice.

At start-up :func:`recover` loads every open round; one whose stored state cannot be read or
replayed, or whose stored events differ from the replay, is voided and its stakes refunded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from twentyone.cards import Card
from twentyone.errors import TwentyOneError
from twentyone.fairness import FairnessRecord, commitment, infinite_cards, shuffled_shoe
from twentyone.house.actions import Action, ActionKind
from twentyone.house.events import CardDealt
from twentyone.house.round import Phase
from twentyone.house.round import Round as HouseRound
from twentyone.ledger.errors import InsufficientBalanceError
from twentyone.presets import preset
from twentyone.rules import Rules, overrides_from_json, rules_from_json
from twentyone.server.config import CardScript
from twentyone.server.errors import conflict, not_found, unprocessable
from twentyone.shoe import ScriptedShoe
from twentyone.storage import ledger
from twentyone.storage.db import StepConnection
from twentyone.storage.ledger import Movement
from twentyone.storage.models import (
    HOLD,
    HOUSE_ACCOUNT,
    OPEN,
    SETTLED,
    VOID,
    FairnessSeed,
    LedgerAccount,
    OperatorAction,
    Round,
    RoundEvent,
    TableConfig,
    User,
    hold_account,
)

#: The one Online Blackjack table every player plays at (its settings are operator-configurable).
ONLINE_TABLE = "online"
#: Cards drawn for an infinite-deck table (no two-hand round can use more).
_INFINITE_DRAW = 64
#: Scripted deals remembered at most (tests only; see ``_SCRIPTED_DEALS``).
_SCRIPTED_DEALS_MAX = 10_000


# ------------------------------------------------------------------------------- tables
def table_rules(config: TableConfig) -> Rules:
    """The rules of a table: its preset, its overrides, its limits, one box."""
    base = preset(config.preset)
    return base.replace(
        **overrides_from_json(config.rules),
        min_bet=config.min_bet,
        max_bet=config.max_bet,
        max_boxes=1,
    )


#: Rules of a table's settings as last seen (a table is read on every deal; its rules are
#: built again only when its settings change).
_RULES_SEEN: dict[str, tuple[Rules, dict[str, Any]]] = {}


def _cached_rules(
    preset_name: str, overrides: dict[str, Any], min_bet: int, max_bet: int
) -> tuple[Rules, dict[str, Any]]:
    """The rules and their JSON for these table settings, built once per distinct settings."""
    key = json.dumps([preset_name, overrides, min_bet, max_bet], sort_keys=True)
    found = _RULES_SEEN.get(key)
    if found is None:
        config = TableConfig(preset=preset_name, rules=overrides, min_bet=min_bet, max_bet=max_bet)
        rules = table_rules(config)
        if len(_RULES_SEEN) >= 64:
            _RULES_SEEN.clear()
        found = _RULES_SEEN[key] = (rules, rules.to_json())
    return found


def table_json(config: TableConfig) -> dict[str, Any]:
    return {
        "id": config.id,
        "game": config.game,
        "preset": config.preset,
        "rules": config.rules,
        "min_bet": config.min_bet,
        "max_bet": config.max_bet,
        "decision_seconds": config.decision_seconds,
        "effective_rules": table_rules(config).to_json(),
    }


async def ensure_default_table(session: AsyncSession, now: float) -> None:
    if await session.get(TableConfig, ONLINE_TABLE) is None:
        base = preset("online")
        session.add(
            TableConfig(
                id=ONLINE_TABLE,
                game="online",
                preset="online",
                rules={},
                min_bet=base.min_bet,
                max_bet=base.max_bet,
                decision_seconds=None,
                updated_at=now,
            )
        )
        await session.flush()


# ------------------------------------------------------------------------------ seeds
async def pending_seed(
    session: AsyncSession, user: User, make_seed: Any, now: float
) -> FairnessSeed:
    """The player's next server seed (committed, not yet used), made if there is none."""
    seed = await session.scalar(
        select(FairnessSeed)
        .where(FairnessSeed.user_id == user.id, FairnessSeed.used_at.is_(None))
        .order_by(FairnessSeed.id)
        .limit(1)
    )
    if seed is None:
        text = make_seed()
        seed = FairnessSeed(
            user_id=user.id, server_seed=text, commitment=commitment(text), created_at=now
        )
        session.add(seed)
        await session.flush()
    return seed


#: Test-only: the rounds dealt from a :class:`CardScript` (their seeds, client seed and nonce ->
#: the scripted cards on top of their shoe), so that replaying such a round deals it again as
#: it was dealt. Filled only by :func:`deal_step` given a card script, which a production
#: server never has: there it stays empty. (Keyed by the seeds: a test server whose seeds
#: repeat another's in the same process would replay that one's scripted cards.)
_SCRIPTED_DEALS: dict[tuple[str, str, int], list[Card]] = {}


def shoe_cards(server_seed: str, client_seed: str, nonce: int, decks: int | None) -> list[Card]:
    if decks is None:
        seeded = infinite_cards(server_seed, client_seed, nonce, _INFINITE_DRAW)
    else:
        seeded = shuffled_shoe(server_seed, client_seed, nonce, decks)
    scripted = _SCRIPTED_DEALS.get((server_seed, client_seed, nonce))
    return seeded if scripted is None else [*scripted, *seeded]


# ------------------------------------------------------------------------------ rounds
#: A stored event as a view shows it: ``(seq, step, at, data)``.
StoredEvent = tuple[int, int, float, dict[str, Any]]


@dataclass
class Loaded:
    row: Round
    game: HouseRound
    seed: FairnessSeed
    #: The round's stored events, when known without reading them (kept with a cached game).
    events: list[StoredEvent] = field(default_factory=list)


class ReplayError(TwentyOneError):
    """A stored round cannot be read or replayed."""


async def rebuild(session: AsyncSession, row: Round) -> Loaded:
    """Deal the round again from its seeds and replay its decisions."""
    seed = await session.get(FairnessSeed, row.seed_id)
    if seed is None:
        raise ReplayError(f"round {row.id}: its server seed is missing")
    return replay(row, seed)


def replay(row: Round, seed: FairnessSeed) -> Loaded:
    """Deal the round again from its seed and replay its decisions (no I/O)."""
    try:
        rules = rules_from_json(row.rules, Rules())
        cards = shoe_cards(seed.server_seed, row.client_seed, row.nonce, rules.decks)
        game = HouseRound.deal(rules, [row.bet], ScriptedShoe(cards))
        actions = row.actions
        if not isinstance(actions, list):
            raise ReplayError(f"round {row.id}: its decisions are not a list")
        for text in actions:
            game.act(Action.parse(text))
    except ReplayError:
        raise
    except (TwentyOneError, TypeError, KeyError, AttributeError) as error:
        raise ReplayError(f"round {row.id} cannot be replayed: {error}") from None
    if row.steps != len(row.actions):
        raise ReplayError(
            f"round {row.id}: {row.steps} steps stored but {len(row.actions)} decisions"
        )
    return Loaded(row, game, seed)


async def load_own(session: AsyncSession, user: User, round_id: int) -> Round:
    row = await session.get(Round, round_id)
    if row is None or row.user_id != user.id:
        raise not_found(f"round {round_id}")  # another player's round is not to be seen at all
    return row


# ------------------------------------------------------------- the hot path (Core statements)
# A deal and an action are the requests a bot sends all the time: they run on a plain
# connection with Core statements (no ORM unit of work), read what they need in one statement
# and write the step in as few as the schema allows, all in the caller's one transaction.


# The hot path's statements, built once (building a statement costs more than running it).
_DEAL_READ = (
    select(
        User.nonce,
        User.client_seed,
        LedgerAccount.balance,
        select(Round.id)
        .where(Round.user_id == User.id, Round.state == OPEN)
        .limit(1)
        .scalar_subquery(),
        FairnessSeed.id,
        FairnessSeed.server_seed,
        FairnessSeed.commitment,
        TableConfig.preset,
        TableConfig.rules,
        TableConfig.min_bet,
        TableConfig.max_bet,
    )
    .select_from(User)
    .join(LedgerAccount, LedgerAccount.id == User.account_id)
    .join(TableConfig, TableConfig.id == ONLINE_TABLE)
    .outerjoin(FairnessSeed, and_(FairnessSeed.user_id == User.id, FairnessSeed.used_at.is_(None)))
    .where(User.id == bindparam("user_id"))
    .order_by(FairnessSeed.id)
    .limit(1)
    .with_for_update(of=User)
)
_ACT_READ = select(
    Round.user_id,
    Round.state,
    Round.steps,
    Round.seed_id,
    select(LedgerAccount.balance).where(LedgerAccount.id == bindparam("account")).scalar_subquery(),
).where(Round.id == bindparam("round_id"))
#: The optimistic version: only the step seen (and still open) is written.
_ACT_GUARD = (
    Round.id == bindparam("round_id"),
    Round.steps == bindparam("seen"),
    Round.state == OPEN,
)
_ACT_WRITE = (
    update(Round)
    .where(*_ACT_GUARD)
    .values(
        steps=bindparam("new_steps"),
        updated_at=bindparam("new_updated_at"),
        actions=bindparam("new_actions", type_=Round.__table__.c.actions.type),
    )
)
_ACT_WRITE_SETTLED = _ACT_WRITE.values(
    state=bindparam("new_state"),
    net=bindparam("new_net"),
    settled_at=bindparam("new_settled_at"),
)
_INSERT_EVENTS = insert(RoundEvent)
_INSERT_SEED = insert(FairnessSeed).returning(FairnessSeed.id)
_INSERT_NEXT_SEED = insert(FairnessSeed)
_INSERT_ROUND = insert(Round).returning(Round.id)
_INSERT_ACCOUNT = insert(LedgerAccount)
_USE_SEED = (
    update(FairnessSeed)
    .where(FairnessSeed.id == bindparam("seed_id"))
    .values(used_at=bindparam("now"))
)
_NEXT_NONCE = update(User).where(User.id == bindparam("user_id")).values(nonce=bindparam("next"))


def _settlement(game: HouseRound, round_id: int, account: str) -> list[Movement]:
    """The transfers that pay out a settled round: the hold account back to zero, the house
    takes or pays the rest (the same movements as :func:`_settle_money`)."""
    stakes = game.staked()
    payout = stakes + game.boxes[0].net
    hold = hold_account(round_id)
    if payout >= stakes:
        out = [Movement(hold, account, stakes, "stake returned")]
        if payout > stakes:
            out.append(Movement(HOUSE_ACCOUNT, account, payout - stakes, "winnings"))
        return out
    out = [Movement(hold, account, payout, "stake returned")] if payout > 0 else []
    out.append(Movement(hold, HOUSE_ACCOUNT, stakes - payout, "stake lost"))
    return out


def _event_rows(
    round_id: int, game: HouseRound, first: int, step: int, now: float
) -> list[StoredEvent]:
    return [
        (seq, step, now, event.to_json()) for seq, event in enumerate(game.events[first:], first)
    ]


async def _insert_events(
    connection: StepConnection, round_id: int, events: list[StoredEvent]
) -> None:
    if events:
        await connection.execute(
            _INSERT_EVENTS,
            [
                {"round_id": round_id, "seq": seq, "step": step, "at": at, "data": data}
                for seq, step, at, data in events
            ],
        )


async def deal_step(
    connection: StepConnection,
    user: User,
    bet: object,
    make_seed: Any,
    now: float,
    script: CardScript | None = None,
) -> tuple[Loaded, int]:
    """Take the bet and deal a new round from the player's committed seed, settling it if it
    ends at once, as one step of few statements. Returns the round and the player's balance.

    One read (the player's row locked, his balance, his open round, his committed seed, the
    table), then the writes: the guarded stake debit, the round, its hold account (born with
    its stake), the seed marked used, the nonce, the next commitment, the transfers, the
    events. ``script`` (tests only): cards pushed for the Online table are dealt first.
    """
    if type(bet) is not int:
        raise unprocessable(f"a bet is a whole number of minor units, got {bet!r}")
    found = (await connection.execute(_DEAL_READ, {"user_id": user.id})).first()
    if found is None:  # pragma: no cover - the table is made at start-up, the user exists
        raise not_found("online table")
    nonce, client_seed, balance, already, seed_id, server_seed, seed_commitment = found[:7]
    rules, rules_json = _cached_rules(*found[7:])
    if not rules.min_bet <= bet <= rules.max_bet:
        raise unprocessable(f"bet {bet} is off the table limits {rules.min_bet}..{rules.max_bet}")
    if already is not None:
        raise conflict(f"round {already} is still open: finish it first")
    if bet > balance:
        raise unprocessable(f"a bet of {bet} is more than the balance")
    if seed_id is None:  # no commitment shown yet: make it now
        server_seed = make_seed()
        seed_commitment = commitment(server_seed)
        seed_id = await connection.scalar(
            _INSERT_SEED,
            {
                "user_id": user.id,
                "server_seed": server_seed,
                "commitment": seed_commitment,
                "created_at": now,
            },
        )
    scripted = script.take(ONLINE_TABLE) if script is not None else None
    if scripted is not None:  # tests only: these cards on top, the seeded shoe under them
        if len(_SCRIPTED_DEALS) >= _SCRIPTED_DEALS_MAX:
            _SCRIPTED_DEALS.clear()
        _SCRIPTED_DEALS[(server_seed, client_seed, nonce)] = scripted
    # Draw before writing: the deal itself cannot fail after this.
    cards = shoe_cards(server_seed, client_seed, nonce, rules.decks)
    game = HouseRound.deal(rules, [bet], ScriptedShoe(cards))
    settled = game.is_settled  # a natural: the round is over as it is dealt
    columns: dict[str, Any] = {
        "user_id": user.id,
        "table_id": ONLINE_TABLE,
        "state": SETTLED if settled else OPEN,
        "bet": bet,
        "rules": rules_json,
        "seed_id": seed_id,
        "client_seed": client_seed,
        "nonce": nonce,
        "actions": [],
        "steps": 0,
        "created_at": now,
        "updated_at": now,
        "net": game.boxes[0].net if settled else None,
        "settled_at": now if settled else None,
    }
    # Prebuilt statements with their values as parameters: building one per request (and
    # its cache key from the literal values) cost more than running it.
    round_id = await connection.scalar(_INSERT_ROUND, columns)
    assert round_id is not None
    hold = hold_account(round_id)
    await connection.execute(
        _INSERT_ACCOUNT, {"id": hold, "kind": HOLD, "balance": 0, "created_at": now}
    )
    movements = [Movement(user.account_id, hold, bet, "stake")]
    # The row as stored (kept in memory for the round's next steps), not read back.
    row = Round(id=round_id, **columns, void_reason=None)
    if settled:
        movements += _settlement(game, round_id, user.account_id)
    try:
        balances = await ledger.post(connection, movements, now, round_id)
    except InsufficientBalanceError:
        raise unprocessable(f"a bet of {bet} is more than the balance") from None
    await connection.execute(_USE_SEED, {"seed_id": seed_id, "now": now})
    await connection.execute(_NEXT_NONCE, {"user_id": user.id, "next": nonce + 1})
    # The next round's commitment (the one just used was the only one pending).
    following = make_seed()
    await connection.execute(
        _INSERT_NEXT_SEED,
        {
            "user_id": user.id,
            "server_seed": following,
            "commitment": commitment(following),
            "created_at": now,
        },
    )
    events = _event_rows(round_id, game, 0, 0, now)
    await _insert_events(connection, round_id, events)
    seed = FairnessSeed(
        id=seed_id, user_id=user.id, server_seed=server_seed, commitment=seed_commitment
    )
    return Loaded(row, game, seed, events), balances[user.account_id]


async def _load_for_step(connection: StepConnection, round_id: int, steps: int) -> Loaded:
    """Read a whole round (row, seed, events) and replay it: a game not kept in memory.

    The round must still be at the step read before (on PostgreSQL each statement sees what
    was committed by then): one that moved on meanwhile is a conflict, never replayed further.
    """
    found = (await connection.execute(select(Round).where(Round.id == round_id))).first()
    if found is None:  # pragma: no cover - read just before in the same transaction
        raise not_found(f"round {round_id}")
    row = Round(**found._asdict())
    if row.steps != steps or row.state != OPEN:
        raise conflict(f"round {round_id} moved on meanwhile; read it again")
    seed_row = (
        await connection.execute(select(FairnessSeed).where(FairnessSeed.id == row.seed_id))
    ).first()
    if seed_row is None:
        raise ReplayError(f"round {row.id}: its server seed is missing")
    loaded = replay(row, FairnessSeed(**seed_row._asdict()))
    stored = await connection.execute(
        select(RoundEvent.seq, RoundEvent.step, RoundEvent.at, RoundEvent.data)
        .where(RoundEvent.round_id == round_id)
        .order_by(RoundEvent.seq)
    )
    loaded.events = [(seq, step, at, data) for seq, step, at, data in stored]
    return loaded


async def act_step(
    connection: StepConnection,
    user: User,
    round_id: int,
    text: object,
    expected_step: object,
    now: float,
    games: dict[int, Loaded] | None = None,
) -> tuple[Loaded, int]:
    """Apply one decision of the round's player, with its money, as one step of few
    statements. Returns the round after it and the player's balance.

    One read (the round's version and owner, the player's balance), the decision applied to
    the game in memory, then the writes: the round row under its version guard (its new
    version, decisions and, if it settles, its result), the money (one guarded ``UPDATE`` per
    account touched and the transfers), the new events.
    """
    found = (
        await connection.execute(_ACT_READ, {"round_id": round_id, "account": user.account_id})
    ).first()
    if found is None or found[0] != user.id:
        raise not_found(f"round {round_id}")  # another player's round is not to be seen at all
    _owner, state, steps, seed_id, available = found
    if not isinstance(text, str):
        raise unprocessable(f"an action is a string like 'hit', got {text!r}")
    if state != OPEN:
        raise conflict(f"round {round_id} is {state}; no action is possible")
    if expected_step is not None and expected_step != steps:
        raise conflict(f"stale action: round {round_id} is at step {steps}, not {expected_step}")
    try:
        action = Action.parse(text)
    except TwentyOneError as error:
        raise unprocessable(str(error)) from None
    # A game this process left at exactly this step (put there only after its step committed,
    # taken out before use) saves reading, dealing and replaying it again.
    cached = games.pop(round_id, None) if games is not None else None
    try:
        if cached is not None and cached.row.steps == steps and cached.seed.id == seed_id:
            loaded = cached
        else:
            loaded = await _load_for_step(connection, round_id, steps)
    except ReplayError as error:
        raise conflict(
            f"round {round_id} cannot continue ({error}); an operator will void it"
        ) from None
    row, game = loaded.row, loaded.game
    try:
        game.verify(action)
    except TwentyOneError as error:
        raise unprocessable(str(error)) from None
    extra = game.stake_of(action)
    if extra > available:
        raise unprocessable(f"{action.text} needs {extra} more than the balance holds")
    # The step in memory first (the game is this request's own: taken out of the cache, it
    # is dropped if anything below fails), then one write of each kind.
    step = steps + 1
    first = len(game.events)
    game.act(action)
    actions = [*row.actions, action.text]
    values: dict[str, Any] = {"steps": step, "updated_at": now, "actions": actions}
    if game.is_settled:
        values.update(state=SETTLED, net=game.boxes[0].net, settled_at=now)
    # The optimistic version: if another request took this step first, nothing here applies.
    claimed = await connection.execute(
        _ACT_WRITE_SETTLED if game.is_settled else _ACT_WRITE,
        {"round_id": round_id, "seen": steps, **{f"new_{key}": v for key, v in values.items()}},
    )
    if claimed.rowcount != 1:
        raise conflict(f"round {round_id} moved on meanwhile; read it again")
    movements: list[Movement] = []
    if extra:
        movements.append(
            Movement(user.account_id, hold_account(round_id), extra, action.kind.value)
        )
    if game.is_settled:
        movements += _settlement(game, round_id, user.account_id)
    if movements:
        try:
            balances = await ledger.post(connection, movements, now, round_id)
        except InsufficientBalanceError:
            raise unprocessable(
                f"{action.text} needs {extra} more than the balance holds"
            ) from None
        available = balances.get(user.account_id, available)
    events = _event_rows(round_id, game, first, step, now)
    await _insert_events(connection, round_id, events)
    for name, value in values.items():
        setattr(row, name, value)
    loaded.events = [*loaded.events, *events]
    return loaded, int(available)


async def void(
    session: AsyncSession, round_id: int, reason: str, operator_id: int | None, now: float
) -> int:
    """Void an open round: every stake back to its player, the void recorded. Returns the refund.

    Only plain columns are read, so a round whose stored JSON is unreadable can be voided too.
    """
    found = (
        await session.execute(select(Round.user_id, Round.state).where(Round.id == round_id))
    ).first()
    if found is None:
        raise not_found(f"round {round_id}")
    user_id, state = found
    if state != OPEN:
        raise conflict(f"round {round_id} is {state}; only an open round can be voided")
    account = await session.scalar(select(User.account_id).where(User.id == user_id))
    if account is None:  # pragma: no cover - foreign key
        raise not_found(f"player of round {round_id}")
    claimed = await session.execute(
        update(Round)
        .where(Round.id == round_id, Round.state == OPEN)
        .values(state=VOID, void_reason=reason[:500], settled_at=now, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise conflict(f"round {round_id} moved on meanwhile; read it again")
    held = await ledger.balance(session, hold_account(round_id))
    if held:
        await ledger.transfer(
            session, hold_account(round_id), account, held, "void refund", now, round_id
        )
    session.add(
        OperatorAction(
            operator_id=operator_id,
            at=now,
            action="void",
            target=f"round:{round_id}",
            details={"reason": reason, "refunded": held},
        )
    )
    await session.flush()
    return held


async def check_stored(session: AsyncSession, row: Round) -> Loaded:
    """Rebuild a round and check its stored events and stakes against the replay."""
    loaded = await rebuild(session, row)
    stored = (
        await session.scalars(
            select(RoundEvent.data).where(RoundEvent.round_id == row.id).order_by(RoundEvent.seq)
        )
    ).all()
    replayed = [event.to_json() for event in loaded.game.events]
    if list(stored) != replayed:
        raise ReplayError(f"round {row.id}: its stored events differ from the replay")
    held = await ledger.balance(session, hold_account(row.id))
    if held != loaded.game.staked():
        raise ReplayError(
            f"round {row.id}: its hold account carries {held}, the stakes are {loaded.game.staked()}"
        )
    if loaded.game.is_settled:
        raise ReplayError(f"round {row.id}: stored open but its decisions settle it")
    return loaded


async def recover(session: AsyncSession, now: float) -> dict[str, list[int]]:
    """Load every open round; void (and refund) each one that cannot be read or replayed."""
    resumed: list[int] = []
    voided: list[int] = []
    ids = (
        await session.scalars(select(Round.id).where(Round.state == OPEN).order_by(Round.id))
    ).all()
    for round_id in ids:
        try:
            async with session.begin_nested():  # a failed read leaves the transaction usable
                row = await session.get(Round, round_id)
                assert row is not None
                await check_stored(session, row)
        except Exception as error:  # whatever makes it unreadable: JSON, types, the replay
            reason = str(error) if isinstance(error, TwentyOneError) else repr(error)
            await void(session, round_id, f"voided at start-up: {reason}", None, now)
            voided.append(round_id)
        else:
            resumed.append(round_id)
        session.expunge_all()
    return {"resumed": resumed, "voided": voided}


# ------------------------------------------------------------------------------- views
def _mask(data: dict[str, Any]) -> dict[str, Any]:
    if data.get("type") == "card" and data.get("face_up") is False:
        return {**data, "card": None}
    return data


def _hand_json(hand: Any, aces_high: bool) -> dict[str, Any]:
    value = hand.value(aces_high)
    return {
        "cards": [str(card) for card in hand.cards],
        "total": value.total,
        "soft": bool(value.soft),
        "stake": hand.stake,
        "doubled": hand.doubled,
        "result": None if hand.result is None else hand.result.value,
        "net": hand.net,
    }


def legal_actions(game: HouseRound, available: int) -> list[str]:
    """The decisions the player may send now that his balance can pay for."""
    out: list[str] = []
    bet = game.boxes[0].bet
    for action in game.legal_actions():
        if action.kind is ActionKind.INSURANCE:
            most = min(action.amount or 0, available)
            if most >= 1:
                out.append(f"insurance {most}")
        elif action.kind in (ActionKind.DOUBLE, ActionKind.SPLIT) and available < bet:
            continue
        else:
            out.append(action.text)
    return out


def round_view(
    loaded: Loaded,
    events: list[StoredEvent],
    available: int,
    operator: bool = False,
) -> dict[str, Any]:
    """The round as its player may see it (``operator``: everything, the seed included)."""
    row, game = loaded.row, loaded.game
    settled = row.state != OPEN
    aces_high = game.rules.aces_high
    shown = settled or operator or game.hole_card_revealed
    dealer_cards = game.dealer if shown else game.dealer[:1]
    dealer_value = (
        game.dealer_value().total
        if shown
        else (11 if dealer_cards[0].value == 1 and aces_high else dealer_cards[0].value)
    )
    phase = row.state if row.state != OPEN else game.phase.value
    out: dict[str, Any] = {
        "id": row.id,
        "state": phase,
        "bet": row.bet,
        "step": row.steps,
        "hands": [_hand_json(hand, aces_high) for hand in game.boxes[0].hands],
        "insurance": game.boxes[0].insurance,
        "dealer": {
            "cards": [str(card) for card in dealer_cards],
            "hidden": 0 if shown else len(game.dealer) - 1,
            "total": dealer_value,
        },
        "legal_actions": [] if settled else legal_actions(game, available),
        #: The player's balance after this step (money held by the round not in it).
        "balance": available,
        "to_act": None if settled or game.phase is Phase.SETTLED else game.pending_decision(),
        "commitment": loaded.seed.commitment,
        "client_seed": row.client_seed,
        "nonce": row.nonce,
        "created_at": row.created_at,
        "events": [
            {"seq": seq, "step": step, "at": at, **(data if settled or operator else _mask(data))}
            for seq, step, at, data in events
        ],
    }
    if row.state == SETTLED:
        out["net"] = row.net
    if row.state == VOID:
        out["void_reason"] = row.void_reason
        out["net"] = 0
    if settled or operator:
        out["fairness"] = record(loaded).to_json()
    return out


def record(loaded: Loaded) -> FairnessRecord:
    """The provably fair record: the seeds and every card the round dealt, in dealing order."""
    row, game = loaded.row, loaded.game
    dealt = [event.card for event in game.events if isinstance(event, CardDealt)]
    return FairnessRecord(
        server_seed=loaded.seed.server_seed,
        commitment=loaded.seed.commitment,
        client_seed=row.client_seed,
        nonce=row.nonce,
        decks=game.rules.decks,
        position=0,
        cards=tuple(dealt),
    )


async def events_of(session: AsyncSession, round_id: int) -> list[StoredEvent]:
    stored = await session.execute(
        select(RoundEvent.seq, RoundEvent.step, RoundEvent.at, RoundEvent.data)
        .where(RoundEvent.round_id == round_id)
        .order_by(RoundEvent.seq)
    )
    return [(seq, step, at, data) for seq, step, at, data in stored]


async def view_of(
    session: AsyncSession, row: Round, available: int, operator: bool = False
) -> dict[str, Any]:
    """Load (replay) a stored round and render it; an unreadable one is shown from its row."""
    try:
        loaded = await rebuild(session, row)
    except ReplayError as error:
        return {"id": row.id, "state": row.state, "bet": row.bet, "error": str(error)}
    return round_view(loaded, await events_of(session, row.id), available, operator)
