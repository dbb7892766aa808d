"""Cards, hand values, rules and shoes."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twentyone.cards import DECK, Card, format_cards, parse_cards
from twentyone.errors import InvalidCardError, InvalidRulesError, ShoeExhaustedError
from twentyone.hand import hand_value, is_blackjack, is_five_card_hand
from twentyone.presets import CASINO, ONLINE, preset
from twentyone.randomness import SeededRandomSource, SystemRandomSource, fisher_yates
from twentyone.rules import (
    Double,
    Peek,
    Rules,
    Shuffle,
    Surrender,
    rules_from_json,
)
from twentyone.shoe import FiniteShoe, InfiniteShoe, ScriptedShoe, check_possible, shoe_for


@pytest.mark.parametrize(
    ("text", "canonical"), [("AS", "AS"), ("th", "TH"), ("10d", "TD"), (" qc ", "QC"), ("9H", "9H")]
)
def test_card_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["1S", "AX", "", "10", "ASD", "11H", "T"])
def test_unknown_cards_are_refused(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.parse(text)


def test_deck_has_52_distinct_cards() -> None:
    assert len(set(DECK)) == 52
    assert Counter(card.value for card in DECK) == {**{v: 4 for v in range(1, 10)}, 10: 16}
    assert format_cards(parse_cards("as, 10h")) == "AS TH"


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("AS AD", 12, True),
        ("AS 6D", 17, True),
        ("AS 6D TC", 17, False),
        ("AS AD 9C", 21, True),
        ("TS 6D 6C", 22, False),
        ("AS KD", 21, True),
    ],
)
def test_hand_values(cards: str, total: int, soft: bool) -> None:
    value = hand_value(parse_cards(cards))
    assert (value.total, value.soft) == (total, soft)


def test_ace_one_only_variant() -> None:
    assert hand_value(parse_cards("AS 6D"), aces_high=False).total == 7


def test_blackjack_and_five_card_hands() -> None:
    assert is_blackjack(parse_cards("KD AS"))
    assert not is_blackjack(parse_cards("KD AS"), from_split=True)
    assert not is_blackjack(parse_cards("7D 7S 7C"))
    assert is_five_card_hand(parse_cards("2S 2D 3C 3H 4S"))
    assert not is_five_card_hand(parse_cards("TS 2D 3C 3H 4S"))


def test_presets_match_the_spec() -> None:
    assert CASINO.peek is Peek.NONE and CASINO.surrender is Surrender.LATE
    assert CASINO.max_hands == 4 and not CASINO.resplit_aces and CASINO.double is Double.ANY
    assert CASINO.shuffle is Shuffle.CUT_CARD and CASINO.penetration == Fraction(3, 4)
    assert ONLINE.shuffle is Shuffle.EVERY_ROUND and ONLINE.max_hands == 2
    assert ONLINE.peek is Peek.ACE_TEN and ONLINE.surrender is Surrender.NONE
    assert (ONLINE.min_bet, ONLINE.max_bet, ONLINE.max_boxes) == (100, 100_000, 1)
    assert preset("casino") is CASINO


@pytest.mark.parametrize(
    "changes",
    [
        {"decks": 0},
        {"decks": -2},
        {"max_hands": 0},
        {"penetration": Fraction(3, 2)},
        {"min_bet": 0},
        {"max_hands": True},
        {"decks": "6"},
        {"colour": "red"},
    ],
)
def test_bad_rules_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        Rules().replace(**changes)


def test_rules_json_round_trip() -> None:
    for rules in (CASINO, ONLINE, CASINO.replace(decks=None, blackjack_pays=Fraction(6, 5))):
        data = rules.to_json()
        assert rules_from_json(data) == rules
    with pytest.raises(InvalidRulesError, match="peek"):
        rules_from_json({"peek": "sometimes"})
    with pytest.raises(InvalidRulesError, match="unknown preset"):
        preset("poker")


@given(st.integers(0, 2**64))
def test_shuffle_is_a_permutation(seed: int) -> None:
    items = list(range(60))
    assert sorted(fisher_yates(items, SeededRandomSource(seed))) == list(range(60))


def test_fisher_yates_is_unbiased_on_three_items() -> None:
    # All 6 orders of 3 items, 6000 shuffles: each order near 1000 (chi-square, 5 dof).
    source = SeededRandomSource(2024)
    counts = Counter(tuple(fisher_yates([0, 1, 2], source)) for _ in range(6000))
    assert len(counts) == 6
    chi_square = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi_square < 20.5  # p < 0.001 for 5 degrees of freedom


def test_system_source_is_in_range() -> None:
    source = SystemRandomSource()
    assert all(0 <= source.randbelow(7) < 7 for _ in range(100))


def test_every_round_shuffle_and_cut_card() -> None:
    every = FiniteShoe(1, SeededRandomSource(1), Shuffle.EVERY_ROUND)
    cut = FiniteShoe(1, SeededRandomSource(1), Shuffle.CUT_CARD, Fraction(1, 2))
    for shoe in (every, cut):
        for _ in range(10):
            shoe.start_round()
            for _ in range(10):
                shoe.draw()
            shoe.end_round()
    assert every.shuffles == 10
    # 10 cards a round, cut card at 26: shuffles at rounds 1, 4, 7, 10.
    assert cut.shuffles == 4


def test_shoe_for_rules() -> None:
    assert isinstance(shoe_for(CASINO.replace(decks=None), SeededRandomSource(0)), InfiniteShoe)
    shoe = shoe_for(CASINO, SeededRandomSource(0))
    assert isinstance(shoe, FiniteShoe) and shoe.size == 312 and shoe.cut_position == 234


def test_scripted_shoe_and_possible_cards() -> None:
    shoe = ScriptedShoe(parse_cards("AS"))
    shoe.draw()
    with pytest.raises(ShoeExhaustedError, match="card #2"):
        shoe.draw()
    check_possible(parse_cards("AS AS"), 2)
    with pytest.raises(InvalidRulesError, match="3 times"):
        check_possible(parse_cards("AS AS AS"), 2)
    check_possible(parse_cards("AS AS AS"), None)
