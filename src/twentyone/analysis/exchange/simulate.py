"""Monte Carlo play of Exchange Blackjack (compiled), to cross-check the exact odds.

Cards are drawn as one of the 52 distinct cards (0..51; rank ``id % 13``) so that "All cards
unique" is simulated directly. The play (logic table, dealer, stop rule) is driven by lookup
tables built from the same rules as the engine; the probabilities it checks are computed in a
completely different way (:mod:`twentyone.analysis.exchange.odds`). Seeded runs are reproducible.

>>> from twentyone.exchange.state import ExchangeState
>>> counts = simulate(ExchangeState.from_json(
...     {"players": [[], [], [], []], "dealer": [], "played": False}), games=2000, seed=1)
>>> counts.games, sum(counts.counts["Player 1"])
(2000, 2000)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from twentyone.cards import DECK, Card
from twentyone.exchange.certainty import decided_result
from twentyone.exchange.dealer import dealer_draws, dealer_reachable
from twentyone.exchange.hands import (
    BUST,
    FINAL_CODES,
    Showdown,
    code_has_five_cards,
    code_is_21,
    compare,
    final_code,
    is_soft,
    total,
)
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.selections import SELECTIONS
from twentyone.exchange.state import ExchangeState

IntArray = npt.NDArray[np.int64]
_MAX_HARD = 32
_RESULT_INDEX = {Showdown.WIN: 0, Showdown.TIE: 1, Showdown.LOSE: 2}


@dataclass(frozen=True)
class SimulatedCounts:
    """How often each selection won, tied and lost."""

    games: int
    counts: dict[str, tuple[int, int, int]]

    def frequency(self, name: str, outcome: str) -> float:
        index = {"win": 0, "tie": 1, "lose": 2}[outcome]
        return self.counts[name][index] / self.games


@cache
def _tables(table: LogicTable) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Lookup tables: player hits, final codes, dealer draws, decided results, comparisons."""
    hits = np.zeros((_MAX_HARD, 2, 6, 11), dtype=np.int64)
    codes = np.zeros((_MAX_HARD, 2, 6), dtype=np.int64)
    draws = np.zeros((_MAX_HARD, 2, 6), dtype=np.int64)
    decided = np.full((len(FINAL_CODES), _MAX_HARD, 2, 6), -1, dtype=np.int64)
    for hard in range(_MAX_HARD):
        for ace in (0, 1):
            for cards in range(1, 6):
                state = (hard, bool(ace), cards)
                codes[hard, ace, cards] = final_code(state) if cards >= 2 or hard > 21 else BUST
                draws[hard, ace, cards] = dealer_draws(state)
                for up in range(1, 11):
                    # Only states a hand can be in are in the table.
                    if (total(state), is_soft(state), up) in table.cells:
                        hits[hard, ace, cards, up] = table.hits(state, up)
                if hard <= 21 and cards < 5 and dealer_draws(state):
                    reach = dealer_reachable(state)
                    for code in FINAL_CODES:
                        result = decided_result(frozenset({code}), reach)
                        if result is not None:
                            decided[code, hard, ace, cards] = _RESULT_INDEX[result]
    compare_table = np.zeros((len(FINAL_CODES), len(FINAL_CODES)), dtype=np.int64)
    flags = np.zeros((len(FINAL_CODES), 2), dtype=np.int64)
    for mine in FINAL_CODES:
        flags[mine, 0] = code_has_five_cards(mine)
        flags[mine, 1] = code_is_21(mine)
        for theirs in FINAL_CODES:
            compare_table[mine, theirs] = _RESULT_INDEX[compare(mine, theirs)]
    return hits, codes, draws, decided, compare_table, flags


@numba.njit(cache=True)
def _value(card: int) -> int:
    return min(card % 13 + 1, 10)


@numba.njit(cache=True)
def _run(
    games: int,
    seed: int,
    phase: int,
    start_players: Any,
    start_sizes: Any,
    start_dealer: Any,
    dealer_size: int,
    hits: Any,
    codes: Any,
    draws: Any,
    decided: Any,
    compare_table: Any,
    flags: Any,
) -> Any:
    np.random.seed(seed)
    out = np.zeros((8, 3), dtype=np.int64)
    turned = np.zeros(64, dtype=np.int64)
    hard = np.zeros(4, dtype=np.int64)
    ace = np.zeros(4, dtype=np.int64)
    ncards = np.zeros(4, dtype=np.int64)
    player_code = np.zeros(4, dtype=np.int64)
    for _ in range(games):
        n_turned = 0
        # -- the nine first cards
        for p in range(4):
            hard[p] = 0
            ace[p] = 0
            ncards[p] = 0
            for j in range(start_sizes[p]):
                c = start_players[p, j]
                turned[n_turned] = c
                n_turned += 1
                v = _value(c)
                hard[p] += v
                ace[p] |= v == 1
                ncards[p] += 1
        d_hard = 0
        d_ace = 0
        d_cards = dealer_size
        for j in range(dealer_size):
            c = start_dealer[j]
            turned[n_turned] = c
            n_turned += 1
            v = _value(c)
            d_hard += v
            d_ace |= v == 1
        if phase == 0:
            for p in range(4):
                for _j in range(2):
                    c = np.random.randint(0, 52)
                    turned[n_turned] = c
                    n_turned += 1
                    v = _value(c)
                    hard[p] += v
                    ace[p] |= v == 1
                    ncards[p] += 1
            c = np.random.randint(0, 52)
            turned[n_turned] = c
            n_turned += 1
            d_hard = _value(c)
            d_ace = d_hard == 1
            d_cards = 1
        up = d_hard if d_cards == 1 else _value(start_dealer[0])
        if phase <= 1:
            for p in range(4):
                while hits[hard[p], ace[p], ncards[p], up]:
                    c = np.random.randint(0, 52)
                    turned[n_turned] = c
                    n_turned += 1
                    v = _value(c)
                    hard[p] += v
                    ace[p] |= v == 1
                    ncards[p] += 1
        for p in range(4):
            player_code[p] = codes[min(hard[p], 31), ace[p], ncards[p]]
        # -- the dealer, stopping as soon as every player hand is decided
        stopped = False
        while True:
            if not draws[d_hard, d_ace, d_cards]:
                break
            every = True
            for p in range(4):
                if decided[player_code[p], d_hard, d_ace, d_cards] < 0:
                    every = False
            if every:
                stopped = True
                break
            c = np.random.randint(0, 52)
            turned[n_turned] = c
            n_turned += 1
            v = _value(c)
            d_hard = min(d_hard + v, 31)
            d_ace |= v == 1
            d_cards += 1
        dealer_code = codes[d_hard, d_ace, d_cards]
        nobody = True
        five = False
        twenty_ones = 0
        for p in range(4):
            if stopped:
                result = decided[player_code[p], d_hard, d_ace, d_cards]
            else:
                result = compare_table[player_code[p], dealer_code]
            out[p, result] += 1
            if result == 0:
                nobody = False
            if flags[player_code[p], 0]:
                five = True
            if flags[player_code[p], 1]:
                twenty_ones += 1
        if not stopped:
            if flags[dealer_code, 0]:
                five = True
            if flags[dealer_code, 1]:
                twenty_ones += 1
        unique = True
        for i in range(n_turned):
            for j in range(i):
                if turned[i] == turned[j]:
                    unique = False
        out[4, 0 if nobody else 2] += 1
        out[5, 0 if five else 2] += 1
        out[6, 0 if unique else 2] += 1
        out[7, 0 if twenty_ones == 1 else 2] += 1
    return out


def _card_id(card: Card) -> int:
    # DECK runs suit by suit, each in RANKS order, so the index modulo 13 is the rank.
    return DECK.index(card)


def simulate(
    state: ExchangeState, games: int, seed: int, table: LogicTable | None = None
) -> SimulatedCounts:
    """Play ``games`` continuations of ``state`` (which must be a game still going on)."""
    table = table or load_logic_table()
    state.validate(table)
    players = np.zeros((4, 5), dtype=np.int64)
    sizes = np.zeros(4, dtype=np.int64)
    for p, hand in enumerate(state.players):
        for j, card in enumerate(hand):
            players[p, j] = _card_id(card)
        sizes[p] = len(hand)
    dealer = np.zeros(5, dtype=np.int64)
    for j, card in enumerate(state.dealer):
        dealer[j] = _card_id(card)
    phase = 0 if not state.started else (2 if state.played else 1)
    counts = _run(games, seed, phase, players, sizes, dealer, len(state.dealer), *_tables(table))
    return SimulatedCounts(
        games,
        {
            name: (int(w), int(t), int(lo))
            for name, (w, t, lo) in zip(SELECTIONS, counts, strict=True)
        },
    )
