"""The shared rule options (``--preset``, ``--decks``, ...) of every computing subcommand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from twentyone.cli.options import WholeNumber, shown
from twentyone.errors import InvalidRulesError
from twentyone.games import GAMES, house_banked_games
from twentyone.rule_options import RULE_OPTIONS, RuleOption, apply_rule_options
from twentyone.rules import Rules

F = TypeVar("F", bound=Callable[..., Any])


def _click_option(option: RuleOption) -> Callable[[F], F]:
    """One rule option as a click option (its kind as the click parameter type)."""
    if option.kind == "bool":
        return click.option(option.flag, option.name, default=None, help=option.help)
    if option.kind == "int":
        return click.option(option.flag, option.name, type=WholeNumber(), help=option.help)
    if option.kind == "choice":
        kind = click.Choice(list(option.choices))
        return click.option(option.flag, option.name, type=kind, help=option.help)
    return click.option(option.flag, option.name, help=option.help)


_OPTIONS = [
    click.option(
        "--preset",
        "preset_name",
        default="casino",
        show_default=True,
        help=f"Rule preset: {' or '.join(house_banked_games())} (the house-banked games).",
    ),
    *(_click_option(option) for option in RULE_OPTIONS),
]

_RULE_PARAMS = ("preset_name", *(option.name for option in RULE_OPTIONS))


def rule_options(function: F) -> F:
    """Decorate a command with the rule options; it receives ``rules: Rules`` instead.

    Bad values become a :class:`twentyone.errors.InvalidRulesError`, which the command
    should let :func:`twentyone.cli.errors.reports_bad_input` report.
    """
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in _RULE_PARAMS}
        kwargs["rules"] = values
        return function(*args, **kwargs)

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def house_preset(name: str) -> Rules:
    """The rules of ``--preset NAME``, which must be a house-banked game: the dealer, analyze,
    strategy and simulate commands compute a house game and would print numbers for a game
    they do not describe."""
    entry = GAMES.get(name)
    games = " or ".join(house_banked_games())
    if entry is None:
        raise InvalidRulesError(f"--preset must be {games}, got {shown(name)}")
    if not entry.house_banked:
        command = click.get_current_context(silent=True)
        what = f"'{command.info_name}'" if command is not None else "this command"
        raise InvalidRulesError(
            f"--preset {name}: {entry.title} is not a house-banked game; {what} "
            f"describes {games} only"
        )
    return entry.rules


def build_rules(values: dict[str, Any] | Rules) -> Rules:
    """Turn the collected option values into a validated :class:`Rules` (a message names an
    option by its flag)."""
    if isinstance(values, Rules):
        return values
    rules = house_preset(values["preset_name"])
    chosen = {name: value for name, value in values.items() if name != "preset_name"}
    return apply_rule_options(rules, chosen, named=lambda option: option.flag.split("/")[0])
