"""One session of each drill of ``twentyone train`` in a real terminal, driven through tmux.

The drill runs in a detached tmux window (its own tmux server, on a socket of its own); the
test types answers with ``send-keys``, reads the screen with ``capture-pane`` and checks the
feedback, the colours and the summary. The last screen is saved for review through Rich's SVG
export (``artifacts/screenshots/tmux-train-DRILL.svg``, and a PNG where ``resvg_py`` is
installed). Skipped without tmux.
"""

from __future__ import annotations

import shutil

import pytest

from tests.cli.tmux_screen import ENDED, TWENTYONE, Screen
from twentyone.analysis.training import KEY_OF_MOVE, CountDrill, StrategyDrill
from twentyone.presets import CASINO
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Rules

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def Window(name: str, command: str) -> Screen:
    return Screen(name, command, width=100)


def test_a_basic_strategy_session_in_a_terminal() -> None:
    drill = StrategyDrill(CASINO, SeededRandomSource(11))
    hands = [drill.deal() for _ in range(3)]
    right = KEY_OF_MOVE[hands[0].best]
    wrong = next(key for key in hands[1].allowed if key != KEY_OF_MOVE[hands[1].best])
    window = Screen("train-basic", f"{TWENTYONE} train basic --seed 11", width=100)
    try:
        window.wait_for_text("su[r]render >")  # a prompt's trailing space is not captured
        window.type(right)
        window.wait_for_text("Hand 2:")
        window.type("zz")  # not a move: asked again, nothing counted
        window.wait_for_text("unknown move")
        window.type(wrong)
        window.wait_for_text("Hand 3:")
        window.type("q")
        screen = window.wait_for_text(ENDED)
        assert "  right: " in screen and "  wrong: " in screen and "costs " in screen
        assert "hands: 2, right: 1 (50.0%)" in screen
        coloured = window.text(escapes=True)
        assert "\x1b[32m" in coloured and "\x1b[31m" in coloured  # green right, red wrong
        assert window.screenshot("twentyone train basic").stat().st_size > 1000
    finally:
        window.close()


def test_a_counting_session_in_a_terminal() -> None:
    drill = CountDrill(Rules(decks=1), SeededRandomSource(3), every=6)
    drill.deal()
    first = drill.running_count
    window = Screen(
        "train-count", f"{TWENTYONE} train count --seed 3 --decks 1 --every 6", width=100
    )
    try:
        window.wait_for_text("running count?")
        window.type(str(first))
        window.wait_for_text("running count?", count=2)
        window.tmux("send-keys", "-t", window.name, "C-c")  # Ctrl-C: the summary still comes
        screen = window.wait_for_text(ENDED)
        assert f"  right: {first:+d}" in screen
        assert "checks: 1, right: 1 (100.0%), cards seen: 12" in screen
        window.screenshot("twentyone train count")
    finally:
        window.close()
