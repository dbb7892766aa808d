"""The Vinte-e-um preset and the table settings that only this game has.

>>> VINTE.decks, VINTE.min_bet, VINTE.max_bet, VINTE.ties.value
(1, 1, 5, 'dealer-wins')
>>> table = VinteTable.create(4)
>>> [seat.name for seat in table.seats], table.settings.starting_stack
(['Seat 1', 'Seat 2', 'Seat 3', 'Seat 4'], 50)
>>> VinteTable.create(8, settings=VinteSettings(starting_stack=20))
Traceback (most recent call last):
...
twentyone.vinte.errors.VinteTableError: a table of 8 seats needs stacks of at least (8 - 1) x 5 = 35 chips so that some seat can always cover the bank, got 20
"""

from __future__ import annotations

from dataclasses import dataclass

from twentyone.money import MAX_AMOUNT
from twentyone.presets import VINTE
from twentyone.rules import Rules, Ties
from twentyone.vinte.errors import SeatNameError, VinteTableError, show

MIN_SEATS = 2
MAX_SEATS = 8
#: Decks a round may be dealt from (a fresh shuffle every round).
MAX_DECKS = 8
#: The largest table maximum bet: every bet from min to max is a legal action, listed.
MAX_BET = 1_000
#: Bounds of the counting settings (rounds, missed deadlines) and of a deadline.
MAX_ROUNDS = 1_000_000
MAX_MISSED = 1_000
MAX_DECISION_SECONDS = 86_400
MAX_NAME = 40


def _whole(value: object, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise VinteTableError(f"{name} must be a whole number, got {show(value)}")
    if not low <= value <= high:
        raise VinteTableError(f"{name} must be between {low} and {high}, got {show(value)}")


# The preset is defined with the others, in twentyone.presets (re-exported here).
__all__ = ["MAX_SEATS", "MIN_SEATS", "VINTE", "SeatSpec", "VinteSettings", "VinteTable"]


@dataclass(frozen=True, slots=True)
class VinteSettings:
    """What a Vinte-e-um table agrees on besides the card rules (all decided in the spec).

    ``bank_rounds``: rounds a banker keeps the bank (0 = permanent). ``round_limit``: the
    match ends after this many rounds (0 = play to elimination). ``decision_seconds``: the
    deadline of every decision. ``player_21_pays_double``: a player's two-card 21 is declared,
    shown and paid 2x at once. ``player_21_takes_bank``: the first such player from the
    banker's left takes the bank at the round's end (if he covers).
    """

    starting_stack: int = 50
    bank_rounds: int = 3
    round_limit: int = 100
    decision_seconds: float = 30.0
    player_21_pays_double: bool = False
    player_21_takes_bank: bool = False
    missed_deadlines_for_away: int = 3

    def __post_init__(self) -> None:
        for name, low, high in (
            ("starting_stack", 1, MAX_AMOUNT),
            ("bank_rounds", 0, MAX_ROUNDS),
            ("round_limit", 0, MAX_ROUNDS),
            ("missed_deadlines_for_away", 1, MAX_MISSED),
        ):
            _whole(getattr(self, name), name, low, high)
        for name in ("player_21_pays_double", "player_21_takes_bank"):
            if not isinstance(getattr(self, name), bool):
                raise VinteTableError(
                    f"{name} must be true or false, got {show(getattr(self, name))}"
                )
        seconds = self.decision_seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds <= MAX_DECISION_SECONDS  # NaN compares false: refused too
        ):
            raise VinteTableError(
                f"decision_seconds must be a number of seconds in (0, {MAX_DECISION_SECONDS}],"
                f" got {show(seconds)}"
            )

    @property
    def declares_21(self) -> bool:
        """Whether a player's two-card 21 is declared and shown at once."""
        return self.player_21_pays_double or self.player_21_takes_bank


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat: a display name and whether a bot plays it."""

    name: str
    bot: bool = False

    def __post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str):
            raise SeatNameError(f"a seat's name is text, got {show(name)}")
        if not name.strip():
            raise SeatNameError("a seat needs a name: an empty name is not allowed")
        if len(name) > MAX_NAME or not name.isprintable() or name != name.strip():
            raise SeatNameError(
                f"a seat's name is at most {MAX_NAME} printable characters, without spaces "
                f"around it, got {show(name)}"
            )
        if not isinstance(self.bot, bool):
            raise VinteTableError(f"a seat's bot flag must be true or false, got {show(self.bot)}")


@dataclass(frozen=True, slots=True)
class VinteTable:
    """A table as its creator set it up. ``first_banker=None``: drawn at random."""

    seats: tuple[SeatSpec, ...]
    rules: Rules = VINTE
    settings: VinteSettings = VinteSettings()
    first_banker: int | None = None

    def __post_init__(self) -> None:
        check_table(self)

    @classmethod
    def create(
        cls,
        seats: int,
        *,
        bots: int = 0,
        rules: Rules = VINTE,
        settings: VinteSettings | None = None,
        first_banker: int | None = None,
    ) -> VinteTable:
        """``seats`` seats named "Seat 1".."Seat N"; the last ``bots`` of them are bots."""
        if (
            isinstance(seats, bool)
            or not isinstance(seats, int)
            or not MIN_SEATS <= seats <= MAX_SEATS
        ):
            raise VinteTableError(
                f"a table has {MIN_SEATS} to {MAX_SEATS} seats, got {show(seats)}"
            )
        _whole(bots, "bots", 0, seats)
        specs = tuple(
            SeatSpec(f"Seat {index + 1}", bot=index >= seats - bots) for index in range(seats)
        )
        settings = VinteSettings() if settings is None else settings
        return cls(specs, rules, settings, first_banker)

    @property
    def size(self) -> int:
        return len(self.seats)


def check_table(table: VinteTable) -> None:
    """Raise :class:`VinteTableError` unless the table can be played."""
    if not isinstance(table.seats, tuple) or not all(
        isinstance(seat, SeatSpec) for seat in table.seats
    ):
        raise VinteTableError(f"a table's seats are a tuple of SeatSpec, got {show(table.seats)}")
    if not isinstance(table.rules, Rules):
        raise VinteTableError(f"a table's rules are a Rules, got {show(table.rules)}")
    if not isinstance(table.settings, VinteSettings):
        raise VinteTableError(f"a table's settings are a VinteSettings, got {show(table.settings)}")
    seats = len(table.seats)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise VinteTableError(
            f"a table has {MIN_SEATS} to {MAX_SEATS} seats (banker included), got {seats}"
        )
    rules = table.rules
    if rules.decks is None:
        raise VinteTableError("Vinte-e-um is dealt from real decks: decks must be a number")
    _whole(rules.decks, "decks", 1, MAX_DECKS)
    _whole(rules.min_bet, "min_bet", 1, MAX_BET)
    _whole(rules.max_bet, "max_bet", rules.min_bet, MAX_BET)
    if rules.ties is not Ties.DEALER_WINS:
        raise VinteTableError("in Vinte-e-um ties go to the bank: ties must be dealer-wins")
    stack = table.settings.starting_stack
    needed = (seats - 1) * rules.max_bet
    if stack < needed:
        raise VinteTableError(
            f"a table of {seats} seats needs stacks of at least ({seats} - 1) x "
            f"{rules.max_bet} = {needed} chips so that some seat can always cover the bank, "
            f"got {stack}"
        )
    if table.first_banker is not None:
        _whole(table.first_banker, "first_banker (a seat number)", 0, seats - 1)
    check_names(table.seats)


def check_names(seats: tuple[SeatSpec, ...]) -> None:
    """Every seat has its own name (compared without case): a person may not take a bot's.

    >>> check_names((SeatSpec("Ana"), SeatSpec("bot 1"), SeatSpec("Bot 1", bot=True)))
    Traceback (most recent call last):
    ...
    twentyone.vinte.errors.SeatNameError: 'bot 1' is the name of a bot at this table (seat 2): choose another name
    """
    taken: dict[str, int] = {}
    for index, seat in enumerate(seats):
        key = seat.name.casefold()
        if key in taken:
            other = taken[key]
            if seats[other].bot != seat.bot:
                bot, person = (other, index) if seats[other].bot else (index, other)
                raise SeatNameError(
                    f"{seats[person].name!r} is the name of a bot at this table (seat {bot}):"
                    " choose another name"
                )
            raise SeatNameError(
                f"seats {other} and {index} are both named {seat.name!r}: every seat needs its"
                " own name"
            )
        taken[key] = index
