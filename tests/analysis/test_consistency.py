"""Internal consistency of the analysis: sums, weights, effects of removal, two engines."""

from __future__ import annotations

from fractions import Fraction

import pytest

from twentyone.analysis.dealer import dealer_distributions
from twentyone.analysis.engine import analyze_upcard, prepare
from twentyone.analysis.exact import exact_ev_by_upcard, exact_expected_return
from twentyone.analysis.house_edge import analyze, basic_strategy_ev, expected_return
from twentyone.analysis.strategy import basic_strategy
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Double, EnhcLoses, Peek, Rules, Surrender, Ties


@pytest.mark.parametrize(
    "rules",
    [CASINO, ONLINE.replace(dealer_hits_soft_17=True), Rules(decks=None)],
    ids=["casino", "online-h17", "inf"],
)
@pytest.mark.parametrize("no_blackjack", [False, True])
def test_every_dealer_distribution_sums_to_one(rules: Rules, no_blackjack: bool) -> None:
    for up, results in dealer_distributions(rules, no_blackjack=no_blackjack).items():
        assert sum(results.values()) == pytest.approx(1.0, abs=1e-12), up
        assert all(p >= 0 for p in results.values())
        if no_blackjack or up not in ("A", "T"):
            assert results["blackjack"] == 0


@pytest.mark.parametrize("rules", [CASINO, ONLINE], ids=["casino", "online"])
def test_ev_by_upcard_weighted_is_the_overall_ev(rules: Rules) -> None:
    result = analyze(rules)
    weighted = sum(result.upcard_probability[up] * ev for up, ev in result.ev_by_upcard.items())
    assert weighted == pytest.approx(result.ev, abs=1e-15)
    assert sum(result.upcard_probability.values()) == pytest.approx(1.0, abs=1e-15)
    # Optimal composition-dependent play is at least as good as the basic strategy chart.
    assert result.basic_strategy_ev <= result.ev + 1e-15
    assert result.ev - result.basic_strategy_ev < 0.001


def _ev_without(rules: Rules, value: int) -> float:
    shoe = [4] * 9 + [16]
    shoe[value] -= 1
    setup = prepare(rules, shoe)
    return sum(setup.card_probability(up) * analyze_upcard(setup, up).ev for up in range(10))


def test_effects_of_removal() -> None:
    rules = Rules(decks=1, peek=Peek.ACE_TEN, max_hands=2)
    full = expected_return(rules)
    # Griffin's effects of removal for one deck: about +0.67% for a five, -0.51% for a ten.
    assert 0.005 < _ev_without(rules, 4) - full < 0.009
    assert -0.007 < _ev_without(rules, 9) - full < -0.004


INFINITE_VARIANTS = [
    Rules(decks=None),
    Rules(decks=None, peek=Peek.NONE, enhc_loses=EnhcLoses.ALL, surrender=Surrender.LATE),
    Rules(decks=None, peek=Peek.NONE, enhc_loses=EnhcLoses.ORIGINAL, dealer_hits_soft_17=True),
    Rules(decks=None, peek=Peek.ACE, surrender=Surrender.EARLY, double=Double.TEN_TO_ELEVEN),
    Rules(
        decks=None,
        max_hands=3,
        resplit_aces=True,
        hit_split_aces=True,
        double_after_split=False,
        blackjack_pays=Fraction(6, 5),
        ties=Ties.DEALER_WINS,
    ),
]


@pytest.mark.parametrize(
    "rules", INFINITE_VARIANTS, ids=[f"variant{i}" for i in range(len(INFINITE_VARIANTS))]
)
def test_compiled_engine_agrees_with_the_exact_fractions(rules: Rules) -> None:
    setup = prepare(rules)
    exact = exact_ev_by_upcard(rules)
    for up in range(10):
        assert analyze_upcard(setup, up).ev == pytest.approx(float(exact[up]), abs=1e-12), up
    # With an infinite shoe the total-dependent strategy is optimal.
    assert basic_strategy_ev(rules) == pytest.approx(float(exact_expected_return(rules)), abs=1e-12)


def test_basic_strategy_chart_has_the_textbook_plays() -> None:
    chart = basic_strategy(Rules(decks=6, peek=Peek.ACE_TEN, surrender=Surrender.LATE))
    assert chart.hard[16][10] == "Rh" and chart.hard[15][10] == "Rh"
    assert chart.hard[12][2] == "H" and chart.hard[12][4] == "S"
    assert chart.hard[11][10] == "D" and chart.hard[9][2] == "H"
    assert chart.soft[18][2] == "S" and chart.soft[18][9] == "H" and chart.soft[18][6] == "Ds"
    assert chart.pairs[1][1] == "P" and chart.pairs[8][10] == "P" and chart.pairs[10][6] != "P"
    assert chart.pairs[9][7] != "P" and chart.pairs[5][5] == "D"


def test_rule_effects_have_the_known_signs() -> None:
    base = Rules(decks=6, peek=Peek.ACE_TEN)
    ev = expected_return(base)
    assert expected_return(base.replace(dealer_hits_soft_17=True)) < ev
    assert expected_return(base.replace(surrender=Surrender.LATE)) > ev
    assert expected_return(base.replace(blackjack_pays=Fraction(6, 5))) < ev - 0.01
    assert expected_return(base.replace(double_after_split=False)) < ev
    assert expected_return(base.replace(peek=Peek.NONE, enhc_loses=EnhcLoses.ALL)) < ev


def test_cdp1_is_cdz_on_the_infinite_shoe_and_gains_on_one_deck() -> None:
    # Removing the other pair card changes nothing on an infinite shoe; on one deck CDP1
    # plays the split hands for the shoe they really face, which is worth a little.
    infinite = Rules(decks=None, max_hands=4)
    assert expected_return(infinite, "cdp1") == expected_return(infinite, "cdz-")
    one_deck = Rules(decks=1, peek=Peek.ACE_TEN, max_hands=4, surrender=Surrender.LATE)
    gain = expected_return(one_deck, "cdp1") - expected_return(one_deck, "cdz-")
    assert 0.0 < gain < 1e-4
