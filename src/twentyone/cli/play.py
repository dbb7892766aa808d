"""``twentyone play GAME``: play in the terminal."""

from __future__ import annotations

import importlib

import click

from twentyone.cli.play_house import casino, online


@click.group("play")
def play() -> None:
    """Play a game in the terminal (casino, online, vinte, exchange)."""


play.add_command(casino)
play.add_command(online)

# Games whose terminal tables live in their own modules: (module, command attribute).
for _module_name, _attribute in (
    ("twentyone.cli.play_vinte", "vinte"),
    ("twentyone.cli.play_exchange", "exchange"),
):
    try:
        _module = importlib.import_module(_module_name)
    except ModuleNotFoundError:
        continue
    play.add_command(getattr(_module, _attribute))
