"""Exchange Blackjack: the machine-played card game, its logic table, selections and exact odds.

See ``docs/exchange.md``. The betting exchange itself (orders, matching) builds on
:mod:`twentyone.exchange.selections` and :mod:`twentyone.exchange.odds`.
"""
