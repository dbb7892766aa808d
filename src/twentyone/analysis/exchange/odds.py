"""Exact odds of the eight selections for any Exchange Blackjack state.

Given the up card, the four player hands and the dealer play independently (infinite deck),
so each player hand is a distribution over final codes. The dealer is a Markov chain over
(hard, ace, cards). The game stops at the first dealer position where every player hand is
decided, and the exotics are judged on the hands at that moment; since "decided" can only
become true as the dealer draws, "stopped at or before position J" is the same event as
"every hand decided at J", a product over the players. Each exotic is then a sum over the
dealer's last step (position J, final code d) of products over the players. "All cards unique"
needs the card values jointly: see :mod:`twentyone.analysis.exchange.uniqueness`.

Floats by default; ``exact=True`` gives :class:`fractions.Fraction` for every figure.

>>> odds = exchange_odds(ExchangeState.from_json(
...     {"players": [[], [], [], []], "dealer": [], "played": False}), exact=True)
>>> player = odds["Player 1"]
>>> player is not None and [f"{float(player[k]):.4f}" for k in ("win", "tie", "lose")]
['0.4398', '0.0813', '0.4788']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Generic, TypeVar

from twentyone.analysis.exchange.playouts import VALUE_PROBABILITY, PlayerModel, shared_model
from twentyone.analysis.exchange.start_unique import stored_start_unique
from twentyone.analysis.exchange.unique_kernel import (
    player_options,
    unique_probability_fast,
    warm_scratch,
)
from twentyone.analysis.exchange.uniqueness import full_deck, unique_probability
from twentyone.exchange.certainty import certain_outcomes, decided_result
from twentyone.exchange.dealer import dealer_draws, dealer_reachable
from twentyone.exchange.hands import (
    EMPTY,
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
    SELECTIONS,
    Outcome,
)
from twentyone.exchange.state import ExchangeState

N = TypeVar("N", Fraction, float)


@dataclass(frozen=True)
class SelectionOdds(Generic[N]):
    """Probabilities that a selection wins, ties (dead heat) and loses.

    ``decided``: the outcome is already certain (:func:`twentyone.exchange.certainty.
    certain_outcomes`, exact set reasoning); the figures are then exactly 0 and 1 and there is
    no fair price (nothing is left to bet on).
    """

    win: N
    tie: N
    lose: N
    decided: bool = False

    def __getitem__(self, key: str) -> N:
        return {"win": self.win, "tie": self.tie, "lose": self.lose}[key]

    @property
    def fair_price(self) -> N | None:
        """Decimal back price with no margin: 1 / (P(win) + P(tie) / 2).

        ``None`` if it cannot win or is decided.
        """
        chance = self.win + self.tie / 2
        if not chance or self.decided:
            return None
        return 1 / chance

    def to_json(self) -> dict[str, Any]:
        price = self.fair_price
        return {
            "win": float(self.win),
            "tie": float(self.tie),
            "lose": float(self.lose),
            "fair_price": None if price is None else float(price),
            "decided": self.decided,
        }


_WARMED: dict[LogicTable, PlayerModel] = {}


def player_model(table: LogicTable | None = None) -> PlayerModel:
    """The shared model of a logic table, warmed (:meth:`PlayerModel.warm`) when first built.

    Warming costs about 0.3 s once per table and process; afterwards pricing a state never
    plays a hand out from scratch. It also makes the kernel's scratch space for this thread
    (:func:`~twentyone.analysis.exchange.unique_kernel.warm_scratch`), so that the first hard state
    does not pay the page faults of tens of megabytes.
    """
    table = table or load_logic_table()
    model = _WARMED.get(table)
    if model is None:
        model = _WARMED[table] = shared_model(table).warm()
        warm_scratch()
    return model


@cache
def dealer_steps(start: HandState) -> tuple[tuple[HandState, int, Fraction], ...]:
    """The dealer's last step from ``start``: (position before it, final code, probability)."""
    steps: dict[tuple[HandState, int], Fraction] = {}
    level = {start: Fraction(1)}
    while level:
        following: dict[HandState, Fraction] = {}
        for state, reach in level.items():
            for value in VALUES:
                after = add_card(state, value)
                p = reach * VALUE_PROBABILITY[value]
                if dealer_draws(after):
                    following[after] = following.get(after, Fraction(0)) + p
                else:
                    key = (state, final_code(after))
                    steps[key] = steps.get(key, Fraction(0)) + p
        level = following
    return tuple((state, code, p) for (state, code), p in sorted(steps.items()))


def exchange_odds(
    state: ExchangeState, table: LogicTable | None = None, exact: bool = False
) -> dict[str, SelectionOdds[Any] | None]:
    """Probabilities of every selection (floats, or Fractions with ``exact=True``).

    ``None`` for "All cards unique" before round 1 only, until its exact figure has been
    generated offline (``python -m twentyone.analysis.exchange.start_unique``; see docs/exchange.md).

    Raises :class:`~twentyone.exchange.state.InvalidStateError` for a state no game can show.
    """
    model = player_model(table)
    state.validate(model.table)
    if exact:
        return _odds(state, model, Fraction)
    return _odds(state, model, float)


def exchange_odds_without_unique(
    state: ExchangeState, model: PlayerModel
) -> dict[str, SelectionOdds[Fraction]]:
    """Exact odds of the seven selections other than "All cards unique" (a started game)."""
    return _class_figures(state, model, Fraction)


def _odds(
    state: ExchangeState, model: PlayerModel, number: Callable[[Any], N]
) -> dict[str, SelectionOdds[N] | None]:
    if not state.started:
        return _before_round_one(model, number)
    figures = _class_figures(state, model, number)
    unique = number(_unique(state, model, exact=number is Fraction))
    figures[ALL_UNIQUE] = SelectionOdds(unique, number(0), number(1) - unique)
    # A decided selection's float figures can miss 0 and 1 by rounding (1 - p computed as
    # -2.2e-16): its figures come from the exact certainty instead.
    one, zero = number(1), number(0)
    for name, outcome in certain_outcomes(state, model.table).items():
        figures[name] = SelectionOdds(
            one if outcome is Outcome.WINNER else zero,
            one if outcome is Outcome.TIED else zero,
            one if outcome is Outcome.LOSER else zero,
            decided=True,
        )
    return {name: figures.get(name) for name in SELECTIONS}


def _class_figures(
    state: ExchangeState, model: PlayerModel, number: Callable[[Any], N]
) -> dict[str, SelectionOdds[N]]:
    up = state.up_value
    hands = state.player_states()
    dealer = state.dealer_state()
    if state.played:
        players = [{final_code(hand): number(1)} for hand in hands]
    else:
        players = [_convert(model.finals(hand, up), number) for hand in hands]
    if state.is_over(model.table):
        return _settled(players, dealer, number)
    return _class_odds(players, dealer, number)


def _convert(dist: Mapping[int, Fraction], number: Callable[[Any], N]) -> dict[int, N]:
    return {code: number(p) for code, p in dist.items()}


def _unique(state: ExchangeState, model: PlayerModel, exact: bool) -> Fraction | float:
    """P(all cards unique): exact walk with Fractions, or the compiled float kernel."""
    available = full_deck()
    seen = set()
    for card in state.shown:
        if card in seen:
            return Fraction(0)
        seen.add(card)
        available[card.value - 1] -= 1
    if state.is_over(model.table):
        return Fraction(1)
    hands = state.player_states()
    if not exact:
        options = player_options(model, hands, state.played, state.up_value)
        return unique_probability_fast(options, state.dealer_state(), available)
    return unique_probability(
        model, hands, state.played, state.up_value, state.dealer_state(), available, Fraction
    )


def _settled(
    players: Sequence[Mapping[int, N]], dealer: HandState, number: Callable[[Any], N]
) -> dict[str, SelectionOdds[N]]:
    """A finished game: every figure is 0 or 1."""
    one, zero = number(1), number(0)
    codes = [next(iter(p)) for p in players]
    reach = dealer_reachable(dealer)
    finished = not dealer_draws(dealer)
    out: dict[str, SelectionOdds[N]] = {}
    results = []
    for name, code in zip(PLAYER_SELECTIONS, codes, strict=True):
        result = decided_result(frozenset({code}), reach)
        assert result is not None  # the game is over, so every hand is decided
        results.append(result)
        out[name] = _certain(result, one, zero)
    out[DEALER_WINS_OR_TIES_ALL] = _yes_no(Showdown.WIN not in results, one, zero)
    dealer_code = final_code(dealer) if finished else None
    five = any(code_has_five_cards(c) for c in codes) or (
        dealer_code is not None and code_has_five_cards(dealer_code)
    )
    out[FIVE_CARDS] = _yes_no(five, one, zero)
    twenty_ones = sum(code_is_21(c) for c in codes)
    if dealer_code is not None and code_is_21(dealer_code):
        twenty_ones += 1
    out[ONLY_ONE_21] = _yes_no(twenty_ones == 1, one, zero)
    return out


def _certain(result: Showdown, one: N, zero: N) -> SelectionOdds[N]:
    return SelectionOdds(
        one if result is Showdown.WIN else zero,
        one if result is Showdown.TIE else zero,
        one if result is Showdown.LOSE else zero,
    )


def _yes_no(yes: bool, one: N, zero: N) -> SelectionOdds[N]:
    return SelectionOdds(one, zero, zero) if yes else SelectionOdds(zero, zero, one)


def _class_odds(
    players: Sequence[Mapping[int, N]], dealer: HandState, number: Callable[[Any], N]
) -> dict[str, SelectionOdds[N]]:
    """Every selection but "All cards unique", for a game still going on."""
    one, zero = number(1), number(0)
    steps = [(before, code, number(p)) for before, code, p in dealer_steps(dealer)]
    finals: dict[int, N] = {}
    for _, code, p in steps:
        finals[code] = finals.get(code, zero) + p
    out: dict[str, SelectionOdds[N]] = {}
    win_given: list[dict[int, N]] = []
    for name, dist in zip(PLAYER_SELECTIONS, players, strict=True):
        totals = {Showdown.WIN: zero, Showdown.TIE: zero, Showdown.LOSE: zero}
        wins: dict[int, N] = {}
        for dealer_code, pd in finals.items():
            w = zero
            for code, pc in dist.items():
                result = compare(code, dealer_code)
                totals[result] += pd * pc
                if result is Showdown.WIN:
                    w += pc
            wins[dealer_code] = w
        win_given.append(wins)
        out[name] = SelectionOdds(totals[Showdown.WIN], totals[Showdown.TIE], totals[Showdown.LOSE])
    nobody = zero
    for dealer_code, pd in finals.items():
        term = pd
        for wins in win_given:
            term *= one - wins[dealer_code]
        nobody += term
    out[DEALER_WINS_OR_TIES_ALL] = SelectionOdds(nobody, zero, one - nobody)

    # Per player: P(no five cards), P(not 21), P(21), unconditionally and jointly with
    # "decided at dealer position J".
    def sums(dist: Mapping[int, N], reach: frozenset[int] | None) -> tuple[N, N, N]:
        no_five, not21, is21 = zero, zero, zero
        for code, p in dist.items():
            if reach is not None and decided_result(frozenset({code}), reach) is None:
                continue
            if not code_has_five_cards(code):
                no_five += p
            if code_is_21(code):
                is21 += p
            else:
                not21 += p
        return no_five, not21, is21

    def products(per_player: Sequence[tuple[N, N, N]]) -> tuple[N, N, N]:
        """P(nobody has five cards), P(no 21), P(exactly one 21) over the players."""
        no_five, none21, one21 = one, one, zero
        for nf, n21, y21 in per_player:
            no_five *= nf
            one21 = one21 * n21 + none21 * y21
            none21 *= n21
        return no_five, none21, one21

    free = products([sums(dist, None) for dist in players])
    decided_at: dict[HandState, tuple[N, N, N]] = {}
    p_no_five, p_one21 = zero, zero
    for before, dealer_code, p in steps:
        stopped = decided_at.get(before)
        if stopped is None:
            reach = dealer_reachable(before)
            stopped = decided_at[before] = products([sums(d, reach) for d in players])
        # Stopped at or before `before` (all decided there): the dealer never gets `dealer_code`.
        dealer_five = code_has_five_cards(dealer_code)
        p_no_five += p * (stopped[0] if dealer_five else free[0])
        if code_is_21(dealer_code):
            full, cut = free[1], stopped[1]
        else:
            full, cut = free[2], stopped[2]
        p_one21 += p * (stopped[2] + full - cut)
    out[FIVE_CARDS] = SelectionOdds(one - p_no_five, zero, p_no_five)
    out[ONLY_ONE_21] = SelectionOdds(p_one21, zero, one - p_one21)
    return out


@cache
def _before_round_one_exact(table: LogicTable) -> dict[str, SelectionOdds[Fraction]]:
    model = player_model(table)
    total: dict[str, list[Fraction]] = {name: [Fraction(0)] * 3 for name in SELECTIONS}
    for up in VALUES:
        weight = VALUE_PROBABILITY[up]
        start = dict(model.start_finals(up))
        figures = _class_odds([start] * 4, add_card(EMPTY, up), Fraction)
        for name, odds in figures.items():
            for index, key in enumerate(("win", "tie", "lose")):
                total[name][index] += weight * odds[key]
    del total[ALL_UNIQUE]
    return {name: SelectionOdds(win, tie, lose) for name, (win, tie, lose) in total.items()}


def _before_round_one(
    model: PlayerModel, number: Callable[[Any], N]
) -> dict[str, SelectionOdds[N] | None]:
    exact = _before_round_one_exact(model.table)
    out: dict[str, SelectionOdds[N] | None] = {
        name: SelectionOdds(number(o.win), number(o.tie), number(o.lose))
        for name, o in exact.items()
    }
    # Before any card is seen the exact walk takes 40 walks of minutes each, so it is computed
    # offline (twentyone.analysis.exchange.start_unique); None until that data file has been generated.
    unique = stored_start_unique(model.table)
    out[ALL_UNIQUE] = (
        None if unique is None else SelectionOdds(number(unique), number(0), number(1 - unique))
    )
    return {name: out[name] for name in SELECTIONS}
