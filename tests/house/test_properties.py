"""Property-based tests of the house-banked round over many rule sets and shoes."""

from __future__ import annotations

import copy
import json
from collections import Counter
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from twentyone.errors import IllegalActionError
from twentyone.house.actions import Action, ActionKind
from twentyone.house.events import CardDealt, HandSettled, InsuranceSettled, RoundSettled
from twentyone.house.round import Phase, Result, Round
from twentyone.presets import CASINO, ONLINE, preset
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Double, EnhcLoses, Peek, Rules, SplitBy, Surrender, Ties
from twentyone.scenario import run_scenario, scenario_of_round
from twentyone.shoe import shoe_for

rule_sets = st.builds(
    lambda base, **changes: base.replace(**changes),
    st.sampled_from([CASINO, ONLINE.replace(max_boxes=3)]),
    decks=st.sampled_from([1, 2, 6, None]),
    dealer_hits_soft_17=st.booleans(),
    peek=st.sampled_from(list(Peek)),
    enhc_loses=st.sampled_from(list(EnhcLoses)),
    blackjack_pays=st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1)]),
    double=st.sampled_from(list(Double)),
    double_after_split=st.booleans(),
    split_by=st.sampled_from(list(SplitBy)),
    max_hands=st.integers(1, 5),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(list(Surrender)),
    insurance=st.booleans(),
    ties=st.sampled_from(list(Ties)),
)

ALL_KINDS = [kind for kind in ActionKind if kind is not ActionKind.INSURANCE]


def snapshot(round_: Round) -> object:
    return (
        copy.deepcopy(round_.boxes),
        list(round_.dealer),
        round_.phase,
        len(round_.events),
        round_.box_index,
        round_.hand_index,
    )


def play_randomly(rules: Rules, seed: int, boxes: int, choices: st.DataObject) -> Round:
    shoe = shoe_for(rules, SeededRandomSource(seed))
    bets = [rules.min_bet + 37 * index for index in range(min(boxes, rules.max_boxes))]
    round_ = Round.deal(rules, bets, shoe)
    for _ in range(200):
        if round_.is_settled:
            break
        # Every illegal action is refused and changes nothing.
        before = snapshot(round_)
        for kind in ALL_KINDS:
            action = Action(kind)
            if not round_.can_act(action):
                try:
                    round_.act(action)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"illegal {action} was accepted")
                assert snapshot(round_) == before
        for amount in (0, 10**9):
            insurance = Action(ActionKind.INSURANCE, amount)
            assert not round_.can_act(insurance)
        legal = round_.legal_actions()
        assert legal, "an unsettled round always has a legal action"
        for kind in ALL_KINDS:
            assert round_.can_act(Action(kind)) == (Action(kind) in legal)
        action = choices.draw(st.sampled_from(list(legal)))
        if action.kind is ActionKind.INSURANCE:
            assert action.amount is not None
            action = Action(ActionKind.INSURANCE, choices.draw(st.integers(1, action.amount)))
        round_.act(action)
    return round_


@settings(max_examples=300, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32), boxes=st.integers(1, 4), choices=st.data())
def test_any_legal_play_settles_and_conserves_money(
    rules: Rules, seed: int, boxes: int, choices: st.DataObject
) -> None:
    round_ = play_randomly(rules, seed, boxes, choices)
    assert round_.phase is Phase.SETTLED
    assert round_.legal_actions() == ()
    settled = [e for e in round_.events if isinstance(e, HandSettled)]
    insurance = [e for e in round_.events if isinstance(e, InsuranceSettled)]
    final = [e for e in round_.events if isinstance(e, RoundSettled)]
    # Every hand settled exactly once, and the events carry all the money.
    assert len(settled) == sum(len(box.hands) for box in round_.boxes)
    assert len({(e.box, e.hand) for e in settled}) == len(settled)
    boxes_net = sum(e.net for e in settled) + sum(e.net for e in insurance)
    assert boxes_net == sum(box.net for box in round_.boxes)
    assert len(final) == 1 and final[0].house_net + boxes_net == 0
    for box in round_.boxes:
        assert box.bet >= rules.min_bet
        for hand in box.hands:
            assert hand.net is not None and hand.result is not None
            # A hand can lose at most its stake and win at most its stake times the best payout.
            assert -hand.stake <= hand.net <= hand.stake * max(1, rules.blackjack_pays)
            if hand.result is Result.BUST:
                assert hand.value(rules.aces_high).bust
            if hand.result is Result.BLACKJACK:
                assert hand.natural and not hand.from_split
            if hand.result is Result.SURRENDER:
                assert hand.net == hand.stake // 2 - hand.stake
        assert len(box.hands) <= rules.max_hands
        if box.insurance:
            assert box.insurance_net in (2 * box.insurance, -box.insurance)
    # The dealer stops at 17 or more unless no live hand needed more cards.
    dealer = round_.dealer_value()
    if dealer.total < 17 and len(round_.dealer) > 2:
        raise AssertionError("the dealer stopped drawing below 17")


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.data())
def test_rounds_are_reproducible_from_the_seed(seed: int, choices: st.DataObject) -> None:
    picks = choices.draw(st.lists(st.integers(0, 10), min_size=30, max_size=30))

    def play() -> list[dict[str, object]]:
        round_ = Round.deal(CASINO, [100, 200], shoe_for(CASINO, SeededRandomSource(seed)))
        for pick in picks:
            if round_.is_settled:
                break
            legal = round_.legal_actions()
            round_.act(legal[pick % len(legal)])
        return [event.to_json() for event in round_.events]

    assert play() == play()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.data())
def test_hole_card_never_public_before_it_is_shown(seed: int, choices: st.DataObject) -> None:
    rules = ONLINE.replace(max_boxes=2)
    round_ = Round.deal(rules, [100, 100], shoe_for(rules, SeededRandomSource(seed)))
    hole = str(round_.dealer[1])
    while True:
        public = round_.public_events()
        hidden = [e for e in public if e.get("face_up") is False]
        assert len(hidden) == 1 and hidden[0]["card"] is None
        if not round_.hole_card_revealed:
            # The hole card's name appears in what players see only as often as copies of it
            # (six decks) were dealt face up.
            shown = sum(
                1
                for event in round_.events
                if isinstance(event, CardDealt) and event.face_up and str(event.card) == hole
            )
            assert json.dumps(public).count(f'"{hole}"') == shown
        if round_.is_settled:
            break
        legal = round_.legal_actions()
        round_.act(legal[choices.draw(st.integers(0, len(legal) - 1))])
    assert round_.hole_card_revealed
    assert {"type": "hole-card-revealed", "card": hole} in round_.public_events()


@settings(max_examples=200, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32), boxes=st.integers(1, 4), choices=st.data())
def test_events_replay_to_the_same_round(
    rules: Rules, seed: int, boxes: int, choices: st.DataObject
) -> None:
    # The audit trail is complete: the scenario rebuilt from a round's events replays to the
    # same events and money, through the code behind `twentyone replay`.
    game = "online" if rules.max_boxes == 3 else "casino"
    rules = rules.replace(max_boxes=preset(game).max_boxes)
    round_ = play_randomly(rules, seed, boxes, choices)
    scenario = scenario_of_round(round_, game)
    # A one-deck shoe that ran out mid-round reshuffled its discards: not a shoe a scenario allows.
    assume(rules.decks is None or max(Counter(scenario["cards"]).values()) <= rules.decks)
    replayed = run_scenario(scenario)
    assert replayed["events"] == [event.to_json() for event in round_.events]
    assert [box["net"] for box in replayed["boxes"]] == [box.net for box in round_.boxes]
