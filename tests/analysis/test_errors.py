"""Bad input to the analysis library: typed errors that say what and why."""

from __future__ import annotations

import pytest

from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.engine import prepare
from twentyone.analysis.exact import exact_expected_return
from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.house_edge import expected_return, insurance_value
from twentyone.analysis.support import UnsupportedRulesError
from twentyone.errors import InvalidCardError, InvalidRulesError, TwentyOneError
from twentyone.rules import FiveCardHand, Rules


def test_rules_outside_the_analysis() -> None:
    with pytest.raises(UnsupportedRulesError, match="aces_high"):
        expected_return(Rules(aces_high=False))
    with pytest.raises(UnsupportedRulesError, match="five_card_hand"):
        expected_return(Rules(five_card_hand=FiveCardHand.BEATS_BLACKJACK))
    assert issubclass(UnsupportedRulesError, TwentyOneError)


def test_bad_rule_values_are_rejected_by_rules() -> None:
    with pytest.raises(InvalidRulesError, match="decks"):
        Rules(decks=-2)
    with pytest.raises(InvalidRulesError, match="max_hands"):
        Rules(max_hands=0)
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        Rules().replace(dealer_peeks_twice=True)


def test_exact_fractions_need_an_infinite_shoe() -> None:
    with pytest.raises(InvalidRulesError, match="infinite"):
        exact_expected_return(Rules(decks=6))


def test_bad_shoes() -> None:
    with pytest.raises(InvalidRulesError, match="ten whole counts"):
        prepare(Rules(decks=1), [4] * 9)
    with pytest.raises(InvalidRulesError, match=r"holds 0\.\.4"):
        prepare(Rules(decks=1), [5] + [4] * 8 + [16])
    with pytest.raises(InvalidRulesError, match="at least 12"):
        prepare(Rules(decks=1), [1] * 10)
    with pytest.raises(InvalidRulesError, match="finite"):
        prepare(Rules(decks=None), [4] * 9 + [16])
    with pytest.raises(InvalidRulesError, match="no A"):
        dealer_distribution(Rules(decks=1), "A", [0] + [4] * 8 + [16])


def test_bad_hands_and_cards() -> None:
    rules = Rules(decks=1)
    with pytest.raises(InvalidCardError, match="bust"):
        hand_ev(rules, ["T", "9", "5"], "6")
    with pytest.raises(InvalidCardError, match="at least two"):
        hand_ev(rules, ["T"], "6")
    with pytest.raises(InvalidCardError, match="unknown card value"):
        hand_ev(rules, ["T", "X"], "6")
    with pytest.raises(InvalidCardError, match="does not hold"):
        hand_ev(rules, ["A", "A"], "A", [2] + [4] * 8 + [16])
    with pytest.raises(InvalidRulesError, match="up card"):
        dealer_distribution(rules, 12)
    with pytest.raises(InvalidRulesError, match="counts"):
        insurance_value([1, 2])


def test_unknown_split_convention() -> None:
    from twentyone.analysis.engine import UnknownSplitConventionError

    with pytest.raises(UnknownSplitConventionError, match="split strategy 'cdp'"):
        prepare(Rules(decks=1), convention="cdp")
    with pytest.raises(InvalidRulesError):
        hand_ev(Rules(decks=1), ["8", "8"], "T", convention="CDZ")


def test_the_analysis_and_the_simulator_raise_one_unsupported_rules_error() -> None:
    from twentyone import errors
    from twentyone.simulation.encoding import encode_rules
    from twentyone.simulation.errors import UnsupportedRulesError as SimulatorError

    assert UnsupportedRulesError is SimulatorError is errors.UnsupportedRulesError
    assert issubclass(errors.UnsupportedRulesError, errors.InvalidRulesError)
    with pytest.raises(errors.UnsupportedRulesError, match="five-card"):
        encode_rules(Rules(five_card_hand=FiveCardHand.BEATS_BLACKJACK))


def test_python_soft_totals_follow_the_one_rule() -> None:
    """The analysis's and the simulator's Python code use twentyone.hand's soft-total rule;
    the compiled twin in the simulation kernels gives the same totals."""
    from twentyone.analysis.hands import hand_space
    from twentyone.hand import best_total, is_soft
    from twentyone.simulation import cd, kernels

    space = hand_space(1)
    for index, counts in enumerate(space.counts):
        hard, aces = int(space.hard[index]), bool(counts[0])
        assert bool(space.soft[index]) == is_soft(hard, aces)
        assert int(space.total[index]) == best_total(hard, aces)
    for cards in cd.compositions():
        assert cd.best_total(cards) == best_total(sum(cards), 1 in cards)
    for hard in range(2, 32):
        for ace in (0, 1):
            assert kernels.best_total(hard, ace) == best_total(hard, bool(ace))
