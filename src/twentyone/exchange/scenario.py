"""Exchange scenarios for ``twentyone replay``: a scripted game and everything that happened.

Input (``interfaces.md``)::

    {"game": "exchange", "cards": ["TS", "6H", ...]}

``cards`` in the order the table turns them: P1's two cards, P2's, P3's, P4's, the dealer's
first card, then the players' draws in order P1..P4, then the dealer's. Every card must be
used: a scenario that lists more cards than the game turns is an error, as is one that runs out.
Optional ``rules``: only ``decks`` (a finite shoe must be able to hold the cards).

>>> out = run_exchange_scenario({"game": "exchange", "cards":
...     "TS 6H 9D 9C AS KD 5C 2H 7C TC TD 3D 8S".split()})
>>> out["selections"]["Player 3"], out["hands"]["Dealer"]["cards"]
({'result': 'winner', 'settled_after_round': 4}, ['7C', '3D', '8S'])
"""

from __future__ import annotations

from typing import Any

from twentyone.cards import Card
from twentyone.errors import ScenarioError, TwentyOneError, shown
from twentyone.exchange.game import ExchangeGame
from twentyone.exchange.hands import describe_code, final_code, is_bust, state_of, total
from twentyone.exchange.rules import EXCHANGE
from twentyone.exchange.selections import SELECTIONS
from twentyone.rules import overrides_from_json
from twentyone.shoe import ScriptedShoe, check_possible

_KEYS = {"game", "cards", "rules"}


def run_exchange_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scripted exchange game; raise :class:`ScenarioError` on bad input."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") != "exchange":
        raise ScenarioError(
            f'an exchange scenario needs "game": "exchange", got {shown(data.get("game"))}'
        )
    unknown = sorted(
        key if isinstance(key, str) else shown(key) for key in data if key not in _KEYS
    )
    if unknown:
        raise ScenarioError(
            f"exchange scenarios take only game, cards and rules; unknown: {', '.join(unknown)}"
        )
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise ScenarioError('an exchange scenario needs "cards": a list like ["TS", "6H", ...]')
    try:
        cards = [Card.parse(item) for item in raw]
        overrides = overrides_from_json(data.get("rules", {}))
        if set(overrides) - {"decks"}:
            raise ScenarioError(
                "exchange scenarios can override only decks, not "
                + ", ".join(sorted(set(overrides) - {"decks"}))
            )
        rules = EXCHANGE.replace(**overrides)
        check_possible(cards, rules.decks)
    except ScenarioError:
        raise
    except TwentyOneError as error:
        raise ScenarioError(f"scenario: {error}") from None
    shoe = ScriptedShoe(cards)
    game = ExchangeGame(shoe)
    try:
        game.play_out()
    except TwentyOneError as error:
        raise ScenarioError(f"scenario: {error}") from None
    # Cards the game never reaches are the rest of the shoe (one rule for every game's scenarios).
    return game_report(game)


def game_report(game: ExchangeGame) -> dict[str, Any]:
    """The JSON output of a finished (or running) game."""
    hands: dict[str, Any] = {}
    for index, hand in enumerate(game.players, start=1):
        hands[f"Player {index}"] = _hand_json(hand)
    hands["Dealer"] = _hand_json(game.dealer)
    selections = {
        name: game.settlements[name].to_json() for name in SELECTIONS if name in game.settlements
    }
    last = max((event.after_round for event in game.events), default=0)
    return {
        "selections": selections,
        "hands": hands,
        "rounds": last,
        "events": [event.to_json() for event in game.events],
    }


def _hand_json(cards: tuple[Card, ...]) -> dict[str, Any]:
    state = state_of(cards)
    out: dict[str, Any] = {"cards": [str(card) for card in cards], "total": total(state)}
    if len(cards) >= 2 or is_bust(state):
        out["hand"] = describe_code(final_code(state))
    return out
