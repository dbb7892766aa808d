"""Storage: the SQLAlchemy models, the Alembic migrations and the persistent ledger.

SQLite (a file in the working folder) by default, PostgreSQL by URL: see
:mod:`twentyone.storage.db`.
"""
