"""The trainer's drills, without any input or output: basic strategy and card counting.

:class:`StrategyDrill` deals random two-card hands against an up card (a fresh full shoe for
every hand; the randomness is injected) and scores the move the player picks against the exact
analysis of that hand (:mod:`twentyone.analysis.hand_calculator`): the right move is the one of
the highest EV, and a mistake costs the best EV less the EV of the move chosen. The analysis of
a hand is remembered for the session (by rules, card values and up card), and the up card's
heavy pass is shared by every hand (:func:`twentyone.analysis.engine.cached_context`).

:class:`CountDrill` deals cards from a shoe and checks the player's running count every
``every`` cards, in any counting system of ``twentyone/data/counting_systems.json``.

>>> from twentyone.cards import Card
>>> from twentyone.randomness import SeededRandomSource
>>> from twentyone.rules import Rules
>>> drill = StrategyDrill(Rules(decks=6), SeededRandomSource(1))
>>> hand = drill.hand_of([Card.parse("TS"), Card.parse("6H")], Card.parse("TD"))
>>> hand.best, hand.hand_type, sorted(hand.allowed)
('hit', 'hard', ['d', 'h', 's'])
>>> answer = drill.answer(hand, "s")
>>> answer.correct, round(answer.cost, 4)
(False, 0.0063)
>>> count = CountDrill(Rules(decks=1), SeededRandomSource(1), every=4)
>>> cards = count.deal()
>>> count.check(count.running_count).correct
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from twentyone.analysis.hand_calculator import HandCalculation, calculate
from twentyone.analysis.shoe_counts import LABELS
from twentyone.cards import Card
from twentyone.errors import TwentyOneError
from twentyone.hand import is_blackjack
from twentyone.randomness import RandomSource
from twentyone.rules import Rules, Shuffle
from twentyone.shoe import FiniteShoe, InfiniteShoe, check_possible
from twentyone.simulation.counting import CountingSystem, counting_system

#: The keys a player types, and the option each names.
MOVE_KEYS = {"h": "hit", "s": "stand", "d": "double", "p": "split", "r": "surrender"}
KEY_OF_MOVE = {move: key for key, move in MOVE_KEYS.items()}
HAND_TYPES = ("hard", "soft", "pair")
#: EVs closer than this are the same move's worth (rounding of the analysis is ~1e-16).
TIE = 1e-12


class TrainingInputError(TwentyOneError):
    """A move the drill does not know or that this hand does not allow."""


@functools.lru_cache(maxsize=4096)
def _calculation(
    rules: Rules, values: tuple[str, ...], upcard: str, convention: str
) -> HandCalculation:
    # The drill shows percentages: the infinite shoe's exact fractions are not needed.
    return calculate(rules, list(values), upcard, convention=convention, exact=False)


@dataclass(frozen=True)
class DrillHand:
    """One dealt hand and its exact analysis (EV of every allowed move)."""

    cards: tuple[Card, ...]
    upcard: Card
    calculation: HandCalculation

    @property
    def hand_type(self) -> str:
        return self.calculation.hand_type

    @property
    def total(self) -> int:
        return self.calculation.total

    @property
    def allowed(self) -> dict[str, float]:
        """The keys the player may type, with the EV of each move."""
        return {KEY_OF_MOVE[name]: ev for name, ev in self.calculation.actions.items()}

    @property
    def best(self) -> str:
        return self.calculation.best


@dataclass(frozen=True)
class StrategyAnswer:
    hand: DrillHand
    key: str
    correct: bool
    #: EV of the best move less the EV of the move chosen (0 when right), per initial bet.
    cost: float

    @property
    def move(self) -> str:
        return MOVE_KEYS[self.key]


@dataclass
class TypeScore:
    hands: int = 0
    right: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.right / self.hands if self.hands else None


@dataclass
class StrategySummary:
    hands: int = 0
    right: int = 0
    #: The EV given away by every mistake together, in initial bets.
    cost: float = 0.0
    by_type: dict[str, TypeScore] = field(
        default_factory=lambda: {name: TypeScore() for name in HAND_TYPES}
    )
    worst: StrategyAnswer | None = None

    @property
    def accuracy(self) -> float | None:
        return self.right / self.hands if self.hands else None


class StrategyDrill:
    """Deal hands and score moves; ``rules`` are the game's, ``source`` the randomness."""

    def __init__(self, rules: Rules, source: RandomSource, *, convention: str = "cdz-") -> None:
        self.rules = rules
        self.convention = convention
        self._source = source
        self.summary = StrategySummary()

    def deal(self) -> DrillHand:
        """Two cards and an up card from a freshly shuffled full shoe (a player blackjack,
        which has nothing to decide, is dealt again)."""
        while True:
            shoe = _shoe(self.rules, self._source)
            shoe.start_round()
            first, up, second = shoe.draw(), shoe.draw(), shoe.draw()
            if not is_blackjack([first, second]):
                return self.hand_of([first, second], up)

    def hand_of(self, cards: Sequence[Card], upcard: Card) -> DrillHand:
        """The drill's hand for given cards (scripted hands, tests)."""
        check_possible([*cards, upcard], self.rules.decks)
        values = tuple(LABELS[card.value - 1] for card in cards)
        calculation = _calculation(self.rules, values, LABELS[upcard.value - 1], self.convention)
        return DrillHand(tuple(cards), upcard, calculation)

    def answer(self, hand: DrillHand, key: str) -> StrategyAnswer:
        """Score the move typed as ``key`` (h, s, d, p, r) and add it to the summary; an
        unknown key or a move this hand does not allow raises :class:`TrainingInputError`
        and counts nothing."""
        cleaned = key.strip().lower()
        if cleaned not in MOVE_KEYS:
            keys = ", ".join(f"{k} ({m})" for k, m in MOVE_KEYS.items())
            raise TrainingInputError(f"unknown move {key!r}: type one of {keys}")
        allowed = hand.allowed
        if cleaned not in allowed:
            raise TrainingInputError(f"{MOVE_KEYS[cleaned]} is not allowed with this hand")
        cost = hand.calculation.cost(MOVE_KEYS[cleaned])
        correct = cost <= TIE
        result = StrategyAnswer(hand, cleaned, correct, 0.0 if correct else cost)
        summary = self.summary
        summary.hands += 1
        summary.right += correct
        summary.cost += result.cost
        score = summary.by_type[hand.hand_type]
        score.hands += 1
        score.right += correct
        if not correct and (summary.worst is None or result.cost > summary.worst.cost):
            summary.worst = result
        return result


def _shoe(rules: Rules, source: RandomSource) -> FiniteShoe | InfiniteShoe:
    if rules.decks is None:
        return InfiniteShoe(source)
    return FiniteShoe(rules.decks, source, Shuffle.EVERY_ROUND)


@dataclass(frozen=True)
class CountAnswer:
    given: int
    expected: int
    correct: bool
    cards_seen: int
    #: The true count (running count per deck left; None on an infinite shoe).
    true_count: float | None


@dataclass
class CountSummary:
    checks: int = 0
    right: int = 0
    cards: int = 0
    shuffles: int = 0
    largest_miss: int = 0

    @property
    def accuracy(self) -> float | None:
        return self.right / self.checks if self.checks else None


class CountDrill:
    """Cards from a shoe of the rules' decks, ``every`` cards between two count checks.

    The shoe is reshuffled (and the count starts again) at the rules' cut card.
    """

    def __init__(
        self, rules: Rules, source: RandomSource, *, system: str = "hi-lo", every: int = 6
    ) -> None:
        if not isinstance(every, int) or isinstance(every, bool) or not 1 <= every <= 52:
            raise TrainingInputError(f"cards between checks must be 1..52, got {every!r}")
        self.rules = rules
        self.system: CountingSystem = counting_system(system)
        self.every = every
        self._source = source
        self.summary = CountSummary()
        self._start_shoe()

    def _start_shoe(self) -> None:
        if self.rules.decks is None:
            self._shoe: FiniteShoe | InfiniteShoe = InfiniteShoe(self._source)
        else:
            self._shoe = FiniteShoe(
                self.rules.decks, self._source, Shuffle.CUT_CARD, self.rules.penetration
            )
        self._shoe.start_round()
        self.running_count = self.system.initial_running_count(self.rules.decks)

    @property
    def decks_left(self) -> float | None:
        if isinstance(self._shoe, FiniteShoe):
            return self._shoe.remaining / 52
        return None

    def deal(self) -> tuple[list[Card], bool]:
        """The next ``every`` cards, and whether the shoe was reshuffled before them (the
        count starts again)."""
        shuffled = False
        shoe = self._shoe
        if isinstance(shoe, FiniteShoe) and shoe.dealt + self.every > shoe.cut_position:
            self._start_shoe()
            self.summary.shuffles += 1
            shuffled = True
        cards = [self._shoe.draw() for _ in range(self.every)]
        self.add(cards)
        return cards, shuffled

    def add(self, cards: Sequence[Card]) -> None:
        """Count ``cards`` as seen (scripted cards in tests; :meth:`deal` calls it)."""
        self.running_count += sum(self.system.tags[card.value] for card in cards)
        self.summary.cards += len(cards)

    def check(self, given: int) -> CountAnswer:
        """Score the player's running count and add it to the summary."""
        if not isinstance(given, int) or isinstance(given, bool):
            raise TrainingInputError(f"a running count is a whole number, got {given!r}")
        expected = self.running_count
        decks = self.decks_left
        true_count = expected / decks if decks else None
        answer = CountAnswer(given, expected, given == expected, self.summary.cards, true_count)
        summary = self.summary
        summary.checks += 1
        summary.right += answer.correct
        summary.largest_miss = max(summary.largest_miss, abs(given - expected))
        return answer
