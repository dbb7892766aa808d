"""``twentyone play GAME``: play in the terminal.

Each game's command is a thin client of its table runner (:mod:`twentyone.tables`): it reads
the player's input and prints what he may see; dealing, bots, clocks and money are the
runner's. Every game ends the same way (``q``, the end of input or Ctrl-C: the session's
summary, exit status 0).

The games are registered explicitly in ``GAMES`` and each is imported only when it is played:
the exchange loads the odds (compiled kernels), which a game of Casino should not wait for.
"""

from __future__ import annotations

from collections.abc import Callable

import click


def _casino() -> click.Command:
    from twentyone.cli.play_house import casino

    return casino


def _online() -> click.Command:
    from twentyone.cli.play_house import online

    return online


def _vinte() -> click.Command:
    from twentyone.cli.play_vinte import vinte

    return vinte


def _exchange() -> click.Command:
    from twentyone.cli.play_exchange import exchange

    return exchange


#: game -> the function that imports its command.
GAMES: dict[str, Callable[[], click.Command]] = {
    "casino": _casino,
    "online": _online,
    "vinte": _vinte,
    "exchange": _exchange,
}


class PlayGroup(click.Group):
    """The games, each imported on first use (``--help`` imports them all, to list them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(GAMES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        load = GAMES.get(cmd_name)
        return None if load is None else load()


@click.group("play", cls=PlayGroup)
def play() -> None:
    """Play a game in the terminal (casino, online, vinte, exchange)."""
