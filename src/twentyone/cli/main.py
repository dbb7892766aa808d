"""Entry point of the ``twentyone`` command.

Subcommands live in their own modules and are imported only when they run: the analysis and
simulation commands load compiled kernels, which a `twentyone replay` should not wait for.
Register a subcommand with one line in ``SUBCOMMANDS``.
"""

from __future__ import annotations

import importlib

import click

from twentyone import __version__

#: name -> (module under twentyone.cli, attribute, one-line help for the command list).
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "analyze": ("analysis", "analyze_command", "Exact analysis: expected return, EV by up card."),
    "dealer": ("analysis", "dealer_command", "Dealer outcome distribution by up card."),
    "exchange": ("exchange", "exchange", "Exchange Blackjack: exact odds of a state."),
    "play": ("play", "play", "Play in the terminal: casino, online, vinte, exchange."),
    "replay": ("replay", "replay", "Replay a scenario file and print what happened."),
    "rules": ("rules_command", "rules_command", "The rules of a preset, with its house edge."),
    "simulate": ("simulate", "simulate", "Monte Carlo simulation, card counting included."),
    "strategy": ("analysis", "strategy_command", "The basic strategy chart of a rule set."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in SUBCOMMANDS:
            module_name, attribute, _ = SUBCOMMANDS[cmd_name]
            module = importlib.import_module(f"twentyone.cli.{module_name}")
            command: click.Command = getattr(module, attribute)
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][2]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="twentyone")
def cli() -> None:
    """twentyone: blackjack-family games, exact analysis and simulation."""


def main() -> None:
    cli(prog_name="twentyone")
