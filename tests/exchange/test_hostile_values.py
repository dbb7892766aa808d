"""Hostile values for every public constructor, settings value and input of the Exchange game.

Issue 12's classes of defect: an unvalidated setting, a state changed before the error, a
parser that accepts too much. Hypothesis generates huge and tiny numbers, NaN and infinities,
bools, digits in other scripts, nested containers and very long strings; every one must be
refused with a typed error (a :class:`~twentyone.errors.TwentyOneError`) or accepted as a
well-formed value, and a refused call changes nothing (deep comparison before and after).
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.cards import parse_cards
from twentyone.errors import IllegalActionError, InvalidRulesError, TwentyOneError
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.logic_table import LogicTable, LogicTableError, load_logic_table
from twentyone.exchange.schedule import MAX_SECONDS, RoundSchedule
from twentyone.exchange.state import ExchangeState, InvalidStateError
from twentyone.protocol import GameStateError
from twentyone.shoe import ScriptedShoe

CARDS = parse_cards("TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH")

SCALARS = st.one_of(
    st.integers(),
    st.sampled_from([10**400, -(10**400), 2**63, -1, 0, 1, 10**18]),
    st.floats(),  # NaN, infinities, subnormals, -0.0
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=4),
    st.sampled_from(["٢.٥", "2_5", "1e999999999", "30", "AS", "x" * 100_000, "H3", "TS "]),
)
HOSTILE = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _same(a: Any, b: Any) -> bool:
    # Wrapped in a list so that a NaN compares by identity (the deep copy keeps the object).
    return [a] == [b]


@settings(max_examples=150, deadline=None)
@given(first=HOSTILE, later=HOSTILE, pause=HOSTILE)
def test_a_round_schedule_refuses_anything_but_seconds(first: Any, later: Any, pause: Any) -> None:
    try:
        schedule = RoundSchedule(first, later, pause)
    except InvalidRulesError:
        return
    for value in (schedule.first_round, schedule.later_rounds, schedule.pause):
        assert type(value) is float and 0 <= value <= MAX_SECONDS
    assert schedule.first_round > 0 and schedule.later_rounds > 0


@settings(max_examples=150, deadline=None)
@given(HOSTILE)
def test_a_round_schedule_from_json_and_its_round_numbers(data: Any) -> None:
    untouched = copy.deepcopy(data)
    with contextlib.suppress(InvalidRulesError):
        RoundSchedule.from_json(data)
    assert _same(data, untouched)
    try:
        length = RoundSchedule(30, 25).length(data)
    except InvalidRulesError:
        return
    assert length in (30.0, 25.0)


def _hostile_states() -> st.SearchStrategy[Any]:
    good: dict[str, Any] = {
        "players": [["TS", "6H"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]],
        "dealer": ["7C"],
        "played": False,
    }
    one_field = st.tuples(st.sampled_from([*sorted(good), "extra"]), HOSTILE).map(
        lambda pair: {**good, pair[0]: pair[1]}
    )
    one_hand = st.tuples(st.integers(0, 3), HOSTILE).map(
        lambda pair: {
            **good,
            "players": [h if i != pair[0] else pair[1] for i, h in enumerate(good["players"])],
        }
    )
    one_card = st.tuples(st.integers(0, 3), HOSTILE).map(
        lambda pair: {
            **good,
            "players": [
                h if i != pair[0] else [h[0], pair[1]] for i, h in enumerate(good["players"])
            ],
        }
    )
    return st.one_of(HOSTILE, one_field, one_hand, one_card)


@settings(max_examples=300, deadline=None)
@given(_hostile_states())
def test_an_exchange_state_from_json_refuses_with_a_typed_error(data: Any) -> None:
    untouched = copy.deepcopy(data)
    try:
        state = ExchangeState.from_json(data)
        state.validate(load_logic_table())
    except InvalidStateError:
        pass
    assert _same(data, untouched)


@settings(max_examples=150, deadline=None)
@given(row=st.sampled_from(["hard", "soft"]), index=st.integers(0, 9), code=HOSTILE)
def test_a_logic_table_from_json_refuses_with_a_typed_error(
    row: str, index: int, code: Any
) -> None:
    data = load_logic_table().to_json()
    first = next(iter(data[row]))
    data[row][first][index] = code
    untouched = copy.deepcopy(data)
    with contextlib.suppress(LogicTableError):
        LogicTable.from_json(data)
    assert _same(data, untouched)


@settings(max_examples=100, deadline=None)
@given(HOSTILE)
def test_a_whole_logic_table_value_is_refused(data: Any) -> None:
    with pytest.raises(LogicTableError):
        LogicTable.from_json(data)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["start", "schedule", "table"]), value=HOSTILE)
def test_game_settings_are_refused_with_a_typed_error(name: str, value: Any) -> None:
    try:
        game = ExchangeGame(**{name: value})
    except InvalidRulesError:
        return
    if name == "table":  # None: the shipped table
        assert value is None and game.table is load_logic_table()
        return
    assert name == "start"
    assert type(game.start) is float and game.deadline() == game.start + 30.0


@settings(max_examples=150, deadline=None)
@given(now=HOSTILE, card=HOSTILE, seat=HOSTILE)
def test_game_inputs_are_refused_and_change_nothing(now: Any, card: Any, seat: Any) -> None:
    game = ExchangeGame(ScriptedShoe(CARDS))
    before = game.to_json()
    try:
        game.expire(now)
    except IllegalActionError:
        assert game.to_json() == before
    closed = ExchangeGame()
    closed.expire(30.0)
    before = closed.to_json()
    with pytest.raises(IllegalActionError):
        closed.apply_chance(card)
    assert closed.to_json() == before
    for call in (closed.legal_actions, closed.view):
        with contextlib.suppress(IllegalActionError):
            call(seat)
    assert closed.to_json() == before


def _saved() -> dict[str, Any]:
    game = ExchangeGame(ScriptedShoe(CARDS))
    game.end_round()
    game.end_round()
    return game.to_json()


SAVED = _saved()


@settings(max_examples=300, deadline=None)
@given(
    key=st.sampled_from([*sorted(SAVED), "extra"]),
    value=HOSTILE,
    inner=st.booleans(),
)
def test_a_saved_game_with_a_hostile_value_is_refused(key: str, value: Any, inner: bool) -> None:
    data = copy.deepcopy(SAVED)
    if inner and isinstance(data.get(key), list) and data[key]:
        data[key][0] = value
    elif inner and isinstance(data.get(key), dict) and data[key]:
        data[key][next(iter(data[key]))] = value
    else:
        data[key] = value
    untouched = copy.deepcopy(data)
    try:
        loaded = ExchangeGame.from_json(data)
    except GameStateError:
        assert _same(data, untouched)
        return
    except TwentyOneError as error:  # pragma: no cover (the assertion says which)
        raise AssertionError(f"not a GameStateError: {error!r}") from error
    # Accepted: a consistent state (the saved value, or say another first-round length that the
    # saved times still pass): it loads to exactly what it says, and saves back the same.
    assert loaded.to_json() == data
    assert ExchangeGame.from_json(loaded.to_json()).to_json() == loaded.to_json()
