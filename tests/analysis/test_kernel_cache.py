"""Telling beforehand whether kernels will compile: the cache on disk, read-only installs."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from twentyone.analysis.kernel_cache import analysis_kernels_cached, kernel_dispatchers

MODULE = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def twice(x):
        return 2 * x

    @njit(cache=True, inline="always")
    def helper(x):
        return x + 1
    """
)
PROBE = textwrap.dedent(
    """
    import sys
    import probe_kernels
    from twentyone.analysis.kernel_cache import kernels_cached
    before = kernels_cached(probe_kernels)
    assert probe_kernels.twice(21) == 42
    print(before, kernels_cached(probe_kernels))
    """
)


def _run(package: Path, user_cache: Path) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(package), *sys.path]))
    env.pop("NUMBA_CACHE_DIR", None)
    env["XDG_CACHE_HOME"] = str(user_cache)  # where numba's user-wide cache goes
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only install"])
def test_only_the_first_process_compiles(tmp_path: Path, read_only: bool) -> None:
    package = tmp_path / "site"
    package.mkdir()
    (package / "probe_kernels.py").write_text(MODULE, encoding="utf-8")
    user_cache = tmp_path / "user-cache"
    if read_only:
        # An installed package: numba cannot write __pycache__ next to it (a plain file in the
        # way stops even root) and falls back to the user's cache directory.
        (package / "__pycache__").write_text("", encoding="utf-8")
        package.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert _run(package, user_cache) == "False True"  # compiled, then known to be cached
        assert _run(package, user_cache) == "True True"  # a second process finds it on disk
    finally:
        package.chmod(stat.S_IRWXU)
    cached_in_user_dir = any(user_cache.rglob("*.nbi"))
    assert cached_in_user_dir == read_only


def test_inlined_helpers_are_not_counted_as_kernels() -> None:
    from twentyone.simulation import kernels

    names = {dispatcher.__name__ for dispatcher in kernel_dispatchers(kernels)}
    assert names == {"simulate_rounds", "simulate_one_box_rounds"}


def test_the_analysis_kernels_are_cached_once_they_ran() -> None:
    from twentyone.analysis.dealer import dealer_distribution
    from twentyone.presets import CASINO

    dealer_distribution(CASINO, "6")
    assert isinstance(analysis_kernels_cached(), bool)
