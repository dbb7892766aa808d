"""Telling the user about long waits: the one-time compile of the kernels, long computations.

The compiled kernels are cached on disk (:mod:`twentyone.analysis.kernel_cache`), so only the
first run that needs a kernel compiles it, for up to a minute or more; that run says so on
stderr (:data:`COMPILING`) instead of staying silent. Standard output stays the command's
result (one JSON object with ``--json``).

Two ways to know, both exact: the simulator says before it compiles its round kernel
(``simulate(..., on_compile=...)``, from its own cache check), and :func:`compile_notice`
hears numba itself start a compile (numba's ``numba:compile`` event fires only when no cached
version could be loaded), which covers the exact analysis, whose many kernels are compiled
one by one as the rule set needs them.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import click

#: What the user reads before a compile.
COMPILING = "compiling kernels, first run only..."

_said = False


def say_compiling() -> None:
    """Print :data:`COMPILING` on stderr, once per process."""
    global _said
    if not _said:
        _said = True
        click.echo(COMPILING, err=True)


@contextlib.contextmanager
def compile_notice() -> Iterator[None]:
    """While the block runs, say :data:`COMPILING` when numba starts compiling a kernel.

    Only where numba is loaded already: a command imports its kernels' module before the
    block (every caller does), and one that computes without numba (``twentyone dealer``)
    does not load it just to listen (it costs half a second of CPU)."""
    if "numba" not in sys.modules:
        yield
        return
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, _event: Any) -> None:
            say_compiling()

        def on_end(self, _event: Any) -> None:
            pass

    with event.install_listener("numba:compile", _Listener()):
        yield


@contextlib.contextmanager
def working(message: str) -> Iterator[None]:
    """Show ``message`` with a spinner on stderr while the block runs, if stderr is a terminal
    (nothing otherwise: a pipe or a log gets only the result), and say when kernels compile.
    The spinner's thread stops when the block ends, before any worker process is forked."""
    with compile_notice():
        if not sys.stderr.isatty():
            yield
            return
        from rich.console import Console

        with Console(stderr=True).status(message):
            yield
