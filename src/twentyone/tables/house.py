"""The house-banked table runner (Casino and Online): a session of rounds with its money.

:class:`HouseTable` deals rounds of the house game from an injected shoe, passes the player's
decisions to the round, and keeps the money in the ledger (:mod:`twentyone.ledger`): the player's
bankroll and the house are ledger accounts; when a round starts its stakes are *moved* to the
round's own hold account (not flagged); every double, split and insurance moves its stake there
too; when the round settles, each settled hand and insurance becomes ledger transfers (its stake
back from the hold, a loss from the hold to the house, a win from the house), all in one batch.
The hold account ends every round at zero, so the ledger always shows where each unit is.

Every step is emitted to subscribers as a :class:`~twentyone.tables.listeners.TableEvent`
(``round-opened``, ``game`` with each of the round's own events, ``round-settled``,
``session-closed``), stamped with the injected clock's time. The runner prints nothing and
reads nothing: the terminal (``twentyone play casino``) and the server are its clients.

A round is never refunded once dealt: :meth:`HouseTable.finish_round` plays the hand in play
out with the standard decision (no insurance, no surrender, stand), which is what leaving the
table mid-hand does (docs/tables.md).

>>> from twentyone.cards import parse_cards
>>> from twentyone.house.actions import DOUBLE
>>> from twentyone.presets import ONLINE
>>> from twentyone.shoe import ScriptedShoe
>>> table = HouseTable.session(ONLINE, ScriptedShoe(parse_cards("9S 7H 2C 9D 5S TH")), 100_00)
>>> kinds = []
>>> _ = table.subscribe(lambda event: kinds.append(event.kind))
>>> round_ = table.start_round([10_00])
>>> table.bankroll, table.ledger.balance(table.hold_account)  # the stake left the bankroll
(9000, 1000)
>>> [str(action) for action in table.legal_actions()]
['hit', 'stand', 'double']
>>> table.act(DOUBLE)
>>> table.bankroll, table.in_round, table.last_net  # 9 + 2 = 11, doubled, won 20.00
(12000, False, 2000)
>>> kinds[0], kinds[-1], table.ledger.audit()
('round-opened', 'round-settled', True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from twentyone.clock import Clock, ManualClock
from twentyone.errors import BetError, IllegalActionError
from twentyone.house.actions import (
    NO_INSURANCE,
    NO_SURRENDER,
    STAND,
    Action,
    ActionKind,
)
from twentyone.house.round import Phase, Round
from twentyone.ledger import AccountKind, Ledger, LedgerEntry, Transfer
from twentyone.money import MAX_AMOUNT, check_amount, format_money
from twentyone.protocol import CHANCE, run_chance
from twentyone.rules import Rules
from twentyone.shoe import Shoe
from twentyone.tables.errors import BankrollError, TableStateError
from twentyone.tables.listeners import Listener, Listeners, TableEvent

__all__ = [
    "HOUSE_ACCOUNT",
    "HOUSE_FLOAT",
    "PLAYER_ACCOUNT",
    "HouseTable",
    "Opener",
    "open_round",
    "standard_action",
]

PLAYER_ACCOUNT = "player"
HOUSE_ACCOUNT = "house"
#: The play-money float a terminal session gives the house: more than any session can win.
HOUSE_FLOAT = MAX_AMOUNT

#: How a round is opened: ``(rules, bets, shoe, decision_seconds, now) -> Round``. The default
#: is the house game's own, dealing itself from the runner's shoe (automatic chance, today's
#: fast path); an opener may return a round in explicit chance instead (it waits for each
#: card), and the runner then deals those cards from the same shoe (:func:`run_chance`).
Opener = Callable[[Rules, Sequence[int], Shoe, "float | None", float], Round]


def open_round(
    rules: Rules, bets: Sequence[int], shoe: Shoe, decision_seconds: float | None, now: float
) -> Round:
    """The house round, dealt from ``shoe``; each decision has ``decision_seconds`` from ``now``."""
    return Round.start(rules, bets, shoe, decision_seconds=decision_seconds, now=now)


def standard_action(round_: Round) -> Action:
    """The decision taken for a player who is not there: no insurance, no surrender, stand."""
    if round_.phase is Phase.INSURANCE:
        return NO_INSURANCE
    if round_.phase is Phase.EARLY_SURRENDER:
        return NO_SURRENDER
    return STAND


class HouseTable:
    """A session of house-banked rounds for one player; see the module documentation."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        ledger: Ledger,
        *,
        player: str = PLAYER_ACCOUNT,
        house: str = HOUSE_ACCOUNT,
        clock: Clock | None = None,
        table_id: str = "table",
        decision_seconds: float | None = None,
        opener: Opener = open_round,
    ) -> None:
        for account in (player, house):
            ledger.kind(account)  # raises UnknownAccountError: open the accounts first
        self.rules = rules
        self.shoe = shoe
        self.ledger = ledger
        self.player = player
        self.house = house
        self.clock: Clock = clock or ManualClock()
        self.table_id = table_id
        self.decision_seconds = decision_seconds
        self._open = opener
        self._shoe = shoe  # the current round's shoe
        self._dealing = False  # the runner deals the round's cards (explicit chance)
        self.listeners = Listeners()
        self.round: Round | None = None
        self.rounds = 0  # rounds dealt at this table
        self.last_bets: tuple[int, ...] | None = None
        self.last_net: int | None = None
        self._seen = 0  # the round's events already emitted
        self._staked = 0  # what the round's hold account has received
        self.closed = False

    @classmethod
    def session(
        cls,
        rules: Rules,
        shoe: Shoe,
        bankroll: int,
        *,
        clock: Clock | None = None,
        house_float: int = HOUSE_FLOAT,
        decision_seconds: float | None = None,
        opener: Opener = open_round,
    ) -> HouseTable:
        """A table on a fresh ledger: the player granted ``bankroll``, the house its float."""
        check_amount(bankroll, "the bankroll")
        ledger = Ledger()
        ledger.open_account(PLAYER_ACCOUNT, AccountKind.CUSTOMER)
        ledger.open_account(HOUSE_ACCOUNT, AccountKind.HOUSE)
        if bankroll:
            ledger.deposit("grant/player", PLAYER_ACCOUNT, bankroll, "play-money grant")
        ledger.deposit("float/house", HOUSE_ACCOUNT, house_float, "house float")
        return cls(
            rules, shoe, ledger, clock=clock, decision_seconds=decision_seconds, opener=opener
        )

    # -- reading ---------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.listeners.subscribe(listener)

    @property
    def bankroll(self) -> int:
        """The player's free money (a round's stakes are in its hold account, not here)."""
        return self.ledger.available(self.player)

    @property
    def in_round(self) -> bool:
        return self.round is not None and not self.round.is_settled

    @property
    def round_id(self) -> str:
        return f"{self.table_id}/round-{self.rounds}"

    @property
    def hold_account(self) -> str:
        """The ledger account holding the stakes of the current (or last) round."""
        return f"{self.round_id}/stakes"

    def can_cover_minimum(self) -> bool:
        return self.bankroll >= self.rules.min_bet

    def staked(self) -> int:
        """Money the current round has taken: every hand's stake and every insurance."""
        return 0 if self.round is None else self.round.staked()

    def cost(self, action: Action) -> int:
        """The money ``action`` adds to the round (a double or split: the box's bet)."""
        return self._current().stake_of(action)

    def legal_actions(self) -> list[Action]:
        """The round's legal actions that the bankroll can pay for (insurance: any amount)."""
        round_ = self._current()
        return [
            action
            for action in round_.legal_actions()
            if action.kind is ActionKind.INSURANCE or self.cost(action) <= self.bankroll
        ]

    def refusal(self, action: Action) -> str | None:
        """Why :meth:`act` would refuse ``action`` now, in the round's or the bankroll's words
        (``None``: it would be taken). Nothing changes."""
        try:
            round_ = self._current()
            round_.verify(self._seat(), action)
        except IllegalActionError as error:  # the round's reason, or no round in play
            return str(error)
        cost = self.cost(action)
        if cost > self.bankroll:
            return f"{action} needs {format_money(cost)}; you have {format_money(self.bankroll)}"
        return None

    def most_insurance(self) -> int:
        """The largest insurance the box to decide may take: half its bet, within the bankroll."""
        round_ = self._current()
        return min(round_.boxes[round_.box_index].bet // 2, self.bankroll)

    def check_bets(self, bets: Sequence[int]) -> None:
        """Raise :class:`~twentyone.errors.BetError` unless ``bets`` can open a round now."""
        rules = self.rules
        if not 1 <= len(bets) <= rules.max_boxes:
            raise BetError(f"give 1 to {rules.max_boxes} amounts")
        for bet in bets:
            check_amount(bet, "a bet")
        if any(not rules.min_bet <= bet <= rules.max_bet for bet in bets):
            raise BetError(
                f"each bet must be {format_money(rules.min_bet)} to {format_money(rules.max_bet)}"
            )
        if sum(bets) > self.bankroll:
            raise BankrollError(f"that is more than your {format_money(self.bankroll)}")

    # -- playing ---------------------------------------------------------------------------
    def start_round(self, bets: Sequence[int], shoe: Shoe | None = None) -> Round:
        """Deal a round: the stakes move to its hold account, then the cards are dealt.

        ``shoe`` replaces the table's shoe for this round (a server's per-round fair shoe).
        """
        if self.closed:
            raise TableStateError("the table is closed")
        if self.in_round:
            raise TableStateError("a round is in play: finish it before dealing the next")
        bets = tuple(bets)
        self.check_bets(bets)
        self._shoe = shoe or self.shoe
        round_ = self._open(self.rules, bets, self._shoe, self.decision_seconds, self.clock.now())
        # A round in explicit chance waits for its first card: the runner's shoe deals them all.
        self._dealing = round_.to_act() == (CHANCE,)
        if self._dealing:
            self._shoe.start_round()
        self.rounds += 1
        self.round, self._seen, self._staked = round_, 0, 0
        self.last_bets, self.last_net = bets, None
        self.ledger.open_account(self.hold_account, AccountKind.HOUSE)  # see docs/tables.md
        self._emit("round-opened", {"bets": list(bets), "hold": self.hold_account})
        self._after_step()
        return round_

    def rebet(self) -> Round:
        """Deal a round with the last round's bets."""
        return self.start_round(self._last_bets())

    def double_bet(self) -> Round:
        """Deal a round with twice the last round's bets."""
        return self.start_round([2 * bet for bet in self._last_bets()])

    def act(self, action: Action) -> None:
        """Play the player's decision for the box to act (through the game protocol); its
        extra stake, if any, is checked against the bankroll first and then held."""
        round_ = self._current()
        seat = self._seat()
        round_.verify(seat, action)  # raises IllegalActionError with the reason
        cost = self.cost(action)
        if cost > self.bankroll:
            raise BankrollError(
                f"{action} needs {format_money(cost)}; you have {format_money(self.bankroll)}"
            )
        round_.apply(seat, action, now=self.clock.now())
        self._after_step()

    def deadline(self) -> float | None:
        """When the pending decision times out (``None``: no decision time at this table)."""
        return None if not self.in_round else self._current().deadline()

    def tick(self) -> None:
        """Take the standard decision for every decision whose deadline has passed."""
        if self.in_round:
            self._current().expire(self.clock.now())
            self._after_step()

    def finish_round(self) -> None:
        """Play the round in play out with the standard decision at every step (a player who
        leaves mid-hand): never a refund of a started round."""
        while self.in_round:
            assert self.round is not None
            self.act(standard_action(self.round))

    def close(self) -> None:
        """End the session: a round in play is finished first (:meth:`finish_round`)."""
        if self.closed:
            return
        self.finish_round()
        self.closed = True
        self._emit("session-closed", {"bankroll": self.bankroll, "rounds": self.rounds})

    # -- internals -------------------------------------------------------------------------
    def _current(self) -> Round:
        if self.round is None or self.round.is_settled:
            raise TableStateError("there is no round in play")
        return self.round

    def _seat(self) -> int:
        """The box to act (the game protocol's seat)."""
        actor = self._current().to_act()[0]
        assert actor is not CHANCE  # the runner deals every card before it returns
        return actor

    def _last_bets(self) -> tuple[int, ...]:
        if self.last_bets is None:
            raise TableStateError("no round has been played at this table yet")
        return self.last_bets

    def _emit(self, kind: str, data: object = None) -> None:
        self.listeners.emit(TableEvent(kind, self.rounds, data, self.clock.now()))

    def _after_step(self) -> None:
        """Move any new stake to the hold, emit the round's new events, settle if it is over."""
        round_ = self.round
        assert round_ is not None
        run_chance(round_, self._shoe.draw)  # the cards the round waits for, from the shoe
        extra = self.staked() - self._staked
        if extra > 0:
            self.ledger.transfer(
                f"{self.round_id}/stake-{self._staked}",
                self.player,
                self.hold_account,
                extra,
                "stake",
            )
            self._staked += extra
        for event in round_.events[self._seen :]:
            self._emit("game", event)
        self._seen = len(round_.events)
        if round_.is_settled:
            if self._dealing:
                self._shoe.end_round()
            self._settle(round_)

    def _settle(self, round_: Round) -> None:
        """One ledger batch: per settled hand and insurance, its stake back from the hold, a
        loss to the house, a win from the house. The hold account ends at zero."""
        entries: list[LedgerEntry] = []
        hold, rid = self.hold_account, self.round_id

        def move(name: str, debit: str, credit: str, amount: int, reason: str) -> None:
            if amount > 0:
                entries.append(Transfer(f"{rid}/{name}", debit, credit, amount, reason))

        for b, box in enumerate(round_.boxes):
            for h, hand in enumerate(box.hands):
                net = hand.net or 0
                where = f"box-{b + 1}/hand-{h + 1}"
                move(f"{where}/back", hold, self.player, hand.stake + min(net, 0), "stake back")
                move(f"{where}/lost", hold, self.house, -net, "lost bet")
                move(f"{where}/won", self.house, self.player, net, "win")
            if box.insurance:
                net = box.insurance_net or 0
                where = f"box-{b + 1}/insurance"
                move(f"{where}/back", hold, self.player, box.insurance + min(net, 0), "stake back")
                move(f"{where}/lost", hold, self.house, -net, "lost insurance")
                move(f"{where}/won", self.house, self.player, net, "insurance win")
        self.ledger.commit(entries)
        net = sum(box.net for box in round_.boxes)
        self.last_net = net
        self._emit("round-settled", {"net": net, "bankroll": self.bankroll})
