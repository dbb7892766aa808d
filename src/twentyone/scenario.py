"""Scenarios: a complete, deterministic description of one round, and its replay.

The format (spec ``interfaces.md``) is the project's rule-test format, the bug-report format
and the recall format. :func:`run_scenario` hands a scenario to the runner its game has in the
registry (:mod:`twentyone.games`); the house-banked games (``casino``, ``online``) are played
here, by :func:`run_house_scenario`.

A file may wrap its scenario as ``{"description": ..., "scenario": {...}, "expect": ...}`` (the
Exchange rule tests do): :func:`run_scenario` plays the wrapped scenario.

Cards (one rule for every game): ``cards`` is the shoe from the top. A shoe that runs out is an
error naming the missing card; cards never reached are the rest of the shoe and are ignored, as
a real shoe always holds more cards than a round uses.

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

from typing import Any

from twentyone.cards import Card
from twentyone.errors import ScenarioError, ShoeExhaustedError, TwentyOneError
from twentyone.games import game as registered_game
from twentyone.games import house_banked_games
from twentyone.house.actions import Action
from twentyone.house.events import CardDealt, Decided
from twentyone.house.round import Round
from twentyone.jsonio import JsonInputError, parse_json
from twentyone.presets import preset
from twentyone.rules import PLAYING_RULE_KEYS, Rules, overrides_from_json
from twentyone.shoe import ScriptedShoe, check_possible

#: Rule keys a house-banked scenario may override (table limits and box counts stay the preset's).
SCENARIO_RULE_KEYS = frozenset(PLAYING_RULE_KEYS)


def load_scenario(text: str | bytes, what: str = "scenario") -> dict[str, Any]:
    """Parse scenario JSON (bounded: :func:`twentyone.jsonio.parse_json`); malformed or
    oversized input is a :class:`ScenarioError`.

    >>> load_scenario('[' * 40 + ']' * 40)
    Traceback (most recent call last):
    ...
    twentyone.errors.ScenarioError: scenario nests deeper than 32 levels
    """
    try:
        data = parse_json(text, what)
    except JsonInputError as error:
        raise ScenarioError(str(error)) from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    return data


def unwrap_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """The scenario itself: ``data``, or the object it wraps under ``"scenario"``."""
    if "game" not in data and isinstance(data.get("scenario"), dict):
        inner: dict[str, Any] = data["scenario"]
        return inner
    return data


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scenario object and return everything that happened (the replay JSON)."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    data = unwrap_scenario(data)
    name = data.get("game")
    try:
        entry = registered_game(name)
    except TwentyOneError as error:
        raise ScenarioError(f"'game': {error}") from None
    return entry.load_scenario_runner()(data)


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
    if data.get("game") not in house_banked_games():
        raise ScenarioError(
            f"a house scenario's 'game' is {' or '.join(house_banked_games())}, "
            f"got {str(data.get('game'))[:40]!r}"
        )
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
