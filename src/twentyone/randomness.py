"""Sources of randomness, always passed in: nothing in the core draws on its own.

``SystemRandomSource`` (the operating system's CSPRNG) is for production; ``SeededRandomSource``
is reproducible for tests and simulations. Both give unbiased integers by rejection sampling
(``secrets.randbelow`` and ``random.Random.randrange`` reject out-of-range bit patterns).

>>> first = fisher_yates(list(range(10)), SeededRandomSource(7))
>>> first == fisher_yates(list(range(10)), SeededRandomSource(7))
True
>>> sorted(first) == list(range(10))
True
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniformly distributed integer in ``[0, n)``."""
        ...


class SystemRandomSource:
    """Cryptographically secure randomness from the operating system."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededRandomSource:
    """Reproducible randomness (Mersenne Twister); never for real-money dealing."""

    def __init__(self, seed: int | str | bytes) -> None:
        self._getrandbits = random.Random(seed).getrandbits

    def randbelow(self, n: int) -> int:
        # Rejection sampling on the fewest bits that cover n-1: unbiased, and faster than
        # randrange's argument checking on this hot path.
        bits = (n - 1).bit_length()
        value = self._getrandbits(bits)
        while value >= n:
            value = self._getrandbits(bits)
        return value


def fisher_yates(items: list[T], source: RandomSource) -> list[T]:
    """Shuffle ``items`` in place (Durstenfeld's Fisher-Yates) and return it."""
    for i in range(len(items) - 1, 0, -1):
        j = source.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
