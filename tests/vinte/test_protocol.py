"""Vinte-e-um behind the game protocol (issue 11): who acts, the seat is authoritative,
explicit chance steps and the automatic mode, deadlines, views, saving; D11 and names
(issue 12)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from twentyone.analysis.vinte.bots import Bot, HeuristicBot, VinteBot
from twentyone.cards import parse_cards
from twentyone.clock import ClockError, ManualClock
from twentyone.errors import InvalidCardError, TwentyOneError
from twentyone.protocol import CHANCE, Game, GameStateError, NotYourTurnError
from twentyone.randomness import SeededRandomSource
from twentyone.tables.vinte import play_match
from twentyone.vinte.errors import CallError, OutOfTurnError, SeatNameError, VinteActionError
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    ComeBack,
    Draw,
    Hit,
    Phase,
    Stand,
    apply,
    deal,
    new_match,
)
from twentyone.vinte.match import VinteGame
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable

CARDS = parse_cards("TS 9H 5D 6C 5S KD 8S TC 2C")  # the deck of test_game.at_banker_turn


def explicit(seats: int = 3, **settings: object) -> VinteGame:
    table = VinteTable.create(seats, first_banker=0, settings=VinteSettings(**settings))  # type: ignore[arg-type]
    return VinteGame.new(table)


def test_a_vinte_game_is_a_protocol_game() -> None:
    assert isinstance(explicit(), Game)


def test_to_act_names_chance_then_every_bettor_at_once() -> None:
    game = explicit()
    acts = []
    for card in CARDS[:3]:
        acts.append(game.to_act())
        game.apply_chance(card, now=0.0)
    assert acts == [(CHANCE,)] * 3  # two players' hidden cards, the banker's last
    assert game.to_act() == (1, 2) and game.state.phase is Phase.BETTING
    game.apply(2, Bet(2, 2))
    assert game.to_act() == (1,)
    game.apply(1, Bet(1, 4))
    assert game.to_act() == (CHANCE,) and game.deadline() is None  # the banker's up card
    game.apply_chance(CARDS[3])
    assert game.to_act() == (CHANCE,)  # seat 1's second card
    game.apply_chance(CARDS[4])
    assert game.to_act() == (1,) and game.legal_actions(1) == [Hit(1), Stand(1)]
    game.apply(1, Hit(1))
    assert game.to_act() == (CHANCE,)
    events = game.apply_chance(CARDS[5])  # KD: seat 1 busts, seat 2's turn needs a card
    assert [e.kind for e in events] == ["card", "bust"] and game.to_act() == (CHANCE,)
    game.apply_chance(CARDS[6])
    game.apply(2, Stand(2))
    assert game.to_act() == (0,) and game.legal_actions(0) == [Draw(0), Call(0, 2)]
    game.apply(0, Draw(0))
    game.apply_chance(CARDS[7])  # TC: the banker holds 21
    assert game.legal_actions(0) == [Call(0, 2)]
    game.apply(0, Call(0, 2))
    assert game.to_act() == (CHANCE,)  # the next round's first card
    assert game.state.rounds_played == 1 and game.state.round is not None
    assert not game.state.round.dealing


def test_card_by_card_is_the_same_round_as_a_deck_given_whole() -> None:
    """The explicit chance steps and today's path make the same events and the same views."""
    table = VinteTable.create(3, first_banker=0)
    actions: list[Action] = [Bet(1, 4), Bet(2, 2), Hit(1), Stand(2), Draw(0), Call(0, 2)]
    state = deal(new_match(table), CARDS, 0.0)
    for action in actions:
        state = apply(state, action, 0.0)
    game = VinteGame.new(table)
    cards = iter(CARDS)

    def deal_what_round_one_waits_for() -> None:
        while game.to_act() == (CHANCE,) and game.state.rounds_played == 0:
            game.apply_chance(next(cards))

    deal_what_round_one_waits_for()
    for action in actions:
        game.apply(action.seat, action)
        deal_what_round_one_waits_for()
    assert state.round is not None and game.state.round is not None
    assert game.state.round.events == state.round.events
    assert game.state.seats == state.seats
    for seat in (None, 0, 1, 2):
        mine, theirs = game.view(seat), VinteGame(state).view(seat)
        assert mine == theirs


def test_the_seat_argument_is_authoritative() -> None:
    game = explicit()
    for card in CARDS[:3]:
        game.apply_chance(card, now=0.0)
    before = game.to_json()
    with pytest.raises(OutOfTurnError, match="cannot act for seat 2"):
        game.apply(1, Bet(2, 3))  # seat 1 may not bet for seat 2
    with pytest.raises(NotYourTurnError, match="banker does not bet"):
        game.apply(0, Bet(0, 3))
    with pytest.raises(NotYourTurnError):
        game.apply(0, Draw(0))
    with pytest.raises(VinteActionError, match="no seat"):
        game.apply(True, Bet(1, 3))
    with pytest.raises(VinteActionError, match="not a Vinte-e-um action"):
        game.apply(1, "bet 1 3")  # type: ignore[arg-type]
    game.apply(1, Bet(1, 3))
    with pytest.raises(NotYourTurnError, match="seat 1"):
        game.apply(1, Bet(1, 2))  # a seat that has bet is no longer to act
    assert not game.can_apply(1, Bet(1, 2)) and game.can_apply(2, Bet(2, 2))
    game = VinteGame.from_json(before)
    assert game.to_json() == before  # nothing the refusals did stayed


def test_chance_steps_are_refused_when_a_decision_is_pending() -> None:
    game = explicit()
    for card in CARDS[:3]:
        game.apply_chance(card, now=0.0)
    before = game.to_json()
    with pytest.raises(NotYourTurnError, match="no card is to be dealt"):
        game.apply_chance(CARDS[3])
    assert game.to_json() == before
    game.apply(1, Bet(1, 1))
    game.apply(2, Bet(2, 1))
    with pytest.raises(OutOfTurnError, match="waits for the banker's face-up card"):
        game.apply(0, Draw(0))
    with pytest.raises(InvalidCardError):
        game.apply_chance("AS")  # type: ignore[arg-type]
    with pytest.raises(TwentyOneError, match="appears 2 times"):
        game.apply_chance(CARDS[0])  # already dealt from this one deck
    assert game.to_act() == (CHANCE,)


def test_the_automatic_mode_keeps_todays_path() -> None:
    """Built with a source, the game shuffles and deals itself: the match the runner plays."""
    table = VinteTable.create(4, bots=4, settings=VinteSettings(round_limit=6))
    bots: list[Bot] = [
        VinteBot(),
        HeuristicBot(),
        VinteBot(read_stands=True),
        HeuristicBot(stand_on=15),
    ]
    game = VinteGame.new(table, SeededRandomSource(21))
    steps = 0
    while not game.is_over:
        assert CHANCE not in game.to_act()
        seat = game.to_act()[0]
        assert isinstance(seat, int)
        game.apply(seat, bots[seat].decide(game.seat_view(seat)))
        steps += 1
    assert steps > 20
    today = play_match(table, bots, SeededRandomSource(21))
    assert game.state == today
    with pytest.raises(NotYourTurnError):
        game.apply_chance(CARDS[0])


def test_a_game_begun_card_by_card_goes_on_automatically_with_a_source() -> None:
    """Saved in explicit mode (mid-deal, mid-round) and loaded with a source, the game deals
    the rest itself, from the cards not yet dealt."""
    game = explicit()
    game.apply_chance(CARDS[0], now=0.0)
    automatic = VinteGame.from_json(game.to_json(), source=SeededRandomSource(2))
    assert automatic.to_act() == (1, 2) and automatic.state.round is not None
    assert automatic.state.round.deck[0] == CARDS[0]
    for seat in (1, 2):
        automatic.apply(seat, Bet(seat, 1))
    dealt = automatic.state.round.deck
    assert len(set(dealt)) == len(dealt)  # every card from one deck, none twice
    assert CHANCE not in automatic.to_act()


def test_deadlines_and_expiry_through_the_protocol() -> None:
    clock = ManualClock()
    table = VinteTable.create(3, first_banker=0, settings=VinteSettings(decision_seconds=10))
    game = VinteGame.new(table, clock=clock)
    assert game.deadline() is None and game.expire(100.0) == ()  # waiting for cards: no deadline
    clock.set(100.0)
    for card in CARDS[:3]:
        game.apply_chance(card)
    assert game.deadline() == 110.0
    assert game.expire(109.0) == ()
    events = game.expire(110.0)  # both missing bets are the minimum
    assert [e.kind for e in events] == [
        "timeout",
        "timeout",
        "bet-placed",
        "bet-placed",
        "bets-shown",
    ]
    assert game.to_act() == (CHANCE,) and game.deadline() is None
    with pytest.raises(ClockError, match="backwards"):
        game.apply_chance(CARDS[3], now=50.0)
    with pytest.raises(ClockError, match="finite"):
        game.expire(float("nan"))


def test_views_never_hold_a_card_their_seat_may_not_see() -> None:
    game = explicit()
    for card in CARDS[:2]:
        game.apply_chance(card, now=0.0)
    # mid-deal: seat 1 and seat 2 hold their hidden cards, the banker none yet
    assert game.view(1)["hands"][0]["cards"] == ["TS"]
    assert game.view(2)["hands"][0]["cards"] == [None]
    assert game.view(0)["banker_cards"] == [] and game.view(None)["hands"][1]["cards"] == [None]
    game.apply_chance(CARDS[2])
    assert game.view(0)["banker_cards"] == ["5D"] and game.view(1)["banker_cards"] == [None]
    with pytest.raises(VinteActionError, match="no seat"):
        game.view(3)


def test_saved_games_are_versioned_and_checked() -> None:
    game = explicit()
    for card in CARDS[:3]:
        game.apply_chance(card, now=0.0)
    data = json.loads(json.dumps(game.to_json()))
    assert data["game"] == "vinte" and data["version"] == 1
    assert VinteGame.from_json(data).state == game.state

    def broken(path: list[str | int], value: object) -> dict[str, object]:
        copy = json.loads(json.dumps(data))
        target = copy
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return copy  # type: ignore[no-any-return]

    cases = [
        (broken(["version"], 2), "version"),
        (broken(["game"], "casino"), "not a saved vinte game"),
        (broken(["now"], "soon"), "now"),
        (broken(["match", "banker"], True), "banker"),
        (broken(["match", "round", "deck", 0], "ZZ"), "a card was expected"),
        (broken(["match", "round", "hands", 0, "cards", 0], "AS"), "cards in play"),
        (broken(["match", "round", "deck", 1], "TS"), "appears 2 times"),
        (broken(["match", "seats", 0, "stack"], 10**30), "seats"),
        (broken(["match", "table", "seats", 1, "name"], ""), "name"),
        (broken(["match", "table", "settings", "decision_seconds"], float("inf")), "decision"),
        (broken(["match", "phase"], "banker"), "phase"),
        (broken(["match", "deadline"], None), "deadline"),
        (broken(["match", "round", "events", 0, "public"], [[[[[[[[1]]]]]]]]), "public"),
        (broken(["match", "round", "events", 0, "kind"], "jackpot"), "not an event"),
        ({"game": "vinte", "version": 1}, "exactly"),
        (broken(["match", "round", "extra"], 1), "unknown keys"),
        ([], "an object"),
    ]
    for bad, message in cases:
        with pytest.raises(GameStateError, match=message):
            VinteGame.from_json(bad)  # type: ignore[arg-type]


def test_d11_a_bool_seat_is_refused() -> None:
    """D11: ``Call(0, True)`` was accepted and recorded ``seat True``."""
    with pytest.raises(CallError, match="names a seat number"):
        Call(0, True)
    with pytest.raises(VinteActionError, match="whole number"):
        Hit(True)
    with pytest.raises(VinteActionError, match="whole number"):
        ComeBack(False)
    state = deal(new_match(VinteTable.create(3, first_banker=0)), CARDS, 0.0)
    for action in (Bet(1, 4), Bet(2, 2), Hit(1), Stand(2)):
        state = apply(state, action, 0.0)
    assert state.phase is Phase.BANKER  # seat 1 is bust, seat 2 stood
    # A Call whose target was forced to True (past the constructor) is still refused: True
    # equals 1, seat 1's number, but it is not a seat.
    forced = Call(0, 2)
    object.__setattr__(forced, "target", True)
    before = replace(state)
    with pytest.raises(CallError, match="names a seat number"):
        apply(state, forced, 1.0)
    assert state == before


def test_names_empty_or_a_bots_are_refused_with_a_clear_message() -> None:
    with pytest.raises(SeatNameError, match="an empty name"):
        SeatSpec("")
    with pytest.raises(SeatNameError, match="an empty name"):
        SeatSpec("   ")
    with pytest.raises(SeatNameError, match="printable"):
        SeatSpec("a\tb")
    with pytest.raises(SeatNameError, match="at most 40"):
        SeatSpec("x" * 41)
    bots = (SeatSpec("Bot 1", bot=True), SeatSpec("Bot 2", bot=True))
    with pytest.raises(
        SeatNameError, match=r"'bot 2' is the name of a bot at this table \(seat 2\)"
    ):
        VinteTable((SeatSpec("bot 2"), *bots))
    with pytest.raises(SeatNameError, match="both named 'Ann'"):
        VinteTable((SeatSpec("Ann"), SeatSpec("Ann")))
    assert issubclass(SeatNameError, TwentyOneError)


def test_the_game_imports_no_analysis_numpy_or_numba() -> None:
    """Games apart from analysis: a fresh interpreter imports the whole game package."""
    modules = [
        "twentyone.vinte.game",
        "twentyone.vinte.match",
        "twentyone.vinte.views",
        "twentyone.vinte.scenario",
        "twentyone.vinte.state_json",
    ]
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in modules)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')"
        " or m.startswith(('twentyone.analysis', 'twentyone.analysis.vinte.bots', 'twentyone.simulation'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"
