"""The command-line contract for bad input: exit status 2, exactly one line on stderr
(``twentyone: error: ...``), no traceback, no usage text (that is what ``--help`` is for)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from twentyone.cli.main import SUBCOMMANDS, cli
from twentyone.cli.options import MAX_SEED, SEED

TESTS = Path(__file__).parent.parent
SPEC_EXAMPLE = TESTS / "scenarios" / "casino_example_from_spec.json"


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, (code, out, err)
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    assert "Usage:" not in err and "Try " not in err and "Traceback" not in err + out, err
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("dealer", "--peek", "sometimes"), ("--peek", "sometimes")),
        (("simulate", "--rounds", "abc"), ("--rounds", "abc")),
        (("fly",), ("No such command", "fly")),
        (("replay",), ("FILE",)),
        (("exchange", "odds"), ("STATE",)),
        (("exchange", "guess"), ("guess",)),
        (("rules", "casino", "online"), ("online",)),
        (("--colour",), ("--colour",)),
        (("analyze", "--max-hands", "many"), ("--max-hands",)),
    ],
)
def test_usage_errors_are_one_line(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    assert_one_line_error(*run(*args), *words)


def test_help_still_shows_the_usage() -> None:
    code, out, _ = run("simulate", "--help")
    assert code == 0 and out.startswith("Usage: ") and "simulate [OPTIONS]" in out


@pytest.mark.parametrize("command", ["dealer", "analyze", "strategy", "simulate"])
@pytest.mark.parametrize("game", ["vinte", "exchange"])
def test_house_commands_refuse_the_other_games_presets(command: str, game: str) -> None:
    code, out, err = run(command, "--preset", game)
    assert_one_line_error(code, out, err, f"--preset {game}", "not a house-banked game")
    assert out == ""


def test_an_unknown_preset_names_the_allowed_ones() -> None:
    assert_one_line_error(*run("dealer", "--preset", "poker"), "casino or online", "poker")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("simulate", "--rounds", "99999999999999999999999"), ("1 to 1,000,000,000,000",)),
        (("simulate", "--rounds", "0"), ("1 to 1,000,000,000,000",)),
        (("simulate", "--rounds", "1_000"), ("--rounds",)),
        (("simulate", "--rounds", "١٠"), ("--rounds",)),
        (("simulate", "--workers", "100000"), ("1 to 256",)),
        (("simulate", "--insure-at", "nan"), ("--insure-at", "nan")),
        (("simulate", "--insure-at", "inf"), ("--insure-at",)),
        (("simulate", "--insure-at", "1e400"), ("--insure-at",)),
        (("simulate", "--bankroll", "-inf"), ("--bankroll",)),
        (("simulate", "--bankroll", "0"), ("--bankroll",)),
        (("dealer", "--max-hands", "999"), ("max_hands", "1 to 16")),
        (("analyze", "--max-hands", "99999999999999999999999999"), ("max_hands",)),
    ],
)
def test_numbers_are_refused_with_their_range(
    args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    assert_one_line_error(*run(*args), *words)


def test_seed_minus_one_is_refused_by_simulate_with_the_range() -> None:
    code, out, err = run("simulate", "--seed", "-1", "--rounds", "10")
    assert_one_line_error(code, out, err, "--seed", f"0 to {MAX_SEED:,}", "-1")


def _commands(command: click.Command, path: str) -> list[tuple[str, click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name in command.list_commands(click.Context(command)):
            sub = command.get_command(click.Context(command), name)
            if sub is not None:
                found += _commands(sub, f"{path} {name}")
    return found


def test_every_seed_option_of_every_command_is_the_same() -> None:
    # `play` included: every command that takes a seed reads it with the same type, so
    # `--seed -1` is refused everywhere in the same words, with the same range.
    seeded = []
    for name, entry in SUBCOMMANDS.items():
        for path, command in _commands(entry.load(), name):
            for param in command.params:
                if param.name == "seed":
                    seeded.append(path)
                    assert param.type is SEED, (path, param.type)
    assert "simulate" in seeded


def test_seed_matches_the_simulators_range() -> None:
    from twentyone.simulation.runner import MAX_SEED as SIMULATION_MAX_SEED

    assert MAX_SEED == SIMULATION_MAX_SEED


def test_penetration_errors_show_decimals_not_fractions() -> None:
    code, out, err = run("dealer", "--shuffle", "cut:1.5")
    assert_one_line_error(code, out, err, "1.5")
    assert "3/2" not in err


# ---------------------------------------------------------------- JSON input (D13, item 4)

DEEP = "[" * 200_000 + "]" * 200_000


@pytest.mark.parametrize("command", [("replay", "-"), ("exchange", "odds", "-")])
@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (DEEP, ("nests deeper than",)),
        ('{"a": ' * 40 + "1" + "}" * 40, ("nests deeper than",)),
        (b"\xff\xfe{}", ("not valid UTF-8",)),
        ("x" * (2 << 20), ("larger than the limit",)),
        ('{"game": 1' + "0" * 5000 + "}", ("number",)),
        ('{"players": NaN}', ("NaN",)),
        ('{"game": "casino", "game": "online"}', ("appears twice",)),
        ("{not json", ("not valid JSON",)),
    ],
)
def test_hostile_json_on_stdin_is_one_line(
    command: tuple[str, ...], payload: str | bytes, words: tuple[str, ...]
) -> None:
    assert_one_line_error(*run(*command, stdin=payload), *words)


@pytest.mark.parametrize("option", ["--chart", "--count", "--indices"])
def test_hostile_json_files_are_one_line(tmp_path: Path, option: str) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x80\x81")
    for path, words in ((deep, "nests deeper than"), (binary, "not valid UTF-8")):
        extra = ("--count", "hi-lo") if option == "--indices" else ()
        code, out, err = run("simulate", "--rounds", "10", *extra, option, str(path))
        assert_one_line_error(code, out, err, words, path.name)


def test_a_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"game": "casino", "description": "caf\xe9"}'.encode("latin-1"))
    assert_one_line_error(*run("replay", str(latin)), "not valid UTF-8", "latin.json")
    assert_one_line_error(*run("exchange", "odds", str(latin)), "not valid UTF-8")


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    assert_one_line_error(*run("replay", str(tmp_path)), "folder")


# ---------------------------------------------------------------- output that cannot be written


def _twentyone(*args: str, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    probe = "import sys; from twentyone.cli.main import main; sys.argv[0] = 'twentyone'; main()"
    return subprocess.run(
        [sys.executable, "-c", probe, *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = _twentyone("replay", str(SPEC_EXAMPLE), stdout=full.fileno())
    assert done.returncode == 2, done.stderr
    assert done.stderr == "twentyone: error: cannot write the output: No space left on device\n"


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_simulate_to_a_full_disk_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = _twentyone(
            "simulate", "--rounds", "2000", "--seed", "1", "--workers", "1", stdout=full.fileno()
        )
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("compiling")]
    assert lines == ["twentyone: error: cannot write the output: No space left on device"]


def test_a_closed_pipe_ends_quietly() -> None:
    probe = subprocess.Popen(
        [sys.executable, "-c", "import sys; from twentyone.cli.main import main; main()",
         "replay", str(SPEC_EXAMPLE), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert probe.stdout is not None and probe.stderr is not None
    probe.stdout.close()  # the reader has gone before anything is written
    err = probe.stderr.read().decode()
    probe.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_replay_json_is_one_object() -> None:
    code, out, _ = run("replay", str(SPEC_EXAMPLE), "--json")
    assert code == 0 and isinstance(json.loads(out), dict)
