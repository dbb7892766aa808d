"""The live Casino table runner, pure: seats, the betting window, turns, decision deadlines,
settlement, the shoe until its cut card, saving and loading (an injected clock: ``now``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from twentyone.cards import Card, parse_cards
from twentyone.fairness import commitment, shuffled_shoe
from twentyone.presets import CASINO
from twentyone.tables.casino import (
    BETTING,
    PLAYING,
    SETTLED,
    WAITING,
    CasinoConflictError,
    CasinoRefusalError,
    CasinoTable,
    Change,
    NotYourBoxError,
    Seat,
)

ANN = Seat(1, "ann", "player:ann")
BOB = Seat(2, "bob", "player:bob")


def source(*scripts: str) -> Callable[[], tuple[str, Sequence[Card] | None]]:
    """Seeds 1, 2, 3 ... and, for the first shoes, the given top cards."""
    counter = iter(range(1, 10_000))
    tops = list(scripts)

    def next_shoe() -> tuple[str, Sequence[Card] | None]:
        top = parse_cards(tops.pop(0)) if tops else None
        return f"{next(counter):064x}", top

    return next_shoe


def table_with(*scripts: str, **settings: Any) -> CasinoTable:
    return CasinoTable.new("t", "Table", source(*scripts), client_seed="table-seed", **settings)


def kinds(changes: list[Change]) -> list[str]:
    return [change.event["type"] for change in changes]


def test_two_players_split_double_timeout_and_settlement() -> None:
    # Box 1 (ann) 8 8: split, hand 1 hits to 20, hand 2 doubles to 17; box 2 (ann) 5 6: double
    # to 20; box 3 (bob) T 6: times out and stands. The dealer 6 draws T 3: 19.
    table = table_with("8S 5C TC 6H 8H 6D 6S 3D 2C 9S 7H 9C TH 3S")
    assert kinds(table.sit(ANN, 1, now=0.0)) == ["seated", "betting-opened"]
    table.sit(ANN, 2, now=1.0)
    table.sit(BOB, 3, now=2.0)
    with pytest.raises(CasinoConflictError):
        table.sit(BOB, 1, now=2.0)
    assert table.phase == BETTING and table.deadline_at() == 15.0
    stakes = []
    for seat, box, amount in ((ANN, 1, 1000), (ANN, 2, 1500)):
        changes = table.bet(seat.user_id, box, amount, 1, now=3.0)
        stakes += [s for c in changes for s in c.stakes]
        assert table.phase == BETTING
    with pytest.raises(NotYourBoxError):
        table.bet(ANN.user_id, 3, 1000, 1, now=4.0)
    changes = table.bet(BOB.user_id, 3, 1000, 1, now=4.0)
    stakes += [s for c in changes for s in c.stakes]
    assert kinds(changes) == ["bet", "dealt"]  # every seated box has bet: dealt at once
    assert table.phase == PLAYING and table.deadline_at() == 24.0
    state = table.public_state(4.0)
    assert state["dealer"]["cards"] == ["6H"] and state["turn"] == {
        "box": 1,
        "hand": 0,
        "kind": "play",
    }
    assert "split" in state["legal_actions"]

    step = table.step
    with pytest.raises(NotYourBoxError):
        table.act(BOB.user_id, 1, "split", step, now=5.0)
    with pytest.raises(CasinoConflictError):
        table.act(ANN.user_id, 1, "split", step - 1, now=5.0)
    with pytest.raises(CasinoConflictError):
        table.act(ANN.user_id, 2, "hit", step, now=5.0)
    with pytest.raises(CasinoRefusalError, match="box 1"):
        table.act(ANN.user_id, 1, "insurance 100", step, now=5.0)
    assert table.step == step

    def act(seat: Seat, box: int, action: str, now: float) -> list[Change]:
        changes = table.act(seat.user_id, box, action, table.step, now=now)
        stakes.extend(s for c in changes for s in c.stakes)
        return changes

    act(ANN, 1, "split", 5.0)
    act(ANN, 1, "hit", 6.0)
    act(ANN, 1, "stand", 7.0)
    act(ANN, 1, "double", 8.0)
    act(ANN, 2, "double", 9.0)
    assert table.turn() == (3, 0, "play") and table.deadline_at() == 29.0
    assert table.advance(28.9) == []
    changes = table.advance(29.0)
    assert kinds(changes) == ["decision", "settled"]
    assert changes[0].event["timed_out"] is True and changes[0].event["action"] == "stand"
    payouts = changes[-1].payouts
    assert [(p.box, p.seat.name, p.staked, p.net) for p in payouts] == [
        (1, "ann", 3000, -1000),
        (2, "ann", 3000, 3000),
        (3, "bob", 1000, -1000),
    ]
    # Every unit staked came in through a Stake of this box.
    for payout in payouts:
        assert payout.staked == sum(s.amount for s in stakes if s.box == payout.box)
    record = changes[-1].settled
    assert record is not None and record["position"] == 0 and len(record["cards"]) == 14
    assert table.phase == SETTLED and table.deadline_at() == 33.0
    assert kinds(table.advance(33.0)) == ["betting-opened"]
    assert table.round_number == 2 and table.deadline_at() == 48.0
    assert kinds(table.advance(48.0)) == ["waiting"]  # nobody bet: back to waiting
    assert table.phase == WAITING and table.deadline_at() is None


def test_insurance_times_out_declined_and_the_dealer_has_no_hole_card() -> None:
    # Ace up: each box is asked for insurance; the dealer's second card comes only at the end.
    table = table_with("TS AH 9D 7C 5D")
    table.sit(ANN, 4, now=0.0)
    table.bet(ANN.user_id, 4, 1000, 1, now=0.0)
    assert table.turn() == (4, None, "insurance")
    assert table.legal_actions() == ["no-insurance", "insurance 500"]
    state = json.dumps(table.public_state(0.0))
    assert "7C" not in state and table.public_state(0.0)["dealer"]["cards"] == ["AH"]
    changes = table.advance(20.0)
    assert changes[0].event["action"] == "no-insurance" and changes[0].event["timed_out"]
    assert table.turn() == (4, 0, "play")
    changes = table.act(ANN.user_id, 4, "stand", table.step, now=21.0)
    assert kinds(changes) == ["decision", "settled"]
    assert table.public_state(21.0)["dealer"]["cards"] == ["AH", "7C"]  # soft 18 stands
    assert table.results() == [{"box": 4, "net": 1000}]


def test_leaving_and_an_empty_window() -> None:
    table = table_with()
    table.sit(ANN, 1, now=0.0)
    table.sit(BOB, 2, now=0.0)
    with pytest.raises(NotYourBoxError):
        table.leave(BOB.user_id, 1, now=1.0)
    table.bet(ANN.user_id, 1, 500, 1, now=1.0)
    with pytest.raises(CasinoConflictError):
        table.leave(ANN.user_id, 1, now=2.0)  # it has a bet
    # Bob leaves: every remaining box has bet, so the round is dealt.
    assert kinds(table.leave(BOB.user_id, 2, now=2.0))[:2] == ["left", "dealt"]
    with pytest.raises(CasinoRefusalError):
        table.sit(BOB, 8, now=3.0)
    with pytest.raises(CasinoConflictError, match="no bets now"):
        table.bet(ANN.user_id, 1, 500, 1, now=3.0)


def test_the_shoe_lasts_until_the_cut_card_then_a_new_one_is_committed() -> None:
    table = table_with(rules=CASINO.replace(penetration=CASINO.penetration / 10))
    first = table.shoe
    assert first.penetration_cut == 23 and first.cards == shuffled_shoe(
        first.server_seed, "table-seed", 0, 6
    )
    table.sit(ANN, 1, now=0.0)
    now, dealt = 0.0, []
    while table.shoe is first:
        assert table.public_state(now)["previous_shoe"] is None  # no seed before retirement
        table.bet(ANN.user_id, 1, 100, table.round_number, now=now)
        while table.phase == PLAYING:
            deadline = table.deadline_at()
            assert deadline is not None
            assert table.advance_once(deadline)  # every decision times out: standard play
        assert table.phase == SETTLED
        record = table.round_record()
        dealt.append((record["position"], record["cards"]))
        now = table.deadline_at() or now
        table.advance(now)
    assert table.shoe.number == 2 and table.shoe.commitment != first.commitment
    assert table.shoe.position == 0 and first.past_cut_card
    # The rounds follow each other through the shoe, and the seed gives every card.
    position = 0
    for start, cards in dealt:
        assert start == position
        assert cards == [str(c) for c in first.cards[start : start + len(cards)]]
        position += len(cards)
    assert commitment(first.server_seed) == first.commitment
    # Once retired, the shoe's seed is public (the page shows it beside the next commitment),
    # and it survives a save and load.
    previous = table.public_state(now)["previous_shoe"]
    assert previous["id"] == 1 and previous["server_seed"] == first.server_seed
    assert commitment(previous["server_seed"]) == previous["commitment"] == first.commitment
    assert first.server_seed not in json.dumps(table.public_state(now)["shoe"])
    again = CasinoTable.from_json(json.loads(json.dumps(table.to_json())), table.shoe_source)
    assert again.public_state(now)["previous_shoe"] == previous


def test_a_random_session_saves_loads_and_balances_at_every_step() -> None:
    players = [ANN, BOB, Seat(3, "cy", "player:cy")]
    table = table_with()
    rng = random.Random(2026)
    held: dict[int, int] = {}
    paid_out = 0
    now = 0.0
    for number in range(1, 8):
        table.sit(players[number % 3], number, now=now)
    for _ in range(400):
        now += rng.choice((0.5, 3.0, 25.0))
        choice = rng.random()
        changes: list[Change] = []
        try:
            if table.phase in (BETTING, WAITING) and choice < 0.7:
                box = rng.randint(1, 7)
                seat = table.owner(box)
                assert seat is not None
                changes = table.bet(
                    seat.user_id, box, rng.choice((100, 500, 2500)), table.round_number, now=now
                )
            elif table.phase == PLAYING and choice < 0.8 and table.turn() is not None:
                turn = table.turn()
                assert turn is not None
                seat = table.round_seats[table.round_boxes.index(turn[0])]
                action = rng.choice(table.legal_actions())
                changes = table.act(seat.user_id, turn[0], action, table.step, now=now)
            else:
                changes = table.advance(now)
        except CasinoConflictError:
            continue  # a box that has bet already
        for change in changes:
            for stake in change.stakes:
                held[stake.box] = held.get(stake.box, 0) + stake.amount
            for payout in change.payouts:
                assert payout.staked == held.pop(payout.box)
                paid_out += payout.staked + payout.net
        loaded = CasinoTable.from_json(json.loads(json.dumps(table.to_json())), table.shoe_source)
        assert loaded.public_state(now) == table.public_state(now)
        assert loaded.deadline_at() == table.deadline_at()
        public = json.dumps(table.public_state(now))
        assert table.shoe.server_seed not in public
        if table.phase == PLAYING:
            assert len(table.public_state(now)["dealer"]["cards"]) == 1
        table = loaded
    assert paid_out > 0 and table.round_number > 5


def test_resume_gives_fresh_time_and_void_refunds() -> None:
    table = table_with()
    table.sit(ANN, 1, now=0.0)
    table.sit(BOB, 2, now=0.0)
    table.bet(ANN.user_id, 1, 700, 1, now=1.0)
    table.resume(100.0)
    assert table.deadline_at() == 115.0 and table.bets == {1: 700}
    changes = table.void_round("test", now=101.0)
    assert [(r.box, r.amount) for r in changes[0].refunds] == [(1, 700)]
    assert table.round_number == 2 and table.phase == BETTING and table.bets == {}
    table.bet(ANN.user_id, 1, 700, 2, now=102.0)
    table.bet(BOB.user_id, 2, 900, 2, now=102.0)
    assert table.phase == PLAYING
    table.resume(500.0)
    assert table.deadline_at() == 520.0
    with pytest.raises(Exception, match="not a casino table state"):
        CasinoTable.from_json({"version": 9}, table.shoe_source)
