"""Live Exchange Blackjack: the games (one server seed each), their market events, the order
acknowledgements (unique per account and client reference) and what each game holds per account.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "exchange_games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("scripted", sa.JSON(), nullable=True),
        sa.Column("maker_float", sa.BigInteger(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("settled_at", sa.Float(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "state in ('open', 'settled', 'void')", name=op.f("ck_exchange_games_known_state")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exchange_games")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_exchange_games_table_id_number")),
    )
    with op.batch_alter_table("exchange_games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_exchange_games_state"), ["state"], unique=False)

    op.create_table(
        "exchange_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["exchange_games.id"],
            name=op.f("fk_exchange_events_game_id_exchange_games"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exchange_events")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_exchange_events_game_id_seq")),
    )
    op.create_table(
        "exchange_orders",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("market_order", sa.Integer(), nullable=True),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["exchange_games.id"],
            name=op.f("fk_exchange_orders_game_id_exchange_games"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exchange_orders")),
        sa.UniqueConstraint("account", "ref", name=op.f("uq_exchange_orders_account_ref")),
    )
    with op.batch_alter_table("exchange_orders", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_exchange_orders_game_id"), ["game_id"], unique=False)

    op.create_table(
        "exchange_positions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("held", sa.BigInteger(), nullable=False),
        sa.Column("settled_net", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["exchange_games.id"],
            name=op.f("fk_exchange_positions_game_id_exchange_games"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exchange_positions")),
        sa.UniqueConstraint(
            "game_id", "account", name=op.f("uq_exchange_positions_game_id_account")
        ),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("exchange_positions")
    with op.batch_alter_table("exchange_orders", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_exchange_orders_game_id"))

    op.drop_table("exchange_orders")
    op.drop_table("exchange_events")
    with op.batch_alter_table("exchange_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_exchange_games_state"))

    op.drop_table("exchange_games")
