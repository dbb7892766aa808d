"""The eight selections of an Exchange Blackjack market, and how each one settles.

Names are exactly as in the spec (the betting exchange keys its markets by them).

>>> SELECTIONS[:2], SELECTIONS[-1]
(('Player 1', 'Player 2'), 'Only one has 21pts')
>>> Outcome.WINNER.value, Outcome.TIED.value
('winner', 'tied')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

PLAYER_SELECTIONS: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
DEALER_WINS_OR_TIES_ALL = "Dealer wins or ties all"
FIVE_CARDS = "One or more has 5 cards"
ALL_UNIQUE = "All cards unique"
ONLY_ONE_21 = "Only one has 21pts"
EXOTIC_SELECTIONS: tuple[str, ...] = (DEALER_WINS_OR_TIES_ALL, FIVE_CARDS, ALL_UNIQUE, ONLY_ONE_21)
SELECTIONS: tuple[str, ...] = PLAYER_SELECTIONS + EXOTIC_SELECTIONS


class Outcome(enum.Enum):
    """How a selection settles: a player hand may tie (dead heat); an exotic never does."""

    WINNER = "winner"
    LOSER = "loser"
    TIED = "tied"


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settled selection and the betting round after which it was settled."""

    selection: str
    outcome: Outcome
    settled_after_round: int

    def to_json(self) -> dict[str, object]:
        return {"result": self.outcome.value, "settled_after_round": self.settled_after_round}
