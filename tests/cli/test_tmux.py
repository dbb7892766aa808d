"""One full session of each game in a real terminal, driven through tmux.

Each test starts ``twentyone play ...`` in a detached tmux window of 120 x 40 (its own tmux
server, on a socket of its own), types at its prompts with ``send-keys``, reads the screen
with ``capture-pane`` and checks it: suit symbols (a terminal gets them), the table, the
summary at the end. The last screen of each game is saved as a screenshot for review,
rendered through Rich's SVG export (``artifacts/screenshots/tmux-GAME.svg``, and a PNG where
``resvg_py`` is installed). Without tmux the tests are skipped: install it (``apt-get install
-y tmux``).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator

import pytest

from tests.cli.tmux_screen import ENDED, TWENTYONE, Screen

pytestmark = [
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)"
    ),
    pytest.mark.skipif(
        not TWENTYONE.exists(), reason=f"no 'twentyone' command next to {sys.executable}"
    ),
]
SUITS = "♠♥♦♣"


@pytest.fixture
def screen() -> Iterator[Callable[[str, str], Screen]]:
    opened: list[Screen] = []

    def start(name: str, arguments: str) -> Screen:
        opened.append(Screen(name, f"{TWENTYONE} {arguments}"))
        return opened[-1]

    yield start
    for each in opened:
        each.close()


def play_house_rounds(term: Screen, rounds: int) -> None:
    """Bet (10.00, then Enter: the rebet) and stand through ``rounds`` rounds."""
    for number in range(rounds):
        term.wait_prompt("Bet (")
        term.send("10" if number == 0 else "")
        while True:
            prompt = term.wait_prompt("Box 1", "Insurance", "Bet (")
            if prompt == "Bet (":
                break
            term.send("0" if prompt == "Insurance" else "s")


@pytest.mark.parametrize("game", ["casino", "online"])
def test_a_house_session_in_a_terminal(screen: Callable[[str, str], Screen], game: str) -> None:
    term = screen(game, f"play {game} --seed 3 --bankroll 200")
    first = term.wait_for(lambda s: "Bet (" in s, "the bet prompt")
    assert "Rules:" in first and "Bankroll: 200.00" in first
    play_house_rounds(term, 2)
    shown = term.text()
    assert any(suit in shown for suit in SUITS), shown  # a terminal gets suit symbols
    assert "Round:" in shown and "[Enter: rebet 10.00, x2: 20.00]" in shown
    coloured = term.text(escapes=True)
    assert "\x1b[" in coloured  # and colours
    term.wait_prompt("Bet (")
    term.send("q")
    end = term.wait_for(lambda s: ENDED in s, "the end of the session")
    assert "Session summary" in end and "You leave with" in end
    assert "rounds" in end and "biggest win" in end
    term.screenshot(f"twentyone play {game}")


def test_a_vinte_match_in_a_terminal(screen: Callable[[str, str], Screen]) -> None:
    term = screen("vinte", "play vinte --seed 3 --bots 2 --rounds 3 --banker 1 --bank-rounds 0")
    while True:
        prompt = term.wait_prompt("Bet (", "(h)it or (s)tand", ENDED)
        if prompt == ENDED:
            break
        term.send("3" if prompt == "Bet (" else "s")
    end = term.text()
    assert "the match is over" in end and "Session summary" in end
    assert "chips:" in end and any(suit in end for suit in SUITS)
    term.screenshot("twentyone play vinte")


def test_an_exchange_game_in_a_terminal(screen: Callable[[str, str], Screen]) -> None:
    term = screen("exchange", "play exchange --seed 3 --no-bots --games 1")
    term.wait_prompt("exchange>", timeout=120)
    term.send("back 1 2.06 5")
    term.wait_for(lambda s: ": matched 5.00" in s, "the order's answer")
    while True:
        prompt = term.wait_prompt("exchange>", ENDED, timeout=120)
        if prompt == ENDED:
            break
        term.send("")
    end = term.text()
    assert "Game 1 settled" in end and "Session summary" in end and "after 1 game(s)" in end
    term.screenshot("twentyone play exchange")
