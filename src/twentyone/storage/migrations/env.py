"""Alembic environment: migrations run on the connection the server hands over.

``twentyone.storage.db.migrate`` runs them at start-up; for autogenerate during development:
``alembic -c src/twentyone/storage/alembic.ini revision --autogenerate -m "..."`` with
``TWENTYONE_DB`` naming a database at the current head.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from twentyone.storage.models import Base

config = context.config
connection = config.attributes.get("connection")


def _run(conn: object) -> None:
    context.configure(
        connection=conn,  # type: ignore[arg-type]
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # the alembic command line, on a synchronous URL
    engine = create_engine(os.environ.get("TWENTYONE_DB", "sqlite:///twentyone.db"))
    with engine.begin() as conn:
        _run(conn)
