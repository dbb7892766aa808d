"""Save and resume at every step (issue 11): random matches played by seeded bots through the
game protocol; before every step the game is saved with ``to_json`` (through JSON text),
loaded with ``from_json``, and both the loaded and the original game take the same step:
the same events, the same views for every seat, and in the end the same results as a match
never saved."""

from __future__ import annotations

import json
from typing import Any

import pytest

from twentyone.analysis.vinte.bots import Bot, HeuristicBot, RandomBot, VinteBot
from twentyone.cards import Card
from twentyone.protocol import CHANCE, Game
from twentyone.randomness import SeededRandomSource
from twentyone.vinte.events import Event
from twentyone.vinte.game import shuffled_deck
from twentyone.vinte.match import VinteGame
from twentyone.vinte.settings import VINTE, VinteSettings, VinteTable


def random_table(seed: int) -> VinteTable:
    source = SeededRandomSource(("table", seed).__repr__())
    seats = 2 + source.randbelow(5)
    max_bet = 1 + source.randbelow(4)
    rules = VINTE.replace(max_bet=max_bet, aces_high=source.randbelow(5) != 0)
    settings = VinteSettings(
        starting_stack=(seats - 1) * max_bet + source.randbelow(4),
        bank_rounds=source.randbelow(3),
        round_limit=2 + source.randbelow(4),
        player_21_pays_double=source.randbelow(3) == 0,
        player_21_takes_bank=source.randbelow(3) == 0,
        missed_deadlines_for_away=1 + source.randbelow(2),
        decision_seconds=10,
    )
    return VinteTable.create(seats, bots=seats, rules=rules, settings=settings)


class Driver:
    """The world outside a game: the dealer's decks, the bots, the clock. Each step is
    chosen once and given to every copy of the game."""

    def __init__(self, seed: int, table: VinteTable) -> None:
        self.source = SeededRandomSource(seed)
        self.table = table
        self.bots: list[Bot] = [
            RandomBot(self.source) if seat % 2 else (VinteBot() if seed % 3 else HeuristicBot())
            for seat in range(table.size)
        ]
        self.deck: list[Card] = []
        self.now = 0.0

    def step(self, game: VinteGame) -> tuple[str, Any]:
        if game.to_act() == (CHANCE,):
            if not self.deck:
                self.deck = shuffled_deck(self.table.rules, self.source)
            return "card", self.deck.pop()
        if self.source.randbelow(10) == 0:
            self.now += 10.0
            return "expire", self.now
        seat = game.to_act()[self.source.randbelow(len(game.to_act()))]
        assert isinstance(seat, int)
        return "act", (seat, self.bots[seat].decide(game.seat_view(seat)))

    def round_over(self, events: tuple[Event, ...]) -> None:
        if any(event.kind == "round-over" for event in events):
            self.deck = []  # a fresh shuffle for every round


def take(game: VinteGame, step: tuple[str, Any]) -> tuple[Event, ...]:
    kind, argument = step
    if kind == "card":
        return game.apply_chance(argument)
    if kind == "expire":
        return game.expire(argument)
    seat, action = argument
    return game.apply(seat, action)


def views(game: VinteGame) -> list[dict[str, Any]]:
    return [game.view(seat) for seat in [None, *range(game.state.table.size)]]


def saved(game: VinteGame) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(game.to_json(), allow_nan=False))
    return data


def play(seed: int, save_every_step: bool) -> tuple[list[Event], VinteGame, int]:
    table = random_table(seed)
    game = VinteGame.new(table, SeededRandomSource(seed), automatic=False)
    assert isinstance(game, Game)
    driver = Driver(seed, table)
    history: list[Event] = []
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 5_000
        step = driver.step(game)
        if save_every_step:
            data = saved(game)
            loaded = VinteGame.from_json(data)
            assert loaded.state == game.state
            assert loaded.to_json() == data
            assert views(loaded) == views(game)
            events = take(game, step)
            assert take(loaded, step) == events
            assert loaded.state == game.state
            assert views(loaded) == views(game)
            game = loaded  # the loaded game is the one played on
        else:
            events = take(game, step)
        driver.round_over(events)
        history.extend(events)
    return history, game, steps


@pytest.mark.parametrize("seed", range(12))
def test_save_and_load_at_every_step_changes_nothing(seed: int) -> None:
    history, game, steps = play(seed, save_every_step=True)
    again, never_saved, _ = play(seed, save_every_step=False)
    assert history == again
    assert game.state == never_saved.state
    assert game.state.winners and steps > 4


def test_automatic_games_save_and_resume_mid_round() -> None:
    """A game that deals its own cards keeps the round's deck in its state: a copy loaded
    with an equal randomness source plays on identically."""
    table = VinteTable.create(4, bots=4, settings=VinteSettings(round_limit=6))
    bots: list[Bot] = [
        VinteBot(),
        HeuristicBot(),
        VinteBot(read_stands=True),
        HeuristicBot(stand_on=15),
    ]
    game = VinteGame.new(table, SeededRandomSource(4))
    checked = 0
    while not game.is_over:
        seat = game.to_act()[0]
        assert isinstance(seat, int)
        action = bots[seat].decide(game.seat_view(seat))
        if checked < 40:
            # Loaded without a source, the copy plays the rest of the round from the deck
            # the state carries (the source itself is never saved).
            copy = VinteGame.from_json(saved(game))
            events = copy.apply(seat, action)
            mid_round = not any(event.kind == "round-over" for event in events)
            original = game.apply(seat, action)
            if mid_round:
                assert events == original
                assert copy.state == game.state
            checked += 1
        else:
            game.apply(seat, action)
    assert game.state.winners
