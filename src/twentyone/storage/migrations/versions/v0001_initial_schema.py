"""The initial schema: accounts, the ledger, fairness seeds, rounds and their events, tables,
operator actions.

Revision ID: 0001
Revises: (none)
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "kind in ('customer', 'house', 'hold', 'external')",
            name=op.f("ck_ledger_accounts_known_kind"),
        ),
        sa.CheckConstraint(
            "kind not in ('customer', 'hold') or balance >= 0",
            name=op.f("ck_ledger_accounts_not_negative"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_accounts")),
    )
    op.create_table(
        "table_configs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("preset", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("min_bet", sa.BigInteger(), nullable=False),
        sa.Column("max_bet", sa.BigInteger(), nullable=False),
        sa.Column("decision_seconds", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_configs")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("nonce", sa.Integer(), nullable=False),
        sa.Column("last_topup_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.CheckConstraint("role in ('player', 'operator')", name=op.f("ck_users_known_role")),
        sa.ForeignKeyConstraint(
            ["account_id"], ["ledger_accounts.id"], name=op.f("fk_users_account_id_ledger_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("account_id", name=op.f("uq_users_account_id")),
        sa.UniqueConstraint("name_key", name=op.f("uq_users_name_key")),
    )
    op.create_table(
        "auth_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_auth_tokens_user_id_users")
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_auth_tokens")),
    )
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auth_tokens_user_id"), ["user_id"], unique=False)

    op.create_table(
        "fairness_seeds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_fairness_seeds_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fairness_seeds")),
    )
    with op.batch_alter_table("fairness_seeds", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_fairness_seeds_user_id_used_at"), ["user_id", "used_at"], unique=False
        )

    op.create_table(
        "operator_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("operator_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target", sa.String(length=128), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["users.id"], name=op.f("fk_operator_actions_operator_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_actions")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("bet", sa.BigInteger(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed_id", sa.Integer(), nullable=False),
        sa.Column("client_seed", sa.String(length=64), nullable=False),
        sa.Column("nonce", sa.Integer(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("settled_at", sa.Float(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "state in ('open', 'settled', 'void')", name=op.f("ck_rounds_known_state")
        ),
        sa.ForeignKeyConstraint(
            ["seed_id"], ["fairness_seeds.id"], name=op.f("fk_rounds_seed_id_fairness_seeds")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["table_configs.id"], name=op.f("fk_rounds_table_id_table_configs")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rounds_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("seed_id", name=op.f("uq_rounds_seed_id")),
    )
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rounds_state"), ["state"], unique=False)
        batch_op.create_index(batch_op.f("ix_rounds_user_id_id"), ["user_id", "id"], unique=False)

    op.create_table(
        "round_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_round_events_round_id_rounds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_events")),
        sa.UniqueConstraint("round_id", "seq", name=op.f("uq_round_events_round_id_seq")),
    )
    op.create_table(
        "transfers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("debit", sa.String(length=64), nullable=False),
        sa.Column("credit", sa.String(length=64), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=64), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_transfers_positive")),
        sa.CheckConstraint("debit <> credit", name=op.f("ck_transfers_two_accounts")),
        sa.ForeignKeyConstraint(
            ["credit"], ["ledger_accounts.id"], name=op.f("fk_transfers_credit_ledger_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["debit"], ["ledger_accounts.id"], name=op.f("fk_transfers_debit_ledger_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_transfers_round_id_rounds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfers")),
    )
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfers_credit_id"), ["credit", "id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_debit_id"), ["debit", "id"], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfers_debit_id"))
        batch_op.drop_index(batch_op.f("ix_transfers_credit_id"))

    op.drop_table("transfers")
    op.drop_table("round_events")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rounds_user_id_id"))
        batch_op.drop_index(batch_op.f("ix_rounds_state"))

    op.drop_table("rounds")
    op.drop_table("operator_actions")
    with op.batch_alter_table("fairness_seeds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_fairness_seeds_user_id_used_at"))

    op.drop_table("fairness_seeds")
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_auth_tokens_user_id"))

    op.drop_table("auth_tokens")
    op.drop_table("users")
    op.drop_table("table_configs")
    op.drop_table("ledger_accounts")
