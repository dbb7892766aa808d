"""``twentyone admin``: operator tasks run on the server's database directly.

``twentyone admin create-operator NAME``: make the account NAME an operator (it is opened,
with a password asked for, if it does not exist). Recorded as an operator action.
"""

from __future__ import annotations

import asyncio
import sys

import click

from twentyone.cli.errors import UserInputError
from twentyone.storage.db import DEFAULT_URL, StorageError, async_url


async def _create_operator(db_url: str, name: str, password: str | None) -> str:
    from sqlalchemy import select

    from twentyone.server.app import check_password, open_player
    from twentyone.server.config import ServerConfig
    from twentyone.server.context import Server, name_key
    from twentyone.server.errors import ApiError
    from twentyone.storage.models import OperatorAction, User

    server = Server(ServerConfig(db_url=db_url, recover_at_start=False))
    try:
        await server.start()
        async with server.write() as session:
            user = await session.scalar(select(User).where(User.name_key == name_key(name)))
            if user is None:
                if password is None:
                    raise UserInputError(
                        f"there is no account {name!r}: give a password to open it"
                    )
                try:
                    check_password(password)
                    hashed = server.config.hasher.hash(password)
                    user = await open_player(session, server, name, hashed, role="operator")
                except ApiError as error:
                    raise UserInputError(error.message) from None
                done = f"opened the operator account {user.name}"
            else:
                user.role = "operator"
                done = f"{user.name} is now an operator"
            session.add(
                OperatorAction(
                    operator_id=None,
                    at=server.now(),
                    action="create-operator",
                    target=f"account:{user.name}",
                    details={"by": "twentyone admin create-operator"},
                )
            )
        return done
    finally:
        await server.stop()


@click.group("admin")
def admin() -> None:
    """Operator tasks on the server's database."""


@admin.command("create-operator")
@click.argument("name")
@click.option("--db", "db_url", default=DEFAULT_URL, show_default=True, help="Database URL.")
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password of a new account from standard input (else it is asked for).",
)
def create_operator(name: str, db_url: str, password_stdin: bool) -> None:
    """Make the account NAME an operator, opening it if it does not exist."""
    try:
        async_url(db_url)
    except StorageError as error:
        raise UserInputError(str(error)) from None
    password: str | None
    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    elif sys.stdin.isatty():
        password = (
            click.prompt(
                "Password (only used if the account is new)",
                hide_input=True,
                confirmation_prompt=True,
                default="",
                show_default=False,
            )
            or None
        )
    else:
        password = None
    click.echo(asyncio.run(_create_operator(db_url, name, password)))
