"""``twentyone serve [--host H] [--port P] [--db URL]``: the platform under uvicorn.

Why uvicorn: the reference ASGI server of the FastAPI/Starlette stack, kept by the same
community (encode), with a plain ``uvicorn.run`` for one process; several processes on
PostgreSQL are several ``twentyone serve`` behind a proxy (``docs/server.md``).
"""

from __future__ import annotations

import click

from twentyone.cli.errors import UserInputError
from twentyone.storage.db import DEFAULT_URL, StorageError, async_url


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db_url",
    default=DEFAULT_URL,
    show_default=True,
    help="Database URL: sqlite:///FILE or postgresql://HOST/DB.",
)
@click.option("--secure-cookies", is_flag=True, help="Mark session cookies Secure (behind HTTPS).")
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
def serve(host: str, port: int, db_url: str, secure_cookies: bool, log_level: str) -> None:
    """Run the platform: the lobby and the HTTP API (OpenAPI at /docs).

    The database is migrated at start-up, and every round left open by a stop or a crash is
    loaded again (one that cannot be replayed is voided and refunded).
    """
    try:
        async_url(db_url)
    except StorageError as error:
        raise UserInputError(str(error)) from None
    import uvicorn

    from twentyone.server.app import create_app
    from twentyone.server.config import ServerConfig

    app = create_app(ServerConfig(db_url=db_url, secure_cookies=secure_cookies))
    click.echo(f"twentyone: serving on http://{host}:{port} (database {db_url})", err=True)
    # No per-message deflate: frames are small JSON, and compressing each table frame once per
    # socket undid encoding it once for all (the largest cost in bench/casino_table.py's profile).
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        ws_per_message_deflate=False,
    )
