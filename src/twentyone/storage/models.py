"""The database schema (SQLAlchemy 2 typed declarative models).

Money is ``BigInteger`` minor units; times are ``Float`` seconds since the epoch from the
server's injected wall clock; a stored game state is its JSON. Every change to these models
comes with a migration under ``migrations/versions`` (a test upgrades an empty database and
compares it with these models).

The ledger is the database form of :mod:`twentyone.ledger`: accounts with kinds, and transfers
between them. A hold is money moved into a *hold account* (one per round), not a flag; the
balance column of an account is the sum of its transfers, kept in the same transaction as
each transfer and recomputed by the audit. The house's and the outside world's balances are not
stored (their column stays 0): they are summed from their transfers when asked, so that
settlements do not all queue on the lock of one row (``storage.ledger.DERIVED``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names fixed by convention, so migrations and models compare equal everywhere.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: Ledger account kinds. Customer accounts never go below zero; the house banks the games and
#: may (play money); hold accounts carry one round's stakes; external is the outside world
#: (grants and top-ups come from it). All balances together always sum to zero.
CUSTOMER, HOUSE, HOLD, EXTERNAL = "customer", "house", "hold", "external"
HOUSE_ACCOUNT = "house"
EXTERNAL_ACCOUNT = "external"

#: Round states.
OPEN, SETTLED, VOID = "open", "settled", "void"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class LedgerAccount(Base):
    __tablename__ = "ledger_accounts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("kind in ('customer', 'house', 'hold', 'external')", name="known_kind"),
        CheckConstraint("kind not in ('customer', 'hold') or balance >= 0", name="not_negative"),
    )


class Transfer(Base):
    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    debit: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id"))
    credit: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(64))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        CheckConstraint("debit <> credit", name="two_accounts"),
        Index(None, "debit", "id"),
        Index(None, "credit", "id"),
    )


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    #: The name case-folded: names are unique regardless of case.
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="player")
    account_id: Mapped[str] = mapped_column(ForeignKey("ledger_accounts.id"), unique=True)
    client_seed: Mapped[str] = mapped_column(String(64))
    #: Rounds played under the current client seed: the next round's nonce.
    nonce: Mapped[int] = mapped_column(Integer, default=0)
    last_topup_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (CheckConstraint("role in ('player', 'operator')", name="known_role"),)


class AuthToken(Base):
    """A session cookie or a bearer token; only its SHA-256 is stored."""

    __tablename__ = "auth_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class FairnessSeed(Base):
    """A server seed: committed (its hash shown) before the round it deals, revealed after."""

    __tablename__ = "fairness_seeds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    #: When a round took it (None: still the player's next commitment).
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index(None, "user_id", "used_at"),)


class TableConfig(Base):
    """A table's configuration, set by operators: preset, rule overrides, limits, timings."""

    __tablename__ = "table_configs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    preset: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    min_bet: Mapped[int] = mapped_column(BigInteger)
    max_bet: Mapped[int] = mapped_column(BigInteger)
    decision_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    updated_at: Mapped[float] = mapped_column(Float)


class Round(Base):
    """One Online Blackjack round: its seeds, its decisions so far and its money.

    Its stakes sit in the hold account ``round:{id}`` (:func:`hold_account`) while it is open.
    """

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    table_id: Mapped[str] = mapped_column(ForeignKey("table_configs.id"))
    state: Mapped[str] = mapped_column(String(16))
    bet: Mapped[int] = mapped_column(BigInteger)
    #: The full rules the round was dealt under (a later table change does not touch it).
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed_id: Mapped[int] = mapped_column(ForeignKey("fairness_seeds.id"), unique=True)
    client_seed: Mapped[str] = mapped_column(String(64))
    nonce: Mapped[int] = mapped_column(Integer)
    #: Every decision so far, as text ("hit", "insurance 250"): with the seeds, the whole state.
    actions: Mapped[list[str]] = mapped_column(JSON)
    #: Steps taken (deal = 0): the optimistic version of the row, bumped by every step.
    steps: Mapped[int] = mapped_column(Integer, default=0)
    net: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    settled_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)

    __table_args__ = (
        CheckConstraint("state in ('open', 'settled', 'void')", name="known_state"),
        Index(None, "user_id", "id"),
        Index(None, "state"),
    )


def hold_account(round_id: int) -> str:
    """The ledger account holding a round's stakes."""
    return f"round:{round_id}"


def customer_account(name_key: str) -> str:
    """The ledger account of the player whose case-folded name is ``name_key``."""
    return f"player:{name_key}"


class RoundEvent(Base):
    """One engine event of a round, in order, with the time of the step that made it."""

    __tablename__ = "round_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    seq: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (UniqueConstraint("round_id", "seq"),)


class OperatorAction(Base):
    """Every operator action (and every void the server itself makes): who, when, what."""

    __tablename__ = "operator_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: None: the server itself (a round voided at start-up).
    operator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    action: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(128))
    details: Mapped[dict[str, Any]] = mapped_column(JSON)


# ------------------------------------------------------------------ live Casino tables
#: Casino table statuses: open, closing (after the round in play), closed.
TABLE_OPEN, TABLE_CLOSING, TABLE_CLOSED = "open", "closing", "closed"


class CasinoTableRow(Base):
    """A live Casino table: its settings and its runner's whole saved state (one JSON, written
    with every step in the step's transaction; ``twentyone.tables.casino.CasinoTable``)."""

    __tablename__ = "casino_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: Rule overrides on the casino preset (the limits are their own columns).
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    min_bet: Mapped[int] = mapped_column(BigInteger)
    max_bet: Mapped[int] = mapped_column(BigInteger)
    betting_seconds: Mapped[float] = mapped_column(Float)
    decision_seconds: Mapped[float] = mapped_column(Float)
    pause_seconds: Mapped[float] = mapped_column(Float)
    #: The table's client seed (set by the operator: no one player steers shared cards).
    client_seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    #: The runner's state (holds the current shoe's seed: never shown as such).
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: The runner's step: bumped by every change of the table.
    step: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("status in ('open', 'closing', 'closed')", name="known_status"),
    )


class CasinoShoeRow(Base):
    """One shoe of a Casino table: its server seed committed when shuffled, revealed (to the
    players of its rounds) once ``retired_at`` is set."""

    __tablename__ = "casino_shoes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("casino_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(64))
    decks: Mapped[int] = mapped_column(Integer)
    cut_card: Mapped[int] = mapped_column(Integer)
    #: Test-only card injection put cards on top (never in production): it will not verify.
    scripted: Mapped[bool] = mapped_column(default=False)
    cards_dealt: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    retired_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (UniqueConstraint("table_id", "number"),)


class CasinoRoundRow(Base):
    """One round at a Casino table. Its stakes sit in the hold account ``casino:{id}``
    (:func:`casino_hold_account`) while it is open; ``record`` is the whole settled round."""

    __tablename__ = "casino_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("casino_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16))
    shoe_id: Mapped[int | None] = mapped_column(ForeignKey("casino_shoes.id"), nullable=True)
    #: Index in the shoe of the round's first card (set when it is dealt).
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    house_net: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    settled_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)

    __table_args__ = (
        CheckConstraint("state in ('open', 'settled', 'void')", name="known_state"),
        UniqueConstraint("table_id", "number"),
        Index(None, "state"),
    )


class CasinoRoundBox(Base):
    """A box a player bet on in a Casino round (his history is found through these)."""

    __tablename__ = "casino_round_boxes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("casino_rounds.id"))
    box: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    bet: Mapped[int] = mapped_column(BigInteger)
    net: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (UniqueConstraint("round_id", "box"), Index(None, "user_id", "round_id"))


def casino_hold_account(round_id: int) -> str:
    """The ledger account holding a Casino round's stakes."""
    return f"casino:{round_id}"


class VinteTableRow(Base):
    """A live Vinte-e-um table (docs/vinte-live.md): its settings, its seats, and the match's
    whole engine state (one JSON with every hidden card: storage only), written with every step."""

    __tablename__ = "vinte_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    #: The invite link's secret (shown to seated people only).
    invite: Mapped[str] = mapped_column(String(64))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: One entry per seat: {"user_id", "name", "bot", "account"} or null while empty.
    seats: Mapped[list[Any]] = mapped_column(JSON)
    client_seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    void_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint(
            "status in ('waiting', 'playing', 'over', 'void', 'closed')", name="known_status"
        ),
        Index(None, "status"),
    )


class VinteRoundRow(Base):
    """One round of a Vinte-e-um match: its server seed (the operator's only), the deck and the
    salted hash of every position committed before the deal, and the settled ``record``."""

    __tablename__ = "vinte_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("vinte_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16))
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(64))
    decks: Mapped[int] = mapped_column(Integer)
    deck: Mapped[list[Any]] = mapped_column(JSON)
    hashes: Mapped[list[Any]] = mapped_column(JSON)
    #: Test-only card injection put cards on top (never in production).
    scripted: Mapped[bool] = mapped_column(default=False)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    settled_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        CheckConstraint("state in ('open', 'settled', 'void')", name="known_state"),
        UniqueConstraint("table_id", "number"),
    )


def vinte_hold_account(table_id: str) -> str:
    """The ledger account holding a for-balance Vinte-e-um match's buy-ins."""
    return f"vinte:{table_id}"


# ------------------------------------------------------------------ live Exchange tables
class ExchangeGameRow(Base):
    """One game of an Exchange Blackjack table (``twentyone.server.exchange``): its server seed
    (committed by ``commitment`` before round 1, shown once the game is over), the maker's
    float for the game, and ``record`` (cards and results) once settled. The market and the
    cards are rebuilt by replaying its :class:`ExchangeEventRow` rows; what the game holds sits
    in the hold account ``exchange:{id}`` (:func:`exchange_hold_account`)."""

    __tablename__ = "exchange_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16))
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(64))
    #: Test-only card injection: the cards turned first (never in production).
    scripted: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    #: What the market maker may risk on this game (its balance, capped by the setting).
    maker_float: Mapped[int] = mapped_column(BigInteger)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    settled_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)

    __table_args__ = (
        CheckConstraint("state in ('open', 'settled', 'void')", name="known_state"),
        UniqueConstraint("table_id", "number"),
        Index(None, "state"),
    )


class ExchangeEventRow(Base):
    """One market event of an exchange game, in order (a round opened, an order, a cancel, a
    round closed): the game's durable input, written with the event's transfers."""

    __tablename__ = "exchange_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("exchange_games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class ExchangeOrderRow(Base):
    """A customer's order acknowledgement (or refusal), unique per (account, client ref)."""

    __tablename__ = "exchange_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("exchange_games.id"), nullable=True)
    table_id: Mapped[str] = mapped_column(String(32))
    account: Mapped[str] = mapped_column(String(64))
    ref: Mapped[str] = mapped_column(String(64))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The order's id in its game's market (None: refused).
    market_order: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status_code: Mapped[int] = mapped_column(Integer)
    #: The answer as last written (the acknowledgement, the final state once the game ended).
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("account", "ref"), Index(None, "game_id"))


class ExchangePositionRow(Base):
    """What an exchange game holds for one account, and its net on the selections already
    settled: enough to void the game without replaying it."""

    __tablename__ = "exchange_positions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("exchange_games.id"))
    account: Mapped[str] = mapped_column(String(64))
    held: Mapped[int] = mapped_column(BigInteger)
    settled_net: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (UniqueConstraint("game_id", "account"),)


def exchange_hold_account(game_id: int) -> str:
    """The ledger account holding what an exchange game holds for its bettors."""
    return f"exchange:{game_id}"
