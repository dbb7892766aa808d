"""Which selections are certain now, by exact reasoning over every continuation.

A player hand or an exotic settles the moment its outcome is the same in every possible
continuation. With an infinite deck every continuation has a positive probability, so the
outcome is certain exactly when its exact rational probability is 1; those are computed with
:class:`fractions.Fraction` (never a float reaching 1.0). "All cards unique" is certain "no" at
the first repeated card and "yes" only when the game is over (until then another card could
repeat one already seen).

>>> from twentyone.exchange.state import ExchangeState
>>> state = ExchangeState.from_json({"players": [["TS", "6H", "TC"], ["9D", "9C"],
...     ["KS", "5D", "9H"], ["QC", "2H", "TD"]], "dealer": ["7C"], "played": True})
>>> sorted((name, o.value) for name, o in certain_outcomes(state).items())
[('Player 1', 'loser'), ('Player 3', 'loser'), ('Player 4', 'loser')]
"""

from __future__ import annotations

from fractions import Fraction

from twentyone.exchange.logic_table import LogicTable
from twentyone.exchange.odds import exchange_odds_without_unique, player_model
from twentyone.exchange.selections import ALL_UNIQUE, PLAYER_SELECTIONS, Outcome
from twentyone.exchange.state import ExchangeState


def certain_outcomes(state: ExchangeState, table: LogicTable | None = None) -> dict[str, Outcome]:
    """Every selection whose outcome is already certain, with that outcome."""
    model = player_model(table)
    state.validate(model.table)
    if not state.started:
        return {}
    out: dict[str, Outcome] = {}
    for name, odds in exchange_odds_without_unique(state, model).items():
        if odds.win == Fraction(1):
            out[name] = Outcome.WINNER
        elif odds.lose == Fraction(1):
            out[name] = Outcome.LOSER
        elif odds.tie == Fraction(1) and name in PLAYER_SELECTIONS:
            out[name] = Outcome.TIED
    shown = state.shown
    if len(set(shown)) < len(shown):
        out[ALL_UNIQUE] = Outcome.LOSER
    elif state.is_over(model.table):
        out[ALL_UNIQUE] = Outcome.WINNER
    return out
