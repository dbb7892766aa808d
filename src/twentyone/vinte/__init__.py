"""Vinte-e-um: the Brazilian banker game (spec/vinte-e-um.md).

``game`` is the pure state machine over a whole match, ``views`` what each seat may see,
``bots`` the computer players, ``table`` a runner with an injected clock and randomness,
``scenario`` the replay format.
"""
