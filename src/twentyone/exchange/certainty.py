"""Exact certainty: which results and selections are already the same in every continuation.

A player hand that can still end on any code in ``player_codes`` against a dealer who can
still end on any code in ``dealer_codes`` is *decided* when every pairing gives the same
result. With an infinite deck every card value can come next, so every continuation of the
game has a positive probability, and "the same in every continuation" is "the probability is
exactly 1": this module decides it by reasoning over *sets* of reachable final codes (no
probability, no floating point, no compiled kernel).

>>> from twentyone.exchange.hands import BLACKJACK, BUST
>>> decided_result(frozenset({BLACKJACK}), dealer_reachable((15, False, 2)))
<Showdown.WIN: 'win'>
>>> decided_result(frozenset({BLACKJACK}), dealer_reachable((14, False, 2))) is None
True
>>> decided_result(frozenset({BUST}), dealer_reachable((10, False, 1)))
<Showdown.LOSE: 'lose'>

:func:`certain_outcomes` says which of the eight selections are settled now:

>>> from twentyone.exchange.state import ExchangeState
>>> state = ExchangeState.from_json({"players": [["TS", "6H", "TC"], ["9D", "9C"],
...     ["KS", "5D", "9H"], ["QC", "2H", "TD"]], "dealer": ["7C"], "played": True})
>>> sorted((name, o.value) for name, o in certain_outcomes(state).items())
[('Player 1', 'loser'), ('Player 3', 'loser'), ('Player 4', 'loser')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from twentyone.exchange.dealer import dealer_draws, dealer_reachable
from twentyone.exchange.hands import (
    VALUES,
    HandState,
    Showdown,
    add_card,
    code_has_five_cards,
    code_is_21,
    compare,
    final_code,
)
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.selections import (
    ALL_UNIQUE,
    DEALER_WINS_OR_TIES_ALL,
    FIVE_CARDS,
    ONLY_ONE_21,
    PLAYER_SELECTIONS,
    Outcome,
)

if TYPE_CHECKING:
    from twentyone.exchange.state import ExchangeState

__all__ = ["all_decided", "certain_outcomes", "dealer_reachable", "decided_result"]

_OUTCOME = {Showdown.WIN: Outcome.WINNER, Showdown.TIE: Outcome.TIED, Showdown.LOSE: Outcome.LOSER}

#: The set of dealer positions (each named by the final codes reachable from it) at which a
#: hand, or every hand of a group, is decided.
DecidedAt = frozenset[frozenset[int]]


@cache
def decided_result(player_codes: frozenset[int], dealer_codes: frozenset[int]) -> Showdown | None:
    """The result if it is certain, else ``None``."""
    results = {compare(mine, theirs) for mine in player_codes for theirs in dealer_codes}
    if len(results) == 1:
        return next(iter(results))
    return None


def all_decided(players: Iterable[frozenset[int]], dealer_codes: frozenset[int]) -> bool:
    return all(decided_result(codes, dealer_codes) is not None for codes in players)


def certain_outcomes(state: ExchangeState, table: LogicTable | None = None) -> dict[str, Outcome]:
    """Every selection whose outcome is already certain, with that outcome.

    Raises :class:`~twentyone.exchange.state.InvalidStateError` for a state no game can show.
    """
    table = table or load_logic_table()
    state.validate(table)
    if not state.started:
        return {}
    up = state.up_value
    if state.played:
        reach = [frozenset({final_code(hand)}) for hand in state.player_states()]
    else:
        reach = [table.final_codes(hand, up) for hand in state.player_states()]
    dealer = state.dealer_state()
    dealer_codes = dealer_reachable(dealer)
    out: dict[str, Outcome] = {}
    for name, codes in zip(PLAYER_SELECTIONS, reach, strict=True):
        result = decided_result(codes, dealer_codes)
        if result is not None:
            out[name] = _OUTCOME[result]
    dealer_wins = _dealer_wins_or_ties_all(reach, dealer_codes)
    if dealer_wins is not None:
        out[DEALER_WINS_OR_TIES_ALL] = _yes_no(dealer_wins)
    five, one_21 = _exotics_at_the_end(reach, dealer)
    if len(five) == 1:
        out[FIVE_CARDS] = _yes_no(next(iter(five)))
    if len(one_21) == 1:
        out[ONLY_ONE_21] = _yes_no(next(iter(one_21)))
    shown = state.shown
    if len(set(shown)) < len(shown):
        out[ALL_UNIQUE] = Outcome.LOSER
    elif state.is_over(table):
        # While the game goes on another card can still repeat one already seen.
        out[ALL_UNIQUE] = Outcome.WINNER
    return out


def _yes_no(yes: bool) -> Outcome:
    return Outcome.WINNER if yes else Outcome.LOSER


def _dealer_wins_or_ties_all(
    reach: Sequence[frozenset[int]], dealer_codes: frozenset[int]
) -> bool | None:
    """True/False when certain, else None.

    Each hand's result is ``compare(its code, the dealer's final code)`` in every continuation
    (when the game stops early the results are decided, so equal to that comparison for any
    final the dealer could have reached), and the hands' codes and the dealer's final vary
    independently. So "nobody wins" is certain when no pairing is a win, and certainly false
    when for every dealer final some hand wins whatever code it ends on.
    """
    can_win = any(
        compare(code, final) is Showdown.WIN
        for codes in reach
        for code in codes
        for final in dealer_codes
    )
    if not can_win:
        return True
    always_beaten = all(
        any(all(compare(code, final) is Showdown.WIN for code in codes) for codes in reach)
        for final in dealer_codes
    )
    return False if always_beaten else None


def _exotics_at_the_end(
    reach: Sequence[frozenset[int]], dealer: HandState
) -> tuple[set[bool], set[bool]]:
    """Every value "One or more has 5 cards" and "Only one has 21pts" can end with.

    They are judged on the hands when the game ends, which is at the first dealer position
    where every player hand is decided (or when the dealer has finished). A hand's code matters
    through: does it hold five cards, is it a 21, and at which dealer positions is it decided.
    The hands are combined over those three (any five so far, how many 21s up to 2, the
    positions where all so far are decided), then the dealer's paths are followed until they
    stop.
    """
    positions = _drawing_positions(dealer)
    groups: set[tuple[bool, int, DecidedAt]] = {(False, 0, positions)}
    for codes in reach:
        profiles = {
            (code_has_five_cards(code), int(code_is_21(code)), _decided_at(code, positions))
            for code in codes
        }
        groups = {
            (five or has_five, min(twenty_ones + is_21, 2), decided & where)
            for five, twenty_ones, decided in groups
            for has_five, is_21, where in profiles
        }
    five_values: set[bool] = set()
    one_21_values: set[bool] = set()
    for five, twenty_ones, decided in groups:
        for dealer_five, dealer_21 in _dealer_stops(dealer, decided):
            five_values.add(five or dealer_five)
            one_21_values.add(twenty_ones + dealer_21 == 1)
    return five_values, one_21_values


@cache
def _drawing_positions(dealer: HandState) -> DecidedAt:
    """The dealer positions from ``dealer`` on at which he would still draw, each named by the
    set of final codes he can reach from it (the stop rule depends on nothing else)."""
    if not dealer_draws(dealer):
        return frozenset()
    out = {dealer_reachable(dealer)}
    for value in VALUES:
        out |= _drawing_positions(add_card(dealer, value))
    return frozenset(out)


@cache
def _decided_at(code: int, positions: DecidedAt) -> DecidedAt:
    return frozenset(
        where for where in positions if decided_result(frozenset({code}), where) is not None
    )


@cache
def _dealer_stops(dealer: HandState, decided: DecidedAt) -> frozenset[tuple[bool, int]]:
    """Where the dealer's hand can stand when the game ends: (five cards, 1 if 21 else 0).

    The game stops at a position in ``decided`` (the dealer still drawing: under 17 on fewer
    than five cards, so neither) or when he finishes.
    """
    if not dealer_draws(dealer):
        code = final_code(dealer)
        return frozenset({(code_has_five_cards(code), int(code_is_21(code)))})
    if dealer_reachable(dealer) in decided:
        return frozenset({(False, 0)})
    out: set[tuple[bool, int]] = set()
    for value in VALUES:
        out |= _dealer_stops(add_card(dealer, value), decided)
    return frozenset(out)
