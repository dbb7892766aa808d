"""The "All cards unique" float kernel against the exact Fraction walk and the previous kernel.

``unique_probability_fast`` (walk over three hands, then the last hand and the dealer by an
axis-by-axis contraction) must agree with the exact walk of :mod:`twentyone.analysis.exchange.uniqueness`
to 1e-12 relative, and with ``unique_probability_hashed`` (the previous kernel: the walk over
all four hands, then every (state, dealer path)) on seeded round-2 states.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.exchange.unique_kernel_reference import unique_probability_hashed
from twentyone.analysis.exchange.odds import exchange_odds, player_model
from twentyone.analysis.exchange.playouts import Counts
from twentyone.analysis.exchange.unique_kernel import (
    player_options,
    unique_probability_fast,
)
from twentyone.analysis.exchange.uniqueness import full_deck, unique_probability
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.hands import HandState
from twentyone.exchange.state import ExchangeState
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe

Options = list[list[tuple[Counts, int, int]]]


def _inputs(state: ExchangeState) -> tuple[Options, HandState, list[int]]:
    available = full_deck()
    for card in state.shown:
        available[card.value - 1] -= 1
    options = player_options(player_model(), state.player_states(), state.played, state.up_value)
    return options, state.dealer_state(), available


def _exact(state: ExchangeState) -> Fraction:
    _, dealer, available = _inputs(state)
    return unique_probability(
        player_model(),
        state.player_states(),
        state.played,
        state.up_value,
        dealer,
        available,
        Fraction,
    )


def _fast(state: ExchangeState) -> float:
    return unique_probability_fast(*_inputs(state))


def _round_two(players: list[list[str]], dealer: str) -> ExchangeState:
    return ExchangeState.from_json({"players": players, "dealer": [dealer], "played": False})


# Round-2 states (players not yet drawn) whose exact walk takes seconds at most.
EXACT_CASES = {
    # small cards: two hands draw up to three cards each
    "small_cards": _round_two([["4S", "AC"], ["TD", "9S"], ["2C", "8S"], ["KH", "QH"]], "7C"),
    # many tens seen: seven of the sixteen are up, and nobody draws
    "many_tens": _round_two([["TS", "TD"], ["JH", "QS"], ["KS", "QD"], ["TC", "5C"]], "KH"),
    # many tens seen and two hands draw (a ten now comes with 10/52 for the first)
    "many_tens_drawing": _round_two([["TS", "2D"], ["JH", "QS"], ["KS", "3D"], ["TC", "JC"]], "QH"),
    # every two is up: any play-out with a two repeats a card
    "twos_exhausted": _round_two([["2S", "2H"], ["2D", "2C"], ["TS", "9S"], ["JH", "KD"]], "8C"),
    # all four aces up, one hand soft
    "aces_exhausted": _round_two([["AS", "AH"], ["AD", "9C"], ["TS", "QS"], ["AC", "KD"]], "5H"),
}


#: The exact walk takes 10 to 60 s on these (Fractions over thousands of states).
SLOW_EXACT = {"small_cards", "twos_exhausted", "many_tens_drawing"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.slow) if name in SLOW_EXACT else name
        for name in sorted(EXACT_CASES)
    ],
)
def test_fast_kernel_matches_the_exact_walk(name: str) -> None:
    state = EXACT_CASES[name]
    exact = _exact(state)
    assert 0 < exact < 1
    assert _fast(state) == pytest.approx(float(exact), rel=1e-12)


def test_played_states_match_the_exact_walk() -> None:
    """Seeded games, every state after the players drew (cheap exactly: one option a hand)."""
    checked = 0
    for seed in range(60):
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(7000 + seed)))
        while game.open_round is not None:
            state = game.state()
            if state.played and len(set(state.shown)) == len(state.shown):
                exact = _exact(state)
                assert _fast(state) == pytest.approx(float(exact), rel=1e-12)
                checked += 1
            game.end_round()
    assert checked >= 20


def test_a_repeated_card_makes_it_zero() -> None:
    state = _round_two([["4S", "AC"], ["AD", "5S"], ["2C", "8S"], ["3D", "4S"]], "7C")
    for exact in (False, True):
        odds = exchange_odds(state, exact=exact)["All cards unique"]
        assert odds is not None
        assert (odds.win, odds.tie, odds.lose) == (0, 0, 1)


def test_the_worst_known_state_agrees_with_the_previous_kernel() -> None:
    """The state the speed target is about (seconds for the previous kernel)."""
    state = _round_two([["4S", "AC"], ["AD", "5S"], ["2C", "8S"], ["3D", "4H"]], "7C")
    inputs = _inputs(state)
    fast = unique_probability_fast(*inputs)
    assert 0 < fast < 1
    assert fast == pytest.approx(unique_probability_hashed(*inputs), rel=1e-12)


def _seeded_round_two_states(count: int, seed: int) -> list[ExchangeState]:
    states = []
    rng = random.Random(seed)
    while len(states) < count:
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(rng.randrange(2**32))))
        if game.open_round is None:
            continue
        game.end_round()  # round 1 -> round 2: nine cards up, nobody has drawn
        state = game.state()
        if not state.played and not state.is_over(player_model().table):
            states.append(state)
    return states


@pytest.mark.slow
def test_fast_kernel_matches_the_previous_kernel_on_200_round_two_states() -> None:
    for state in _seeded_round_two_states(200, 11):
        inputs = _inputs(state)
        fast = unique_probability_fast(*inputs)
        previous = unique_probability_hashed(*inputs)
        assert fast == pytest.approx(previous, rel=1e-12, abs=0.0), state.to_json()


RANKS = "A23456789TJQK"
SUITS = "SHDC"


def _card_text(index: int) -> str:
    return RANKS[index % 13] + SUITS[index // 13]


SMALL_CARDS = [i for i in range(52) if i % 13 < 6]  # aces to sixes: the hands that draw most


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    st.sampled_from([list(range(52)), SMALL_CARDS]).flatmap(
        lambda pool: st.lists(st.sampled_from(pool), min_size=9, max_size=9, unique=True)
    )
)
def test_random_round_two_states_agree_with_the_previous_kernel(cards: list[int]) -> None:
    """Any nine different cards as a round-2 state (players, then the dealer's up card)."""
    texts = [_card_text(c) for c in cards]
    state = _round_two([texts[0:2], texts[2:4], texts[4:6], texts[6:8]], texts[8])
    inputs = _inputs(state)
    assert unique_probability_fast(*inputs) == pytest.approx(
        unique_probability_hashed(*inputs), rel=1e-12, abs=0.0
    )


@pytest.mark.parametrize("index", range(6))
def test_the_sorted_walk_equals_the_hashed_walk(index: int) -> None:
    """Three hands walked by bucketing (the fast kernel) and by hashing: same states, same
    weights to 1e-12, and the bucketed states come out in ascending key order."""
    from twentyone.analysis.exchange.unique_kernel import _walk, dealer_tables

    states = [_round_two([["4S", "AC"], ["AD", "5S"], ["2C", "8S"], ["3D", "4H"]], "7C")]
    states += _seeded_round_two_states(5, 23)
    options, dealer, available = _inputs(states[index])
    ordered = sorted(options, key=len)[:-1]
    tables = dealer_tables(dealer)
    keys, weights = _walk(ordered, tables, available, by_sorting=True)
    hashed_keys, hashed_weights = _walk(ordered, tables, available, by_sorting=False)
    assert list(keys) == sorted(hashed_keys)
    assert all(a < b for a, b in itertools.pairwise(keys))
    position = {int(k): i for i, k in enumerate(hashed_keys)}
    for key, row in zip(keys, weights, strict=True):
        assert list(row) == pytest.approx(list(hashed_weights[position[int(key)]]), rel=1e-12)
