"""Properties over many random matches: no view ever holds a card its seat may not see,
chips are conserved, every match ends with a winner.

What a seat may see is derived here independently of the views: from the event log (the
private parts addressed to the seat and every public part), while the views are built from
the state's flags. A hidden card that was never shown must appear in no public event.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from twentyone.analysis.vinte.bots import RandomBot
from twentyone.clock import ManualClock
from twentyone.randomness import SeededRandomSource
from twentyone.vinte.game import (
    MatchState,
    Phase,
    Status,
    apply,
    deal,
    expire,
    new_match,
    shuffled_deck,
    to_act,
)
from twentyone.vinte.settings import VINTE, VinteSettings, VinteTable
from twentyone.vinte.views import view_for

CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


def card_strings(data: Any) -> set[str]:
    """Every card-like string anywhere in a JSON value."""
    return set(CARD.findall(json.dumps(data)))


def private_cards(state: MatchState) -> dict[int | None, set[str]]:
    """The cards in the private parts of the round's events, by the seat they belong to."""
    current = state.round
    assert current is not None
    found: dict[int | None, set[str]] = {}
    for event in current.events:
        if event.private is not None:
            found.setdefault(event.seat, set()).update(card_strings(dict(event.private)))
    return found


def never_shown_hidden_cards(state: MatchState) -> set[str]:
    current = state.round
    assert current is not None
    hidden = {
        str(hand.cards[0])
        for hand in current.hands
        if hand.status is not Status.BUST and not hand.called and not hand.declared_21
    }
    if state.phase in (Phase.BETTING, Phase.PLAYERS) or not current.banker_shown:
        hidden.add(str(current.banker_cards[0]))
    return hidden


def check_views(state: MatchState, checked_events: int) -> int:
    """Check every seat's view now: its cards at every step, each event's per-seat form
    once (when new), the whole JSON a server would send when a round ends.
    Returns how many events of the round are checked."""
    current = state.round
    if current is None:
        return 0
    public = card_strings([dict(event.public) for event in current.events])
    private = private_cards(state)
    assert not public & never_shown_hidden_cards(state), "a hidden card is in a public event"
    new_events = current.events[checked_events:]
    round_over = state.phase in (Phase.DEAL, Phase.OVER)
    for seat in [None, *range(len(state.seats))]:
        allowed = public | private.get(seat, set())
        view = view_for(state, seat)
        seen = {str(card) for card in view.seen_cards()}
        for event in new_events:
            seen |= card_strings(event.for_seat(seat))
        if round_over:
            seen |= card_strings(view.to_json())
        assert seen <= allowed, f"seat {seat} sees {sorted(seen - allowed)}"
        # and it does see its own cards
        if seat == current.banker:
            assert str(current.banker_cards[0]) in seen
        elif seat in current.order:
            assert str(current.hand(seat).cards[0]) in seen
    return len(current.events)


def random_match(seed: int) -> MatchState:
    source = SeededRandomSource(seed)
    seats = 2 + source.randbelow(7)
    max_bet = 1 + source.randbelow(5)
    rules = VINTE.replace(max_bet=max_bet, min_bet=1 + source.randbelow(max_bet))
    # Short matches keep thousands of them affordable; small tables also play to elimination.
    to_elimination = seats <= 3 and source.randbelow(2) == 0
    settings = VinteSettings(
        starting_stack=(seats - 1) * max_bet + (0 if to_elimination else source.randbelow(6)),
        bank_rounds=source.randbelow(4),
        round_limit=0 if to_elimination else 1 + source.randbelow(8),
        player_21_pays_double=source.randbelow(3) == 0,
        player_21_takes_bank=source.randbelow(3) == 0,
        missed_deadlines_for_away=1 + source.randbelow(3),
    )
    table = VinteTable.create(seats, rules=rules, settings=settings)
    bots = [RandomBot(source) for _ in range(seats)]
    clock = ManualClock()
    state = new_match(table, source)
    total = state.total_chips()
    steps = 0
    checked = 0
    round_number = 0
    while state.phase is not Phase.OVER:
        steps += 1
        assert steps < 20_000, "a match that does not end"
        if state.phase is Phase.DEAL:
            state = deal(state, shuffled_deck(rules, source), clock.now())
        elif source.randbelow(8) == 0:
            clock.advance(settings.decision_seconds)
            state = expire(state, clock.now())
        else:
            seat = to_act(state)[0]
            action = bots[seat].decide(view_for(state, seat))
            state = apply(state, action, clock.now())
        assert state.total_chips() == total
        assert all(seat.stack >= 0 for seat in state.seats)
        if state.round is not None and state.round.number != round_number:
            round_number, checked = state.round.number, 0
        checked = check_views(state, checked)
    assert state.winners
    alive = [s for s in state.seats if s.in_game]
    best = max(s.stack for s in alive)
    assert {i for i, s in enumerate(state.seats) if s.in_game and s.stack == best} == set(
        state.winners
    )
    if settings.round_limit == 0:
        assert len(state.winners) == 1 and state.seats[state.winners[0]].stack == total
    return state


@pytest.mark.parametrize("block", range(2))
def test_random_matches(block: int) -> None:
    for seed in range(block * 50, block * 50 + 50):
        random_match(seed)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(1, 20))
def test_random_matches_thousands(block: int) -> None:
    """1,900 more matches (seeds 1000..2899): 2,000 with the fast ones."""
    for seed in range(block * 100 + 900, block * 100 + 1000):
        random_match(seed)
