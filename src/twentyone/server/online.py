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

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

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
from twentyone.server.errors import conflict, not_found, unprocessable
from twentyone.shoe import ScriptedShoe
from twentyone.storage import ledger
from twentyone.storage.models import (
    HOLD,
    HOUSE_ACCOUNT,
    OPEN,
    SETTLED,
    VOID,
    FairnessSeed,
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


def shoe_cards(server_seed: str, client_seed: str, nonce: int, decks: int | None) -> list[Card]:
    if decks is None:
        return infinite_cards(server_seed, client_seed, nonce, _INFINITE_DRAW)
    return shuffled_shoe(server_seed, client_seed, nonce, decks)


# ------------------------------------------------------------------------------ rounds
@dataclass
class Loaded:
    row: Round
    game: HouseRound
    seed: FairnessSeed


class ReplayError(TwentyOneError):
    """A stored round cannot be read or replayed."""


async def rebuild(session: AsyncSession, row: Round) -> Loaded:
    """Deal the round again from its seeds and replay its decisions."""
    seed = await session.get(FairnessSeed, row.seed_id)
    if seed is None:
        raise ReplayError(f"round {row.id}: its server seed is missing")
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


def staked(game: HouseRound) -> int:
    """Everything the player has put into the round: every hand's stake and the insurance."""
    box = game.boxes[0]
    return sum(hand.stake for hand in box.hands) + box.insurance


def extra_stake(game: HouseRound, action: Action) -> int:
    """What ``action`` adds to the round's stakes (doubling and splitting add the bet)."""
    if action.kind in (ActionKind.DOUBLE, ActionKind.SPLIT):
        return game.boxes[0].bet
    if action.kind is ActionKind.INSURANCE:
        return action.amount or 0
    return 0


async def _store_events(
    session: AsyncSession, row: Round, game: HouseRound, first: int, step: int, now: float
) -> None:
    rows = [
        {"round_id": row.id, "seq": seq, "step": step, "at": now, "data": event.to_json()}
        for seq, event in enumerate(game.events[first:], start=first)
    ]
    if rows:
        await session.execute(insert(RoundEvent), rows)


async def _settle_money(
    session: AsyncSession, row: Round, game: HouseRound, account: str, now: float
) -> None:
    """Pay out a settled round: the hold account back to zero, the house takes or pays the rest."""
    stakes = staked(game)
    net = game.boxes[0].net
    payout = stakes + net
    hold = hold_account(row.id)
    if payout >= stakes:
        await ledger.transfer(session, hold, account, stakes, "stake returned", now, row.id)
        if payout > stakes:
            await ledger.transfer(
                session, HOUSE_ACCOUNT, account, payout - stakes, "winnings", now, row.id
            )
    else:
        if payout > 0:
            await ledger.transfer(session, hold, account, payout, "stake returned", now, row.id)
        await ledger.transfer(
            session, hold, HOUSE_ACCOUNT, stakes - payout, "stake lost", now, row.id
        )
    row.net = net
    row.state = SETTLED
    row.settled_at = now


async def deal(
    session: AsyncSession, user: User, bet: object, make_seed: Any, now: float
) -> Loaded:
    """Take the bet, deal a new round from the player's committed seed; settle it if it ends."""
    config = await session.get(TableConfig, ONLINE_TABLE)
    if config is None:  # pragma: no cover - made at start-up
        raise not_found("online table")
    rules = table_rules(config)
    if type(bet) is not int:
        raise unprocessable(f"a bet is a whole number of minor units, got {bet!r}")
    if not rules.min_bet <= bet <= rules.max_bet:
        raise unprocessable(f"bet {bet} is off the table limits {rules.min_bet}..{rules.max_bet}")
    already = await session.scalar(
        select(Round.id).where(Round.user_id == user.id, Round.state == OPEN).limit(1)
    )
    if already is not None:
        raise conflict(f"round {already} is still open: finish it first")
    seed = await pending_seed(session, user, make_seed, now)
    seed.used_at = now
    nonce = user.nonce
    row = Round(
        user_id=user.id,
        table_id=ONLINE_TABLE,
        state=OPEN,
        bet=bet,
        rules=rules.to_json(),
        seed_id=seed.id,
        client_seed=user.client_seed,
        nonce=nonce,
        actions=[],
        steps=0,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    await session.flush()
    await ledger.open_account(session, hold_account(row.id), HOLD, now, check=False)
    try:
        await ledger.transfer(
            session, user.account_id, hold_account(row.id), bet, "stake", now, row.id
        )
    except InsufficientBalanceError:
        raise unprocessable(f"a bet of {bet} is more than the balance") from None
    cards = shoe_cards(seed.server_seed, row.client_seed, nonce, rules.decks)
    game = HouseRound.deal(rules, [bet], ScriptedShoe(cards))
    user.nonce = nonce + 1
    # The next round's commitment (the one just used was the only one pending).
    following = make_seed()
    session.add(
        FairnessSeed(
            user_id=user.id,
            server_seed=following,
            commitment=commitment(following),
            created_at=now,
        )
    )
    await _store_events(session, row, game, 0, 0, now)
    if game.is_settled:
        await _settle_money(session, row, game, user.account_id, now)
    await session.flush()
    return Loaded(row, game, seed)


async def load_own(session: AsyncSession, user: User, round_id: int) -> Round:
    row = await session.get(Round, round_id)
    if row is None or row.user_id != user.id:
        raise not_found(f"round {round_id}")  # another player's round is not to be seen at all
    return row


async def act(
    session: AsyncSession,
    user: User,
    round_id: int,
    text: object,
    expected_step: object,
    now: float,
    games: dict[int, Loaded] | None = None,
) -> Loaded:
    """Apply one decision of the round's player, with its money, as one step."""
    row = await load_own(session, user, round_id)
    if not isinstance(text, str):
        raise unprocessable(f"an action is a string like 'hit', got {text!r}")
    if row.state != OPEN:
        raise conflict(f"round {round_id} is {row.state}; no action is possible")
    if expected_step is not None and expected_step != row.steps:
        raise conflict(
            f"stale action: round {round_id} is at step {row.steps}, not {expected_step}"
        )
    try:
        action = Action.parse(text)
    except TwentyOneError as error:
        raise unprocessable(str(error)) from None
    # A game this process left at exactly this step (put there only after its step committed,
    # taken out before use) saves dealing and replaying it again.
    cached = games.pop(round_id, None) if games is not None else None
    try:
        if cached is not None and cached.row.steps == row.steps and cached.seed.id == row.seed_id:
            loaded = Loaded(row, cached.game, cached.seed)
        else:
            loaded = await rebuild(session, row)
    except ReplayError as error:
        raise conflict(
            f"round {round_id} cannot continue ({error}); an operator will void it"
        ) from None
    game = loaded.game
    try:
        game.verify(action)
    except TwentyOneError as error:
        raise unprocessable(str(error)) from None
    extra = extra_stake(game, action)
    step = row.steps + 1
    # The optimistic version: if another request took this step first, nothing here applies.
    claimed = await session.execute(
        update(Round)
        .where(Round.id == row.id, Round.steps == row.steps, Round.state == OPEN)
        .values(steps=step, updated_at=now, actions=[*row.actions, action.text])
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise conflict(f"round {round_id} moved on meanwhile; read it again")
    # The row now holds what was written (no second read, no second UPDATE at flush).
    set_committed_value(row, "steps", step)
    set_committed_value(row, "updated_at", now)
    set_committed_value(row, "actions", [*row.actions, action.text])
    if extra:
        try:
            await ledger.transfer(
                session,
                user.account_id,
                hold_account(row.id),
                extra,
                action.kind.value,
                now,
                row.id,
            )
        except InsufficientBalanceError:
            raise unprocessable(
                f"{action.text} needs {extra} more than the balance holds"
            ) from None
    first = len(game.events)
    game.act(action)
    await _store_events(session, row, game, first, step, now)
    if game.is_settled:
        await _settle_money(session, row, game, user.account_id, now)
    await session.flush()
    return loaded


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
    if held != staked(loaded.game):
        raise ReplayError(
            f"round {row.id}: its hold account carries {held}, the stakes are {staked(loaded.game)}"
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
    events: list[RoundEvent],
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
            {
                "seq": e.seq,
                "step": e.step,
                "at": e.at,
                **(e.data if settled or operator else _mask(e.data)),
            }
            for e in events
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


def dealt_events(loaded: Loaded, now: float) -> list[RoundEvent]:
    """The events of a round just dealt, as stored (without reading them back)."""
    return [
        RoundEvent(round_id=loaded.row.id, seq=seq, step=0, at=now, data=event.to_json())
        for seq, event in enumerate(loaded.game.events)
    ]


async def events_of(session: AsyncSession, round_id: int) -> list[RoundEvent]:
    return list(
        (
            await session.scalars(
                select(RoundEvent).where(RoundEvent.round_id == round_id).order_by(RoundEvent.seq)
            )
        ).all()
    )


async def view_of(
    session: AsyncSession, row: Round, available: int, operator: bool = False
) -> dict[str, Any]:
    """Load (replay) a stored round and render it; an unreadable one is shown from its row."""
    try:
        loaded = await rebuild(session, row)
    except ReplayError as error:
        return {"id": row.id, "state": row.state, "bet": row.bet, "error": str(error)}
    return round_view(loaded, await events_of(session, row.id), available, operator)
