"""Table runners: one per game family, above the games (docs/tables.md).

A runner drives one game with an injected clock and shoe (or randomness source), holds and
settles its money through the ledger, and emits every step to its subscribers. The terminal
``play`` commands are its clients, and the server plugs in here.

- :class:`~twentyone.tables.house.HouseTable`: Casino and Online, a session of rounds.
- :class:`~twentyone.tables.exchange.ExchangeRunner`: Exchange Blackjack games and their market.
- :class:`~twentyone.tables.vinte.VinteRunner`: a Vinte-e-um match with bots and deadlines.

The runners are imported from their modules (``twentyone.tables.house`` ...), so that a house
table does not load the exchange's market.
"""

from twentyone.tables.errors import BankrollError, TableStateError
from twentyone.tables.listeners import Listener, Listeners, TableEvent

__all__ = ["BankrollError", "Listener", "Listeners", "TableEvent", "TableStateError"]
