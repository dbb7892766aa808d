"""``twentyone play exchange`` in the terminal, driven through its standard input."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from twentyone.cli.main import cli


def run(args: list[str], text: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", "exchange", *args], input=text)
    return result.exit_code, result.output


def test_bet_against_the_market_maker_and_see_the_profit() -> None:
    code, out = run(
        ["--seed", "3", "--no-bots"],
        "back 1 1.5 10\nbets\nlay 2 1.01 5\ncancel 18\nback 9 2 2\nback 1 2.01 5\nlay 1 2 1\nhello\n",
    )
    assert code == 0, out
    assert "at 2.06 with House market maker" in out  # matched at the maker's better price
    assert "backed Player 1 10.00 at 2.06 against House market maker" in out
    assert "cancelled 5.00 of order 18" in out
    assert "selection must be a number from 1 to 8" in out
    assert "price 2.01 is not on the ladder" in out
    assert "below the minimum stake" in out
    assert "Game 1 settled: your profit" in out
    assert "You leave with" in out


def test_leaving_plays_out_the_game_and_reports() -> None:
    code, out = run(["--seed", "5", "--games", "3"], "q\n")
    assert code == 0, out
    assert "after 1 game(s)" in out


def test_bad_options_exit_2_with_one_line() -> None:
    code, out = run(["--balance", "ten"], "")
    assert code == 2 and "--balance" in out


def run_split(args: list[str], text: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["play", "exchange", *args], input=text)
    return result.exit_code, result.stdout, result.stderr


def test_messages_use_money_in_units_and_speak_to_you() -> None:
    code, out = run(
        ["--seed", "3", "--no-bots"],
        "back 1 2.06 1\ncancel 1\nlay 1 900 999\nback 1 1.5 10\nbets\n",
    )
    assert code == 0, out
    out = " ".join(out.split())  # rich wraps long lines
    assert "stake 1.00 is below the minimum stake of 2.00" in out  # not 100 and 200
    assert "order 1 is not yours" in out
    assert (
        "over balance: your order needs 898,101.00 held on this market but you have 1,000.00" in out
    )
    assert "Player 1: if it wins 10.60, loses -10.00, dead-heats 0.30" in out
    for wrong in ("you has", "you's", "if it win ", "'you'"):
        assert wrong not in out, wrong


def test_a_self_match_is_announced() -> None:
    # The maker quotes 2.00 a side (--size 2): the back takes its 2.00 at 2.06, then 5.00 of
    # your own resting lay at 1.5.
    code, out = run(
        ["--seed", "3", "--no-bots", "--size", "2"], "lay 1 1.5 5\nback 1 1.5 7\nbets\n"
    )
    assert code == 0, out
    assert "matched 7.00 (2.00 at 2.06 with House market maker, 5.00 at 1.5" in out
    assert "against your own lay), 0.00 waiting" in " ".join(out.split())
    assert "backed Player 1 5.00 at 1.5 against yourself" in out


def test_infinite_and_exponent_amounts_are_refused_at_the_prompt() -> None:
    code, out = run(
        ["--seed", "3", "--no-bots"],
        "back 1 2.06 inf\nlay 1 2 1e400\ncancel 17 inf\ncancel 17 nan\n",
    )
    assert code == 0, out
    assert out.count("is not an amount") == 4
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--balance", "inf"),
        ("--balance", "1e400"),
        ("--balance", "-5"),
        ("--size", "inf"),
        ("--size", "nan"),
        ("--size", "0"),
        ("--games", "0"),
        ("--seed", "-1"),
    ],
)
def test_bad_money_and_count_options_exit_2_with_one_line(option: str, value: str) -> None:
    code, out, err = run_split([option, value], "")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("twentyone: error:") and option in err
