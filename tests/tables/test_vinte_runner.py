"""The Vinte-e-um table runner: bots, the person's seat, events in order, deadlines."""

from __future__ import annotations

import pytest

from twentyone.analysis.vinte.bots import Bot, HeuristicBot, VinteBot
from twentyone.clock import ManualClock
from twentyone.randomness import SeededRandomSource
from twentyone.tables.listeners import TableEvent
from twentyone.tables.vinte import VinteRunner, play_match
from twentyone.vinte.errors import VinteActionError, VinteTableError
from twentyone.vinte.game import Bet, Phase
from twentyone.vinte.settings import VinteSettings, VinteTable


def table(rounds: int = 4) -> VinteTable:
    return VinteTable.create(3, bots=3, settings=VinteSettings(round_limit=rounds))


def test_the_runner_waits_for_a_persons_seat_and_plays_the_bots() -> None:
    runner = VinteRunner(table(), SeededRandomSource(2), {1: VinteBot(), 2: VinteBot()})
    person = VinteBot(read_stands=True)
    decisions = 0
    while waiting := runner.advance():
        assert waiting == (0,)
        runner.submit(0, person.decide(runner.view(0)))
        decisions += 1
    assert runner.over and decisions > 0 and runner.state.total_chips() == 150


def test_a_seat_cannot_act_for_another() -> None:
    runner = VinteRunner(table(), SeededRandomSource(2), {1: VinteBot(), 2: VinteBot()})
    runner.advance()
    before = runner.state
    with pytest.raises(VinteActionError, match="seat 0 cannot act for seat 1"):
        runner.submit(0, Bet(1, 1))
    assert runner.state is before


def test_every_event_is_emitted_once_and_a_round_ends_before_the_next_is_dealt() -> None:
    seen: list[TableEvent] = []
    runner = VinteRunner(table(6), SeededRandomSource(8), {s: VinteBot() for s in range(3)})
    runner.subscribe(seen.append)
    runner.advance()
    rounds = [event.round or 0 for event in seen]
    assert rounds == sorted(rounds) and set(rounds) == set(range(1, 7))
    assert runner.state.round is not None
    last_round = [e.data for e in seen if e.round == runner.state.round.number]
    assert last_round == list(runner.state.round.events)  # nothing dropped, nothing twice
    for number in range(1, 6):  # each round's results come before the next round's deal
        kinds = [e.data.kind for e in seen if e.round == number]
        assert "round-over" in kinds and kinds.index("round-over") > kinds.index("round")


def test_missed_deadlines_are_played_by_the_default_then_the_standard_bot() -> None:
    clock = ManualClock()
    runner = VinteRunner(
        table(3), SeededRandomSource(5), {1: VinteBot(), 2: VinteBot()}, clock=clock
    )
    while runner.advance():
        clock.advance(runner.table.settings.decision_seconds + 1)  # the person never answers
    assert runner.over
    assert runner.state.seats[0].away  # then the standard bot played the seat


def test_agents_must_name_seats_of_the_table() -> None:
    with pytest.raises(VinteTableError, match="agent for seat 5"):
        VinteRunner(table(), SeededRandomSource(1), {5: VinteBot()})
    with pytest.raises(VinteTableError, match="one agent per seat"):
        play_match(table(), [HeuristicBot()], SeededRandomSource(1))


def test_play_match_is_reproducible() -> None:
    agents: list[Bot] = [VinteBot(), HeuristicBot(), VinteBot()]
    first = play_match(table(), agents, SeededRandomSource(9))
    assert first == play_match(table(), agents, SeededRandomSource(9))
    assert first.phase is Phase.OVER
