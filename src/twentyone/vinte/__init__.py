"""Vinte-e-um: the Brazilian banker game (spec/vinte-e-um.md).

``game`` is the pure state machine over a whole match (the functional API), ``match`` the same
game behind the one game protocol (:class:`~twentyone.vinte.match.VinteGame`), ``state_json``
the saved state, ``views`` what each seat may see, ``scenario`` the replay format. ``bots`` are
the computer players: the one module here that imports the analysis (the search in
:mod:`twentyone.analysis.vinte.search`); nothing in the game imports them. The table runner is
:mod:`twentyone.tables.vinte`.
"""
