"""Games apart from analysis: importing a game loads no numpy and no numba.

Each game module is imported in a fresh interpreter (this process has long since loaded the
kernels), which then lists the numpy/numba modules it has loaded. The games are what a server
runs at every table; the compiled kernels (odds, solvers, simulation) live in
``twentyone.analysis`` and ``twentyone.simulation`` and load only when asked for.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GAMES = {
    "house": "twentyone.house.round",
    "exchange": "twentyone.exchange.game",
    "vinte": "twentyone.vinte.game",
}

_PROBE = (
    "import importlib, json, sys; importlib.import_module(sys.argv[1]); "
    "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba'))))"
)


def _heavy_modules_loaded_by(module: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, module],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_imports_no_numpy_or_numba(game: str) -> None:
    assert _heavy_modules_loaded_by(GAMES[game]) == []


def test_the_probe_sees_numba_when_it_is_loaded() -> None:
    """The check can fail: the exchange odds do load the kernels."""
    loaded = _heavy_modules_loaded_by("twentyone.analysis.exchange.odds")
    assert "numba" in loaded and "numpy" in loaded
