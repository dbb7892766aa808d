"""Exchange Blackjack analysis: exact odds, the logic-table solver, the "All cards unique" walks
and kernels (numba), and a compiled Monte Carlo of the game.

The game itself (:mod:`twentyone.exchange`) imports none of this: it decides early settlement
by exact set reasoning (:mod:`twentyone.exchange.certainty`). See ``docs/exchange.md``.

- :mod:`.odds`: :func:`~.odds.exchange_odds` (the eight selections, floats or exact);
- :mod:`.playouts`: exact final-code distributions of the dealer and of a player hand;
- :mod:`.solver`: derives the player logic table (``python -m twentyone.analysis.exchange.solver``);
- :mod:`.uniqueness` / :mod:`.unique_kernel` / :mod:`.start_unique`: "All cards unique";
- :mod:`.simulate`: Monte Carlo cross-check of the odds.
"""
