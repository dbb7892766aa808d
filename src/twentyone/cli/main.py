"""Entry point of the ``twentyone`` command.

Subcommands live in their own modules and are imported only when they run: the analysis and
simulation commands load compiled kernels, which a `twentyone replay` should not wait for.
Register a subcommand with one row in ``SUBCOMMANDS``: a function that imports and returns it,
and its one-line help for the command list.

Every error of every subcommand (``play`` included) reaches the user the same way: one line
on stderr, ``twentyone: error: ...``, and exit status 2 (see :mod:`twentyone.cli.errors`);
the usage text is shown only by ``--help``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import click

from twentyone import __version__
from twentyone.cli.errors import one_line_errors


class Subcommand(NamedTuple):
    """How to load one subcommand, and its line in the command list."""

    load: Callable[[], click.Command]
    help: str


def _analyze() -> click.Command:
    from twentyone.cli.analysis import analyze_command

    return analyze_command


def _dealer() -> click.Command:
    from twentyone.cli.analysis import dealer_command

    return dealer_command


def _exchange() -> click.Command:
    from twentyone.cli.exchange import exchange

    return exchange


def _hand() -> click.Command:
    from twentyone.cli.hand import hand_command

    return hand_command


def _train() -> click.Command:
    from twentyone.cli.train import train_command

    return train_command


def _play() -> click.Command:
    from twentyone.cli.play import play

    return play


def _replay() -> click.Command:
    from twentyone.cli.replay import replay

    return replay


def _rules() -> click.Command:
    from twentyone.cli.rules_command import rules_command

    return rules_command


def _simulate() -> click.Command:
    from twentyone.cli.simulate import simulate

    return simulate


def _strategy() -> click.Command:
    from twentyone.cli.analysis import strategy_command

    return strategy_command


def _admin() -> click.Command:
    from twentyone.cli.admin import admin

    return admin


def _audit() -> click.Command:
    from twentyone.cli.audit import audit

    return audit


def _serve() -> click.Command:
    from twentyone.cli.serve import serve

    return serve


def _verify() -> click.Command:
    from twentyone.cli.verify import verify

    return verify


#: name -> how to load it and its one-line help for the command list.
SUBCOMMANDS: dict[str, Subcommand] = {
    "admin": Subcommand(_admin, "Operator tasks on the server's database (create-operator)."),
    "analyze": Subcommand(_analyze, "Exact analysis: expected return, EV by up card."),
    "audit": Subcommand(_audit, "Check the server's stored ledger: balances, holds, voids."),
    "dealer": Subcommand(_dealer, "Dealer outcome distribution by up card."),
    "exchange": Subcommand(_exchange, "Exchange Blackjack: exact odds of a state."),
    "hand": Subcommand(_hand, "The exact EV of every option of one hand against an up card."),
    "play": Subcommand(_play, "Play in the terminal: casino, online, vinte, exchange."),
    "replay": Subcommand(_replay, "Replay a scenario file and print what happened."),
    "rules": Subcommand(_rules, "The rules of a preset, with its house edge."),
    "serve": Subcommand(_serve, "Run the platform: the HTTP API on SQLite or PostgreSQL."),
    "simulate": Subcommand(_simulate, "Monte Carlo simulation, card counting included."),
    "strategy": Subcommand(_strategy, "The basic strategy chart of a rule set."),
    "train": Subcommand(_train, "Drills: basic strategy (with the EV cost) and counting."),
    "verify": Subcommand(_verify, "Recompute a provably fair round from its revealed record."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use, and whose errors are one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *SUBCOMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in SUBCOMMANDS:
            return SUBCOMMANDS[cmd_name].load()
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name].help) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    # Parsing the group's own arguments and invoking a subcommand (which parses its own) are
    # the two places a usage error can come from; both report it as one line.
    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        with one_line_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with one_line_errors(flush_output=True):
            return super().invoke(ctx)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="twentyone")
def cli() -> None:
    """twentyone: blackjack-family games, exact analysis and simulation."""


def main() -> None:
    cli(prog_name="twentyone")
