"""Exhaustive counts of hand compositions against the published figures."""

import pytest

from twentyone.compositions import count_hand_compositions, hand_compositions


@pytest.mark.parametrize(
    ("decks", "expected"),
    [(1, 2008), (2, 2796), (4, 3060), (6, 3072), (8, 3072), (None, 3072)],
)
def test_published_composition_counts(decks: int | None, expected: int) -> None:
    assert count_hand_compositions(decks) == expected


def test_compositions_are_distinct_and_valid() -> None:
    seen = set()
    for counts in hand_compositions(1):
        assert counts not in seen
        seen.add(counts)
        assert sum(counts) >= 2
        assert sum((value + 1) * n for value, n in enumerate(counts)) <= 21
        assert all(n <= 4 for n in counts[:9]) and counts[9] <= 16
