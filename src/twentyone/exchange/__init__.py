"""Exchange Blackjack: the machine-played card game, its logic table, selections and certainty.

See ``docs/exchange.md``. The game imports no numpy or numba: the exact odds, the solver and
the compiled kernels are in :mod:`twentyone.analysis.exchange`. The betting exchange itself
(orders, matching) is :mod:`twentyone.market`.
"""
