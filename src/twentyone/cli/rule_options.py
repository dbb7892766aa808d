"""The shared rule options (``--preset``, ``--decks``, ...) of every computing subcommand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from twentyone.cli.options import WholeNumber, shown
from twentyone.errors import InvalidRulesError
from twentyone.games import GAMES, house_banked_games
from twentyone.rules import (
    Double,
    EnhcLoses,
    Peek,
    Rules,
    Surrender,
    parse_decks,
    parse_ratio,
    parse_shuffle,
)

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = [
    click.option(
        "--preset",
        "preset_name",
        default="casino",
        show_default=True,
        help=f"Rule preset: {' or '.join(house_banked_games())} (the house-banked games).",
    ),
    click.option("--decks", help="Number of decks, or 'inf' for an infinite shoe."),
    click.option(
        "--s17/--h17",
        "stands_soft_17",
        default=None,
        help="Dealer stands (S17) or hits (H17) soft 17.",
    ),
    click.option(
        "--peek",
        type=click.Choice([p.value for p in Peek]),
        help="Dealer peeks under ace and ten, ace only, or has no hole card.",
    ),
    click.option(
        "--enhc-loses",
        type=click.Choice([e.value for e in EnhcLoses]),
        help="What an unpeeked dealer blackjack takes: all bets or original only.",
    ),
    click.option("--bj-pays", help="Blackjack payout ratio, e.g. 3:2 or 6:5."),
    click.option(
        "--double",
        "double_rule",
        type=click.Choice([d.value for d in Double]),
        help="Which hands may double.",
    ),
    click.option("--das/--no-das", default=None, help="Double after split."),
    click.option("--max-hands", type=WholeNumber(), help="Most hands one box can split into."),
    click.option("--resplit-aces/--no-resplit-aces", default=None, help="Resplit aces."),
    click.option("--hit-split-aces/--no-hit-split-aces", default=None, help="Hit split aces."),
    click.option(
        "--surrender",
        type=click.Choice([s.value for s in Surrender]),
        help="Surrender: none, late or early.",
    ),
    click.option("--shuffle", help="round, continuous or cut:FRACTION (e.g. cut:0.75)."),
]

_RULE_PARAMS = (
    "preset_name",
    "decks",
    "stands_soft_17",
    "peek",
    "enhc_loses",
    "bj_pays",
    "double_rule",
    "das",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
    "surrender",
    "shuffle",
)


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
    """Turn the collected option values into a validated :class:`Rules`."""
    if isinstance(values, Rules):
        return values
    rules = house_preset(values["preset_name"])
    changes: dict[str, Any] = {}
    if values["decks"] is not None:
        changes["decks"] = parse_decks(values["decks"])
    if values["stands_soft_17"] is not None:
        changes["dealer_hits_soft_17"] = not values["stands_soft_17"]
    if values["peek"] is not None:
        changes["peek"] = Peek(values["peek"])
    if values["enhc_loses"] is not None:
        changes["enhc_loses"] = EnhcLoses(values["enhc_loses"])
    if values["bj_pays"] is not None:
        changes["blackjack_pays"] = parse_ratio(values["bj_pays"])
    if values["double_rule"] is not None:
        changes["double"] = Double(values["double_rule"])
    if values["das"] is not None:
        changes["double_after_split"] = values["das"]
    if values["max_hands"] is not None:
        changes["max_hands"] = values["max_hands"]
    for name in ("resplit_aces", "hit_split_aces"):
        if values[name] is not None:
            changes[name] = values[name]
    if values["surrender"] is not None:
        changes["surrender"] = Surrender(values["surrender"])
    if values["shuffle"] is not None:
        changes.update(parse_shuffle(values["shuffle"]))
    return rules.replace(**changes)
