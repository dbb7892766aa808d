"""Computer seats. Every bot decides from its own :class:`SeatView` only.

Bots are players, not part of the game: they live beside the game they play (they are
written against its views and actions, and the table runner needs the standard bot for seats
that are away), but nothing in the game imports them, and they alone in ``twentyone.vinte``
import the analysis (:mod:`twentyone.analysis.vinte.search`).

- :class:`VinteBot`, the standard bot: as banker, the expectimax of
  :func:`~twentyone.analysis.vinte.search.banker_choices`; as player, bet size from
  :func:`~twentyone.analysis.vinte.search.bet_edges` and hit/stand from
  :func:`~twentyone.analysis.vinte.search.player_choices`.
- :class:`HeuristicBot`: a simple opponent for benchmarks ("stand on 17", a fixed bet, a
  banker who draws below a threshold and then calls everyone in order).
- :class:`RandomBot`: any legal action at random (property tests).

>>> from twentyone.cards import parse_cards
>>> from twentyone.vinte.game import deal, new_match
>>> from twentyone.vinte.settings import VinteTable
>>> from twentyone.vinte.views import view_for
>>> state = deal(new_match(VinteTable.create(3, first_banker=0)), parse_cards("AS 6H TD"), 0.0)
>>> VinteBot().decide(view_for(state, 1)), VinteBot().decide(view_for(state, 2))
(Bet(seat=1, chips=5), Bet(seat=2, chips=1))
"""

from __future__ import annotations

from typing import Protocol

from twentyone.analysis.vinte.search import (
    Opponent,
    Pool,
    allowed_hidden,
    banker_choices,
    bet_edges,
    player_choices,
    stand_likelihoods,
)
from twentyone.hand import BLACKJACK_TOTAL, cards_by_value
from twentyone.randomness import RandomSource
from twentyone.vinte.errors import VinteActionError
from twentyone.vinte.game import Action, Bet, Call, ComeBack, Draw, Hit, Phase, Stand, Status
from twentyone.vinte.views import SeatView


class Bot(Protocol):
    def decide(self, view: SeatView) -> Action:
        """The action to take now; ``view.viewer`` is the bot's seat and must have a decision."""
        ...


def _seat(view: SeatView) -> int:
    if view.viewer is None or view.viewer not in view.to_act:
        raise VinteActionError("a bot decides only for its own seat, when it has a decision")
    return view.viewer


def pool_from_view(view: SeatView) -> Pool:
    """The unseen cards of the viewer, counted by value."""
    return cards_by_value(view.unseen().elements())[1:]


def _bet_limits(view: SeatView) -> tuple[int, int]:
    chips = [action.chips for action in view.legal if isinstance(action, Bet)]
    return min(chips), max(chips)


class VinteBot:
    """The standard bot: maximises its expected chips this round from its own view.

    ``exact_budget``: states the banker's exact search may visit before it switches to
    the frozen-composition approximation (see :mod:`twentyone.analysis.vinte.search`), which is
    also used when more than two uncalled players hold unknown cards.

    Options (off by default; the standard bot treats every unseen card alike):
    ``read_stands``: as banker, weigh each player's hidden card by how likely his hits and
    stand were for a player who stands from ``stand_from`` (each choice the other way with
    probability ``stand_noise``). ``disguise_bets`` with ``source``: with that probability
    a bet is drawn uniformly from the legal bets, so bets do not reveal the hidden card.
    """

    def __init__(
        self,
        exact_budget: int = 500,
        *,
        read_stands: bool = False,
        stand_from: int = 17,
        stand_noise: float = 0.1,
        disguise_bets: float = 0.0,
        source: RandomSource | None = None,
    ) -> None:
        if disguise_bets and source is None:
            raise VinteActionError("disguise_bets needs a randomness source")
        self.exact_budget = exact_budget
        self.read_stands = read_stands
        self.stand_from = stand_from
        self.stand_noise = stand_noise
        self.disguise_bets = disguise_bets
        self.source = source

    def decide(self, view: SeatView) -> Action:
        seat = _seat(view)
        if view.phase is Phase.BETTING:
            return self.bet(view, seat)
        if view.phase is Phase.PLAYERS:
            return self.play(view, seat)
        return self.bank(view, seat)

    def bet(self, view: SeatView, seat: int) -> Bet:
        low, high = _bet_limits(view)
        # A uniform draw in [0, 1) with 2**32 steps decides whether to disguise the bet.
        if self.source is not None and self.source.randbelow(2**32) < self.disguise_bets * 2**32:
            return Bet(seat, low + self.source.randbelow(high - low + 1))
        hidden = view.hand(seat).cards[0]
        assert hidden is not None
        settings = view.table.settings
        edges = bet_edges(
            view.table.rules.aces_high,
            settings.declares_21,
            settings.player_21_pays_double,
            view.table.rules.decks or 1,
        )
        return Bet(seat, high if edges[hidden.value - 1] > 0 else low)

    def play(self, view: SeatView, seat: int) -> Action:
        hand = view.hand(seat)
        hidden = hand.cards[0]
        up = view.banker_cards[1]
        assert hidden is not None and up is not None
        settings = view.table.settings
        choice = player_choices(
            hidden,
            hand.face_up,
            up,
            pool_from_view(view),
            view.table.rules.aces_high,
            settings.declares_21,
            settings.player_21_pays_double,
        )
        return Hit(seat) if choice.best == "hit" else Stand(seat)

    def bank(self, view: SeatView, seat: int) -> Action:
        aces_high = view.table.rules.aces_high
        declares = view.table.settings.declares_21
        opponents = []
        for hand in view.hands:
            if hand.status is not Status.STOOD:
                continue
            face = hand.face_up
            hard = sum(card.value for card in face)
            ace = any(card.is_ace for card in face)
            first = hand.cards[0]
            known = first.value if first is not None else None
            allowed = allowed_hidden(hard, ace, len(hand.cards), declares, aces_high)
            weights = None
            if self.read_stands and known is None:
                weights = stand_likelihoods(
                    [card.value for card in face],
                    allowed,
                    aces_high,
                    self.stand_from,
                    self.stand_noise,
                )
            opponents.append(Opponent(hand.seat, hard, ace, hand.bet or 0, allowed, known, weights))
        banker_values = [card.value for card in view.banker_cards if card is not None]
        choices = banker_choices(
            banker_values, opponents, pool_from_view(view), aces_high, self.exact_budget
        )
        best = choices[0]
        if best.action == "draw":
            return Draw(seat)
        assert best.target is not None
        return Call(seat, best.target)


class HeuristicBot:
    """A simple opponent: bets ``bet`` chips (default: the middle of the limits), hits
    below ``stand_on``; as banker draws below ``banker_draws_below`` (0: never) and then
    calls every player from his left ("call everyone at once")."""

    def __init__(
        self, stand_on: int = 17, bet: int | None = None, banker_draws_below: int = 17
    ) -> None:
        self.stand_on = stand_on
        self.fixed_bet = bet
        self.banker_draws_below = banker_draws_below

    def decide(self, view: SeatView) -> Action:
        seat = _seat(view)
        if view.phase is Phase.BETTING:
            low, high = _bet_limits(view)
            rules = view.table.rules
            wanted = self.fixed_bet or (rules.min_bet + rules.max_bet) // 2
            return Bet(seat, max(low, min(high, wanted)))
        if view.phase is Phase.PLAYERS:
            cards = tuple(card for card in view.hand(seat).cards if card is not None)
            return Hit(seat) if view.total(cards) < self.stand_on else Stand(seat)
        cards = tuple(card for card in view.banker_cards if card is not None)
        total = view.total(cards)
        if total < min(self.banker_draws_below, BLACKJACK_TOTAL):
            return Draw(seat)
        target = next(h.seat for h in view.hands if h.status is Status.STOOD)
        return Call(seat, target)


class RandomBot:
    """Any legal action, uniformly (never "come back": bots are never away)."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source

    def decide(self, view: SeatView) -> Action:
        _seat(view)
        actions = [action for action in view.legal if not isinstance(action, ComeBack)]
        return actions[self.source.randbelow(len(actions))]
