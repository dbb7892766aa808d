"""The betting exchange: price ladder, order book and matching, exposure, settlement,
commission, the house market maker and the market-level API.

It knows selections by name, rounds by number and results (winner, loser, tied); the card
game (:mod:`twentyone.exchange`) tells it when rounds close and how selections settle, and
gives the fair prices the market maker quotes around. Money moves only through
:mod:`twentyone.ledger`.
"""

from twentyone.market.ladder import index_of, price_text
from twentyone.market.market import (
    COMMISSION_ACCOUNT,
    MARKET_MAKER_ACCOUNT,
    Market,
    MarketSettings,
    MarketStatus,
    PositionView,
    SelectionSpec,
    SelectionView,
    replay,
)
from twentyone.market.orders import CancelResult, Fill, OrderView, PlaceResult, Side
from twentyone.market.references import ClientReferences
from twentyone.market.settlement import SelectionResult

__all__ = [
    "COMMISSION_ACCOUNT",
    "MARKET_MAKER_ACCOUNT",
    "CancelResult",
    "ClientReferences",
    "Fill",
    "Market",
    "MarketSettings",
    "MarketStatus",
    "OrderView",
    "PlaceResult",
    "PositionView",
    "SelectionResult",
    "SelectionSpec",
    "SelectionView",
    "Side",
    "index_of",
    "price_text",
    "replay",
]
