"""Hostile input to the house round and its rules (issue 12: D8, D9, D10 and their siblings).

Every rule value, bet, decision and amount a caller can pass is either accepted or refused with
a typed :class:`~twentyone.errors.TwentyOneError`, and a refusal changes nothing (the round's
whole saved state is compared before and after).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.cards import parse_cards
from twentyone.errors import (
    IllegalActionError,
    InvalidRulesError,
    ShoeExhaustedError,
    TwentyOneError,
)
from twentyone.house.actions import DOUBLE, STAND, Action, ActionKind
from twentyone.house.round import Round
from twentyone.presets import CASINO, ONLINE
from twentyone.protocol import GameStateError, NotYourTurnError
from twentyone.rules import (
    MAX_BOXES,
    MAX_DECKS,
    MAX_HANDS,
    FiveCardHand,
    Rules,
    rules_from_json,
    rules_state,
)
from twentyone.shoe import ScriptedShoe


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([10**5000, -(10**5000), 2**63, -(2**63) - 1, 0, -1, 1, 7, 8, 9, 17]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.sampled_from(
        [
            "٣",  # Arabic-Indic three
            "٢.٥",
            "1_0",
            "²",
            "６",  # fullwidth six
            "1e999999999",
            "cut:1e999999999",
            "cut:٠.٧٥",
            "cut:0.75",
            "cut:3/2",
            "3:2",
            "٣:٢",
            "1e5:1",
            "inf",
            "nan",
            "",
            " 6 ",
            "ace-ten",
            "9" * 5000,
            "x" * 100_000,
        ]
    ),
    st.text(max_size=12),
    st.fractions(),
    st.sampled_from([Fraction(10**5000, 3), Fraction(1, 10**5000), Fraction(-1, 2)]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(nested(200)),
    st.just(object()),
)

RULE_FIELDS = [f.name for f in dataclasses.fields(Rules)]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(RULE_FIELDS), HOSTILE)
def test_every_rules_field_accepts_or_refuses_with_a_typed_error(name: str, value: object) -> None:
    changes: dict[str, Any] = {name: value}
    builds: list[Callable[[], Rules]] = [
        lambda: Rules(**changes),
        lambda: CASINO.replace(**changes),
    ]
    for build in builds:
        try:
            rules = build()
        except InvalidRulesError as error:
            assert len(str(error)) < 400
        else:
            assert getattr(rules, name) == value
            assert Rules.from_json(rules_state(rules)) == rules


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([*RULE_FIELDS, "penetration", "colour", ""]), HOSTILE)
def test_every_rules_json_value_accepts_or_refuses_with_a_typed_error(
    name: str, value: object
) -> None:
    try:
        rules = Rules.from_json({name: value})
    except InvalidRulesError as error:
        assert len(str(error)) < 400
    else:
        assert Rules.from_json(rules_state(rules)) == rules


def test_rules_json_reads_only_ascii_digits_and_plain_values() -> None:
    for overrides in (
        {"decks": "٣"},
        {"decks": "1_0"},
        {"decks": 2.0},
        {"shuffle": "cut:٠.٧٥"},
        {"shuffle": "cut:1e999999999"},
        {"shuffle": ["cut"]},
        {"blackjack_pays": "٣:٢"},
        {"blackjack_pays": " 3:2"},
        {"blackjack_pays": "3:0"},
        {"peek": ["none"]},
        {"max_hands": 4.0},
        {"penetration": 0.75},
    ):
        with pytest.raises(InvalidRulesError):
            rules_from_json(overrides)


def test_rule_values_have_ranges_stated_in_their_errors() -> None:
    with pytest.raises(InvalidRulesError, match=f"max_hands must be 1 to {MAX_HANDS}"):
        CASINO.replace(max_hands=999)
    with pytest.raises(InvalidRulesError, match=f"decks must be 1 to {MAX_DECKS} or infinite"):
        CASINO.replace(decks=9)
    with pytest.raises(InvalidRulesError, match=f"max_boxes must be 1 to {MAX_BOXES}"):
        CASINO.replace(max_boxes=8)
    with pytest.raises(InvalidRulesError, match="min_bet <= max_bet <= "):
        CASINO.replace(max_bet=10**16)
    with pytest.raises(InvalidRulesError, match="at most 10:1") as caught:
        CASINO.replace(blackjack_pays=Fraction(11))
    with pytest.raises(InvalidRulesError, match=r"got 1\.5") as caught:
        CASINO.replace(penetration=Fraction(3, 2))
    assert "3/2" not in str(caught.value)
    with pytest.raises(InvalidRulesError, match="an integer of 16610 bits"):
        CASINO.replace(max_hands=10**5000)
    # A penetration that is not a short decimal still saves and loads exactly.
    thirds = CASINO.replace(penetration=Fraction(2, 3))
    assert Rules.from_json(rules_state(thirds)) == thirds
    assert thirds.to_json()["shuffle"] == "cut:2/3"
    assert CASINO.to_json()["shuffle"] == "cut:0.75"


# ----------------------------------------------------------------- D8: insurance amounts


@pytest.mark.parametrize("amount", [2.5, "250", True, False, 10**400, -1, None, [250]])
def test_an_insurance_amount_is_an_int_or_refused(amount: object) -> None:
    if amount is None:
        pytest.skip("None is 'no amount', refused for insurance by its own rule")
    with pytest.raises(IllegalActionError):
        Action(ActionKind.INSURANCE, amount)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["insurance ٢٥٠", "insurance ²", "insurance 2_5", "insurance 2.5"])
def test_insurance_text_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(IllegalActionError):
        Action.parse(text)


def insurance_round() -> Round:
    round_ = Round.deal(CASINO, [1000], ScriptedShoe(parse_cards("TS AD 6H KC 9C 5S")))
    assert round_.phase.value == "insurance"
    return round_


@settings(max_examples=200, deadline=None)
@given(HOSTILE, HOSTILE)
def test_hostile_decisions_and_seats_change_nothing(amount: object, seat: object) -> None:
    try:
        action = Action(ActionKind.INSURANCE, amount)  # type: ignore[arg-type]
    except TwentyOneError:
        action = STAND
    hostile: Any = amount
    attempts: list[Callable[[Round], object]] = [
        lambda r: r.apply(seat, action),  # type: ignore[arg-type]
        lambda r: r.apply(0, action),
        lambda r: r.act(action),
        lambda r: r.apply(0, hostile),
        lambda r: r.apply_chance(hostile),
        lambda r: r.expire(hostile),
        lambda r: r.view(seat),  # type: ignore[arg-type]
        lambda r: r.legal_actions(seat),  # type: ignore[arg-type]
    ]
    for attempt in attempts:
        round_ = insurance_round()
        before = round_.to_json()
        try:
            attempt(round_)
        except TwentyOneError:
            assert round_.to_json() == before
        else:
            after = round_.to_json()
            if after != before:  # only a legal insurance decision may have been taken
                assert after["decisions"] == [f"insurance {amount}"]
                assert type(amount) is int and 1 <= amount <= 500


@settings(max_examples=200, deadline=None)
@given(st.one_of(HOSTILE, st.lists(HOSTILE, min_size=1, max_size=3)))
def test_hostile_bets_are_refused_with_a_typed_error(bets: Any) -> None:
    shoe = ScriptedShoe(parse_cards("TS 9H 6D 8C 7S 5D TC 2S 3S 4S 5S 6S 7D 8D 9D"))
    try:
        round_ = Round.deal(CASINO, bets, shoe)
    except TwentyOneError as error:
        assert len(str(error)) < 400
    else:
        assert list(round_.boxes_bets()) == list(bets)
    with contextlib.suppress(TwentyOneError):
        Round.start(CASINO, bets, decision_seconds=bets, now=bets)


# ---------------------------------------------------------- D9: unsupported rule settings


def test_rules_the_house_round_does_not_play_are_refused() -> None:
    for rules in (CASINO.replace(aces_high=False), ONLINE.replace(aces_high=False)):
        with pytest.raises(InvalidRulesError, match="aces_high"):
            Round.deal(rules, [1000], ScriptedShoe(parse_cards("AS KD TH 9C")))
        with pytest.raises(InvalidRulesError, match="aces_high"):
            Round.start(rules, [1000])
    with pytest.raises(InvalidRulesError, match="five-card"):
        Round.start(CASINO.replace(five_card_hand=FiveCardHand.BEATS_BLACKJACK), [1000])
    with pytest.raises(InvalidRulesError):
        Round.start("casino", [1000])  # type: ignore[arg-type]


# ------------------------------------------------- D10: the shoe running out mid-action


def test_a_shoe_running_out_mid_double_changes_nothing_and_a_retry_cannot_triple() -> None:
    round_ = Round.deal(ONLINE, [1000], ScriptedShoe(parse_cards("5S 7H 6D 9C")))
    before = round_.to_json()
    for _ in range(3):
        with pytest.raises(ShoeExhaustedError):
            round_.act(DOUBLE)
        assert round_.to_json() == before
        assert round_.boxes[0].hands[0].stake == 1000
        assert not round_.boxes[0].hands[0].doubled
        assert DOUBLE in round_.legal_actions()


def test_a_shoe_running_out_in_the_dealers_turn_changes_nothing() -> None:
    # Casino: the dealer's cards come after the stand; the script holds only one of them.
    round_ = Round.deal(CASINO, [1000], ScriptedShoe(parse_cards("TS 6H 7D 2C")))
    before = round_.to_json()
    with pytest.raises(ShoeExhaustedError):
        round_.apply(0, STAND)
    assert round_.to_json() == before
    assert round_.to_act() == (0,) and [str(a) for a in round_.legal_actions(0)][:2] == [
        "hit",
        "stand",
    ]
    with pytest.raises(NotYourTurnError):
        round_.apply(1, STAND)


# ------------------------------------------------------------------ saved states


def saved_state() -> dict[str, Any]:
    round_ = Round.start(CASINO, [1000, 500])
    for card in parse_cards("8S 7H AD 8D 9C"):
        round_.apply_chance(card)
    round_.apply(0, Action(ActionKind.INSURANCE, 200))
    return round_.to_json()


STATE_KEYS = sorted(saved_state())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(STATE_KEYS), HOSTILE)
def test_a_hostile_value_in_a_saved_state_is_a_game_state_error(key: str, value: object) -> None:
    state = saved_state()
    state[key] = value
    try:
        round_ = Round.from_json(state)
    except GameStateError as error:
        assert len(str(error)) < 600
    else:  # only a value that means the same state loads
        assert round_.to_json() == {**saved_state(), key: round_.to_json()[key]}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["cards", "decisions", "bets", "timed_out"]), st.integers(0, 9), HOSTILE)
def test_a_hostile_item_in_a_saved_list_is_a_game_state_error(
    key: str, index: int, value: object
) -> None:
    state = saved_state()
    items = list(state[key])
    items.insert(min(index, len(items)), value)
    state[key] = items
    if key == "timed_out" and items == [0]:
        return  # "the one decision timed out": a different state, but a valid one
    with pytest.raises(GameStateError):
        Round.from_json(state)
