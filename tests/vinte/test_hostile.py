"""Hostile values (issue 12): bools, floats, NaN, inf, huge ints, digits of other scripts,
strings, nested containers, for every Vinte-e-um setting, every action field and every
argument of the game protocol; each is refused with a typed error and changes nothing
(the saved state is compared before and after). D11 (``Call(0, True)``) is one of them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentyone.cards import parse_cards
from twentyone.errors import TwentyOneError
from twentyone.protocol import GameStateError
from twentyone.vinte.game import MAX_TIME, Bet, Call, ComeBack, Draw, Hit, Stand
from twentyone.vinte.match import VinteGame
from twentyone.vinte.settings import VINTE, SeatSpec, VinteSettings, VinteTable

#: Derandomized: the same examples on every run (the project's tests are deterministic).
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

OTHER_SCRIPTS = st.sampled_from(
    ["٢", "٢.٥", "５", "१२", "1_000", "1e400", "inf", "-inf", "NaN", "0x10", " 3 ", "", "3.0"]
)
HUGE = st.one_of(
    st.integers(min_value=10**18, max_value=10**40),
    st.integers(min_value=-(10**40), max_value=-(10**18)),
    st.just(10**5000),
)
FLOATS = st.floats(allow_nan=True, allow_infinity=True)
CONTAINERS = st.one_of(
    st.lists(st.integers(0, 5), max_size=3),
    st.tuples(st.integers(0, 5)),
    st.dictionaries(st.text(max_size=3), st.integers(0, 5), max_size=2),
    st.just([[[[[[[[[[1]]]]]]]]]]),
    st.frozensets(st.integers(0, 3), max_size=2),
)
TEXT = st.one_of(OTHER_SCRIPTS, st.text(max_size=20), st.just("x" * 100_000))
#: Not a whole number: what no int setting, seat or count may be.
NOT_INT = st.one_of(st.booleans(), FLOATS, HUGE, TEXT, CONTAINERS, st.none())
#: Not true or false.
NOT_BOOL = st.one_of(st.integers(-2, 2), FLOATS, HUGE, TEXT, CONTAINERS, st.none())


def invalid_int(low: int, high: int) -> st.SearchStrategy[object]:
    """Anything but a whole number in ``low..high``."""
    return st.one_of(
        NOT_INT,
        st.integers(max_value=low - 1).filter(lambda n: n > -(10**20)),
        st.integers(min_value=high + 1, max_value=high + 10**20),
    )


SETTINGS_VALUES: dict[str, st.SearchStrategy[object]] = {
    "starting_stack": invalid_int(1, 10**15),
    "bank_rounds": invalid_int(0, 1_000_000),
    "round_limit": invalid_int(0, 1_000_000),
    "missed_deadlines_for_away": invalid_int(1, 1_000),
    "decision_seconds": st.one_of(
        st.booleans(),
        st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not 0 < x <= 86_400),
        st.integers(max_value=0),
        HUGE,
        TEXT,
        CONTAINERS,
        st.none(),
    ),
    "player_21_pays_double": NOT_BOOL,
    "player_21_takes_bank": NOT_BOOL,
}


@pytest.mark.parametrize("name", sorted(SETTINGS_VALUES))
def test_every_setting_refuses_hostile_values(name: str) -> None:
    @EXAMPLES
    @given(SETTINGS_VALUES[name])
    def check(value: object) -> None:
        with pytest.raises(TwentyOneError):
            VinteSettings(**{name: value})  # type: ignore[arg-type]

    check()


NAMES = st.one_of(
    st.booleans(),
    FLOATS,
    HUGE,
    CONTAINERS,
    st.none(),
    st.sampled_from(["", "   ", "\t", "a\nb", "x" * 41, " Ann", "Ann ", "\x00", "\u200b\u2028"]),
)


@EXAMPLES
@given(NAMES)
def test_seat_names_refuse_hostile_values(name: object) -> None:
    with pytest.raises(TwentyOneError):
        SeatSpec(name)  # type: ignore[arg-type]


@EXAMPLES
@given(NOT_BOOL)
def test_the_bot_flag_refuses_hostile_values(flag: object) -> None:
    with pytest.raises(TwentyOneError):
        SeatSpec("Ann", flag)  # type: ignore[arg-type]


@EXAMPLES
@given(
    st.sampled_from(["seats", "rules", "settings", "first_banker"]),
    st.one_of(NOT_INT, st.integers(-5, 12), st.lists(st.just(SeatSpec("A")), max_size=9)),
)
def test_tables_refuse_hostile_values(field: str, value: object) -> None:
    fields: dict[str, Any] = {
        "seats": (SeatSpec("A"), SeatSpec("B"), SeatSpec("C")),
        "rules": VINTE,
        "settings": VinteSettings(),
        "first_banker": None,
    }
    fields[field] = value
    if field == "first_banker" and (value is None or (type(value) is int and 0 <= value <= 2)):
        return  # a seat of the table, or drawn at random
    with pytest.raises(TwentyOneError):
        VinteTable(**fields)


@EXAMPLES
@given(
    st.sampled_from(["seats", "bots", "first_banker", "rules", "settings"]),
    st.one_of(NOT_INT, st.integers(-3, 12)),
)
def test_table_create_refuses_hostile_values(field: str, value: object) -> None:
    fields: dict[str, Any] = {"seats": 3, "bots": 1, "first_banker": None}
    fields[field] = value
    valid = {"seats": range(2, 9), "bots": range(0, 4), "first_banker": range(0, 3)}.get(field)
    if value is None and field in ("first_banker", "settings"):
        return  # drawn at random; the default settings
    if valid is not None and type(value) is int and value in valid:
        return
    with pytest.raises(TwentyOneError):
        VinteTable.create(fields.pop("seats"), **fields)


@pytest.mark.parametrize(
    "rule", [{"decks": 9}, {"decks": 10**6}, {"max_bet": 5_000}, {"min_bet": 2, "max_bet": 2_000}]
)
def test_rules_a_vinte_table_cannot_play_are_refused(rule: dict[str, int]) -> None:
    with pytest.raises(TwentyOneError):
        VinteTable.create(2, rules=VINTE.replace(**rule), settings=VinteSettings(10**9))


# ---------------------------------------------------------------- actions and the protocol


def games() -> list[VinteGame]:
    """The same table at a bet, at a player's turn, at the banker's turn, waiting for a card."""
    table = VinteTable.create(3, first_banker=0)
    cards = parse_cards("TS 9H 5D 6C 5S KD 8S TC 2C")
    out = []
    game = VinteGame.new(table)
    steps: list[object] = [*cards[:3], Bet(1, 4), Bet(2, 2), *cards[3:5], Hit(1), cards[5]]
    for step in steps:
        if isinstance(step, Bet | Hit | Stand):
            game.apply(step.seat, step, now=1.0)
        else:
            game.apply_chance(step, now=1.0)  # type: ignore[arg-type]
        if isinstance(step, Bet) and step.seat == 1:
            out.append(copy.deepcopy(game))  # seat 2 still to bet
    out.append(copy.deepcopy(game))  # waiting for seat 2's second card
    game.apply_chance(cards[6])
    out.append(copy.deepcopy(game))  # seat 2's turn
    game.apply(2, Stand(2))
    out.append(game)  # the banker's turn
    return out


GAMES = games()
ACTIONS: list[tuple[type, tuple[str, ...]]] = [
    (Bet, ("seat", "chips")),
    (Hit, ("seat",)),
    (Stand, ("seat",)),
    (Draw, ("seat",)),
    (Call, ("seat", "target")),
    (ComeBack, ("seat",)),
]
GOOD = {"seat": 0, "chips": 3, "target": 2}


def refused_and_unchanged(game: VinteGame, attempt: Any) -> None:
    before = json.dumps(game.to_json(), sort_keys=True)
    state = game.state
    with pytest.raises(TwentyOneError):
        attempt()
    assert game.state is state
    assert json.dumps(game.to_json(), sort_keys=True) == before


@EXAMPLES
@given(
    st.sampled_from(range(len(GAMES))),
    st.sampled_from(ACTIONS),
    st.data(),
    st.one_of(NOT_INT, st.integers(-3, 9), st.integers(10**6, 10**30)),
)
def test_every_action_field_refuses_hostile_values(
    which: int, action: tuple[type, tuple[str, ...]], data: st.DataObject, value: object
) -> None:
    kind, fields = action
    field = data.draw(st.sampled_from(fields))
    game = GAMES[which]
    values: dict[str, object] = {name: GOOD[name] for name in fields}
    values[field] = value
    acting = [seat for seat in game.to_act() if isinstance(seat, int)]
    if field != "seat":  # the seat that acts now, with a hostile chips or target
        values["seat"] = acting[0] if acting else 0
    try:
        built = kind(**values)
    except TwentyOneError:
        return  # refused at construction
    if game.can_apply(built.seat, built):
        return  # a hostile-looking value that happens to be a legal choice (Bet(1, 3))
    refused_and_unchanged(game, lambda: game.apply(built.seat, built))
    refused_and_unchanged(game, lambda: game.apply(value, built))  # type: ignore[arg-type]


ANY_HOSTILE = st.one_of(NOT_INT, st.integers(-3, 9), FLOATS)


@EXAMPLES
@given(st.sampled_from(range(len(GAMES))), ANY_HOSTILE)
def test_every_protocol_argument_refuses_hostile_values(which: int, value: object) -> None:
    game = GAMES[which]
    refused_and_unchanged(game, lambda: game.apply_chance(value))  # type: ignore[arg-type]
    refused_and_unchanged(game, lambda: game.deal(value))  # type: ignore[arg-type]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 3:
        refused_and_unchanged(game, lambda: game.legal_actions(value))  # type: ignore[arg-type]
        if value is not None:  # None: a spectator's view
            refused_and_unchanged(game, lambda: game.view(value))  # type: ignore[arg-type]
    a_time = type(value) in (int, float) and game.now <= value <= MAX_TIME  # type: ignore[operator]
    if not a_time:  # NaN, inf, a huge number, before the game's time, not a number
        refused_and_unchanged(game, lambda: game.expire(value))  # type: ignore[arg-type]
        if value is not None:  # None: the game's own time
            refused_and_unchanged(game, lambda: game.apply(2, Bet(2, 1), now=value))  # type: ignore[arg-type]


def mutate(data: Any, path: list[Any], value: object) -> Any:
    """``data`` with the item at ``path`` (indices taken modulo each container) replaced."""
    if not path or not isinstance(data, dict | list) or not data:
        return value
    step, rest = path[0], path[1:]
    if isinstance(data, dict):
        key = sorted(data)[step % len(data)]
        return {**data, key: mutate(data[key], rest, value)}
    index = step % len(data)
    return [*data[:index], mutate(data[index], rest, value), *data[index + 1 :]]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.sampled_from(range(len(GAMES))),
    st.lists(st.integers(0, 50), min_size=1, max_size=7),
    st.one_of(ANY_HOSTILE, TEXT, st.just({}), st.just([])),
)
def test_a_saved_state_with_a_hostile_value_anywhere_is_refused_or_loads(
    which: int, path: list[int], value: object
) -> None:
    """A saved state changed anywhere either loads (the change is a valid state) or is a
    GameStateError; never any other exception."""
    data = mutate(GAMES[which].to_json(), path, value)
    try:
        loaded = VinteGame.from_json(data)
    except GameStateError:
        return
    loaded.view(None)
    loaded.to_act()
    assert VinteGame.from_json(loaded.to_json()).state == loaded.state
