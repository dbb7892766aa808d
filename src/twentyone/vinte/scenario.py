"""The Vinte-e-um scenario (replay) format: a table, then each round's cards and actions.

See ``docs/vinte-e-um.md`` for the format. Everything is deterministic: the cards of every
round are given, the first banker is given (default seat 0), the clock only moves with
``wait``.

>>> out = run_vinte_scenario({
...     "game": "vinte",
...     "table": {"seats": 2, "first_banker": 0},
...     "rounds": [{"cards": ["TS", "9H", "7D", "8C"], "actions": ["bet 1 5", "stand 1", "call 1"]}],
... })
>>> [(h["seat"], h["total"], h["result"], h["net"]) for h in out["rounds"][0]["hands"]]
[(1, 18, 'win', 5)]
>>> out["stacks"]
[45, 55]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from twentyone.cards import parse_cards
from twentyone.errors import ScenarioError, TwentyOneError
from twentyone.money import MAX_AMOUNT
from twentyone.rules import rules_from_json
from twentyone.vinte.errors import show
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    ComeBack,
    Draw,
    Hit,
    MatchState,
    Phase,
    RoundState,
    Stand,
    apply,
    deal,
    expire,
    new_match,
    to_act,
    value,
)
from twentyone.vinte.settings import VINTE, SeatSpec, VinteSettings, VinteTable
from twentyone.vinte.views import view_for

_TABLE_KEYS = {
    "seats",
    "first_banker",
    "stack",
    "stacks",
    "bank_rounds",
    "round_limit",
    "decision_seconds",
    "player_21_pays_double",
    "player_21_takes_bank",
    "missed_deadlines_for_away",
    "names",
    "bots",
}
_TOP_KEYS = {"game", "description", "table", "rules", "rounds", "views", "expect", "expect_error"}


def _table_from(data: dict[str, Any], rules_data: Any) -> tuple[VinteTable, list[int] | None]:
    unknown = set(data) - _TABLE_KEYS
    if unknown:
        raise ScenarioError(f"unknown table key(s): {', '.join(sorted(unknown))}")
    seats = data.get("seats")
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise ScenarioError(f"table.seats must be a whole number of seats, got {seats!r}")
    names = data.get("names") or [f"Seat {index}" for index in range(seats)]
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ScenarioError("table.names must be a list of names (text)")
    if len(names) != seats:
        raise ScenarioError(f"table.names must name {seats} seats, got {len(names)}")
    bot_seats = data.get("bots") or []
    if not isinstance(bot_seats, list) or not all(type(seat) is int for seat in bot_seats):
        raise ScenarioError("table.bots must be a list of seat numbers")
    bots = set(bot_seats)
    settings_fields: dict[str, Any] = {
        key: data[key]
        for key in (
            "bank_rounds",
            "round_limit",
            "decision_seconds",
            "player_21_pays_double",
            "player_21_takes_bank",
            "missed_deadlines_for_away",
        )
        if key in data
    }
    if "stack" in data:
        settings_fields["starting_stack"] = data["stack"]
    rules = VINTE if rules_data is None else rules_from_json(rules_data, VINTE)
    table = VinteTable(
        seats=tuple(SeatSpec(name, index in bots) for index, name in enumerate(names)),
        rules=rules,
        settings=VinteSettings(**settings_fields),
        first_banker=data.get("first_banker", 0),
    )
    stacks = data.get("stacks")
    if stacks is not None and (
        not isinstance(stacks, list)
        or len(stacks) != seats
        or not all(type(s) is int and 0 <= s <= MAX_AMOUNT for s in stacks)
    ):
        raise ScenarioError(f"table.stacks must be {seats} whole numbers >= 0, got {show(stacks)}")
    return table, stacks


def parse_action(text: str, state: MatchState) -> Action | float:
    """One scenario action; ``wait S`` gives the seconds to wait."""
    words = str(text).split()
    current = state.round
    banker = current.banker if current is not None else state.banker

    def number(word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise ScenarioError(f"action {text!r}: {word!r} is not a whole number") from None

    if not words:
        raise ScenarioError("an empty action")
    verb, args = words[0].lower(), words[1:]
    shapes = {"bet": 2, "hit": 1, "stand": 1, "draw": 0, "call": 1, "come-back": 1, "wait": 1}
    if verb not in shapes:
        raise ScenarioError(
            f"unknown action {text!r} (bet S N, hit S, stand S, draw, call S, come-back S, wait T)"
        )
    if len(args) != shapes[verb]:
        raise ScenarioError(f"action {text!r} needs {shapes[verb]} argument(s)")
    if verb == "wait":
        try:
            return float(args[0])
        except ValueError:
            raise ScenarioError(
                f"action {text!r}: {args[0]!r} is not a number of seconds"
            ) from None
    if verb == "bet":
        return Bet(number(args[0]), number(args[1]))
    if verb == "draw":
        return Draw(banker)
    if verb == "call":
        return Call(banker, number(args[0]))
    seat = number(args[0])
    if verb == "hit":
        return Hit(seat)
    if verb == "stand":
        return Stand(seat)
    return ComeBack(seat)


def _round_json(state: MatchState, current: RoundState) -> dict[str, Any]:
    banker_value = value(state, current.banker_cards)
    return {
        "number": current.number,
        "banker": current.banker,
        "order": list(current.order),
        "banker_cards": [str(card) for card in current.banker_cards],
        "banker_total": banker_value.total,
        "hands": [
            {
                "seat": hand.seat,
                "cards": [str(card) for card in hand.cards],
                "total": value(state, hand.cards).total,
                "bet": hand.bet,
                "status": hand.status.value,
                "result": hand.result,
                "net": hand.net,
            }
            for hand in current.hands
        ],
        "banker_net": -sum(hand.net for hand in current.hands),
        "events": [event.full() for event in current.events],
    }


def run_vinte_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scenario; everything that happened, or a :class:`ScenarioError` that names
    the round and action that could not be played and why."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario key(s): {', '.join(sorted(unknown))}")
    if data.get("game", "vinte") != "vinte":
        raise ScenarioError(f"this is not a vinte scenario: game is {data.get('game')!r}")
    table_data = data.get("table")
    if not isinstance(table_data, dict):
        raise ScenarioError("a vinte scenario needs a table object")
    try:
        table, stacks = _table_from(table_data, data.get("rules"))
    except ScenarioError:
        raise
    except TwentyOneError as error:
        raise ScenarioError(f"table: {error}") from None
    state = new_match(table)
    if stacks is not None:
        seats = tuple(replace(s, stack=n) for s, n in zip(state.seats, stacks, strict=True))
        state = replace(state, seats=seats)
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ScenarioError("a vinte scenario needs a non-empty list of rounds")
    now = 0.0
    played: list[dict[str, Any]] = []
    for index, round_data in enumerate(rounds, start=1):
        state, now = _play_round(state, round_data, index, now, last=index == len(rounds))
        assert state.round is not None
        played.append(_round_json(state, state.round))
    out: dict[str, Any] = {
        "game": "vinte",
        "rounds": played,
        "phase": state.phase.value,
        "stacks": [seat.stack for seat in state.seats],
        "in_game": [seat.in_game for seat in state.seats],
        "away": [seat.away for seat in state.seats],
        "banker": state.banker,
        "bank_rounds_left": state.bank_rounds_left,
        "winners": list(state.winners),
    }
    viewers = data.get("views")
    if viewers is not None:
        if not isinstance(viewers, list):
            raise ScenarioError("views must be a list of seat numbers (null: a spectator)")
        out["views"] = {
            "spectator" if seat is None else str(seat): view_for(
                state, _viewer(seat, state)
            ).to_json()
            for seat in viewers
        }
    return out


def _viewer(seat: Any, state: MatchState) -> int | None:
    if seat is None:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state.seats):
        raise ScenarioError(f"views: {seat!r} is not a seat of this table")
    return seat


def _play_round(
    state: MatchState, round_data: Any, index: int, now: float, last: bool
) -> tuple[MatchState, float]:
    if not isinstance(round_data, dict) or not isinstance(round_data.get("cards"), list):
        raise ScenarioError(f"round {index}: needs a list of cards")
    if state.phase is not Phase.DEAL:
        raise ScenarioError(f"round {index}: the match is over, no round can be dealt")
    try:
        cards = parse_cards(round_data["cards"])
        state = deal(state, cards, now)
    except TwentyOneError as error:
        raise ScenarioError(f"round {index}: {error}") from None
    actions: Sequence[Any] = round_data.get("actions") or []
    for text in actions:
        if state.phase in (Phase.DEAL, Phase.OVER):
            raise ScenarioError(f"round {index}: action {text!r} is left over: the round has ended")
        try:
            action = parse_action(text, state)
            if isinstance(action, float):
                now += action
                state = expire(state, now)
            else:
                state = apply(state, action, now)
        except ScenarioError as error:
            raise ScenarioError(f"round {index}: {error}") from None
        except TwentyOneError as error:
            raise ScenarioError(f"round {index}: action {text!r}: {error}") from None
    if not last and state.phase not in (Phase.DEAL, Phase.OVER):
        waiting = ", ".join(str(seat) for seat in to_act(state))
        raise ScenarioError(f"round {index} is not finished: seat(s) {waiting} must still act")
    return state, now
