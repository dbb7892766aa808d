"""A command in a real terminal for the tests: a detached tmux window driven by send-keys and
read by capture-pane, with its last screen saved through Rich's SVG export (and a PNG where
``resvg_py`` is installed) under ``artifacts/screenshots/`` for review."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path

from rich.console import Console
from rich.text import Text

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
TWENTYONE = Path(sys.executable).parent / "twentyone"  # the console script of this install
#: Printed when the command has ended (the window stays open so its last words can be read).
ENDED = "[session ended]"


class Screen:
    """A command running in a detached tmux window (120 x 40 unless told), on its own tmux server."""

    def __init__(self, name: str, command: str, width: int = 120, height: int = 40) -> None:
        self.socket = f"twentyone-test-{os.getpid()}-{name}"
        self.name = name
        self.width = width
        # The command stays on screen after it ends, so that its last words can be read.
        shell = (
            f"env LANG=C.UTF-8 LC_ALL=C.UTF-8 COLUMNS={width} LINES={height}"  # no size race
            f" {command}; echo '{ENDED}'; sleep 120"
        )
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), shell)

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

    def type(self, keys: str) -> None:
        """Type ``keys`` and press Enter (without waiting for the answer)."""
        self.tmux("send-keys", "-t", self.name, "-l", keys)
        self.tmux("send-keys", "-t", self.name, "Enter")

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

    def wait_for_text(self, text: str, count: int = 1, timeout: float = 20.0) -> str:
        """Poll the screen until ``text`` is on it ``count`` times; the screen then."""
        return self.wait_for(
            lambda screen: screen.count(text) >= count, f"{text} (x{count})", timeout
        )

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
            ended = lines[-1] == ENDED
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
        console = Console(record=True, width=self.width, file=StringIO(), force_terminal=True)
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
