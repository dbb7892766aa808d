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

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
TWENTYONE = Path(sys.executable).parent / "twentyone"  # the console script of this install

pytestmark = [
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)"
    ),
    pytest.mark.skipif(
        not TWENTYONE.exists(), reason=f"no 'twentyone' command next to {sys.executable}"
    ),
]
SUITS = "♠♥♦♣"


class Screen:
    """A command running in a detached tmux window of 120 x 40."""

    def __init__(self, name: str, command: str) -> None:
        self.socket = f"twentyone-test-{os.getpid()}-{name}"
        self.name = name
        # The command stays on screen after it ends, so that its last words can be read.
        shell = (
            "env LANG=C.UTF-8 LC_ALL=C.UTF-8 COLUMNS=120 LINES=40"  # not a size read in a race
            f" {command}; echo '[session ended]'; sleep 120"
        )
        self.tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", shell)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return done.stdout

    def text(self, escapes: bool = False) -> str:
        """The screen (``escapes``: with its colours, as escape codes)."""
        return self.tmux("capture-pane", "-p", "-t", self.name, *(["-e"] if escapes else []))

    def send(self, keys: str) -> None:
        """Type ``keys`` and press Enter, then wait until the screen has answered (so that
        the prompt just answered is never taken for the next one)."""
        before = self.text()
        if keys:
            self.tmux("send-keys", "-t", self.name, "-l", keys)
        self.tmux("send-keys", "-t", self.name, "Enter")
        end = time.monotonic() + 10.0
        while self.text() in (before, before.rstrip() + " " + keys) and time.monotonic() < end:
            time.sleep(0.05)

    def wait_for(self, check: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
        """Poll the screen until ``check`` holds; the screen then."""
        end = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{what!r} never came on screen:\n{screen}")
            time.sleep(0.05)

    def wait_prompt(self, *prompts: str, timeout: float = 60.0) -> str:
        """Wait until the last line on screen is one of ``prompts`` (a prefix, or a suffix
        for a prompt that ends the line); the prompt found."""
        found = ""

        def ready(screen: str) -> bool:
            nonlocal found
            lines = [line.strip() for line in screen.splitlines() if line.strip()]
            if not lines:
                return False
            tail = " ".join(lines[-3:])  # a long prompt may wrap
            ended = lines[-1] == "[session ended]"
            if not ended and not lines[-1].endswith((":", "?", ">")):
                return False  # output still coming, or the prompt was answered
            where = {prompt: tail.rfind(prompt) for prompt in prompts}
            best = max(where, key=lambda prompt: where[prompt])
            if where[best] < 0:
                return False
            found = best
            return True

        self.wait_for(ready, " or ".join(prompts), timeout)
        return found

    def screenshot(self, title: str) -> Path:
        """The screen through Rich's SVG export (and PNG where resvg_py is there)."""
        console = Console(record=True, width=120, file=StringIO(), force_terminal=True)
        console.print(Text.from_ansi(self.text(escapes=True).rstrip("\n")), crop=False)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        svg = console.export_svg(title=title)
        path = SCREENSHOTS / f"tmux-{self.name}.svg"
        path.write_text(svg, encoding="utf-8")
        try:
            import resvg_py
        except ImportError:
            return path
        # Rich's picture asks for Fira Code: any monospace font installed here stands in.
        png = resvg_py.svg_to_bytes(svg_string=svg, monospace_family="DejaVu Sans Mono")
        path.with_suffix(".png").write_bytes(bytes(png))
        return path

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


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
    end = term.wait_for(lambda s: "[session ended]" in s, "the end of the session")
    assert "Session summary" in end and "You leave with" in end
    assert "rounds" in end and "biggest win" in end
    term.screenshot(f"twentyone play {game}")


def test_a_vinte_match_in_a_terminal(screen: Callable[[str, str], Screen]) -> None:
    term = screen("vinte", "play vinte --seed 3 --bots 2 --rounds 3 --banker 1 --bank-rounds 0")
    while True:
        prompt = term.wait_prompt("Bet (", "(h)it or (s)tand", "[session ended]")
        if prompt == "[session ended]":
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
        prompt = term.wait_prompt("exchange>", "[session ended]", timeout=120)
        if prompt == "[session ended]":
            break
        term.send("")
    end = term.text()
    assert "Game 1 settled" in end and "Session summary" in end and "after 1 game(s)" in end
    term.screenshot("twentyone play exchange")
