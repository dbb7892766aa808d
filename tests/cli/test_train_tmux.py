"""One session of each drill of ``twentyone train`` in a real terminal, driven through tmux.

The drill runs in a detached tmux window (its own tmux server, on a socket of its own); the
test types answers with ``send-keys``, reads the screen with ``capture-pane`` and checks the
feedback, the colours and the summary. The last screen is saved for review through Rich's SVG
export (``artifacts/screenshots/tmux-train-DRILL.svg``, and a PNG where ``resvg_py`` is
installed). Skipped without tmux.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest

from twentyone.analysis.training import KEY_OF_MOVE, CountDrill, StrategyDrill
from twentyone.presets import CASINO
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
TWENTYONE = Path(sys.executable).parent / "twentyone"


class Window:
    def __init__(self, name: str, command: str) -> None:
        self.socket = f"twentyone-train-{os.getpid()}-{name}"
        self.name = name
        shell = f"env LANG=C.UTF-8 COLUMNS=100 LINES=40 {command}; echo '[ended]'; sleep 60"
        self.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", shell)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return done.stdout

    def screen(self, escapes: bool = False) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name, *(["-e"] if escapes else []))

    def wait_for(self, text: str, count: int = 1, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} (x{count}) never came on screen:\n{screen}")
            time.sleep(0.05)

    def type(self, keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", keys)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def save(self, title: str) -> Path:
        from rich.console import Console
        from rich.text import Text

        console = Console(record=True, width=100, file=StringIO(), force_terminal=True)
        console.print(Text.from_ansi(self.screen(escapes=True).rstrip("\n")), crop=False)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"tmux-{self.name}.svg"
        svg = console.export_svg(title=title)
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
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


def test_a_basic_strategy_session_in_a_terminal() -> None:
    drill = StrategyDrill(CASINO, SeededRandomSource(11))
    hands = [drill.deal() for _ in range(3)]
    right = KEY_OF_MOVE[hands[0].best]
    wrong = next(key for key in hands[1].allowed if key != KEY_OF_MOVE[hands[1].best])
    window = Window("train-basic", f"{TWENTYONE} train basic --seed 11")
    try:
        window.wait_for("su[r]render >")  # a prompt's trailing space is not captured
        window.type(right)
        window.wait_for("Hand 2:")
        window.type("zz")  # not a move: asked again, nothing counted
        window.wait_for("unknown move")
        window.type(wrong)
        window.wait_for("Hand 3:")
        window.type("q")
        screen = window.wait_for("[ended]")
        assert "  right: " in screen and "  wrong: " in screen and "costs " in screen
        assert "hands: 2, right: 1 (50.0%)" in screen
        coloured = window.screen(escapes=True)
        assert "\x1b[32m" in coloured and "\x1b[31m" in coloured  # green right, red wrong
        assert window.save("twentyone train basic").stat().st_size > 1000
    finally:
        window.close()


def test_a_counting_session_in_a_terminal() -> None:
    drill = CountDrill(Rules(decks=1), SeededRandomSource(3), every=6)
    drill.deal()
    first = drill.running_count
    window = Window("train-count", f"{TWENTYONE} train count --seed 3 --decks 1 --every 6")
    try:
        window.wait_for("running count?")
        window.type(str(first))
        window.wait_for("running count?", count=2)
        window.tmux("send-keys", "-t", window.name, "C-c")  # Ctrl-C: the summary still comes
        screen = window.wait_for("[ended]")
        assert f"  right: {first:+d}" in screen
        assert "checks: 1, right: 1 (100.0%), cards seen: 12" in screen
        window.save("twentyone train count")
    finally:
        window.close()
