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

from twentyone.presets import VINTE
from twentyone.rules import Rules, Ties
from twentyone.vinte.errors import VinteTableError

MIN_SEATS = 2
MAX_SEATS = 8

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
        for name in ("starting_stack", "bank_rounds", "round_limit", "missed_deadlines_for_away"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise VinteTableError(f"{name} must be a whole number, got {value!r}")
        for name in ("player_21_pays_double", "player_21_takes_bank"):
            if not isinstance(getattr(self, name), bool):
                raise VinteTableError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if self.starting_stack < 1:
            raise VinteTableError(f"starting_stack must be >= 1, got {self.starting_stack}")
        if self.bank_rounds < 0 or self.round_limit < 0:
            raise VinteTableError("bank_rounds and round_limit must be >= 0 (0 = no limit)")
        if self.missed_deadlines_for_away < 1:
            raise VinteTableError("missed_deadlines_for_away must be >= 1")
        if not isinstance(self.decision_seconds, int | float) or self.decision_seconds <= 0:
            raise VinteTableError(
                f"decision_seconds must be a positive number, got {self.decision_seconds!r}"
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
        if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise VinteTableError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, got {seats!r}")
        if not 0 <= bots <= seats:
            raise VinteTableError(f"bots must be between 0 and {seats}, got {bots}")
        specs = tuple(
            SeatSpec(f"Seat {index + 1}", bot=index >= seats - bots) for index in range(seats)
        )
        return cls(specs, rules, settings or VinteSettings(), first_banker)

    @property
    def size(self) -> int:
        return len(self.seats)


def check_table(table: VinteTable) -> None:
    """Raise :class:`VinteTableError` unless the table can be played."""
    seats = len(table.seats)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise VinteTableError(
            f"a table has {MIN_SEATS} to {MAX_SEATS} seats (banker included), got {seats}"
        )
    rules = table.rules
    if rules.decks is None:
        raise VinteTableError("Vinte-e-um is dealt from real decks: decks must be a number")
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
    if table.first_banker is not None and not 0 <= table.first_banker < seats:
        raise VinteTableError(
            f"first_banker must be a seat number 0..{seats - 1}, got {table.first_banker}"
        )
