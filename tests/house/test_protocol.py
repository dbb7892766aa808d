"""The house round as a protocol game: explicit chance, seats, time, views, saving and loading."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.cards import DECK, Card, parse_cards
from twentyone.clock import ManualClock
from twentyone.errors import IllegalActionError, InvalidCardError, InvalidRulesError
from twentyone.house.actions import (
    DOUBLE,
    HIT,
    NO_INSURANCE,
    SPLIT,
    STAND,
    SURRENDER,
    Action,
    ActionKind,
)
from twentyone.house.events import CardDealt, Decided
from twentyone.house.round import Round
from twentyone.presets import CASINO, ONLINE
from twentyone.protocol import CHANCE, Game, GameStateError, NotYourTurnError, run_chance
from twentyone.rules import Double, EnhcLoses, Peek, Rules, SplitBy, Surrender, Ties
from twentyone.shoe import ScriptedShoe

rule_sets = st.builds(
    lambda base, **changes: base.replace(**changes),
    st.sampled_from([CASINO, ONLINE.replace(max_boxes=3)]),
    decks=st.sampled_from([1, 2, 6, None]),
    dealer_hits_soft_17=st.booleans(),
    peek=st.sampled_from(list(Peek)),
    enhc_loses=st.sampled_from(list(EnhcLoses)),
    blackjack_pays=st.sampled_from([Fraction(3, 2), Fraction(6, 5)]),
    double=st.sampled_from(list(Double)),
    double_after_split=st.booleans(),
    split_by=st.sampled_from(list(SplitBy)),
    max_hands=st.integers(1, 4),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(list(Surrender)),
    insurance=st.booleans(),
    ties=st.sampled_from(list(Ties)),
)


def shuffled_cards(rules: Rules, seed: int, count: int = 60) -> list[Card]:
    """A seeded shuffled shoe, top first (the infinite deck: independent draws)."""
    rng = random.Random(seed)
    if rules.decks is None:
        return [rng.choice(DECK) for _ in range(count)]
    return rng.sample(list(DECK) * rules.decks, min(count, 52 * rules.decks))


def choices(round_: Round) -> list[Action]:
    """The legal actions, with the smallest insurance amount too."""
    legal = list(round_.legal_actions(round_.box_index))
    if any(action.kind is ActionKind.INSURANCE for action in legal):
        legal.append(Action(ActionKind.INSURANCE, 1))
    return legal


def results(round_: Round) -> list[object]:
    return [(box.net, [(h.result, h.net) for h in box.hands]) for box in round_.boxes]


def bets_for(rules: Rules, boxes: int) -> list[int]:
    return [rules.min_bet + 37 * index for index in range(min(boxes, rules.max_boxes))]


def test_the_round_is_a_protocol_game() -> None:
    assert isinstance(Round.start(CASINO, [1000]), Game)


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 2**32), st.integers(1, 3), st.data())
def test_saving_and_loading_at_every_step_changes_nothing(
    rules: Rules, seed: int, boxes: int, data: st.DataObject
) -> None:
    """At every step: save, load, apply the same step to both; events, views, saved states and
    finally the results are identical (and a copy loaded at the start, continued to the end by
    every step, agrees too)."""
    cards = iter(shuffled_cards(rules, seed))
    round_ = Round.start(rules, bets_for(rules, boxes))
    first_copy = Round.from_json(round_.to_json())
    for _ in range(200):
        if round_.is_over:
            break
        copy = Round.from_json(round_.to_json())
        assert copy.to_json() == round_.to_json()
        assert copy.view(None) == round_.view(None)
        if round_.to_act() == (CHANCE,):
            card = next(cards)
            steps = [game.apply_chance(card) for game in (round_, copy, first_copy)]
        else:
            seat = round_.to_act()[0]
            assert isinstance(seat, int)
            assert copy.view(seat) == round_.view(seat)
            action = data.draw(st.sampled_from(choices(round_)))
            steps = [game.apply(seat, action) for game in (round_, copy, first_copy)]
        assert steps[0] == steps[1] == steps[2]
        assert round_.events == copy.events == first_copy.events
        assert round_.view(None) == copy.view(None) == first_copy.view(None)
    assert round_.is_over and first_copy.is_over
    assert results(round_) == results(first_copy)
    assert Round.from_json(round_.to_json()).events == round_.events


@settings(max_examples=60, deadline=None)
@given(rule_sets, st.integers(0, 2**32), st.integers(1, 3), st.data())
def test_explicit_and_automatic_chance_give_the_same_round(
    rules: Rules, seed: int, boxes: int, data: st.DataObject
) -> None:
    cards = shuffled_cards(rules, seed)
    bets = bets_for(rules, boxes)
    explicit = Round.start(rules, bets)
    given_cards = iter(cards)
    taken: list[Action] = []
    while not explicit.is_over:
        if explicit.to_act() == (CHANCE,):
            explicit.apply_chance(next(given_cards))
        else:
            action = data.draw(st.sampled_from(choices(explicit)))
            taken.append(action)
            explicit.apply(explicit.box_index, action)
    automatic = Round.deal(rules, bets, ScriptedShoe(cards))
    assert automatic.to_act() != (CHANCE,)
    for action in taken:
        automatic.act(action)
    assert automatic.is_settled
    assert automatic.events == explicit.events
    assert automatic.view(None) == explicit.view(None)


def test_a_seat_that_is_not_to_act_is_refused_and_nothing_changes() -> None:
    round_ = Round.deal(CASINO, [1000, 1000], ScriptedShoe(parse_cards("TS 9H 6D 8C 7S 5D TC")))
    assert round_.to_act() == (0,)
    before = round_.to_json()
    for seat in (1, 2, -1, True, "0"):
        with pytest.raises(NotYourTurnError):
            round_.apply(seat, STAND)  # type: ignore[arg-type]
        assert not round_.can_apply(seat, STAND)  # type: ignore[arg-type]
        assert round_.legal_actions(seat) == ()  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="split"):
        round_.apply(0, SPLIT)
    with pytest.raises(NotYourTurnError, match="own shoe"):
        round_.apply_chance(Card.parse("AS"))
    assert round_.to_json() == before
    assert [type(event) for event in round_.apply(0, STAND)] == [Decided]
    assert round_.to_act() == (1,)


def test_explicit_chance_waits_for_each_card_and_refuses_decisions_meanwhile() -> None:
    round_ = Round.start(ONLINE, [1000])
    assert round_.to_act() == (CHANCE,) and round_.legal_actions(0) == ()
    with pytest.raises(NotYourTurnError):
        round_.apply(0, HIT)
    with pytest.raises(InvalidCardError):
        round_.apply_chance("AS")  # type: ignore[arg-type]
    assert run_chance(round_, iter(parse_cards("TS 9H 6D 8C")).__next__)
    assert round_.to_act() == (0,)
    with pytest.raises(NotYourTurnError, match="no card is needed"):
        round_.apply_chance(Card.parse("AS"))
    # A one-deck table refuses a second ace of spades.
    single = Round.start(ONLINE.replace(decks=1), [1000])
    single.apply_chance(Card.parse("AS"))
    with pytest.raises(IllegalActionError, match="1-deck"):
        single.apply_chance(Card.parse("AS"))


def test_the_public_view_hides_the_hole_card_until_it_is_revealed() -> None:
    round_ = Round.start(ONLINE, [1000])
    for card in parse_cards("TS 9H 6D 8C"):
        round_.apply_chance(card)
    for seat in (None, 0):
        view = round_.view(seat)
        assert view["dealer"]["cards"] == ["9H", None]
        assert "8C" not in str(view)
    assert round_.view(0)["legal_actions"] == ["hit", "stand", "double"]
    round_.apply(0, STAND)
    assert round_.is_over and round_.view(None)["dealer"]["cards"] == ["9H", "8C"]
    with pytest.raises(IllegalActionError):
        round_.view(3)


def test_deadlines_take_the_standard_decision_when_they_pass() -> None:
    clock = ManualClock(100.0)
    round_ = Round.start(CASINO, [1000, 1000], decision_seconds=30, now=clock.now())
    for card in parse_cards("TS 9H AD 8C 7S"):  # the up card is an ace: insurance first
        round_.apply_chance(card)
    assert round_.to_act() == (0,) and round_.deadline() == 130.0
    clock.advance(29.5)
    assert round_.expire(clock.now()) == ()
    # Box 0 answers at 129.5: box 1's time starts then.
    round_.apply(0, NO_INSURANCE, now=clock.now())
    assert round_.deadline() == 159.5
    clock.set(250.0)
    events = round_.expire(clock.now())
    # Box 1's insurance and then box 0's and box 1's hands all time out (each starts at the
    # previous deadline); then the dealer needs a card.
    assert [(e.box, e.action, e.timed_out) for e in events if isinstance(e, Decided)] == [
        (1, "no-insurance", True),
        (0, "stand", True),
        (1, "stand", True),
    ]
    assert round_.to_act() == (CHANCE,) and round_.deadline() is None
    assert events[0].to_json()["timed_out"] is True
    assert Round.from_json(round_.to_json()).events == round_.events
    assert Round.start(CASINO, [1000]).deadline() is None


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf"), True, "30", 10**400])
def test_a_bad_decision_time_is_refused(seconds: object) -> None:
    with pytest.raises(InvalidRulesError, match="decision_seconds"):
        Round.start(CASINO, [1000], decision_seconds=seconds)  # type: ignore[arg-type]


def good_state() -> dict[str, object]:
    round_ = Round.start(CASINO, [1000])
    for card in parse_cards("8S 7H 8D"):
        round_.apply_chance(card)
    round_.apply(0, SPLIT)
    return round_.to_json()


@pytest.mark.parametrize(
    "change",
    [
        {"game": "exchange"},
        {"version": 2},
        {"version": True},
        {"rules": {"decks": 0}},
        {"rules": "casino"},
        {"rules": {"decks": 6}},  # not the complete rules
        {"bets": [1000, 1000]},
        {"bets": ["1000"]},
        {"cards": ["8S", "7H"]},  # too few for the decisions
        {"cards": ["8S", "7H", "8D", "2C", "3C", "4C"]},  # a card never asked for
        {"cards": ["8S", "7H", "XX"]},
        {"cards": "8S 7H 8D"},
        {"decisions": ["insurance 100"]},  # not legal where it comes (no ace up)
        {"decisions": ["split", "stand"]},  # comes while a card is awaited
        {"decisions": [["split"]]},
        {"timed_out": [3]},
        {"timed_out": [False]},
        {"decision_seconds": -5},
        {"decision_started": float("nan")},
        {"to_act": [0]},
        {"extra": 1},
    ],
)
def test_a_malformed_state_is_a_game_state_error(change: dict[str, object]) -> None:
    state = {**good_state(), **change}
    with pytest.raises(GameStateError):
        Round.from_json(state)


def test_a_state_missing_a_key_or_not_an_object_is_a_game_state_error() -> None:
    state = good_state()
    del state["cards"]
    bad: list[object] = [state, None, [], "state", {"game": "house"}]
    for data in bad:
        with pytest.raises(GameStateError):
            Round.from_json(data)
    assert Round.from_json(good_state()).to_act() == (CHANCE,)


def test_surrender_and_double_wait_for_their_cards_in_explicit_chance() -> None:
    round_ = Round.start(CASINO.replace(max_boxes=2), [1000, 1000])
    for card in parse_cards("TS 5H 6D KC 6C"):
        round_.apply_chance(card)
    assert [str(a) for a in round_.legal_actions(0)] == [
        "hit",
        "stand",
        "double",
        "split",
        "surrender",
    ]
    round_.apply(0, SURRENDER)
    assert round_.apply(1, DOUBLE)[-1] == Decided(1, 0, "double")
    assert round_.boxes[1].hands[0].stake == 2000 and round_.to_act() == (CHANCE,)
    events = round_.apply_chance(Card.parse("9S"))
    assert isinstance(events[0], CardDealt) and events[0].box == 1
    assert round_.to_act() == (CHANCE,)  # the dealer's second card: box 1's 20 needs it
