"""``twentyone audit [--db URL] [--json]``: the operator's check of the stored ledger.

Every account's balance is recomputed from the transfers; the balances (with the house's and
the hold accounts) must sum to zero. Lists open rounds and voids. Exit status 1 when the
ledger does not balance, 2 for bad input.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import click

from twentyone.cli.errors import UserInputError
from twentyone.storage.db import DEFAULT_URL, StorageError, async_url

NOT_BALANCED = 1


async def _audit(db_url: str) -> dict[str, Any]:
    from twentyone.storage import ledger
    from twentyone.storage.db import make_engine, migrate, session_maker

    engine = make_engine(db_url)
    try:
        await migrate(engine)
        async with session_maker(engine)() as session, session.begin():
            return await ledger.audit(session)
    finally:
        await engine.dispose()


@click.command("audit")
@click.option("--db", "db_url", default=DEFAULT_URL, show_default=True, help="Database URL.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def audit(db_url: str, as_json: bool) -> None:
    """Check the server's ledger: balances and holds sum to zero, open rounds, voids."""
    try:
        async_url(db_url)
    except StorageError as error:
        raise UserInputError(str(error)) from None
    try:
        out = asyncio.run(_audit(db_url))
    except OSError as error:
        raise UserInputError(f"cannot open the database {db_url}: {error}") from None
    if as_json:
        click.echo(json.dumps(out))
    else:
        for account in out["accounts"]:
            click.echo(f"{account['account']:<40} {account['kind']:<9} {account['balance']:>14}")
        click.echo(
            f"sum of all balances: {out['total']} (held by open rounds: {out['held']},"
            f" by open exchange markets: {out.get('exchange_held', 0)})"
        )
        click.echo(f"open rounds: {len(out['open_rounds'])}; voids: {len(out['voids'])}")
        for void in out["voids"]:
            click.echo(f"  void round {void['id']}: {void['reason']}")
        for problem in out["problems"]:
            click.echo(f"PROBLEM: {problem}")
        click.echo("the ledger balances" if out["balanced"] else "THE LEDGER DOES NOT BALANCE")
    if not out["balanced"]:
        sys.exit(NOT_BALANCED)
