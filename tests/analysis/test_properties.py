"""Property tests: random rule sets and random shoes, two independent computations agree."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.engine import analyze_upcard, prepare
from twentyone.analysis.exact import exact_ev_by_upcard
from twentyone.rules import Double, EnhcLoses, Peek, Rules, Surrender, Ties

infinite_rules = st.builds(
    Rules,
    decks=st.none(),
    dealer_hits_soft_17=st.booleans(),
    peek=st.sampled_from(list(Peek)),
    enhc_loses=st.sampled_from(list(EnhcLoses)),
    blackjack_pays=st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1)]),
    double=st.sampled_from(list(Double)),
    double_after_split=st.booleans(),
    max_hands=st.integers(min_value=1, max_value=5),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(list(Surrender)),
    ties=st.sampled_from(list(Ties)),
)


@settings(
    max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(infinite_rules, st.integers(min_value=0, max_value=9))
def test_compiled_engine_equals_exact_fractions(rules: Rules, up: int) -> None:
    fast = analyze_upcard(prepare(rules), up).ev
    assert abs(fast - float(exact_ev_by_upcard(rules)[up])) < 1e-12


shoes = st.lists(st.integers(min_value=0, max_value=4), min_size=9, max_size=9).flatmap(
    lambda small: st.integers(min_value=4, max_value=16).map(lambda tens: (*small, tens))
)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(shoes, st.integers(min_value=0, max_value=9), st.booleans())
def test_dealer_floats_equal_exact_fractions_for_any_shoe(
    shoe: tuple[int, ...], up: int, hits_soft_17: bool
) -> None:
    value = sum(count * (index + 1) for index, count in enumerate(shoe))
    if shoe[up] == 0 or sum(shoe) < 12 or value < 30:
        return  # the dealer could run out of cards: outside what the analysis models
    rules = Rules(decks=1, dealer_hits_soft_17=hits_soft_17)
    exact = dealer_distribution(rules, up, shoe, exact=True)
    floats = dealer_distribution(rules, up, shoe)
    assert sum(exact.values()) == 1
    for name, probability in exact.items():
        assert abs(floats[name] - float(probability)) < 1e-13
