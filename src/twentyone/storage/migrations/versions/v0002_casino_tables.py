"""Live Casino tables: the tables and their runner state, their shoes (one server seed each),
their rounds and the boxes players bet on.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "casino_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("min_bet", sa.BigInteger(), nullable=False),
        sa.Column("max_bet", sa.BigInteger(), nullable=False),
        sa.Column("betting_seconds", sa.Float(), nullable=False),
        sa.Column("decision_seconds", sa.Float(), nullable=False),
        sa.Column("pause_seconds", sa.Float(), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "status in ('open', 'closing', 'closed')", name=op.f("ck_casino_tables_known_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_casino_tables")),
    )
    op.create_table(
        "casino_shoes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("cut_card", sa.Integer(), nullable=False),
        sa.Column("scripted", sa.Boolean(), nullable=False),
        sa.Column("cards_dealt", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("retired_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["casino_tables.id"], name=op.f("fk_casino_shoes_table_id_casino_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_casino_shoes")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_casino_shoes_table_id_number")),
    )
    op.create_table(
        "casino_rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("shoe_id", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("house_net", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("settled_at", sa.Float(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "state in ('open', 'settled', 'void')", name=op.f("ck_casino_rounds_known_state")
        ),
        sa.ForeignKeyConstraint(
            ["shoe_id"], ["casino_shoes.id"], name=op.f("fk_casino_rounds_shoe_id_casino_shoes")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["casino_tables.id"], name=op.f("fk_casino_rounds_table_id_casino_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_casino_rounds")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_casino_rounds_table_id_number")),
    )
    with op.batch_alter_table("casino_rounds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_casino_rounds_state"), ["state"], unique=False)

    op.create_table(
        "casino_round_boxes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("box", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("bet", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["casino_rounds.id"],
            name=op.f("fk_casino_round_boxes_round_id_casino_rounds"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_casino_round_boxes_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_casino_round_boxes")),
        sa.UniqueConstraint("round_id", "box", name=op.f("uq_casino_round_boxes_round_id_box")),
    )
    with op.batch_alter_table("casino_round_boxes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_casino_round_boxes_user_id_round_id"),
            ["user_id", "round_id"],
            unique=False,
        )


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("casino_round_boxes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_casino_round_boxes_user_id_round_id"))

    op.drop_table("casino_round_boxes")
    with op.batch_alter_table("casino_rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_casino_rounds_state"))

    op.drop_table("casino_rounds")
    op.drop_table("casino_shoes")
    op.drop_table("casino_tables")
