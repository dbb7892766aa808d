"""``twentyone dealer``, ``twentyone analyze`` and ``twentyone strategy``: the exact analysis."""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from typing import TYPE_CHECKING, Any

import click

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.progress import compile_notice, working
from twentyone.cli.rule_options import build_rules, rule_options
from twentyone.cli.simulate import CLUSTER_HELP, cluster_address

if TYPE_CHECKING:
    from twentyone.rules import Rules
    from twentyone.strategy_chart import StrategyChart

_JSON_HELP = "Print one JSON object."


@click.command("dealer")
@rule_options
@click.option("--no-blackjack", is_flag=True, help="Condition on the dealer not having blackjack.")
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def dealer_command(rules: dict[str, Any], no_blackjack: bool, as_json: bool) -> None:
    """The dealer's final results by up card (only the up card removed from the shoe)."""
    from twentyone.analysis.dealer import OUTCOMES, dealer_distributions

    game = build_rules(rules)
    with working("computing the dealer's outcomes..."):
        table = dealer_distributions(game, no_blackjack=no_blackjack)
    if as_json:
        click.echo(json.dumps({"rules": game.to_json(), "upcards": table}))
        return
    click.echo("up  " + " ".join(name.rjust(9) for name in OUTCOMES))
    for up, results in table.items():
        click.echo(f"{up:<3} " + " ".join(f"{results[name]:9.6f}" for name in OUTCOMES))


@click.command("analyze")
@rule_options
@click.option(
    "--exact", is_flag=True, help="Also give the EV as an exact fraction (infinite shoe only)."
)
@click.option(
    "--split-strategy",
    "split_strategy",
    default="cdz-",
    show_default=True,
    help="How split hands are played: cdz- (as outside a split), cdp1 (re-optimised for the "
    "shoe after the split). The same on an infinite shoe.",
)
@click.option(
    "--grid",
    "grid_file",
    metavar="FILE",
    help="Analyze every rule set of FILE (a JSON list of objects of rule options, e.g. "
    '[{"preset": "casino", "decks": 2, "s17": false}]), one row each.',
)
@click.option("--cluster", metavar="ADDRESS", help=f"With --grid: {CLUSTER_HELP}")
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def analyze_command(
    rules: dict[str, Any],
    exact: bool,
    split_strategy: str,
    grid_file: str | None,
    cluster: str | None,
    as_json: bool,
) -> None:
    """Exact analysis: EV under optimal play, by up card, and under basic strategy."""
    from twentyone.analysis.house_edge import analyze

    if grid_file is not None:
        _analyze_grid(grid_file, cluster, exact, split_strategy, as_json)
        return
    if cluster is not None:
        raise UserInputError("--cluster runs a batch of rule sets: give them with --grid FILE")
    game = build_rules(rules)
    started = time.perf_counter()
    with working("computing the exact analysis..."):
        result = analyze(game, split_strategy)
        fraction = None
        if exact:  # its module is imported only when asked for (start-up time)
            from twentyone.analysis.exact import exact_expected_return

            fraction = exact_expected_return(game)
    seconds = time.perf_counter() - started
    if as_json:
        out = result.to_json()
        out["seconds"] = seconds
        if fraction is not None:
            out["ev_exact"] = f"{fraction.numerator}/{fraction.denominator}"
        click.echo(json.dumps(out))
        return
    click.echo(
        f"EV, optimal composition-dependent play: {result.ev:+.6%} ({split_strategy} splits)"
    )
    # Text shows EVs one way, in percent with a sign; the exact fraction only when asked (--exact).
    if fraction is not None:
        click.echo(f"  exactly {fraction.numerator}/{fraction.denominator} (--exact)")
    click.echo(f"EV, basic strategy:                     {result.basic_strategy_ev:+.6%}")
    if result.insurance_ev is not None:
        click.echo(f"EV of insurance (per unit insured):     {result.insurance_ev:+.6%}")
    click.echo("EV by up card (dealer blackjack included):")
    for up, value in result.ev_by_upcard.items():
        click.echo(f"  {up}: {value:+.4%}")
    click.echo(f"({seconds:.3f} s)")


def _grid_rule_sets(path: str) -> list[Rules]:
    """The rule sets of a grid file: a JSON list of objects of rule options (the names of
    ``analyze``'s options without dashes: ``decks``, ``s17``, ``bj_pays`` ...; ``preset``
    is the rule set they change, casino unless given). Every one is checked before any is
    analyzed; a bad one is a :class:`UserInputError` naming the file and the rule set."""
    from twentyone.analysis.grid import MAX_GRID_ROWS
    from twentyone.errors import InvalidRulesError, shown
    from twentyone.games import GAMES, house_banked_games
    from twentyone.jsonio import read_json
    from twentyone.rule_options import apply_rule_options

    what = f"grid file {path!r}"
    data = read_json(path, what)
    if not isinstance(data, list) or not data:
        raise UserInputError(f"{what} must be a non-empty JSON list of rule sets")
    if len(data) > MAX_GRID_ROWS:
        raise UserInputError(
            f"{what} has {len(data):,} rule sets, more than the limit of {MAX_GRID_ROWS:,}"
        )
    presets = " or ".join(house_banked_games())
    rule_sets = []
    for number, entry in enumerate(data, 1):
        where = f"{what}, rule set {number}"
        if not isinstance(entry, dict):
            raise UserInputError(f"{where} must be an object of rule options, got {shown(entry)}")
        options = dict(entry)
        name = options.pop("preset", "casino")
        game = GAMES.get(name) if isinstance(name, str) else None
        if game is None or not game.house_banked:
            raise UserInputError(f"{where}: preset must be {presets}, got {shown(name)}")
        try:
            rule_sets.append(apply_rule_options(game.rules, options))
        except InvalidRulesError as error:
            raise UserInputError(f"{where}: {error}") from None
    return rule_sets


def _no_rule_options_given() -> bool:
    """Whether the command line left every rule option at its default (a grid brings its own)."""
    from click.core import ParameterSource

    from twentyone.cli.rule_options import _RULE_PARAMS

    context = click.get_current_context()
    return all(
        context.get_parameter_source(name) in (None, ParameterSource.DEFAULT)
        for name in _RULE_PARAMS
    )


def _analyze_grid(
    path: str, cluster: str | None, exact: bool, split_strategy: str, as_json: bool
) -> None:
    """``analyze --grid FILE [--cluster ADDRESS]``: one row per rule set."""
    from twentyone.analysis.engine import check_convention
    from twentyone.analysis.grid import analyze_grid, check_grid

    if not _no_rule_options_given():
        raise UserInputError(
            "--grid takes its rule sets from the file: give no rule options (--preset, "
            "--decks, ...) with it"
        )
    check_convention(split_strategy)
    where = None if cluster is None else cluster_address(cluster)
    rule_sets = _grid_rule_sets(path)
    check_grid(rule_sets, split_strategy, exact)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        client = None
        if where is not None:
            from twentyone.simulation.cluster import connect

            client = stack.enter_context(connect(where))
        else:
            # The analysis's kernels compile here, the first time only: say so.
            import twentyone.analysis.house_edge  # noqa: F401 (loads numba for the notice)

            stack.enter_context(compile_notice())
        advance = _grid_progress(stack, len(rule_sets))
        rows = analyze_grid(rule_sets, split_strategy, exact, client, advance)
    seconds = time.perf_counter() - started
    if as_json:
        out: dict[str, Any] = {"split_strategy": split_strategy, "rows": rows, "seconds": seconds}
        if where is not None:
            out["cluster"] = str(where)
        click.echo(json.dumps(out))
        return
    _print_grid(rule_sets, rows, split_strategy, seconds, where)


def _grid_progress(stack: contextlib.ExitStack, total: int) -> Any:
    """A progress bar of the rows on stderr when it is a terminal (None elsewhere)."""
    import sys

    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("analyzing"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} rule sets"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    stack.enter_context(progress)
    task = progress.add_task("grid", total=total)
    return lambda: progress.advance(task)


def _print_grid(
    rule_sets: list[Rules], rows: list[dict[str, Any]], split: str, seconds: float, where: Any
) -> None:
    """One line per rule set: its EVs, then the rules in words."""
    from twentyone.cli.chart_render import rules_summary

    echo = click.echo
    echo(f"{'#':>3}  {'EV optimal':>11}  {'EV basic':>10}  {'insurance':>10}  rules")
    for number, (rules, row) in enumerate(zip(rule_sets, rows, strict=True), 1):
        insurance = row["insurance_ev"]
        shown_insurance = "-" if insurance is None else f"{insurance:+.4%}"
        echo(
            f"{number:>3}  {row['ev']:>+11.6%}  {row['basic_strategy_ev']:>+10.4%}  "
            f"{shown_insurance:>10}  {rules_summary(rules)}"
        )
        if "ev_exact" in row:
            echo(f"{'':>3}  exactly {row['ev_exact']}")
    on = f" on {where}" if where is not None else ""
    echo(f"({len(rows)} rule sets, {split} splits, {seconds:.3f} s{on})")


@click.command("strategy")
@rule_options
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    help="Also write the chart as an SVG picture (a printed strategy card) to FILE.",
)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@reports_bad_input
def strategy_command(rules: dict[str, Any], svg_path: str | None, as_json: bool) -> None:
    """The total-dependent basic strategy chart (hard, soft, pairs by up card).

    In a terminal the chart is in colour, with a legend; elsewhere the same chart is plain text.
    """
    from twentyone.analysis.strategy import basic_strategy_analysis

    game = build_rules(rules)
    if svg_path is not None:
        _check_writable(svg_path)
    with working("computing the basic strategy..."):
        result = basic_strategy_analysis(game)
    footer = f"EV playing this chart: {result.ev:+.6%}"
    if svg_path is not None:
        from twentyone.cli.chart_render import chart_svg, rules_summary

        picture = chart_svg(result.chart, rules_summary(game), footer)
        try:
            with open(svg_path, "w", encoding="utf-8") as file:
                file.write(picture)
        except OSError as error:
            raise UserInputError(f"--svg {svg_path}: {error.strerror or error}") from None
    if as_json:
        chart = result.chart.to_json()
        out = {"rules": game.to_json(), "chart": chart, "basic_strategy_ev": result.ev}
        click.echo(json.dumps(out))
        return
    _print_chart(result.chart, game, footer)


def _check_writable(path: str) -> None:
    """Refuse, before the computation, a path the picture could not be written to."""
    if not path or "\x00" in path:
        raise UserInputError(f"--svg {path!r}: not a file name")
    if os.path.isdir(path):
        raise UserInputError(f"--svg {path}: is a folder, not a file")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UserInputError(f"--svg {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UserInputError(f"--svg {path}: not writable")


def _print_chart(chart: StrategyChart, game: Rules, footer: str) -> None:
    """The chart in colour on a terminal, as plain text (no colour codes) elsewhere."""
    import sys

    from rich.console import Console

    from twentyone.cli.chart_render import rules_summary, terminal_chart

    picture = terminal_chart(chart, rules_summary(game), footer)
    if sys.stdout.isatty():
        Console(file=sys.stdout, highlight=False).print(picture)
        return
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None, highlight=False).print(picture)
    # ASCII rules under the headers: a pipe or a file gets plain text.
    text = buffer.getvalue().replace("\u2500", "-")
    click.echo("\n".join(line.rstrip() for line in text.splitlines()))
