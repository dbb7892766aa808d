"""Fuzzing every option of every command (``play`` has its own fuzz test of its prompts).

Hypothesis feeds hostile values (huge and tiny numbers, NaN, inf, digits of other scripts,
separators, very long strings, nested JSON) to every option, argument and standard input of
``dealer``, ``analyze``, ``strategy``, ``simulate``, ``rules``, ``replay`` and ``exchange odds``,
in process (click's CliRunner), and checks the contract: exit 0, or exit 2 with exactly one
line on stderr, and never a traceback.

The computations themselves (the exact analysis, the simulation, the Exchange odds) are
replaced by a stub that stops the command once its input is accepted: what is fuzzed is
everything between the command line and the library, which is where bad input must stop.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentyone.cli.main import SUBCOMMANDS, cli

#: The commands fuzzed here, as paths of subcommands.
COMMANDS = [
    ("dealer",),
    ("analyze",),
    ("strategy",),
    ("simulate",),
    ("rules",),
    ("replay",),
    ("exchange", "odds"),
]

HOSTILE_TEXT = [
    "", " ", "-", "-1", "0", "1", "2", "7", "8", "17", "999", "nan", "NaN", "-nan", "inf",
    "-inf", "Infinity", "1e400", "1e-400", "1e999999999", "9" * 30, "-" + "9" * 30,
    "9" * 5000, "١٢", "٢.٥", "1_000", "0x10", "1,5", "1,000.00", "1.5", "0.5", "-0.0", "+3",
    "3:2", "6:5", "0:1", "1:0", "3:-2", "99999:1", "cut", "cut:", "cut:1.5", "cut:0.75",
    "cut:3/4", "cut:1e999999999", "round", "continuous", "ace", "ace-ten", "none", "all",
    "late", "early", "any", "9-11", "hi-lo", "ko", "nope", "1:2,2:4", "a:b", "1:2,1:4",
    "true", "null", "{}", "[]", "\x00", "\n", "line\nbreak", "é", "a" * 5000, "casino",
    "online", "vinte", "exchange", "cd", "chart", "cdz-", "cdp1", "--json", "-h",
]  # fmt: skip

CARDS = ["TS", "6H", "AD", "9C", "KH", "2S", "7D", "5C", "AS", "QD", "10H", "1S", "ZZ", "ts"]


class Reached(Exception):
    """The command accepted its input and was about to compute."""


def _stop(*args: Any, **kwargs: Any) -> Any:
    raise Reached


def _stub_computations(monkeypatch: pytest.MonkeyPatch) -> None:
    import twentyone.analysis.dealer as dealer
    import twentyone.analysis.exact as exact
    import twentyone.analysis.exchange.solver as exchange_solver
    import twentyone.analysis.grid as grid
    import twentyone.analysis.house_edge as house_edge
    import twentyone.analysis.strategy as strategy
    import twentyone.cli.exchange as exchange_command
    import twentyone.simulation.cd as cd
    import twentyone.simulation.cluster as cluster
    import twentyone.simulation.runner as runner

    for module, name in [
        (dealer, "dealer_distributions"),
        (exact, "exact_expected_return"),
        (house_edge, "analyze"),
        (house_edge, "expected_return"),
        (house_edge, "basic_strategy_ev"),
        (strategy, "basic_strategy"),
        (strategy, "basic_strategy_analysis"),
        (exchange_solver, "overall_ev"),
        (exchange_command, "exchange_odds"),
        (cd, "cd_strategy"),
        (runner, "simulate"),
        # A fuzzed `--cluster local:N` must never start a real cluster.
        (cluster, "simulate_on_cluster"),
        (grid, "analyze_grid"),
    ]:
        monkeypatch.setattr(module, name, _stop)


def _files(folder: Path) -> list[str]:
    from twentyone.analysis.strategy import basic_strategy
    from twentyone.presets import CASINO

    chart = basic_strategy(CASINO).to_json()
    contents: dict[str, str | bytes] = {
        "chart.json": json.dumps(chart),
        "strategy-output.json": json.dumps({"rules": {}, "chart": chart, "basic_strategy_ev": 0}),
        "broken-chart.json": json.dumps({"hard": [1, 2], "soft": {}, "pairs": None}),
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "binary.json": b"\xff\xfe\x00",
        "list.json": "[1, 2, 3]",
        "empty.json": "",
        "count.json": json.dumps({"tags": {"2": 1, "A": -1}}),
        "spec-example.json": (Path(__file__).parent.parent / "scenarios" / "casino_example_from_spec.json").read_text(),
    }  # fmt: skip
    paths = []
    for name, content in contents.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        paths.append(str(path))
    return [*paths, str(folder), str(folder / "missing.json")]


def _command(path: tuple[str, ...]) -> click.Command:
    command = SUBCOMMANDS[path[0]].load()
    for name in path[1:]:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None
        command = found
    return command


def _json_values() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.sampled_from(CARDS),
    )
    return st.recursive(
        leaves,
        lambda children: (
            st.lists(children, max_size=5)
            | st.dictionaries(st.text(max_size=8), children, max_size=5)
        ),
        max_leaves=20,
    )


def _scenarios() -> st.SearchStrategy[Any]:
    card_lists = st.lists(st.sampled_from(CARDS), max_size=14)
    return st.one_of(
        _json_values(),
        st.fixed_dictionaries(
            {
                "game": st.sampled_from(["casino", "online", "exchange", "vinte", "x", 1]),
                "cards": card_lists,
            },
            optional={
                "boxes": st.lists(
                    st.fixed_dictionaries(
                        {"bet": st.one_of(st.integers(-10, 10**7), _json_values())}
                    ),
                    max_size=8,
                ),
                "decisions": st.lists(
                    st.sampled_from(
                        [
                            "hit",
                            "stand",
                            "double",
                            "split",
                            "surrender",
                            "no-insurance",
                            "insurance 250",
                            "insurance 1e400",
                            "insurance -1",
                            "no-surrender",
                            "x",
                        ]
                    ),
                    max_size=6,
                ),
                "rules": st.dictionaries(
                    st.sampled_from(
                        ["decks", "max_hands", "peek", "blackjack_pays", "shuffle", "x"]
                    ),
                    _json_values() | st.sampled_from(HOSTILE_TEXT),
                    max_size=3,
                ),
                "table": _json_values(),
                "rounds": _json_values(),
            },
        ),
        st.fixed_dictionaries(
            {
                "players": st.lists(card_lists, max_size=5),
                "dealer": card_lists,
                "played": st.one_of(st.booleans(), _json_values()),
            }
        ),
    )


def _values(files: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.sampled_from(files),
        st.text(max_size=20),
        st.integers(-(2**80), 2**80).map(str),
        st.floats().map(repr),
        st.decimals(allow_nan=True).map(str),
    )


@st.composite
def _invocations(draw: st.DrawFn, files: list[str]) -> tuple[list[str], str | None]:
    path = draw(st.sampled_from(COMMANDS))
    command = _command(path)
    args = list(path)
    options = [p for p in command.params if isinstance(p, click.Option)]
    chosen = draw(st.lists(st.sampled_from(options), max_size=4, unique_by=lambda p: p.name))
    for option in chosen:
        name = draw(st.sampled_from(option.opts + option.secondary_opts))
        args.append(name)
        if not option.is_flag:
            args.append(draw(_values(files)))
    stdin = None
    for argument in (p for p in command.params if isinstance(p, click.Argument)):
        if argument.required or draw(st.booleans()):
            value = draw(st.one_of(st.just("-"), _values(files)))
            args.append(value)
            if value == "-":
                stdin = json.dumps(draw(_scenarios()))
    return args, stdin


def test_every_option_of_every_command_keeps_the_contract(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    files = _files(tmp_path)
    _stub_computations(monkeypatch)
    runner = CliRunner()

    @settings(
        max_examples=250,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
    )
    @given(_invocations(files))
    def check(invocation: tuple[list[str], str | None]) -> None:
        args, stdin = invocation
        result = runner.invoke(cli, args, input=stdin)
        if isinstance(result.exception, Reached):
            return  # accepted: the computation would have run
        where = (args, stdin, result.stdout[-300:], result.stderr)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            where,
            result.exc_info,
        )
        assert result.exit_code in (0, 2), where
        assert "Traceback" not in result.stdout + result.stderr, where
        if result.exit_code == 2:
            assert result.stderr.startswith("twentyone: error: "), where
            assert result.stderr.count("\n") == 1, where

    check()
