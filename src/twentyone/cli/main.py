"""Entry point of the ``twentyone`` command.

Subcommands live in their own modules and are registered in ``_SUBCOMMANDS`` below;
each module exposes one click command (or group) named in the table.
"""

from __future__ import annotations

import importlib

import click

from twentyone import __version__

# (module under twentyone.cli, attribute): one line per subcommand or group.
_SUBCOMMANDS: list[tuple[str, str]] = [
    ("rules_command", "rules_command"),
    ("replay", "replay"),
    ("play", "play"),
    ("analysis", "dealer_command"),
    ("analysis", "analyze_command"),
    ("analysis", "strategy_command"),
    ("simulate", "simulate"),
    ("exchange", "exchange"),
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="twentyone")
def cli() -> None:
    """twentyone: blackjack-family games, exact analysis and simulation."""


for _module_name, _attribute in _SUBCOMMANDS:
    _module = importlib.import_module(f"twentyone.cli.{_module_name}")
    cli.add_command(getattr(_module, _attribute))


def main() -> None:
    cli(prog_name="twentyone")
