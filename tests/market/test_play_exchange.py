"""``twentyone play exchange`` in the terminal, driven through its standard input."""

from __future__ import annotations

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
