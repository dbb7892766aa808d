"""Perft-style regression counts for the house round (as python-chess counts chess positions).

From a fixed, scripted shoe, every distinct sequence of legal decisions is played to its end (the
round settled, or the script used up): the number of such sequences is stored below. Any change in
which decisions are legal, where the turn goes, or when the dealer draws changes a count.

Each count is computed twice: by following ``legal_actions`` (insurance expanded into every amount
from 1 to half the bet), and by an independent brute force that tries every conceivable decision
(every kind, every insurance amount from 0 to the bet) on a saved copy of the round and keeps those
the round accepts. Both must agree with each other and with the stored number.
"""

from __future__ import annotations

import pytest

from twentyone.cards import Card, parse_cards
from twentyone.errors import IllegalActionError
from twentyone.house.actions import Action, ActionKind
from twentyone.house.round import Round
from twentyone.presets import CASINO, ONLINE
from twentyone.protocol import CHANCE
from twentyone.rules import Rules

# Small bets (the limits lowered) keep the insurance amounts few: a bet of 4 insures 1 or 2.
SMALL_CASINO = CASINO.replace(min_bet=2, max_boxes=2)
SMALL_ONLINE = ONLINE.replace(min_bet=2)

EVERY_DECISION = [Action(kind) for kind in ActionKind if kind is not ActionKind.INSURANCE]


def play_chance(round_: Round, cards: list[Card]) -> bool:
    """Deal the cards the round asks for; False if the script runs out first."""
    while round_.to_act() == (CHANCE,):
        dealt = len(round_.cards_dealt())
        if dealt >= len(cards):
            return False
        round_.apply_chance(cards[dealt])
    return True


def perft_by_legal_actions(round_: Round, cards: list[Card]) -> int:
    if not play_chance(round_, cards) or round_.is_over:
        return 1
    seat = round_.to_act()[0]
    assert isinstance(seat, int)
    actions: list[Action] = []
    for action in round_.legal_actions(seat):
        if action.kind is ActionKind.INSURANCE:
            assert action.amount is not None
            actions += [Action(ActionKind.INSURANCE, n) for n in range(1, action.amount + 1)]
        else:
            actions.append(action)
    total = 0
    saved = round_.to_json()
    for action in actions:
        branch = Round.from_json(saved)
        branch.apply(seat, action)
        total += perft_by_legal_actions(branch, cards)
    return total


def perft_by_brute_force(round_: Round, cards: list[Card]) -> int:
    if not play_chance(round_, cards) or round_.is_over:
        return 1
    saved = round_.to_json()
    bet = max(round_.boxes_bets())
    attempts = EVERY_DECISION + [Action(ActionKind.INSURANCE, n) for n in range(bet + 1)]
    total = 0
    for action in attempts:
        branch = Round.from_json(saved)
        for seat in range(len(branch.boxes)):
            try:
                branch.apply(seat, action)
            except IllegalActionError:
                assert branch.to_json() == saved  # a refused decision changes nothing
                continue
            total += perft_by_brute_force(branch, cards)
            break
    return total


# (name, rules, bets, cards top first, expected number of decision sequences)
PERFT_CASES: list[tuple[str, Rules, list[int], str, int]] = [
    ("casino pair of eights", SMALL_CASINO, [4], "8S 6H 8D 3C 3D 2S 9C TH 5S 4C KD 7H", 20),
    ("casino ace up two boxes", SMALL_CASINO, [4, 4], "9S 5H AD 2C 6D 7S 4C 8H TD 3S", 225),
    ("casino blackjack and a ten", SMALL_CASINO, [4, 4], "AS TH 7D KC TC 2S 4D 9H", 13),
    ("online pair of aces", SMALL_ONLINE, [4], "AS 6H AD 9C KD 5S 7H 2D 3C", 6),
    ("online ace up", SMALL_ONLINE, [4], "9S AH 2D 7C 5S TH 3D 4C", 12),
    ("online ten up no blackjack", SMALL_ONLINE, [4], "8S TH 8D 6C 3S 5D 9H 2C KS", 18),
]


@pytest.mark.parametrize(
    ("rules", "bets", "cards", "expected"),
    [case[1:] for case in PERFT_CASES],
    ids=[case[0] for case in PERFT_CASES],
)
def test_perft_counts(rules: Rules, bets: list[int], cards: str, expected: int) -> None:
    script = parse_cards(cards)
    by_legal = perft_by_legal_actions(Round.start(rules, bets), script)
    by_force = perft_by_brute_force(Round.start(rules, bets), script)
    assert by_legal == by_force
    assert by_legal == expected
