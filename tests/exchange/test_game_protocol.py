"""Exchange Blackjack on the game protocol: chance steps, time, views, saving and loading.

The property test plays seeded random games step by step (a chance step or the expiry of the
pending deadline, at jittered times) and at every step saves the game with ``to_json``, loads it
with ``from_json`` and continues both: the events, views and results must be identical. It runs
both with explicit chance steps and in automatic mode (a loaded game given the rest of the shoe).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from twentyone.cards import DECK, Card, parse_cards
from twentyone.errors import IllegalActionError, InvalidRulesError, ShoeExhaustedError
from twentyone.exchange.game import ExchangeGame, Phase
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.schedule import STANDARD, TURBO, RoundSchedule
from twentyone.exchange.selections import SELECTIONS
from twentyone.protocol import CHANCE, Game, GameStateError, NotYourTurnError, run_chance
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe, ScriptedShoe

CARDS = parse_cards("TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH")
JITTER = (0.0, 0.0, 0.25, 1.5, 7.0)


def _cards(seed: int, small: bool = False) -> list[Card]:
    """Enough cards for any game (25); ``small``: mostly low cards (long hands, five cards)."""
    rng = random.Random(seed)
    deck = [card for card in DECK if card.value <= 5] if small else list(DECK)
    return [rng.choice(deck) for _ in range(25)]


def _step(game: ExchangeGame, cards: list[Card], rng: random.Random) -> list[Any]:
    """One step: the next chance card, or the pending deadline passes (a little late, maybe)."""
    if game.to_act() == (CHANCE,):
        return list(game.apply_chance(cards[len(game.to_json()["cards"])]))
    due = game.deadline()
    assert due is not None
    return list(game.expire(due + rng.choice(JITTER)))


def _play_to_the_end(game: ExchangeGame, cards: list[Card], seed: int) -> list[Any]:
    """Every step's events and the view after it, until the game is over."""
    rng = random.Random(seed)
    trace: list[Any] = []
    while not game.is_over:
        events = _step(game, cards, rng)
        trace.append(([event.to_json() for event in events], game.view(None), game.to_act()))
    return trace


def test_the_game_implements_the_protocol() -> None:
    game = ExchangeGame()
    assert isinstance(game, Game)
    assert game.to_act() == () and game.deadline() == 30.0
    assert game.legal_actions(0) == () and not game.can_apply(0, "back")
    with pytest.raises(NotYourTurnError, match="no seat acts"):
        game.apply(0, "back")
    with pytest.raises(IllegalActionError, match="a seat is"):
        game.legal_actions(True)


def test_a_round_closes_at_its_deadline_and_the_next_opens_after_the_pause() -> None:
    game = ExchangeGame(ScriptedShoe(CARDS), schedule=TURBO, start=100.0)
    assert game.deadline() == 122.0
    assert game.expire(121.9) == [] and _phase(game) is Phase.BETTING  # not yet: nothing happens
    events = game.expire(123.0)  # a late tick: the round closes at 123.0
    assert [event.kind for event in events] == ["reveal"]
    assert _phase(game) is Phase.PAUSE and game.deadline() == 126.0 and game.open_round == 2
    assert game.expire(126.5) == [] and _phase(game) is Phase.BETTING
    assert game.deadline() == 126.5 + 18.0  # the round gets its whole length


def _phase(game: ExchangeGame) -> Phase:
    return game.phase  # a call: mypy does not keep the phase narrowed across steps


def test_explicit_chance_steps_show_only_the_cards_turned() -> None:
    game = ExchangeGame()
    assert game.expire(30.0) == [] and game.to_act() == (CHANCE,) and game.deadline() is None
    for count, card in enumerate(CARDS[:9], start=1):
        view = game.view(None)
        assert sum(map(len, view["players"])) + len(view["dealer"]) == count - 1
        events = game.apply_chance(card)
        assert [event.kind for event in events] == ([] if count < 9 else ["reveal"])
    assert game.to_act() == () and game.view(None)["dealer"] == ["7C"]
    with pytest.raises(NotYourTurnError, match="no card is due"):
        game.apply_chance(CARDS[9])
    with pytest.raises(IllegalActionError, match="apply_chance"):
        _closed_game().end_round()  # the old API cannot skip the chance steps


def _closed_game() -> ExchangeGame:
    game = ExchangeGame()
    game.expire(30.0)
    return game


def test_a_chance_step_must_be_a_card() -> None:
    game = _closed_game()
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="is a Card"):
        game.apply_chance("TS")  # type: ignore[arg-type]
    assert game.to_json() == before


@pytest.mark.parametrize("seed", range(30))
def test_automatic_and_explicit_games_are_the_same_game(seed: int) -> None:
    cards = _cards(seed, small=seed % 3 == 0)
    automatic = ExchangeGame(ScriptedShoe(cards))
    explicit = ExchangeGame()
    auto_events, explicit_events = [], []
    while not automatic.is_over:
        auto_events += automatic.end_round()
        due = explicit.deadline()
        assert due is not None
        explicit_events += explicit.expire(due)
        explicit_events += run_chance(
            explicit, iter(cards[len(explicit.to_json()["cards"]) :]).__next__
        )
        if explicit.phase is Phase.PAUSE:
            due = explicit.deadline()
            assert due is not None
            explicit.expire(due)
    assert explicit.is_over and auto_events == explicit_events
    assert automatic.to_json() == explicit.to_json()
    assert set(automatic.settlements) == set(SELECTIONS)


@pytest.mark.parametrize("seed", range(24))
def test_save_and_load_at_every_step_then_continue_both(seed: int) -> None:
    cards = _cards(seed, small=seed % 2 == 1)
    game = ExchangeGame(schedule=STANDARD if seed % 3 else TURBO, start=float(seed))
    rng = random.Random(seed)
    steps = 0
    while True:
        saved = game.to_json()
        loaded = ExchangeGame.from_json(json.loads(json.dumps(saved)))
        assert loaded.to_json() == saved and loaded.view(None) == game.view(None)
        assert loaded.to_act() == game.to_act() and loaded.deadline() == game.deadline()
        if (steps + seed) % 3 == 0:  # continuing both to the end is quadratic: every third step
            assert _play_to_the_end(copy.deepcopy(game), cards, steps) == _play_to_the_end(
                loaded, cards, steps
            )
        if game.is_over:
            break
        _step(game, cards, rng)
        steps += 1
    assert steps >= 12


@pytest.mark.parametrize("seed", range(8))
def test_an_automatic_game_loaded_with_the_rest_of_its_shoe_continues_the_same(seed: int) -> None:
    cards = _cards(100 + seed, small=seed % 2 == 0)
    game = ExchangeGame(ScriptedShoe(cards))
    while not game.is_over:
        saved = game.to_json()
        used = len(saved["cards"])
        loaded = ExchangeGame.from_json(saved, shoe=ScriptedShoe(cards[used:]))
        original = copy.deepcopy(game)
        assert original.play_out() == loaded.play_out()
        assert original.to_json() == loaded.to_json()
        game.end_round()


def test_a_shoe_that_runs_out_leaves_the_game_as_it_was() -> None:
    game = ExchangeGame(ScriptedShoe(CARDS[:5]))
    before = game.to_json()
    with pytest.raises(ShoeExhaustedError):
        game.expire(30.0)
    assert game.to_json() == before and game.phase is Phase.BETTING
    game = ExchangeGame(ScriptedShoe(CARDS[:12]))
    game.end_round()
    game.end_round()  # the players draw TC (P1), 3D and 8S (P4)
    before = game.to_json()
    with pytest.raises(ShoeExhaustedError):
        game.end_round()  # through the pause to the close of round 3: no dealer card left
    assert game.to_json() == before and game.phase is Phase.PAUSE


def test_a_custom_logic_table_is_saved_with_the_game() -> None:
    cells = dict(load_logic_table().cells)
    cells[(16, False, 10)] = (True, True, True)
    table = LogicTable(cells)
    game = ExchangeGame(ScriptedShoe(CARDS), table)
    game.end_round()
    saved = game.to_json()
    assert saved["logic_table"] == table.to_json()
    assert ExchangeGame.from_json(saved).table == table
    assert ExchangeGame(ScriptedShoe(CARDS)).to_json()["logic_table"] is None


def _saved_mid_game() -> dict[str, Any]:
    game = ExchangeGame(ScriptedShoe(CARDS))
    game.end_round()
    game.end_round()
    return game.to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.update(game="vinte"), "not an exchange"),
        (lambda d: d.pop("times"), "missing: times"),
        (lambda d: d.update(extra=1), "unknown: 'extra'"),
        (lambda d: d.update(cards=d["cards"] + ["2S"]), "left over"),
        (lambda d: d.update(cards=["XX", *d["cards"][1:]]), "unknown card"),
        (lambda d: d.update(cards=["1" * 10_000]), "not a card"),
        (lambda d: d.update(cards=[["TS"]]), "not a card"),
        (lambda d: d.update(times=[29.0, *d["times"][1:]]), "before the deadline"),
        (lambda d: d.update(times=[float("nan"), *d["times"][1:]]), "finite number"),
        (lambda d: d.update(times=[10**400]), "finite number"),
        (lambda d: d.update(times="30"), "times must be a list"),
        (lambda d: d.update(players=[["TS", "6H"], [], [], []]), "players is not what"),
        (lambda d: d.update(played=1), "played is not what"),
        (lambda d: d.update(open_round=True), "open_round is not what"),
        (lambda d: d.update(phase="over"), "phase is not what"),
        (lambda d: d.update(settlements={}), "settlements is not what"),
        (lambda d: d["schedule"].update(pause=float("inf")), "pause must be"),
        (lambda d: d.update(schedule=[30, 25, 3]), "round schedule is an object"),
        (lambda d: d.update(start="0"), "start must be"),
        (lambda d: d.update(logic_table={"up_cards": []}), "up_cards"),
    ],
)
def test_malformed_states_are_refused_with_a_typed_error(change: Any, message: str) -> None:
    data = _saved_mid_game()
    change(data)
    untouched = copy.deepcopy(data)
    with pytest.raises(GameStateError, match=message):
        ExchangeGame.from_json(data)
    assert data == untouched


def test_a_state_that_is_not_an_object_is_refused() -> None:
    values: list[Any] = [None, [], "{}", 3, [[[]]]]
    for data in values:
        with pytest.raises(GameStateError):
            ExchangeGame.from_json(data)


@pytest.mark.parametrize(
    "now", [float("nan"), float("inf"), -float("inf"), 10**400, True, "31", None, [31.0]]
)
def test_a_bad_time_is_refused_and_changes_nothing(now: Any) -> None:
    game = ExchangeGame(ScriptedShoe(CARDS))
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="now must be"):
        game.expire(now)
    assert game.to_json() == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": float("nan")},
        {"start": 10**400},
        {"start": "0"},
        {"start": False},
        {"schedule": "standard"},
        {"schedule": None},
        {"table": {}},
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidRulesError):
        ExchangeGame(**kwargs)


def test_a_reloaded_game_keeps_its_schedule() -> None:
    game = ExchangeGame(schedule=RoundSchedule(10, 5, 1), start=7)
    loaded = ExchangeGame.from_json(game.to_json())
    assert loaded.schedule == RoundSchedule(10, 5, 1) and loaded.deadline() == 17.0


def test_old_api_random_games_still_settle_everything() -> None:
    for seed in range(10):
        game = ExchangeGame(InfiniteShoe(SeededRandomSource(seed)))
        events = game.play_out()
        assert events[-1].kind == "end" and set(game.settlements) == set(SELECTIONS)
        assert game.over and game.deadline() is None and game.to_act() == ()


def test_an_automatic_game_loaded_in_the_middle_of_a_reveal_turns_the_rest() -> None:
    explicit = ExchangeGame()
    explicit.expire(30.0)
    for card in CARDS[:5]:
        explicit.apply_chance(card)
    loaded = ExchangeGame.from_json(explicit.to_json(), shoe=ScriptedShoe(CARDS[5:]))
    assert loaded.to_act() == (CHANCE,)
    assert [event.kind for event in loaded.expire(30.0)] == ["reveal"]
    assert loaded.view(None)["dealer"] == ["7C"] and loaded.to_act() == ()
    reference = ExchangeGame(ScriptedShoe(CARDS))
    reference.play_out()
    assert loaded.play_out() == reference.events
