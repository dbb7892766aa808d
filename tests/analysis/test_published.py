"""Every blackjack figure of ``shared/reference/published.md``, to its printed digits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.exact import exact_expected_return
from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.hands import hand_space
from twentyone.analysis.house_edge import expected_return
from twentyone.rules import Double, EnhcLoses, Peek, Rules, Surrender

#: Published rules of the infinite-deck figures: S17, peek (original bets only), 3:2, double
#: any two, DAS, one card to split aces, no surrender.
INFINITE = Rules(
    decks=None,
    dealer_hits_soft_17=False,
    peek=Peek.ACE_TEN,
    enhc_loses=EnhcLoses.ORIGINAL,
    blackjack_pays=Fraction(3, 2),
    double=Double.ANY,
    double_after_split=True,
    max_hands=4,
    resplit_aces=False,
    hit_split_aces=False,
    surrender=Surrender.NONE,
)
ONE_DECK = Rules(decks=1, dealer_hits_soft_17=False, peek=Peek.ACE_TEN)
KEYS = ("17", "18", "19", "20", "21", "blackjack", "bust")


def _digits(value: Fraction | float, places: int) -> Fraction:
    """``value`` rounded half-up to ``places`` decimal places, exactly."""
    scaled = Fraction(value) * 10**places
    return Fraction(
        int(scaled + Fraction(1, 2)) if scaled >= 0 else -int(-scaled + Fraction(1, 2)), 10**places
    )


def test_split_to_four_hands_infinite_deck_exactly() -> None:
    edge = exact_expected_return(INFINITE) * 100  # percent
    assert _digits(edge, 6) == Fraction("-0.511734")
    assert expected_return(INFINITE) * 100 == pytest.approx(float(edge), abs=1e-12)


@pytest.mark.slow
def test_unlimited_resplits_infinite_deck_exactly() -> None:
    # "Unlimited": with 16 hands the chance of needing more is below 1e-13 (13**-12).
    edge = exact_expected_return(INFINITE.replace(max_hands=16)) * 100
    assert _digits(edge, 7) == Fraction("-0.5093975")


DEALER_INFINITE = {
    "6": (0.165438, 0.106267, 0.106267, 0.101715, 0.097163, 0, 0.423150),
    "T": (0.111424, 0.111424, 0.111424, 0.342194, 0.034501, 0.076923, 0.212109),
    "A": (0.130789, 0.130789, 0.130789, 0.130789, 0.053866, 0.307692, 0.115286),
}


@pytest.mark.parametrize("up", sorted(DEALER_INFINITE))
def test_dealer_totals_infinite_deck(up: str) -> None:
    exact = dealer_distribution(INFINITE, up, exact=True)
    assert sum(exact.values()) == 1
    for key, published in zip(KEYS, DEALER_INFINITE[up], strict=True):
        assert _digits(exact[key], 6) == Fraction(str(published)), key


def test_dealer_bust_with_six_up_is_the_published_fraction() -> None:
    assert dealer_distribution(INFINITE, "6", exact=True)["bust"] == Fraction(345176856, 13**8)


DEALER_ONE_DECK = {
    "A": (".183786", ".190890", ".188680", ".191692", ".075137", ".169815"),
    "T": (".124156", ".122486", ".124421", ".356869", ".039570", ".232499"),
}


@pytest.mark.parametrize("up", sorted(DEALER_ONE_DECK))
def test_dealer_totals_one_deck_no_blackjack(up: str) -> None:
    exact = dealer_distribution(ONE_DECK, up, no_blackjack=True, exact=True)
    floats = dealer_distribution(ONE_DECK, up, no_blackjack=True)
    for key, published in zip(
        ("17", "18", "19", "20", "21", "bust"), DEALER_ONE_DECK[up], strict=True
    ):
        assert _digits(exact[key], 6) == Fraction(published), key
        assert floats[key] == pytest.approx(float(exact[key]), abs=1e-14)


@pytest.mark.parametrize(
    ("hand", "up", "stand", "hit", "double"),
    [
        (["2", "A"], "A", "-0.661732", "-0.067808", "-0.593281"),
        (["6", "4"], "A", "-0.636118", "+0.081506", "+0.048615"),
        (["T", "5"], "T", "-0.538433", "-0.501091", "-1.002183"),
    ],
)
def test_per_hand_values_one_deck(
    hand: list[str], up: str, stand: str, hit: str, double: str
) -> None:
    values = hand_ev(ONE_DECK, hand, up)
    assert values.hit is not None and values.double is not None
    assert _digits(values.stand, 6) == Fraction(stand)
    assert _digits(values.hit, 6) == Fraction(hit)
    assert _digits(values.double, 6) == Fraction(double)


@pytest.mark.parametrize(
    ("decks", "count"), [(1, 2008), (2, 2796), (4, 3060), (6, 3072), (8, 3072), (None, 3072)]
)
def test_number_of_hand_compositions(decks: int | None, count: int) -> None:
    assert len(hand_space(decks).counts) == count
