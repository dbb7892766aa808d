"""The state machine: typed errors that change nothing, randomness and time injected."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from twentyone.cards import parse_cards
from twentyone.errors import IllegalActionError, ShoeExhaustedError, TwentyOneError
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Ties
from twentyone.vinte.errors import (
    CallError,
    DrawError,
    OutOfTurnError,
    VinteActionError,
    VinteBetError,
    VinteTableError,
)
from twentyone.vinte.game import (
    Bet,
    Call,
    ComeBack,
    Draw,
    Hit,
    MatchState,
    Phase,
    Stand,
    apply,
    covers,
    deal,
    expire,
    legal_actions,
    new_match,
    to_act,
)
from twentyone.vinte.settings import VINTE, VinteSettings, VinteTable


def started(cards: str, seats: int = 3, **settings: object) -> MatchState:
    table = VinteTable.create(seats, first_banker=0, settings=VinteSettings(**settings))  # type: ignore[arg-type]
    return deal(new_match(table), parse_cards(cards), now=0.0)


def at_banker_turn() -> MatchState:
    """Banker 11 (5D 6C); seat 1 bust (TS 5S KD); seat 2 stands on 17 (9H 8S)."""
    state = started("TS 9H 5D 6C 5S KD 8S TC 2C")
    for action in (Bet(1, 4), Bet(2, 2), Hit(1), Stand(2)):
        state = apply(state, action, 1.0)
    assert state.phase is Phase.BANKER
    return state


ILLEGAL = [
    (Bet(1, 6), VinteBetError, "bets are 1 to 5"),
    (Bet(1, 0), VinteBetError, "bets are 1 to 5"),
    (Bet(0, 3), OutOfTurnError, "banker does not bet"),
    (Bet(7, 3), VinteActionError, "no seat 7"),
    (Hit(1), OutOfTurnError, "betting window"),
    (Draw(0), OutOfTurnError, "betting window"),
    (Call(0, 1), OutOfTurnError, "betting window"),
    (Draw(1), OutOfTurnError, "only the banker"),
    (ComeBack(1), VinteActionError, "not away"),
]


@pytest.mark.parametrize(("action", "error", "why"), ILLEGAL)
def test_illegal_actions_in_the_betting_window(
    action: object, error: type[Exception], why: str
) -> None:
    state = started("TS 9H 5D 6C 2S")
    with pytest.raises(error, match=why):
        apply(state, action, 1.0)  # type: ignore[arg-type]
    # nothing changed: the same state still plays on
    assert to_act(state) == (1, 2)
    assert apply(apply(state, Bet(1, 2), 1.0), Bet(2, 2), 1.0).phase is Phase.PLAYERS


def test_errors_are_typed_and_catchable_as_value_errors() -> None:
    assert issubclass(OutOfTurnError, IllegalActionError)
    assert issubclass(VinteBetError, TwentyOneError)
    assert issubclass(CallError, ValueError)
    assert issubclass(VinteTableError, TwentyOneError)


def test_banker_illegal_calls_and_draws() -> None:
    state = at_banker_turn()
    with pytest.raises(CallError, match="seat 1 is bust"):
        apply(state, Call(0, 1), 2.0)
    with pytest.raises(CallError, match="cannot call himself"):
        apply(state, Call(0, 0), 2.0)
    with pytest.raises(OutOfTurnError, match="only the banker"):
        apply(state, Call(2, 1), 2.0)
    with pytest.raises(OutOfTurnError, match="banker's turn"):
        apply(state, Stand(2), 2.0)
    drawn = apply(state, Draw(0), 2.0)  # TC: 21
    with pytest.raises(DrawError, match="holds 21"):
        apply(drawn, Draw(0), 3.0)
    assert legal_actions(drawn, 0) == [Call(0, 2)]


def test_call_after_called() -> None:
    table = VinteTable.create(4, first_banker=0)
    state = deal(new_match(table), parse_cards("TS 9H 8D 6C 7S 2C 9S TH"), 0.0)
    for action in (Bet(1, 5), Bet(2, 3), Bet(3, 1), Stand(1), Stand(2), Stand(3), Call(0, 1)):
        state = apply(state, action, 1.0)
    with pytest.raises(CallError, match="already been called"):
        apply(state, Call(0, 1), 2.0)


def test_bet_over_the_stack_and_a_short_stack() -> None:
    table = VinteTable.create(3, first_banker=0, rules=VINTE.replace(min_bet=2))
    state = new_match(table)
    seats = list(state.seats)
    seats[1] = replace(seats[1], stack=1)
    seats[2] = replace(seats[2], stack=3)
    state = deal(replace(state, seats=tuple(seats)), parse_cards("TS 9H 5D 6C"), 0.0)
    with pytest.raises(VinteBetError, match="holds only 3"):
        apply(state, Bet(2, 4), 1.0)
    with pytest.raises(VinteBetError, match="holds only 1"):
        apply(state, Bet(1, 2), 1.0)
    assert [a.chips for a in legal_actions(state, 1) if isinstance(a, Bet)] == [1]
    assert [a.chips for a in legal_actions(state, 2) if isinstance(a, Bet)] == [2, 3]


def test_a_shoe_that_runs_out_changes_nothing() -> None:
    state = started("TS 9H 5D")  # enough for the deal, not for the up card
    state = apply(state, Bet(1, 2), 1.0)
    with pytest.raises(ShoeExhaustedError, match="card #4"):
        apply(state, Bet(2, 2), 1.0)
    assert to_act(state) == (2,)
    assert state.round is not None and state.round.drawn == 3


def test_deal_only_between_rounds() -> None:
    state = started("TS 9H 5D 6C")
    with pytest.raises(OutOfTurnError, match="cannot deal now"):
        deal(state, parse_cards("TS 9H 5D 6C"), 0.0)


def test_first_banker_drawn_from_the_source_and_recorded() -> None:
    table = VinteTable.create(5)
    bankers = [new_match(table, SeededRandomSource(seed)).banker for seed in range(200)]
    assert set(bankers) == set(range(5))
    assert max(Counter(bankers).values()) < 70  # roughly uniform
    first = new_match(table, SeededRandomSource(7))
    assert first.first_banker_drawn
    assert first.banker == new_match(table, SeededRandomSource(7)).banker
    assert not new_match(VinteTable.create(5, first_banker=3)).first_banker_drawn
    dealt = deal(first, parse_cards("AS 2S 3S 4S 5S"), 0.0)
    assert dealt.round is not None
    assert dealt.round.events[0].public["first_banker"] == "drawn"
    with pytest.raises(VinteTableError, match="randomness source"):
        new_match(table)


def test_table_limits() -> None:
    with pytest.raises(VinteTableError, match="2 to 8 seats"):
        VinteTable.create(1)
    with pytest.raises(VinteTableError, match="at least"):
        VinteTable.create(8, settings=VinteSettings(starting_stack=34))
    assert VinteTable.create(8, settings=VinteSettings(starting_stack=35)).size == 8
    with pytest.raises(VinteTableError, match="decks must be a number"):
        VinteTable.create(2, rules=VINTE.replace(decks=None))
    with pytest.raises(VinteTableError, match="ties"):
        VinteTable.create(2, rules=VINTE.replace(ties=Ties.PUSH))
    with pytest.raises(VinteTableError, match="first_banker"):
        VinteTable.create(3, first_banker=3)


def test_the_guarantee_that_some_seat_covers() -> None:
    """stack >= (seats - 1) x max bet: whatever the chips' spread, the richest seat covers."""
    table = VinteTable.create(4, settings=VinteSettings(starting_stack=15))
    state = new_match(table, SeededRandomSource(1))
    for spread in (
        [60, 0, 0, 0],
        [15, 15, 15, 15],
        [30, 20, 10, 0],
        [1, 1, 1, 57],
        [20, 20, 19, 1],
    ):
        seats = tuple(
            replace(seat, stack=chips, in_game=chips > 0)
            for seat, chips in zip(state.seats, spread, strict=True)
        )
        spread_state = replace(state, seats=seats)
        assert any(covers(spread_state, seat) for seat in range(4) if seats[seat].in_game)


def test_deadlines_use_the_clock_given() -> None:
    state = started("TS 9H 5D 6C 2S 8C", decision_seconds=10.0)
    assert state.deadline == 10.0
    assert expire(state, 9.99) == state
    state = apply(state, Bet(1, 3), 4.0)
    assert state.deadline == 10.0  # one shared betting window
    state = expire(state, 10.0)  # seat 2 bets min(minimum, stack) = 1
    assert state.round is not None and state.round.hand(2).bet == 1
    assert state.deadline == 20.0  # seat 1's turn started when the window closed
    state = expire(state, 45.0)  # seat 1 stands at 20, seat 2 stands at 30, banker calls at 40
    assert state.phase is Phase.BANKER and state.deadline == 50.0
    assert state.round.hand(1).result == "win"  # called by default: first from the left
    assert [s.missed for s in state.seats] == [1, 1, 2]


def test_away_after_missed_deadlines_and_back() -> None:
    state = started("TS 9H 5D 6C 2S 8C", missed_deadlines_for_away=2)
    state = apply(state, Bet(1, 3), 1.0)
    state = expire(state, 30.0)
    assert not state.seats[2].away
    state = apply(state, Stand(1), 31.0)
    state = expire(state, 61.0)
    assert state.seats[2].away
    assert ComeBack(2) in legal_actions(state, 2)
    back = apply(state, ComeBack(2), 62.0)
    assert not back.seats[2].away and back.seats[2].missed == 0
