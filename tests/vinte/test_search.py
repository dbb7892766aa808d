"""The Vinte-e-um search (decision support) against slow references written independently here."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import pytest

from twentyone.analysis.vinte.search import (
    Opponent,
    allowed_hidden,
    assignments,
    banker_choices,
    bet_edges,
    player_choices,
    pool_of,
    stand_likelihoods,
)
from twentyone.cards import parse_cards
from twentyone.hand import best_total


def brute_assignments(pool: Sequence[int], allowed: Sequence[Sequence[int]]) -> int:
    cards = [v for v in range(1, 11) for _ in range(pool[v - 1])]
    return sum(
        1
        for chosen in itertools.permutations(range(len(cards)), len(allowed))
        if all(cards[c] in allowed[i] for i, c in enumerate(chosen))
    )


@pytest.mark.parametrize("seed", range(12))
def test_assignments_counts_injective_choices(seed: int) -> None:
    rng = random.Random(seed)
    pool = [rng.randint(0, 2) for _ in range(10)]
    allowed = [
        tuple(sorted(rng.sample(range(1, 11), rng.randint(1, 10))))
        for _ in range(rng.randint(1, 3))
    ]
    if seed % 2:  # the nested {1..t} sets of players who stood
        allowed = [tuple(range(1, rng.randint(2, 11))) for _ in allowed]
    assert assignments(tuple(pool), tuple(allowed)) == brute_assignments(pool, allowed)


def brute_banker(
    banker: Sequence[int], opponents: Sequence[Opponent], pool: Sequence[int]
) -> dict[tuple[str, int | None], float]:
    """Expectimax over every order of the unseen cards: the hidden cards are the first
    ones (one per opponent), the banker's draws come after. The banker's information is
    what was revealed so far; the orders consistent with it are kept."""
    cards = [v for v in range(1, 11) for _ in range(pool[v - 1])]
    k = len(opponents)
    orders = [
        order
        for order in itertools.permutations(cards)
        if all(order[i] in o.allowed for i, o in enumerate(opponents))
    ]
    weight = {
        order: math.prod(o.weight(order[i]) for i, o in enumerate(opponents)) for order in orders
    }

    def mass(orders: list[tuple[int, ...]]) -> float:
        return sum(weight[order] for order in orders)

    def group(orders: list[tuple[int, ...]], position: int) -> dict[int, list[tuple[int, ...]]]:
        groups: dict[int, list[tuple[int, ...]]] = {}
        for order in orders:
            groups.setdefault(order[position], []).append(order)
        return groups

    def choices(
        orders: list[tuple[int, ...]], hard: int, ace: bool, left: frozenset[int], drawn: int
    ) -> dict[tuple[str, int | None], float]:
        total = best_total(hard, ace, True)
        out: dict[tuple[str, int | None], float] = {}
        for i in sorted(left):
            o = opponents[i]
            ev = 0.0
            for v, members in group(orders, i).items():
                p = mass(members) / mass(orders)
                won = o.total(v, True) > total
                ev += p * (
                    (-o.bet if won else o.bet) + value(members, hard, ace, left - {i}, drawn)
                )
            out[("call", o.seat)] = ev
        if total < 21 and k + drawn < len(cards):
            ev = 0.0
            for v, members in group(orders, k + drawn).items():
                p = mass(members) / mass(orders)
                if hard + v > 21:
                    ev -= p * sum(opponents[i].bet for i in left)
                else:
                    ev += p * value(members, hard + v, ace or v == 1, left, drawn + 1)
            out[("draw", None)] = ev
        return out

    def value(
        orders: list[tuple[int, ...]], hard: int, ace: bool, left: frozenset[int], drawn: int
    ) -> float:
        if not left:
            return 0.0
        return max(choices(orders, hard, ace, left, drawn).values())

    return choices(orders, sum(banker), 1 in banker, frozenset(range(k)), 0)


CASES = [
    # banker cards, [(face-up hard, ace, bet)], unseen pool as card values
    ([9, 6], [(8, False, 3)], [1, 2, 5, 7, 10, 10, 4]),
    ([2, 10], [(10, False, 5), (3, False, 1)], [10, 9, 4, 6, 1, 2]),
    ([5, 5], [(1, True, 2), (9, False, 4)], [10, 10, 8, 3, 7, 2]),
    ([10, 4], [(12, False, 5), (7, False, 2)], [9, 8, 2, 5, 3, 10, 6]),
    ([7, 8], [(6, False, 1), (11, False, 5), (2, False, 3)], [10, 4, 1, 9, 5, 3]),
]


@pytest.mark.parametrize("read_stands", [False, True])
@pytest.mark.parametrize(("banker", "faces", "cards"), CASES)
def test_banker_search_is_exact(
    banker: list[int], faces: list[tuple[int, bool, int]], cards: list[int], read_stands: bool
) -> None:
    pool = tuple(cards.count(v) for v in range(1, 11))
    opponents = []
    for seat, (hard, ace, bet) in enumerate(faces):
        allowed = allowed_hidden(hard, ace, 2, False, True)
        weights = stand_likelihoods([hard], allowed, True) if read_stands else None
        opponents.append(Opponent(seat + 1, hard, ace, bet, allowed, weights=weights))
    expected = brute_banker(banker, opponents, pool)
    got = banker_choices(banker, opponents, pool, exact_budget=1_000_000, exact_players=9)
    assert all(choice.exact for choice in got)
    assert {(c.action, c.target): pytest.approx(c.ev, abs=1e-9) for c in got} == expected
    assert got[0].ev == pytest.approx(max(expected.values()), abs=1e-9)


def approximation_gaps(cases: int, seed: int) -> tuple[list[float], int]:
    """Chips per decision the frozen-composition choice loses against the exact one, on
    random two-player banker turns; and how often both choose the same."""
    rng = random.Random(seed)
    gaps = []
    agree = 0
    for _ in range(cases):
        seen: list[int] = []
        banker = [rng.randint(1, 10), rng.randint(2, 10)]
        seen += banker
        opponents = []
        for seat in range(1, 3):
            face = [rng.randint(2, 10)]
            seen += face
            opponents.append(
                Opponent(
                    seat,
                    face[0],
                    False,
                    rng.randint(1, 5),
                    allowed_hidden(face[0], False, 2, False, True),
                )
            )
        pool = list(pool_of([]))
        for v in seen:
            pool[v - 1] -= 1
        exact = banker_choices(banker, opponents, tuple(pool), exact_budget=10**7)
        approx = banker_choices(banker, opponents, tuple(pool), exact_budget=0)
        assert not approx[0].exact
        evs = {(c.action, c.target): c.ev for c in exact}
        gaps.append(
            evs[(exact[0].action, exact[0].target)] - evs[(approx[0].action, approx[0].target)]
        )
        agree += (exact[0].action, exact[0].target) == (approx[0].action, approx[0].target)
    return gaps, agree


def test_the_approximation_stays_close_to_the_exact_search() -> None:
    gaps, agree = approximation_gaps(6, seed=11)
    assert min(gaps) >= -1e-9  # the exact choice is never worse
    assert sum(gaps) / len(gaps) < 0.05  # chips lost per decision by approximating
    assert agree >= 4


@pytest.mark.slow
def test_the_approximation_stays_close_on_many_turns() -> None:
    gaps, agree = approximation_gaps(40, seed=5)
    assert min(gaps) >= -1e-9
    assert sum(gaps) / len(gaps) < 0.02
    assert agree >= 34


def test_player_choices_make_sense() -> None:
    def best(hidden: str, faces: str, up: str) -> str:
        h, *face = parse_cards(f"{hidden} {faces}")
        u = parse_cards(up)[0]
        return player_choices(h, face, u, pool_of([h, *face, u])).best

    assert best("TS", "QH", "7D") == "stand"  # 20
    assert best("2S", "3H", "TD") == "hit"  # 5
    assert best("9S", "2H", "6D") == "hit"  # 11
    assert best("TS", "8H", "6D") == "stand"  # 18


def test_bet_edges_rank_the_hidden_cards() -> None:
    edges = bet_edges(True, False, False)
    assert edges[0] == max(edges)  # a hidden ace is the best card
    assert edges[0] > 0 > edges[4]
    assert edges[9] > edges[4]  # a ten beats a five
    double = bet_edges(True, True, True)
    assert double[0] > edges[0] and double[9] > edges[9]  # 2x for a two-card 21 helps
