"""Whether the compiled (numba) kernels are on disk already: the first run compiles them.

Every kernel is compiled with ``cache=True``: numba writes the machine code next to the source
(``__pycache__``), or, where that directory is read-only (an installed package), under the
user's cache directory (or ``NUMBA_CACHE_DIR`` when set), and a later process loads it in well
under a second instead of compiling for a minute or more. :func:`kernels_cached` tells a caller
(the command line) beforehand whether it is about to wait for a compile, so that it can say
so ("compiling kernels (first run only)...") instead of staying silent.

>>> import twentyone.analysis.kernels as analysis_kernels
>>> isinstance(kernels_cached(analysis_kernels), bool)
True
"""

from __future__ import annotations

from types import ModuleType
from typing import Any


def dispatcher_cached(dispatcher: Any) -> bool:
    """Whether a numba dispatcher holds a compiled version or has one in its disk cache."""
    if dispatcher.overloads:
        return True
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:
        return False  # not a caching dispatcher: it will compile
    try:
        # The index is empty when it is missing, from another numba, or older than the source.
        return bool(cache_file._load_index())
    except Exception:  # an unreadable or corrupt index: numba recompiles, so do we
        return False


def kernel_dispatchers(module: ModuleType) -> list[Any]:
    """The kernels of ``module`` that Python code calls (helpers inlined into them excluded)."""
    from numba.core.registry import CPUDispatcher

    found = []
    for value in vars(module).values():
        if not isinstance(value, CPUDispatcher) or value.__module__ != module.__name__:
            continue
        if value.targetoptions.get("inline") == "always":
            continue  # compiled only as part of its callers
        found.append(value)
    return found


def kernels_cached(*modules: ModuleType) -> bool:
    """Whether every kernel of ``modules`` is loaded in this process or cached on disk, i.e.
    whether running them now needs no compiling (a cache written for other argument types
    does not count as missing: that case is rare and only costs an unannounced compile)."""
    return all(
        dispatcher_cached(dispatcher)
        for module in modules
        for dispatcher in kernel_dispatchers(module)
    )


def analysis_kernels_cached() -> bool:
    """Whether the exact analysis's kernels (``twentyone.analysis.kernels``) are compiled."""
    from twentyone.analysis import kernels

    return kernels_cached(kernels)
