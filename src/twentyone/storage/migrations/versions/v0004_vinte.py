"""Live Vinte-e-um tables: the tables (settings, seats, the match's engine state) and their
rounds (one server seed each, the deck and its committed position hashes, the record).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "vinte_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("invite", sa.String(length=64), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "status in ('waiting', 'playing', 'over', 'void', 'closed')",
            name=op.f("ck_vinte_tables_known_status"),
        ),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["users.id"], name=op.f("fk_vinte_tables_creator_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vinte_tables")),
    )
    with op.batch_alter_table("vinte_tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vinte_tables_status"), ["status"], unique=False)

    op.create_table(
        "vinte_rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("hashes", sa.JSON(), nullable=False),
        sa.Column("scripted", sa.Boolean(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("settled_at", sa.Float(), nullable=True),
        sa.CheckConstraint(
            "state in ('open', 'settled', 'void')", name=op.f("ck_vinte_rounds_known_state")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["vinte_tables.id"], name=op.f("fk_vinte_rounds_table_id_vinte_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vinte_rounds")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_vinte_rounds_table_id_number")),
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("vinte_rounds")
    with op.batch_alter_table("vinte_tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_vinte_tables_status"))

    op.drop_table("vinte_tables")
