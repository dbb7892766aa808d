"""Analysis of Vinte-e-um: the exact decision search (:mod:`.search`) and the bots that play by it.

The game itself (:mod:`twentyone.vinte`) never imports this package. The bots (:mod:`.bots`) live
here, beside the search they are built on: they are players reading the game's per-seat views, not
part of the game, and the table runners (a layer above) seat them.
"""
