"""The whole state of a Vinte-e-um match as JSON, and back: saved at every step, resumed after
a crash (what :meth:`twentyone.vinte.match.VinteGame.to_json` writes).

The JSON holds everything (the round's deck and every hidden card): it is for the server's
storage, never for a seat (seats get :func:`twentyone.vinte.views.view_for`). Loading checks
every field, its type and range, and that the cards in play are exactly the cards dealt
from the round's deck; anything else is a :class:`~twentyone.protocol.GameStateError`.

>>> from twentyone.cards import parse_cards
>>> from twentyone.vinte.game import deal, new_match
>>> from twentyone.vinte.settings import VinteTable
>>> state = deal(new_match(VinteTable.create(3, first_banker=0)), parse_cards("9S 5H TD"), 0.0)
>>> match_from_json(match_to_json(state)) == state
True
>>> match_from_json({"seats": []})
Traceback (most recent call last):
...
twentyone.protocol.GameStateError: malformed vinte state: match: missing keys bank_rounds_left, banker, deadline, first_banker_drawn, phase, round, rounds_played, table, winners
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping
from typing import Any, TypeVar

from twentyone.cards import DECK, Card
from twentyone.money import MAX_AMOUNT
from twentyone.protocol import GameStateError
from twentyone.rules import Rules, rules_from_json
from twentyone.shoe import check_possible
from twentyone.vinte.errors import show
from twentyone.vinte.events import Event
from twentyone.vinte.game import (
    CHANCE_KINDS,
    MAX_TIME,
    ChanceStep,
    MatchState,
    Phase,
    PlayerHand,
    RoundState,
    SeatState,
    Status,
)
from twentyone.vinte.settings import MAX_ROUNDS, SeatSpec, VinteSettings, VinteTable

__all__ = ["match_from_json", "match_to_json"]

_SETTINGS = (
    "starting_stack",
    "bank_rounds",
    "round_limit",
    "decision_seconds",
    "player_21_pays_double",
    "player_21_takes_bank",
    "missed_deadlines_for_away",
)
_RESULTS = (None, "win", "lose", "bust", "natural", "bank-natural")
_EVENT_KINDS = frozenset(
    {
        "round",
        "hidden-card",
        "bet-placed",
        "bets-shown",
        "up-card",
        "natural",
        "card",
        "player-21",
        "paid",
        "stand",
        "bust",
        "reveal",
        "draw",
        "banker-bust",
        "call",
        "round-over",
        "left",
        "bank",
        "match-over",
        "timeout",
        "away",
    }
)
#: Bounds on what a saved state may hold (a hostile file cannot make the loader do much).
_MAX_ITEMS = 10_000
_MAX_DEPTH = 4
_MAX_TEXT = 200

E = TypeVar("E", bound=enum.Enum)
#: A card as saved: its canonical name only ("TS", never "10s").
_CARDS = {str(card): card for card in DECK}


# ---------------------------------------------------------------- saving


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def match_to_json(state: MatchState) -> dict[str, Any]:
    """Everything in ``state``, as plain JSON values."""
    table = state.table
    current = state.round
    return {
        "table": {
            "seats": [{"name": seat.name, "bot": seat.bot} for seat in table.seats],
            "rules": table.rules.to_json(),
            "settings": {name: getattr(table.settings, name) for name in _SETTINGS},
            "first_banker": table.first_banker,
        },
        "seats": [
            {"stack": s.stack, "in_game": s.in_game, "missed": s.missed, "away": s.away}
            for s in state.seats
        ],
        "banker": state.banker,
        "bank_rounds_left": state.bank_rounds_left,
        "rounds_played": state.rounds_played,
        "phase": state.phase.value,
        "deadline": state.deadline,
        "winners": list(state.winners),
        "first_banker_drawn": state.first_banker_drawn,
        "round": None if current is None else _round_to_json(current),
    }


def _round_to_json(current: RoundState) -> dict[str, Any]:
    pending = current.pending
    return {
        "number": current.number,
        "banker": current.banker,
        "deck": _cards(current.deck),
        "deck_given": current.deck_given,
        "drawn": current.drawn,
        "order": list(current.order),
        "hands": [
            {
                "seat": hand.seat,
                "cards": _cards(hand.cards),
                "bet": hand.bet,
                "status": hand.status.value,
                "shown": hand.shown,
                "called": hand.called,
                "declared_21": hand.declared_21,
                "result": hand.result,
                "net": hand.net,
            }
            for hand in current.hands
        ],
        "banker_cards": _cards(current.banker_cards),
        "banker_shown": current.banker_shown,
        "turn": current.turn,
        "pending": None if pending is None else {"kind": pending.kind, "seat": pending.seat},
        "events": [
            {
                "kind": event.kind,
                "seat": event.seat,
                "public": dict(event.public),
                "private": None if event.private is None else dict(event.private),
            }
            for event in current.events
        ],
    }


# ---------------------------------------------------------------- loading


class _Malformed(Exception):
    """A field that is not what it must be (``str``: where and why)."""


def _object(data: object, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Malformed(f"{where}: an object was expected, got {show(data)}")
    missing = sorted(set(keys) - set(data))
    if missing:
        raise _Malformed(f"{where}: missing keys {', '.join(missing)}")
    extra = sorted(str(key) for key in set(data) - set(keys))
    if extra:
        raise _Malformed(f"{where}: unknown keys {show(', '.join(extra))}")
    return data


def _list(data: object, where: str, most: int = _MAX_ITEMS) -> list[Any]:
    if not isinstance(data, list):
        raise _Malformed(f"{where}: a list was expected, got {show(data)}")
    if len(data) > most:
        raise _Malformed(f"{where}: at most {most} items, got {len(data)}")
    return data


def _int(data: object, where: str, low: int, high: int) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
        raise _Malformed(f"{where}: a whole number in {low}..{high} was expected, got {show(data)}")
    return data


def _optional_int(data: object, where: str, low: int, high: int) -> int | None:
    return None if data is None else _int(data, where, low, high)


def _bool(data: object, where: str) -> bool:
    if not isinstance(data, bool):
        raise _Malformed(f"{where}: true or false was expected, got {show(data)}")
    return data


def _time(data: object, where: str) -> float | None:
    if data is None:
        return None
    if (
        isinstance(data, bool)
        or not isinstance(data, int | float)
        or not -MAX_TIME <= data <= MAX_TIME
    ):
        raise _Malformed(f"{where}: a finite time was expected, got {show(data)}")
    return data


def _enum(kind: type[E], data: object, where: str) -> E:
    for member in kind:
        if member.value == data:
            return member
    raise _Malformed(f"{where}: one of {', '.join(m.value for m in kind)} was expected")


def _card_list(data: object, where: str) -> tuple[Card, ...]:
    items = _list(data, where, 52 * 8)
    cards = []
    for index, text in enumerate(items):
        card = _CARDS.get(text) if isinstance(text, str) else None
        if card is None:
            raise _Malformed(f"{where}[{index}]: a card was expected, got {show(text)}")
        cards.append(card)
    return tuple(cards)


def _plain(data: object, where: str, depth: int = 0) -> None:
    """An event's content: JSON values of bounded depth, size and number."""
    if depth > _MAX_DEPTH:
        raise _Malformed(f"{where}: nested too deep")
    if data is None or isinstance(data, bool):
        return
    if isinstance(data, int):
        _int(data, where, -MAX_AMOUNT, MAX_AMOUNT)
    elif isinstance(data, str):
        if len(data) > _MAX_TEXT:
            raise _Malformed(f"{where}: text longer than {_MAX_TEXT} characters")
    elif isinstance(data, list):
        for index, item in enumerate(_list(data, where, 64)):
            _plain(item, f"{where}[{index}]", depth + 1)
    elif isinstance(data, dict):
        if len(data) > 64:
            raise _Malformed(f"{where}: more than 64 keys")
        for key, item in data.items():
            if not isinstance(key, str) or len(key) > _MAX_TEXT:
                raise _Malformed(f"{where}: a key must be short text, got {show(key)}")
            _plain(item, f"{where}.{key}", depth + 1)
    else:
        raise _Malformed(f"{where}: not a JSON value: {show(data)}")


def _table(data: object) -> VinteTable:
    raw = _object(data, "table", ("seats", "rules", "settings", "first_banker"))
    seats = []
    for index, seat in enumerate(_list(raw["seats"], "table.seats", 8)):
        spec = _object(seat, f"table.seats[{index}]", ("name", "bot"))
        seats.append(SeatSpec(spec["name"], spec["bot"]))
    settings = _object(raw["settings"], "table.settings", _SETTINGS)
    if not isinstance(raw["rules"], dict):
        raise _Malformed(f"table.rules: an object was expected, got {show(raw['rules'])}")
    try:
        rules = rules_from_json(raw["rules"], Rules())
    except (ValueError, TypeError, AttributeError, KeyError) as error:
        raise _Malformed(f"table.rules: {error}") from None
    return VinteTable(tuple(seats), rules, VinteSettings(**settings), raw["first_banker"])


def _round(data: object, table: VinteTable) -> RoundState:
    keys = (
        "number",
        "banker",
        "deck",
        "deck_given",
        "drawn",
        "order",
        "hands",
        "banker_cards",
        "banker_shown",
        "turn",
        "pending",
        "events",
    )
    raw = _object(data, "round", keys)
    last_seat = table.size - 1
    banker = _int(raw["banker"], "round.banker", 0, last_seat)
    deck = _card_list(raw["deck"], "round.deck")
    check_possible(deck, table.rules.decks)
    drawn = _int(raw["drawn"], "round.drawn", 0, len(deck))
    order = tuple(
        _int(seat, f"round.order[{i}]", 0, last_seat)
        for i, seat in enumerate(_list(raw["order"], "round.order", last_seat))
    )
    if banker in order or len(set(order)) != len(order):
        raise _Malformed("round.order: each player once, the banker not among them")
    hands = []
    for index, item in enumerate(_list(raw["hands"], "round.hands", last_seat)):
        where = f"round.hands[{index}]"
        hand = _object(
            item,
            where,
            (
                "seat",
                "cards",
                "bet",
                "status",
                "shown",
                "called",
                "declared_21",
                "result",
                "net",
            ),
        )
        if hand["result"] not in _RESULTS:
            raise _Malformed(f"{where}.result: one of {', '.join(map(str, _RESULTS[1:]))}")
        hands.append(
            PlayerHand(
                seat=_int(hand["seat"], f"{where}.seat", 0, last_seat),
                cards=_card_list(hand["cards"], f"{where}.cards"),
                bet=_optional_int(hand["bet"], f"{where}.bet", 0, MAX_AMOUNT),
                status=_enum(Status, hand["status"], f"{where}.status"),
                shown=_bool(hand["shown"], f"{where}.shown"),
                called=_bool(hand["called"], f"{where}.called"),
                declared_21=_bool(hand["declared_21"], f"{where}.declared_21"),
                result=hand["result"],
                net=_int(hand["net"], f"{where}.net", -MAX_AMOUNT, 2 * MAX_AMOUNT),
            )
        )
    if tuple(hand.seat for hand in hands) != order[: len(hands)]:
        raise _Malformed("round.hands: one hand per player, in the round's order")
    banker_cards = _card_list(raw["banker_cards"], "round.banker_cards")
    in_play = [card for hand in hands for card in hand.cards] + list(banker_cards)
    if Counter(in_play) != Counter(deck[:drawn]):
        raise _Malformed("round: the cards in play are not the cards dealt from the deck")
    pending = None
    if raw["pending"] is not None:
        step = _object(raw["pending"], "round.pending", ("kind", "seat"))
        if step["kind"] not in CHANCE_KINDS:
            raise _Malformed(f"round.pending.kind: one of {', '.join(CHANCE_KINDS)}")
        pending = ChanceStep(step["kind"], _int(step["seat"], "round.pending.seat", 0, last_seat))
    events = []
    for index, item in enumerate(_list(raw["events"], "round.events")):
        where = f"round.events[{index}]"
        event = _object(item, where, ("kind", "seat", "public", "private"))
        if event["kind"] not in _EVENT_KINDS:
            raise _Malformed(f"{where}.kind: not an event of this game: {show(event['kind'])}")
        if not isinstance(event["public"], dict) or not (
            event["private"] is None or isinstance(event["private"], dict)
        ):
            raise _Malformed(f"{where}: public is an object, private an object or null")
        _plain(event["public"], f"{where}.public")
        _plain(event["private"], f"{where}.private")
        events.append(
            Event(
                event["kind"],
                _optional_int(event["seat"], f"{where}.seat", 0, last_seat),
                event["public"],
                event["private"],
            )
        )
    turn = _optional_int(raw["turn"], "round.turn", 0, last_seat)
    if turn is not None and turn not in order:
        raise _Malformed("round.turn: a player of the round")
    return RoundState(
        number=_int(raw["number"], "round.number", 1, 10**7),
        banker=banker,
        deck=deck,
        drawn=drawn,
        order=order,
        hands=tuple(hands),
        banker_cards=banker_cards,
        banker_shown=_bool(raw["banker_shown"], "round.banker_shown"),
        turn=turn,
        events=tuple(events),
        pending=pending,
        deck_given=_bool(raw["deck_given"], "round.deck_given"),
    )


def match_from_json(data: Mapping[str, Any]) -> MatchState:
    """The state :func:`match_to_json` saved; :class:`GameStateError` if malformed."""
    try:
        return _match(data)
    except _Malformed as error:
        raise GameStateError(f"malformed vinte state: {error}") from None
    except GameStateError:
        raise
    except ValueError as error:  # a TwentyOneError from a settings or table constructor
        raise GameStateError(f"malformed vinte state: {error}") from None


def _match(data: object) -> MatchState:
    keys = (
        "table",
        "seats",
        "banker",
        "bank_rounds_left",
        "rounds_played",
        "phase",
        "deadline",
        "winners",
        "first_banker_drawn",
        "round",
    )
    raw = _object(data, "match", keys)
    table = _table(raw["table"])
    last_seat = table.size - 1
    seats = []
    for index, item in enumerate(_list(raw["seats"], "seats", table.size)):
        seat = _object(item, f"seats[{index}]", ("stack", "in_game", "missed", "away"))
        seats.append(
            SeatState(
                stack=_int(seat["stack"], f"seats[{index}].stack", 0, MAX_AMOUNT),
                in_game=_bool(seat["in_game"], f"seats[{index}].in_game"),
                missed=_int(seat["missed"], f"seats[{index}].missed", 0, 10**9),
                away=_bool(seat["away"], f"seats[{index}].away"),
            )
        )
    if len(seats) != table.size:
        raise _Malformed(f"seats: one per seat of the table ({table.size}), got {len(seats)}")
    winners = tuple(
        _int(seat, f"winners[{i}]", 0, last_seat)
        for i, seat in enumerate(_list(raw["winners"], "winners", table.size))
    )
    state = MatchState(
        table=table,
        seats=tuple(seats),
        banker=_int(raw["banker"], "banker", 0, last_seat),
        bank_rounds_left=_int(raw["bank_rounds_left"], "bank_rounds_left", 0, MAX_ROUNDS),
        rounds_played=_int(raw["rounds_played"], "rounds_played", 0, MAX_ROUNDS),
        phase=_enum(Phase, raw["phase"], "phase"),
        round=None if raw["round"] is None else _round(raw["round"], table),
        deadline=_time(raw["deadline"], "deadline"),
        winners=winners,
        first_banker_drawn=_bool(raw["first_banker_drawn"], "first_banker_drawn"),
    )
    _check_consistent(state)
    return state


def _check_consistent(state: MatchState) -> None:
    """The phase, the round and the deadline agree (what the engine relies on)."""
    current, phase = state.round, state.phase
    if (phase is Phase.OVER) != bool(state.winners):
        raise _Malformed("phase: the match is over exactly when it has winners")
    if current is None:
        if phase is not Phase.DEAL or state.rounds_played:
            raise _Malformed("round: only a match before its first deal has no round")
        return
    playing = phase in (Phase.BETTING, Phase.PLAYERS, Phase.BANKER) or current.dealing
    if current.number != state.rounds_played + (1 if playing else 0):
        raise _Malformed("round.number: the round being played follows the rounds played")
    if current.pending is not None and (not playing or current.deck_given):
        raise _Malformed("round.pending: a card is awaited only in a round dealt card by card")
    if state.deadline is not None and (not playing or current.pending is not None):
        raise _Malformed("deadline: only a decision has a deadline")
    if playing and state.deadline is None and current.pending is None:
        raise _Malformed("deadline: every decision has a deadline")
    if not current.dealing and len(current.hands) != len(current.order):
        raise _Malformed("round.hands: one hand per player once the cards are dealt")
    if phase in (Phase.BETTING, Phase.PLAYERS, Phase.BANKER) and len(current.banker_cards) < 1:
        raise _Malformed("round.banker_cards: the banker holds his hidden card")
    turn = current.turn
    if (
        phase is Phase.PLAYERS
        and turn is not None
        and current.hand(turn).status is not (Status.PLAYING)
    ):
        raise _Malformed("round.turn: the player whose turn it is is playing")
    if phase is Phase.BANKER and not any(h.status is Status.STOOD for h in current.hands):
        raise _Malformed("phase: the banker's turn needs a player who stood")
