"""Scenarios: a complete, deterministic description of one round, and its replay.

The format (spec ``interfaces.md``) is the project's rule-test format, the bug-report format
and the recall format. House-banked games (``casino``, ``online``) are played here; other games
register their own runner in :data:`RUNNERS`.

>>> out = run_scenario({
...     "game": "casino",
...     "boxes": [{"bet": 1000}, {"bet": 500}],
...     "cards": ["9S", "7H", "AD", "2C", "9D", "TH", "6S"],
...     "decisions": ["no-insurance", "insurance 250", "double", "stand"],
... })
>>> [box["net"] for box in out["boxes"]], out["dealer"]["total"]
([2000, -750], 17)
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

from twentyone.cards import Card
from twentyone.errors import ScenarioError, ShoeExhaustedError, TwentyOneError
from twentyone.house.actions import Action
from twentyone.house.events import CardDealt, Decided
from twentyone.house.round import Round
from twentyone.presets import preset
from twentyone.rules import PLAYING_RULE_KEYS, Rules, overrides_from_json
from twentyone.shoe import ScriptedShoe, check_possible

Runner = Callable[[dict[str, Any]], dict[str, Any]]

#: Rule keys a house-banked scenario may override (table limits and box counts stay the preset's).
SCENARIO_RULE_KEYS = frozenset(PLAYING_RULE_KEYS)

#: Runners of games played elsewhere: game name -> "module:function", imported on demand.
RUNNERS: dict[str, str] = {
    "exchange": "twentyone.exchange.scenario:run_exchange_scenario",
    "vinte": "twentyone.vinte.scenario:run_vinte_scenario",
}
HOUSE_GAMES = ("casino", "online")


def load_scenario(text: str) -> dict[str, Any]:
    """Parse scenario JSON text; malformed JSON is a :class:`ScenarioError`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(f"scenario is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    return data


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scenario object and return everything that happened (the replay JSON)."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    game = data.get("game")
    if game in HOUSE_GAMES:
        return run_house_scenario(data)
    if isinstance(game, str) and game in RUNNERS:
        module_name, _, function_name = RUNNERS[game].partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise ScenarioError(f"game {game!r} cannot be replayed by this version") from None
        runner: Runner = getattr(module, function_name)
        return runner(data)
    games = ", ".join((*HOUSE_GAMES, *RUNNERS))
    raise ScenarioError(f"'game' must be one of {games}, got {game!r}")


def scenario_rules(data: dict[str, Any]) -> Rules:
    """The preset of ``data['game']`` with the scenario's rule overrides applied."""
    base = preset(data["game"])
    overrides = data.get("rules", {})
    if not isinstance(overrides, dict):
        raise ScenarioError("'rules' must be an object of rule overrides")
    unknown = sorted(set(overrides) - SCENARIO_RULE_KEYS)
    if unknown:
        raise ScenarioError(
            f"'rules' cannot set {', '.join(unknown)} "
            f"(allowed: {', '.join(sorted(SCENARIO_RULE_KEYS))})"
        )
    return base.replace(**overrides_from_json(overrides))


def _list_field(data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if not isinstance(value, list):
        raise ScenarioError(f"'{name}' must be a list")
    return value


def _bets(data: dict[str, Any]) -> list[int]:
    bets = []
    for index, box in enumerate(_list_field(data, "boxes")):
        if not isinstance(box, dict) or "bet" not in box:
            raise ScenarioError(f"boxes[{index}] must be an object with a 'bet'")
        bets.append(box["bet"])
    return bets


def _cards(data: dict[str, Any], rules: Rules) -> list[Card]:
    cards = []
    for index, text in enumerate(_list_field(data, "cards")):
        try:
            cards.append(Card.parse(text))
        except TwentyOneError as error:
            raise ScenarioError(f"cards[{index}]: {error}") from None
    check_possible(cards, rules.decks)
    return cards


#: Top-level keys of a house-banked scenario (``description`` and ``expect`` serve tests and reports).
HOUSE_KEYS = frozenset({"game", "rules", "boxes", "cards", "decisions", "description", "expect"})


def run_house_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Replay a casino or online scenario; every problem is a :class:`ScenarioError`."""
    unknown = sorted(set(data) - HOUSE_KEYS)
    if unknown:
        raise ScenarioError(f"unknown scenario key(s): {', '.join(unknown)}")
    rules = scenario_rules(data)
    bets = _bets(data)
    cards = _cards(data, rules)
    decisions = _list_field(data, "decisions") if "decisions" in data else []
    shoe = ScriptedShoe(cards)
    try:
        round_ = Round.deal(rules, bets, shoe)
        for index, text in enumerate(decisions):
            if round_.is_settled:
                raise ScenarioError(
                    f"decisions[{index}] {text!r} is left over: the round has already ended"
                )
            where = round_.pending_decision()
            try:
                round_.act(Action.parse(text))
            except ShoeExhaustedError:
                raise
            except TwentyOneError as error:
                raise ScenarioError(f"decisions[{index}] {text!r} for {where}: {error}") from None
    except ShoeExhaustedError as error:
        raise ScenarioError(f"'cards' is too short: {error}") from None
    if not round_.is_settled:
        legal = ", ".join(str(action) for action in round_.legal_actions())
        raise ScenarioError(
            f"decisions run out after {len(decisions)}: {round_.pending_decision()} "
            f"must still decide (legal: {legal})"
        )
    return round_result_json(round_)


def scenario_of_round(round_: Round, game: str) -> dict[str, Any]:
    """The scenario that replays ``round_`` exactly (recall and bug reports): its game's preset,
    the playing rules that differ from it, the bets, every card in the order dealt and every
    decision, all read back from the round's events.
    """
    base = preset(game)
    current, preset_json = round_.rules.to_json(), base.to_json()
    changed = {
        key: current[key] for key in sorted(SCENARIO_RULE_KEYS) if current[key] != preset_json[key]
    }
    out: dict[str, Any] = {"game": game}
    if changed:
        out["rules"] = changed
    out["boxes"] = [{"bet": box.bet} for box in round_.boxes]
    out["cards"] = [str(e.card) for e in round_.events if isinstance(e, CardDealt)]
    out["decisions"] = [e.action for e in round_.events if isinstance(e, Decided)]
    return out


def round_result_json(round_: Round) -> dict[str, Any]:
    """The replay output of a settled round (spec ``interfaces.md``)."""
    aces_high = round_.rules.aces_high
    boxes = []
    for box in round_.boxes:
        hands = [
            {
                "cards": [str(card) for card in hand.cards],
                "total": hand.value(aces_high).total,
                "bet": hand.stake,
                "result": hand.result.value if hand.result else None,
                "net": hand.net,
            }
            for hand in box.hands
        ]
        out_box: dict[str, Any] = {"hands": hands}
        if box.insurance:
            out_box["insurance"] = {"bet": box.insurance, "net": box.insurance_net}
        out_box["net"] = box.net
        boxes.append(out_box)
    return {
        "boxes": boxes,
        "dealer": {
            "cards": [str(card) for card in round_.dealer],
            "total": round_.dealer_value().total,
        },
        "events": [event.to_json() for event in round_.events],
    }
