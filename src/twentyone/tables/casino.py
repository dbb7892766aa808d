"""The live Casino table runner: several players on up to seven boxes, one shoe until the cut card.

:class:`CasinoTable` is pure: no I/O, no clock of its own. Every method takes ``now`` (server
epoch seconds) and returns the :class:`Change` values it made, each with its public event,
the money it moves (stakes into the round's hold, the settlement's payouts, refunds) and the
shoes it shuffled or retired; the server writes each change with its ledger transfers in one
transaction and sends its public state to every watcher. Its whole state saves to JSON
(:meth:`CasinoTable.to_json`) and loads back by replaying the round from its inputs
(:meth:`CasinoTable.from_json`).

A table goes round these phases:

- ``waiting``: nobody is seated, or the last window closed with no bet;
- ``betting``: a window of ``betting_seconds`` opened by the first seat or bet; it closes early
  when every seated box has bet; at the close the boxes with a bet are dealt;
- ``playing``: each box acts in turn (box 1 first), ``decision_seconds`` a decision; a timed-out
  decision stands (insurance: declined). No hole card: the dealer's second card is dealt only
  after the players act (the round engine's own rule);
- ``settled``: the results stay up for ``pause_seconds``, then the next window opens.

The shoe (one server seed per shoe, the table's client seed, nonce 0) is dealt until its cut
card; the round that reaches it finishes, then the shoe is retired (its seed may be revealed)
and a new one is shuffled, its commitment public before any of its cards is dealt.

>>> from twentyone.cards import parse_cards
>>> seeds = iter(f"{n:064x}" for n in range(1, 100))
>>> table = CasinoTable.new("t1", "Table 1", lambda: (next(seeds), parse_cards("TS 6H 9D TC 7C")))
>>> ann = Seat(1, "ann", "player:ann")
>>> [change.event["type"] for change in table.sit(ann, 1, now=0.0)]
['seated', 'betting-opened']
>>> table.phase, table.deadline_at()
('betting', 15.0)
>>> changes = table.bet(1, 1, 1000, table.round_number, now=1.0)  # the only box: deals at once
>>> [change.event["type"] for change in changes], changes[0].stakes
(['bet', 'dealt'], [Stake(box=1, seat=Seat(user_id=1, name='ann', account='player:ann'), amount=1000, reason='bet')])
>>> table.public_state(2.0)["boxes"][0]["hands"][0]["cards"], table.public_state(2.0)["dealer"]["cards"]
(['TS', '9D'], ['6H'])
>>> [c.event["type"] for c in table.act(1, 1, "stand", table.step, now=3.0)]
['decision', 'settled']
>>> table.results(), table.public_state(3.0)["dealer"]["cards"]  # 19 against 6 10 7 = 23
([{'box': 1, 'net': 1000}], ['6H', 'TC', '7C'])
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from twentyone.cards import Card
from twentyone.errors import IllegalActionError, TwentyOneError, shown
from twentyone.fairness import commitment, shuffled_shoe
from twentyone.house.actions import Action, ActionKind
from twentyone.house.events import Event
from twentyone.house.round import Phase, Round
from twentyone.presets import CASINO
from twentyone.protocol import CHANCE, GameStateError
from twentyone.rules import Rules, rules_state

__all__ = [
    "BETTING",
    "BOXES",
    "DENOMINATIONS",
    "PLAYING",
    "SETTLED",
    "WAITING",
    "CasinoConflictError",
    "CasinoError",
    "CasinoRefusalError",
    "CasinoShoe",
    "CasinoTable",
    "Change",
    "NotYourBoxError",
    "Payout",
    "Seat",
    "ShoeSource",
    "Stake",
]

BOXES = 7
DENOMINATIONS = (100, 500, 2500, 10000, 50000)
WAITING, BETTING, PLAYING, SETTLED = "waiting", "betting", "playing", "settled"
OPEN, CLOSING, CLOSED = "open", "closing", "closed"
STATE_VERSION = 1
#: Defaults of a table's timing (seconds).
BETTING_SECONDS, DECISION_SECONDS, PAUSE_SECONDS = 15.0, 20.0, 4.0


class CasinoError(TwentyOneError):
    """A table refused a request; nothing was changed."""


class NotYourBoxError(CasinoError):
    """The box is not the asker's (the API answers 404: another's box is not his business)."""


class CasinoConflictError(CasinoError):
    """The request does not fit the table's moment: a stale round or step, the wrong phase, a
    taken box, not this box's turn (409)."""


class CasinoRefusalError(CasinoError):
    """The request itself is wrong: an amount off the limits, an unknown or illegal action (422)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a box: the account id, the public name, the ledger account (server-side)."""

    user_id: int
    name: str
    account: str


class Stake(NamedTuple):
    """Money from a seat's player into the round's hold account (or back, for a refund)."""

    box: int
    seat: Seat
    amount: int
    reason: str


class Payout(NamedTuple):
    """A settled box: what it had staked (all hands and insurance) and its net result."""

    box: int
    seat: Seat
    staked: int
    net: int


#: Where a new shoe's server seed (and, in tests only, its scripted top cards) comes from.
ShoeSource = Callable[[], "tuple[str, Sequence[Card] | None]"]


@dataclass
class CasinoShoe:
    """One shuffled shoe: dealt from the top until the cut card, then retired.

    The cards follow from the seeds (:func:`twentyone.fairness.shuffled_shoe`, nonce 0); test
    scripts may put given cards on top (each taken out of the shuffle once, so the shoe still
    holds its decks exactly).
    """

    number: int
    server_seed: str
    client_seed: str
    decks: int
    penetration_cut: int
    top: tuple[Card, ...] = ()
    position: int = 0
    cards: list[Card] = field(default_factory=list, repr=False)

    @classmethod
    def shuffle(
        cls,
        number: int,
        server_seed: str,
        client_seed: str,
        rules: Rules,
        top: Sequence[Card] | None = None,
    ) -> CasinoShoe:
        decks = rules.decks if rules.decks is not None else 6
        cut = int(52 * decks * rules.penetration)
        shoe = cls(number, server_seed, client_seed, decks, cut, tuple(top or ()))
        shoe.cards = shoe._order()
        return shoe

    def _order(self) -> list[Card]:
        cards = shuffled_shoe(self.server_seed, self.client_seed, 0, self.decks)
        for card in self.top:
            if card in cards:
                cards.remove(card)
        return [*self.top, *cards][: 52 * self.decks]

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    @property
    def scripted(self) -> bool:
        return bool(self.top)

    @property
    def past_cut_card(self) -> bool:
        return self.position >= self.penetration_cut

    def draw(self) -> Card:
        if self.position >= len(self.cards):
            raise CasinoConflictError("the shoe is empty")  # pragma: no cover - cut card at 75%
        card = self.cards[self.position]
        self.position += 1
        return card

    def public(self, reshuffle: bool) -> dict[str, Any]:
        return {
            "id": self.number,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "decks": self.decks,
            "cards_dealt": self.position,
            "cut_card": self.penetration_cut,
            "reshuffle_after_round": reshuffle or self.past_cut_card,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "server_seed": self.server_seed,
            "client_seed": self.client_seed,
            "decks": self.decks,
            "cut_card": self.penetration_cut,
            "top": [str(card) for card in self.top],
            "position": self.position,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CasinoShoe:
        shoe = cls(
            int(data["number"]),
            str(data["server_seed"]),
            str(data["client_seed"]),
            int(data["decks"]),
            int(data["cut_card"]),
            tuple(Card.parse(text) for text in data["top"]),
            int(data["position"]),
        )
        shoe.cards = shoe._order()
        if not 0 <= shoe.position <= len(shoe.cards):
            raise GameStateError(f"shoe position {shoe.position} is outside the shoe")
        return shoe


@dataclass
class Change:
    """One step of the table: its public event and what the server must write with it."""

    event: dict[str, Any]
    stakes: list[Stake] = field(default_factory=list)
    payouts: list[Payout] = field(default_factory=list)
    refunds: list[Stake] = field(default_factory=list)
    new_shoe: CasinoShoe | None = None
    retired_shoe: CasinoShoe | None = None
    #: The complete record of the round this step settled (every box, every card).
    settled: dict[str, Any] | None = None
    #: The round this step dealt (its number), so the server can note its shoe and position.
    dealt: bool = False
    #: The round this step voided (its id), with the reason in the event.
    voided: int | None = None
    #: The database id of the round this change belongs to (None before its first bet).
    round_id: int | None = None

    @property
    def users(self) -> set[int]:
        """The players whose money this step moved."""
        out = {stake.seat.user_id for stake in self.stakes}
        out |= {payout.seat.user_id for payout in self.payouts}
        out |= {refund.seat.user_id for refund in self.refunds}
        return out


@dataclass
class Settings:
    """A table's settings (operators change them; a change applies from the next round)."""

    name: str
    rules: Rules
    client_seed: str
    betting_seconds: float = BETTING_SECONDS
    decision_seconds: float = DECISION_SECONDS
    pause_seconds: float = PAUSE_SECONDS

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": rules_state(self.rules),
            "client_seed": self.client_seed,
            "betting_seconds": self.betting_seconds,
            "decision_seconds": self.decision_seconds,
            "pause_seconds": self.pause_seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(
            str(data["name"]),
            Rules.from_json(data["rules"]),
            str(data["client_seed"]),
            float(data["betting_seconds"]),
            float(data["decision_seconds"]),
            float(data["pause_seconds"]),
        )


def table_rules(overrides: dict[str, Any] | None, min_bet: int, max_bet: int) -> Rules:
    """The casino preset with a table's overrides and limits, seven boxes."""
    from twentyone.rules import overrides_from_json

    fields = overrides_from_json(overrides or {})
    # The limits are the table's own columns, and a live table always has seven boxes.
    fields.update(min_bet=min_bet, max_bet=max_bet, max_boxes=BOXES)
    return CASINO.replace(**fields)


class CasinoTable:
    """One live table; see the module documentation."""

    def __init__(
        self,
        table_id: str,
        settings: Settings,
        shoe: CasinoShoe,
        shoe_source: ShoeSource,
    ) -> None:
        self.table_id = table_id
        self.settings = settings
        #: Settings an operator set, applied when the next round opens.
        self.next_settings: Settings | None = None
        self.shoe = shoe
        self.shoe_source = shoe_source
        self.status = OPEN
        self.phase = WAITING
        self.round_number = 1
        #: The database id of the current round (set by the server at its first bet).
        self.round_id: int | None = None
        self.step = 0
        self._deadline: float | None = None
        self.seats: dict[int, Seat] = {}
        self.bets: dict[int, int] = {}
        self.round: Round | None = None
        self.round_boxes: list[int] = []
        self.round_seats: list[Seat] = []
        self.position = 0
        #: The number of the shoe the current round was dealt from (it may be retired since).
        self.round_shoe = shoe.number
        self.events: list[dict[str, Any]] = []
        self.reshuffle = False
        #: The last retired shoe's record, its seed revealed (public from its retirement on).
        self.previous_shoe: dict[str, Any] | None = None
        self._rules_cache: tuple[Rules, dict[str, Any]] | None = None

    @classmethod
    def new(
        cls,
        table_id: str,
        name: str,
        shoe_source: ShoeSource,
        *,
        rules: Rules = CASINO,
        client_seed: str | None = None,
        betting_seconds: float = BETTING_SECONDS,
        decision_seconds: float = DECISION_SECONDS,
        pause_seconds: float = PAUSE_SECONDS,
    ) -> CasinoTable:
        """A fresh table with its first shoe shuffled (and committed) at once."""
        seed = client_seed if client_seed is not None else table_id
        settings = Settings(
            name, rules, seed, float(betting_seconds), float(decision_seconds), float(pause_seconds)
        )
        server_seed, top = shoe_source()
        shoe = CasinoShoe.shuffle(1, server_seed, seed, rules, top)
        return cls(table_id, settings, shoe, shoe_source)

    # ------------------------------------------------------------------ reading
    @property
    def rules(self) -> Rules:
        return self.settings.rules

    def deadline_at(self) -> float | None:
        """When the table next moves by itself (end of the window, a decision or the pause)."""
        if self.phase == PLAYING and self.round is not None:
            return self.round.deadline()
        return self._deadline

    def owner(self, box: int) -> Seat | None:
        return self.seats.get(box)

    def boxes_of(self, user_id: int) -> list[int]:
        return sorted(box for box, seat in self.seats.items() if seat.user_id == user_id)

    def results(self) -> list[dict[str, int]]:
        if self.phase != SETTLED or self.round is None:
            return []
        return [
            {"box": number, "net": box.net}
            for number, box in zip(self.round_boxes, self.round.boxes, strict=True)
        ]

    def turn(self) -> tuple[int, int | None, str] | None:
        """The box to act, its hand (None for insurance) and the kind of decision."""
        round_ = self.round
        if self.phase != PLAYING or round_ is None:
            return None
        actors = round_.to_act()
        if not actors or actors[0] is CHANCE:
            return None
        index = int(actors[0])
        if round_.phase is Phase.PLAY:
            return self.round_boxes[index], round_.hand_index, "play"
        return self.round_boxes[index], None, round_.phase.value

    def legal_actions(self) -> list[str]:
        if self.turn() is None or self.round is None:
            return []
        return [action.text for action in self.round.legal_actions()]

    def public_state(self, now: float, spectators: int = 0) -> dict[str, Any]:
        """What everyone watching may see: no seed, no card not yet dealt, no balance."""
        settings = self.settings
        round_ = self.round
        in_round = dict(zip(self.round_boxes, range(len(self.round_boxes)), strict=True))
        boxes: list[dict[str, Any]] = []
        for number in range(1, BOXES + 1):
            seat = self.seats.get(number)
            entry: dict[str, Any] = {
                "box": number,
                "player": seat.name if seat else None,
                "bet": 0,
                "insurance": 0,
                "hands": [],
            }
            index = in_round.get(number)
            if round_ is not None and index is not None:
                box = round_.boxes[index]
                if seat is None:
                    entry["player"] = self.round_seats[index].name
                entry["bet"], entry["insurance"] = box.bet, box.insurance
                entry["hands"] = [_hand_json(hand) for hand in box.hands]
                entry["net"] = box.net if round_.is_settled else None
            elif self.phase in (WAITING, BETTING):
                entry["bet"] = self.bets.get(number, 0)
            boxes.append(entry)
        dealer: dict[str, Any] = {"cards": [], "total": None, "soft": False}
        if round_ is not None and round_.dealer:
            value = round_.dealer_value()
            dealer = {
                "cards": [str(card) for card in round_.dealer],
                "total": value.total,
                "soft": bool(value.soft),
            }
        turn = self.turn()
        return {
            "id": self.table_id,
            "name": settings.name,
            "status": self.status,
            "rules": self._rules_json(),
            "min_bet": self.rules.min_bet,
            "max_bet": self.rules.max_bet,
            "denominations": [d for d in DENOMINATIONS if d <= self.rules.max_bet],
            "betting_seconds": settings.betting_seconds,
            "decision_seconds": settings.decision_seconds,
            "pause_seconds": settings.pause_seconds,
            "phase": self.phase,
            "round": self.round_number,
            "round_id": self.round_id,
            "step": self.step,
            "deadline": self.deadline_at(),
            "now": now,
            "boxes": boxes,
            "dealer": dealer,
            "turn": None if turn is None else {"box": turn[0], "hand": turn[1], "kind": turn[2]},
            "legal_actions": self.legal_actions(),
            "shoe": self.shoe.public(self.reshuffle),
            "previous_shoe": self.previous_shoe,
            "spectators": spectators,
            "results": self.results(),
        }

    # ------------------------------------------------------------------ the public steps
    # Each is one step of the table (its ``step`` moves by one): see the private methods below.
    def sit(self, seat: Seat, box: object, *, now: float) -> list[Change]:
        """Take an empty box (one person may take several); opens a window if none is open."""
        return self._stamped(self._sit(seat, box, now=now))

    def leave(self, user_id: int, box: object, *, now: float) -> list[Change]:
        """Give a box up: between rounds, or while it has no bet in the current one."""
        return self._stamped(self._leave(user_id, box, now=now))

    def bet(
        self, user_id: int, box: object, amount: object, round_number: object, *, now: float
    ) -> list[Change]:
        """Bet on one's own box during the window; the last missing bet closes it and deals."""
        return self._stamped(self._bet(user_id, box, amount, round_number, now=now))

    def act(
        self, user_id: int, box: object, text: object, step: object, *, now: float
    ) -> list[Change]:
        """One decision of the box whose turn it is, by its owner; ``step`` the state's step."""
        return self._stamped(self._act(user_id, box, text, step, now=now))

    def resume(self, now: float) -> list[Change]:
        """After a restart: a window reopens with its full duration (its bets stay), the box to
        act gets a fresh decision time, a pause starts again."""
        return self._stamped(self._resume(now))

    def configure(self, settings: Settings, *, now: float) -> list[Change]:
        """New settings: at once while nobody has bet, else from the next round."""
        return self._stamped(self._configure(settings, now=now))

    def force_new_shoe(self, *, now: float) -> list[Change]:
        """A new shoe before the next round (at once between rounds, else after this one)."""
        return self._stamped(self._force_new_shoe(now=now))

    def void_round(self, reason: str, *, now: float) -> list[Change]:
        """Void the current round: every stake back to its player, the next round opens."""
        return self._stamped(self._void_round(reason, now=now))

    def close(self, *, now: float, void: bool = False) -> list[Change]:
        """Close the table: now between rounds (a window's bets are refunded), else after the
        round in play settles; ``void`` voids that round instead."""
        return self._stamped(self._close_table(now=now, void=void))

    def _rules_json(self) -> dict[str, Any]:
        """The rules' JSON, built once per rules value (the state is built at every change)."""
        cached = self._rules_cache
        if cached is None or cached[0] is not self.rules:
            cached = self._rules_cache = (self.rules, self.rules.to_json())
        return dict(cached[1])

    # ------------------------------------------------------------------ seats
    def _sit(self, seat: Seat, box: object, *, now: float) -> list[Change]:
        """Take an empty box (one person may take several); opens a window if none is open."""
        number = _box_number(box)
        self._check_open()
        if number in self.seats:
            raise CasinoConflictError(f"box {number} is taken")
        self.seats[number] = seat
        changes = [self._change({"type": "seated", "box": number, "player": seat.name}, now)]
        if self.phase == WAITING:
            changes.append(self._open_window(now))
        return changes

    def _leave(self, user_id: int, box: object, *, now: float) -> list[Change]:
        """Give a box up: between rounds, or while it has no bet in the current one."""
        number = _box_number(box)
        seat = self.seats.get(number)
        if seat is None or seat.user_id != user_id:
            raise NotYourBoxError(f"box {number} is not yours")
        if number in self.bets and self.phase == BETTING:
            raise CasinoConflictError(f"box {number} has a bet in this round: it stays")
        if self.phase == PLAYING and number in self.round_boxes:
            raise CasinoConflictError(f"box {number} is in play: leave after the round")
        del self.seats[number]
        changes = [self._change({"type": "left", "box": number, "player": seat.name}, now)]
        if self.phase == BETTING:
            changes += self._maybe_close_early(now)
        return changes

    # ------------------------------------------------------------------ money in
    def _bet(
        self, user_id: int, box: object, amount: object, round_number: object, *, now: float
    ) -> list[Change]:
        """Bet on one's own box during the window; the last missing bet closes it and deals."""
        number = _box_number(box)
        seat = self.seats.get(number)
        if seat is None or seat.user_id != user_id:
            raise NotYourBoxError(f"box {number} is not yours")
        if type(round_number) is not int or round_number != self.round_number:
            raise CasinoConflictError(
                f"stale bet: the table is at round {self.round_number}, not {shown(round_number)}"
            )
        if self.phase not in (WAITING, BETTING) or self.status != OPEN:
            raise CasinoConflictError(f"no bets now: the table is {self.phase}")
        if number in self.bets:
            raise CasinoConflictError(f"box {number} has already bet {self.bets[number]}")
        rules = self.rules
        if type(amount) is not int or not rules.min_bet <= amount <= rules.max_bet:
            raise CasinoRefusalError(
                f"a bet is a whole number of minor units from {rules.min_bet} to"
                f" {rules.max_bet}, got {shown(amount)}"
            )
        changes: list[Change] = []
        if self.phase == WAITING:
            changes.append(self._open_window(now))
        self.bets[number] = amount
        changes.append(
            self._change(
                {"type": "bet", "box": number, "player": seat.name, "amount": amount},
                now,
                stakes=[Stake(number, seat, amount, "bet")],
            )
        )
        changes += self._maybe_close_early(now)
        return changes

    # ------------------------------------------------------------------ decisions
    def _act(
        self, user_id: int, box: object, text: object, step: object, *, now: float
    ) -> list[Change]:
        """One decision of the box whose turn it is, by its owner; ``step`` the state's step."""
        number = _box_number(box)
        round_ = self.round
        if number not in self.round_boxes or round_ is None:
            seat = self.seats.get(number)
            if seat is None or seat.user_id != user_id:
                raise NotYourBoxError(f"box {number} is not yours")
            raise CasinoConflictError(f"box {number} has no hand in play")
        index = self.round_boxes.index(number)
        if self.round_seats[index].user_id != user_id:
            raise NotYourBoxError(f"box {number} is not yours")
        if type(step) is not int or step != self.step:
            raise CasinoConflictError(
                f"stale action: the table is at step {self.step}, not {shown(step)}"
            )
        turn = self.turn()
        if self.phase != PLAYING or turn is None:
            raise CasinoConflictError(f"no decision is pending: the table is {self.phase}")
        if turn[0] != number:
            raise CasinoConflictError(f"it is box {turn[0]}'s turn, not box {number}'s")
        if not isinstance(text, str):
            raise CasinoRefusalError(f"an action is a string like 'hit', got {shown(text)}")
        try:
            action = Action.parse(text)
            round_.verify(index, action)
        except IllegalActionError as error:
            # The engine counts boxes from 0 in the round; the table names them 1 to 7.
            message = str(error).replace(f"box {index} ", f"box {number} ")
            raise CasinoRefusalError(message) from None
        cost = round_.stake_of(action)
        mark = len(round_.events)
        round_.apply(index, action, now=now)
        self._feed(now)
        stakes = (
            [] if not cost else [Stake(number, self.round_seats[index], cost, action.kind.value)]
        )
        event = {
            "type": "decision",
            "box": number,
            "hand": turn[1],
            "action": action.text,
            "timed_out": False,
            "game": self._game_events(round_.events[mark:]),
        }
        return self._after_step(self._change(event, now, stakes=stakes), now)

    def cost_of(self, box: int, text: str) -> int:
        """The money ``text`` would add for ``box`` now (0 if it is not a paid decision)."""
        if self.round is None or self.turn() is None:
            return 0
        try:
            return self.round.stake_of(Action.parse(text))
        except IllegalActionError:
            return 0

    # ------------------------------------------------------------------ time
    def advance(self, now: float) -> list[Change]:
        """Every deadline at or before ``now``, in order, each at its own time and each its own
        step (:meth:`advance_once` repeated)."""
        changes: list[Change] = []
        for _ in range(10_000):  # bounded: each pass moves the table forward
            step = self.advance_once(now)
            if not step:
                break
            changes += step
        return changes

    def advance_once(self, now: float) -> list[Change]:
        """The earliest deadline if it is at or before ``now`` (one step), else nothing."""
        deadline = self.deadline_at()
        if deadline is None or now < deadline:
            return []
        return self._stamped(self._on_deadline(deadline))

    def _on_deadline(self, moment: float) -> list[Change]:
        if self.phase == BETTING:
            if self.bets:
                return self._deal(moment)
            self.phase, self._deadline = WAITING, None
            return [self._change({"type": "waiting"}, moment)]
        if self.phase == PLAYING and self.round is not None:
            round_ = self.round
            turn = self.turn()
            mark = len(round_.events)
            round_.expire(moment)
            self._feed(moment)
            decided = [e.to_json() for e in round_.events[mark:] if type(e).__name__ == "Decided"]
            event = {
                "type": "decision",
                "box": turn[0] if turn else None,
                "hand": turn[1] if turn else None,
                "action": decided[0]["action"] if decided else None,
                "timed_out": True,
                "game": self._game_events(round_.events[mark:]),
            }
            return self._after_step(self._change(event, moment), moment)
        if self.phase == SETTLED:
            return self._next_round(moment)
        self._deadline = None  # pragma: no cover - waiting has no deadline
        return []

    def _resume(self, now: float) -> list[Change]:
        """After a restart: a window reopens with its full duration (its bets stay), the box to
        act gets a fresh decision time, a pause starts again."""
        if self.phase == BETTING:
            self._deadline = now + self.settings.betting_seconds
        elif self.phase == PLAYING and self.round is not None:
            self.round.decision_started = now
        elif self.phase == SETTLED:
            self._deadline = now + self.settings.pause_seconds
        return [self._change({"type": "resumed"}, now)]

    # ------------------------------------------------------------------ operators
    def _configure(self, settings: Settings, *, now: float) -> list[Change]:
        """New settings: at once while nobody has bet, else from the next round."""
        if self.phase == WAITING or (self.phase == BETTING and not self.bets):
            decks_changed = settings.rules.decks != self.rules.decks
            self.settings, self.next_settings = settings, None
            changes = [self._change({"type": "configured"}, now)]
            if decks_changed:
                changes += self._force_new_shoe(now=now)
            if self.phase == BETTING:
                self._deadline = now + settings.betting_seconds
            return changes
        self.next_settings = settings
        return [self._change({"type": "configured", "from_round": self.round_number + 1}, now)]

    def _force_new_shoe(self, *, now: float) -> list[Change]:
        """A new shoe before the next round (at once between rounds, else after this one)."""
        if self.phase == PLAYING:
            self.reshuffle = True
            return [self._change({"type": "reshuffle-pending"}, now)]
        change = self._change({"type": "shoe"}, now)
        self._new_shoe(change)
        return [change]

    def _void_round(self, reason: str, *, now: float) -> list[Change]:
        """Void the current round: every stake back to its player, the next round opens."""
        refunds: list[Stake] = []
        if self.phase == PLAYING and self.round is not None:
            for number, seat, box in zip(
                self.round_boxes, self.round_seats, self.round.boxes, strict=True
            ):
                staked = sum(hand.stake for hand in box.hands) + box.insurance
                refunds.append(Stake(number, seat, staked, "void refund"))
        elif self.phase == BETTING:
            for number, amount in sorted(self.bets.items()):
                refunds.append(Stake(number, self.seats[number], amount, "void refund"))
        else:
            raise CasinoConflictError(f"there is no round with stakes to void ({self.phase})")
        voided = self.round_id
        change = self._change({"type": "voided", "reason": reason}, now, refunds=refunds)
        change.voided = voided
        changes = [change]
        if self.round is not None and self.shoe.past_cut_card:
            self._new_shoe(change)
        changes += self._next_round(now, bump=self.round is not None or bool(self.bets))
        return changes

    def _close_table(self, *, now: float, void: bool = False) -> list[Change]:
        """Close the table: now between rounds (a window's bets are refunded), else after the
        round in play settles; ``void`` voids that round instead."""
        if self.status == CLOSED:
            raise CasinoConflictError("the table is closed already")
        changes: list[Change] = []
        if self.phase == PLAYING and not void:
            self.status = CLOSING
            return [self._change({"type": "closing"}, now)]
        if self.phase == PLAYING or (self.phase == BETTING and self.bets):
            changes += self._void_round("the table was closed", now=now)
        self._close(now, changes)
        return changes

    def _close(self, now: float, changes: list[Change]) -> None:
        self.status, self.phase, self._deadline = CLOSED, WAITING, None
        self.seats.clear()
        self.bets.clear()
        change = self._change({"type": "closed"}, now)
        change.retired_shoe = self.shoe
        changes.append(change)

    # ------------------------------------------------------------------ internals
    def _check_open(self) -> None:
        if self.status != OPEN:
            raise CasinoConflictError(f"the table is {self.status}")

    def _change(
        self,
        event: dict[str, Any],
        now: float,
        *,
        stakes: list[Stake] | None = None,
        refunds: list[Stake] | None = None,
    ) -> Change:
        event = {**event, "round": self.round_number, "at": now}
        self.events.append(event)
        return Change(event, stakes or [], [], refunds or [], round_id=self.round_id)

    def _stamped(self, changes: list[Change]) -> list[Change]:
        """One public step: the step count moves by one, whatever number of changes it made."""
        self.step += 1
        for change in changes:
            change.event["step"] = self.step
        return changes

    def _open_window(self, now: float) -> Change:
        self.phase = BETTING
        self._deadline = now + self.settings.betting_seconds
        return self._change({"type": "betting-opened", "closes_at": self._deadline}, now)

    def _maybe_close_early(self, now: float) -> list[Change]:
        if self.phase != BETTING:
            return []
        if self.bets and all(number in self.bets for number in self.seats):
            return self._deal(now)
        if not self.seats and not self.bets:
            self.phase, self._deadline = WAITING, None
            return [self._change({"type": "waiting"}, now)]
        return []

    def _deal(self, moment: float) -> list[Change]:
        order = sorted(self.bets)
        round_ = Round.start(
            self.rules,
            [self.bets[number] for number in order],
            decision_seconds=self.settings.decision_seconds,
            now=moment,
        )
        self.round, self.round_boxes = round_, order
        self.round_seats = [self.seats[number] for number in order]
        self.position, self.round_shoe = self.shoe.position, self.shoe.number
        self.phase, self._deadline = PLAYING, None
        self._feed(moment)
        change = self._change(
            {
                "type": "dealt",
                "boxes": order,
                "shoe": self.shoe.number,
                "position": self.position,
                "game": self._game_events(round_.events),
            },
            moment,
        )
        change.dealt = True
        return self._after_step(change, moment)

    def _feed(self, moment: float) -> None:
        """Deal every card the round waits for, from the shoe."""
        round_ = self.round
        assert round_ is not None
        while round_.to_act() == (CHANCE,):
            round_.apply_chance(self.shoe.draw(), now=moment)

    def _after_step(self, change: Change, moment: float) -> list[Change]:
        round_ = self.round
        if round_ is None or not round_.is_settled:
            return [change]
        settled = self._change(
            {"type": "settled", "results": []},
            moment,
        )
        results = []
        for number, seat, box in zip(self.round_boxes, self.round_seats, round_.boxes, strict=True):
            staked = sum(hand.stake for hand in box.hands) + box.insurance
            settled.payouts.append(Payout(number, seat, staked, box.net))
            results.append({"box": number, "net": box.net})
        settled.event["results"] = results
        self.phase, self._deadline = SETTLED, moment + self.settings.pause_seconds
        settled.settled = self.round_record()
        if self.shoe.past_cut_card or self.reshuffle:
            self._new_shoe(settled)
        return [change, settled]

    def _new_shoe(self, change: Change) -> None:
        """Retire the shoe and shuffle the next (its commitment public before any card)."""
        server_seed, top = self.shoe_source()
        change.retired_shoe = self.shoe
        self.previous_shoe = {
            "id": self.shoe.number,
            "commitment": self.shoe.commitment,
            "client_seed": self.shoe.client_seed,
            "server_seed": self.shoe.server_seed,
            "decks": self.shoe.decks,
            "scripted": self.shoe.scripted,
        }
        self.shoe = CasinoShoe.shuffle(
            self.shoe.number + 1, server_seed, self.settings.client_seed, self.rules, top
        )
        change.new_shoe = self.shoe
        change.event["new_shoe"] = self.shoe.number
        self.reshuffle = False

    def _next_round(self, moment: float, bump: bool = True) -> list[Change]:
        if bump:
            self.round_number += 1
        self.round, self.round_id = None, None
        self.round_boxes, self.round_seats, self.bets, self.events = [], [], {}, []
        if self.next_settings is not None:
            decks_changed = self.next_settings.rules.decks != self.rules.decks
            self.settings, self.next_settings = self.next_settings, None
            if decks_changed:
                self.reshuffle = True
        changes: list[Change] = []
        if self.status == CLOSING:
            self._close(moment, changes)
            return changes
        if self.seats:
            self.phase = BETTING
            self._deadline = moment + self.settings.betting_seconds
            kind = "betting-opened"
        else:
            self.phase, self._deadline = WAITING, None
            kind = "waiting"
        change = self._change({"type": kind, "closes_at": self._deadline}, moment)
        if self.reshuffle:
            self._new_shoe(change)
        changes.append(change)
        return changes

    def _game_events(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The engine's events with the table's box numbers (box 1 to 7) in place of indexes."""
        out = []
        for event in events:
            data = event.to_json()
            if data.get("box") is not None:
                data["box"] = self.round_boxes[data["box"]]
            out.append(data)
        return out

    def round_record(self) -> dict[str, Any]:
        """The whole round: every box with its player, hands and net, the dealer, the cards in
        dealing order and where in the shoe they began, the events."""
        round_ = self.round
        assert round_ is not None
        boxes = []
        for number, seat, box in zip(self.round_boxes, self.round_seats, round_.boxes, strict=True):
            boxes.append(
                {
                    "box": number,
                    "player": seat.name,
                    "user_id": seat.user_id,
                    "bet": box.bet,
                    "insurance": box.insurance,
                    "insurance_net": box.insurance_net,
                    "hands": [_hand_json(hand) for hand in box.hands],
                    "net": box.net if round_.is_settled else None,
                }
            )
        value = round_.dealer_value()
        return {
            "table": self.table_id,
            "number": self.round_number,
            "shoe": self.round_shoe,
            "position": self.position,
            "cards": [str(card) for card in round_.cards_dealt()],
            "boxes": boxes,
            "dealer": {
                "cards": [str(card) for card in round_.dealer],
                "total": value.total,
                "soft": bool(value.soft),
            },
            "events": copy.deepcopy(self.events),
            "house_net": round_.house_net if round_.is_settled else None,
        }

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        """The whole state (the server's record: it holds the shoe's seed, never shown)."""
        return {
            "version": STATE_VERSION,
            "table": self.table_id,
            "settings": self.settings.to_json(),
            "next_settings": None if self.next_settings is None else self.next_settings.to_json(),
            "status": self.status,
            "phase": self.phase,
            "round_number": self.round_number,
            "round_id": self.round_id,
            "step": self.step,
            "deadline": self._deadline,
            "seats": [
                {"box": number, "user_id": s.user_id, "name": s.name, "account": s.account}
                for number, s in sorted(self.seats.items())
            ],
            "bets": [
                {"box": number, "amount": amount} for number, amount in sorted(self.bets.items())
            ],
            "round": None if self.round is None else self.round.to_json(),
            "round_boxes": list(self.round_boxes),
            "round_seats": [
                {"user_id": s.user_id, "name": s.name, "account": s.account}
                for s in self.round_seats
            ],
            "position": self.position,
            "round_shoe": self.round_shoe,
            "events": self.events,
            "shoe": self.shoe.to_json(),
            "reshuffle": self.reshuffle,
            "previous_shoe": self.previous_shoe,
        }

    @classmethod
    def from_json(cls, data: object, shoe_source: ShoeSource) -> CasinoTable:
        """Load a saved state: the round is replayed from its inputs and its cards checked
        against the shoe. Anything malformed is a :class:`~twentyone.protocol.GameStateError`."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise GameStateError("not a casino table state of version 1")
        try:
            shoe = CasinoShoe.from_json(data["shoe"])
            table = cls(str(data["table"]), Settings.from_json(data["settings"]), shoe, shoe_source)
            if data["next_settings"] is not None:
                table.next_settings = Settings.from_json(data["next_settings"])
            table.status = _one_of(data["status"], (OPEN, CLOSING, CLOSED), "status")
            table.phase = _one_of(data["phase"], (WAITING, BETTING, PLAYING, SETTLED), "phase")
            table.round_number = _whole(data["round_number"], "round_number")
            table.round_id = None if data["round_id"] is None else _whole(data["round_id"], "id")
            table.step = _whole(data["step"], "step")
            deadline = data["deadline"]
            table._deadline = None if deadline is None else float(deadline)
            for item in data["seats"]:
                seat = Seat(
                    _whole(item["user_id"], "user"), str(item["name"]), str(item["account"])
                )
                table.seats[_box_number(item["box"])] = seat
            for item in data["bets"]:
                table.bets[_box_number(item["box"])] = _whole(item["amount"], "bet")
            table.round_boxes = [_box_number(number) for number in data["round_boxes"]]
            table.round_seats = [
                Seat(_whole(s["user_id"], "user"), str(s["name"]), str(s["account"]))
                for s in data["round_seats"]
            ]
            table.position = _whole(data["position"], "position")
            table.round_shoe = _whole(data["round_shoe"], "round_shoe")
            table.events = list(data["events"])
            table.reshuffle = bool(data["reshuffle"])
            previous = data.get("previous_shoe")  # absent in states saved before it existed
            if previous is not None and not isinstance(previous, dict):
                raise GameStateError("previous_shoe must be an object or null")
            table.previous_shoe = previous
            if data["round"] is not None:
                table.round = Round.from_json(data["round"])
                dealt = table.round.cards_dealt()
                if table.round_shoe == shoe.number:
                    expected = shoe.cards[table.position : table.position + len(dealt)]
                    if dealt != expected or table.position + len(dealt) != shoe.position:
                        raise GameStateError("the round's cards are not the shoe's")
                elif table.phase != SETTLED or not table.round.is_settled:
                    raise GameStateError("a round in play must be dealt from the current shoe")
                if len(table.round_boxes) != len(table.round.boxes) or len(
                    table.round_seats
                ) != len(table.round_boxes):
                    raise GameStateError("the round's boxes do not match its players")
            if table.phase == PLAYING and (table.round is None or table.round.is_settled):
                raise GameStateError("a table in play needs a round in play")
        except GameStateError:
            raise
        except (TwentyOneError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameStateError(f"the saved casino table does not load: {error!r}") from None
        return table


def _hand_json(hand: Any) -> dict[str, Any]:
    value = hand.value(True)
    return {
        "cards": [str(card) for card in hand.cards],
        "total": value.total,
        "soft": bool(value.soft),
        "stake": hand.stake,
        "doubled": hand.doubled,
        "surrendered": hand.surrendered,
        "result": None if hand.result is None else hand.result.value,
        "net": hand.net,
    }


def _box_number(box: object) -> int:
    if type(box) is not int or not 1 <= box <= BOXES:
        raise CasinoRefusalError(f"a box is a number from 1 to {BOXES}, not {shown(box)}")
    return box


def _whole(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise GameStateError(f"{what} must be a whole number, not {shown(value)}")
    return value


def _one_of(value: object, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise GameStateError(f"{what} must be one of {', '.join(allowed)}, not {shown(value)}")
    return str(value)


def is_insurance(action: str) -> bool:
    """Whether a decision's text is an insurance bet (``insurance N``)."""
    try:
        return Action.parse(action).kind is ActionKind.INSURANCE
    except IllegalActionError:
        return False
