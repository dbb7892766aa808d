"""The plain-Python dealer distribution is the compiled kernel's, bit for bit.

``twentyone dealer`` computes with :mod:`twentyone.analysis.dealer_finishes` (no numpy, no
numba: a fast start); the engine keeps the kernel. Both must give the same floats.
"""

from __future__ import annotations

import numpy as np
import pytest

from twentyone.analysis import kernels
from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.dealer_finishes import OUTCOMES, dealer_finishes, dealer_probabilities
from twentyone.analysis.dealer_table import dealer_table
from twentyone.analysis.shoe_counts import full_shoe_counts, infinite_probabilities
from twentyone.rules import Rules


def _kernel(shoe: list[float], infinite: bool, upcard: int, hits_soft_17: bool) -> list[float]:
    table = dealer_table(upcard, hits_soft_17)
    out = np.zeros(7)
    kernels.dealer_distribution(
        np.array(shoe, dtype=np.float64),
        infinite,
        table.sparse_start,
        table.sparse_index,
        table.sparse_count,
        table.orderings,
        table.outcome,
        table.size,
        out,
    )
    return [float(value) for value in out]


@pytest.mark.parametrize("decks", [1, 2, 6, 8, None])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_the_python_distribution_is_the_kernels_bit_for_bit(
    decks: int | None, hits_soft_17: bool
) -> None:
    for upcard in range(10):
        if decks is None:
            shoe = [float(p) for p in infinite_probabilities()]
        else:
            shoe = [float(count) for count in full_shoe_counts(decks)]
            shoe[upcard] -= 1
        expected = _kernel(shoe, decks is None, upcard, hits_soft_17)
        assert dealer_probabilities(shoe, decks is None, upcard, hits_soft_17) == expected
        rules = Rules(decks=decks, dealer_hits_soft_17=hits_soft_17)
        shown = dealer_distribution(rules, upcard)
        assert [shown[name] for name in OUTCOMES] == expected


def test_a_depleted_shoe_is_the_kernels_too() -> None:
    shoe = [3, 20, 1, 0, 5, 4, 24, 2, 7, 60]  # a 6-deck shoe late in the deal
    rules = Rules(decks=6)
    for upcard in (0, 1, 4, 6, 9):
        counts = [float(count) for count in shoe]
        counts[upcard] -= 1
        expected = _kernel(counts, False, upcard, False)
        shown = dealer_distribution(rules, upcard, shoe)
        assert [shown[name] for name in OUTCOMES] == expected
        bj = dealer_distribution(rules, upcard, shoe, no_blackjack=True)
        kept = 1.0 - expected[5]
        assert bj["bust"] == expected[6] / kept and bj["blackjack"] == 0.0


def test_the_table_of_the_kernels_is_built_from_the_same_finishes() -> None:
    for upcard in range(10):
        finishes = dealer_finishes(upcard, True)
        table = dealer_table(upcard, True)
        assert table.entries == len(finishes)
        assert [int(result) for result in table.outcome] == [r for _, r, _ in finishes]
        assert [int(n) for n in table.orderings] == [n for _, _, n in finishes]
