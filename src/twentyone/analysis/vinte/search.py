"""The Vinte-e-um search (the bots' decision support): expected results of each choice, from one seat's view.

Cards are reduced to their values 1..10 (suits never matter). A *pool* is a 10-tuple of
counts: ``pool[v - 1]`` unseen cards of value ``v``.

**The banker** (:func:`banker_choices`) at his turn knows his own cards and every shown
card; each uncalled player holds one unknown hidden card. The unknown cards are a uniformly
random arrangement of the unseen cards, conditioned on what the table showed: no uncalled
player is bust (and, when two-card 21s are declared, none of them holds an undeclared one).
Under that posterior the next card the banker draws and the hidden card a call reveals have
exact probabilities (counted with :func:`assignments`), and an expectimax search over
"draw" and "call seat s" gives the expected chips of every choice for the rest of the round.
The search is exact while at most ``exact_players`` uncalled players hold unknown cards and
it needs at most ``exact_budget`` states (its cost grows about tenfold per uncalled player;
one player is always affordable, two usually are). Beyond that, the *approximation* keeps the composition frozen at the
current posterior (the banker's draws and the players' hidden cards independent, with their
exact current marginals), where calling order no longer matters for information and the
search is over (banker total, uncalled set) only.

**A player** (:func:`player_choices`) models the banker as that banker bot facing him alone
(one-on-one), with the composition frozen at what the player has not seen: the banker's
hidden card (no natural, since play goes on), the banker's policy given the player's face-up
cards, and the banker's draws. Hit/stand then maximises the expected chips of the round;
:func:`bet_edges` gives the expected result per chip of each hidden card before any other
card is seen, which sizes the bet.

>>> pool = pool_of([])  # a full deck
>>> sum(pool), pool[9]
(52, 16)
>>> edges = bet_edges(aces_high=True, declares_21=False, pays_double=False)
>>> edges[0] > 0 > edges[5]  # a hidden ace is worth betting on, a hidden 6 is not
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from twentyone.cards import Card
from twentyone.hand import BLACKJACK_TOTAL, best_total, cards_by_value

Pool = tuple[int, ...]
VALUES = tuple(range(1, 11))
#: A fresh deck counted by value (ace .. ten-value).
_DECK_BY_VALUE = (4,) * 9 + (16,)


def pool_of(seen: Iterable[Card], decks: int = 1) -> Pool:
    """The unseen counts by value after ``seen`` left ``decks`` fresh decks."""
    counts = cards_by_value(seen)
    return tuple(decks * full - counts[v] for v, full in zip(VALUES, _DECK_BY_VALUE, strict=True))


def _take(pool: Pool, value: int) -> Pool:
    index = value - 1
    return (*pool[:index], pool[index] - 1, *pool[index + 1 :])


@functools.lru_cache(maxsize=200_000)
def assignments(pool: Pool, allowed: tuple[tuple[int, ...], ...]) -> int:
    """How many ways to give each hidden card (``allowed[i]``: its possible values)
    a distinct card of ``pool``.

    >>> assignments((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), ((1, 2), (1,)))
    28
    """
    if not allowed:
        return 1
    ordered = sorted(allowed, key=len)
    if all(values == tuple(range(1, len(values) + 1)) for values in ordered):
        # Nested sets {1..t}: place the most constrained first; each later card has
        # one fewer choice per card already placed (all earlier sets are subsets).
        product = 1
        for placed, values in enumerate(ordered):
            available = sum(pool[: len(values)]) - placed
            if available <= 0:
                return 0
            product *= available
        return product
    first, rest = ordered[0], tuple(ordered[1:])
    return sum(pool[v - 1] * assignments(_take(pool, v), rest) for v in first if pool[v - 1] > 0)


@functools.lru_cache(maxsize=200_000)
def weighted_assignments(pool: Pool, specs: tuple[tuple[tuple[int, float], ...], ...]) -> float:
    """Like :func:`assignments`, each hidden card's value ``v`` weighted by its likelihood
    ``w`` (``specs[i]``: the (v, w) pairs of hidden card i).

    >>> weighted_assignments((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), (((1, 0.5), (2, 1.0)), ((1, 1.0),)))
    22.0
    """
    if not specs:
        return 1.0
    first, rest = specs[0], specs[1:]
    return sum(
        w * pool[v - 1] * weighted_assignments(_take(pool, v), rest)
        for v, w in first
        if pool[v - 1] > 0 and w > 0
    )


@dataclass(frozen=True, slots=True)
class Opponent:
    """An uncalled player as the banker sees him: face-up hard total and ace, the bet,
    and the possible values of his hidden card (``known`` when it was shown).
    ``weights`` (aligned with ``allowed``): the likelihood of the player's play for each
    value, when the banker reads stands; ``None`` treats every value alike."""

    seat: int
    hard: int
    ace: bool
    bet: int
    allowed: tuple[int, ...]
    known: int | None = None
    weights: tuple[float, ...] | None = None

    def spec(self) -> tuple[tuple[int, float], ...]:
        weights = self.weights or (1.0,) * len(self.allowed)
        return tuple(zip(self.allowed, weights, strict=True))

    def weight(self, value: int) -> float:
        if self.weights is None:
            return 1.0
        return self.weights[self.allowed.index(value)]

    def total(self, hidden: int, aces_high: bool) -> int:
        return best_total(self.hard + hidden, self.ace or hidden == 1, aces_high)


def stand_likelihoods(
    face_up: Sequence[int],
    allowed: Sequence[int],
    aces_high: bool,
    stand_from: int = 17,
    noise: float = 0.1,
) -> tuple[float, ...]:
    """How likely a player who hits below ``stand_from`` and stands from it (each choice
    the other way with probability ``noise``) made the play seen (hits after each prefix
    of ``face_up``, then a stand), for each possible hidden value in ``allowed``.

    >>> stand_likelihoods([7], [3, 10], True)  # stood on 7 + hidden: 10 is far likelier
    (0.1, 0.9)
    """
    out = []
    for hidden in allowed:
        likelihood = 1.0
        for count in range(1, len(face_up) + 1):
            hard = hidden + sum(face_up[:count])
            ace = hidden == 1 or 1 in face_up[:count]
            total = best_total(hard, ace, aces_high)
            last = count == len(face_up)
            if last and total == BLACKJACK_TOTAL:
                continue  # reaching 21 ends the turn: no choice was made
            stands = total >= stand_from
            likelihood *= (
                (1 - noise if stands else noise) if last else (noise if stands else 1 - noise)
            )
        out.append(likelihood)
    return tuple(out)


def allowed_hidden(
    hard: int, ace: bool, cards: int, declares_21: bool, aces_high: bool
) -> tuple[int, ...]:
    """Hidden values consistent with a player who stood: not bust, and not an undeclared
    two-card 21 when such 21s are declared."""
    values = []
    for v in VALUES:
        if hard + v > BLACKJACK_TOTAL:
            continue
        if (
            declares_21
            and cards == 2
            and best_total(hard + v, ace or v == 1, aces_high) == BLACKJACK_TOTAL
        ):
            continue
        values.append(v)
    return tuple(values)


@dataclass(frozen=True, slots=True)
class BankerChoice:
    """``action`` is ``"draw"`` or ``"call"`` (then ``target``); ``ev`` in chips."""

    action: str
    target: int | None
    ev: float
    exact: bool = True


class _OverBudget(Exception):
    """The exact search needs more states than it may visit."""


class _BankerSearch:
    def __init__(
        self,
        opponents: Sequence[Opponent],
        aces_high: bool,
        exact: bool,
        pool: Pool,
        budget: int | None = None,
    ) -> None:
        self.opponents = tuple(opponents)
        self.aces_high = aces_high
        self.exact = exact
        self.budget = budget
        self.memo: dict[tuple[Pool, int, bool, int], float] = {}
        self.root_pool = pool
        self.weighted = any(o.weights is not None for o in self.opponents)
        self.counts: dict[tuple[Pool, int], float] = {}
        self.specs: dict[int, tuple[tuple[tuple[int, float], ...], ...]] = {}
        if not exact:
            self._freeze(pool)

    def sets(self, mask: int) -> tuple[tuple[int, ...], ...]:
        return tuple(
            o.allowed for i, o in enumerate(self.opponents) if mask >> i & 1 and o.known is None
        )

    def count(self, pool: Pool, mask: int) -> float:
        """The (weighted) number of hidden-card assignments of the players in ``mask``."""
        key = (pool, mask)
        found = self.counts.get(key)
        if found is not None:
            return found
        specs = self.specs.get(mask)
        if specs is None:
            specs = tuple(
                o.spec() for i, o in enumerate(self.opponents) if mask >> i & 1 and o.known is None
            )
            self.specs[mask] = specs
        if self.weighted:
            found = weighted_assignments(pool, specs)
        else:
            found = float(assignments(pool, tuple(tuple(v for v, _ in spec) for spec in specs)))
        self.counts[key] = found
        return found

    def unknown(self, mask: int) -> int:
        return sum(1 for i, o in enumerate(self.opponents) if mask >> i & 1 and o.known is None)

    def bets(self, mask: int) -> int:
        return sum(o.bet for i, o in enumerate(self.opponents) if mask >> i & 1)

    # -- exact probabilities under the posterior

    def hidden_distribution(self, pool: Pool, mask: int, index: int) -> list[tuple[int, float]]:
        opponent = self.opponents[index]
        if opponent.known is not None:
            return [(opponent.known, 1.0)]
        everyone = self.count(pool, mask)
        if everyone == 0:
            return []
        others = mask & ~(1 << index)
        return [
            (v, opponent.weight(v) * pool[v - 1] * self.count(_take(pool, v), others) / everyone)
            for v in opponent.allowed
            if pool[v - 1] > 0 and opponent.weight(v) > 0
        ]

    def draw_distribution(self, pool: Pool, mask: int) -> list[tuple[int, float]]:
        everyone = self.count(pool, mask)
        remaining = sum(pool) - self.unknown(mask)
        if everyone == 0 or remaining <= 0:
            return []
        return [
            (v, pool[v - 1] * self.count(_take(pool, v), mask) / (remaining * everyone))
            for v in VALUES
            if pool[v - 1] > 0
        ]

    def _freeze(self, pool: Pool) -> None:
        full = (1 << len(self.opponents)) - 1
        self.frozen_draw = self.draw_distribution(pool, full)
        self.frozen_hidden = [
            self.hidden_distribution(pool, full, i) for i in range(len(self.opponents))
        ]

    # -- the search

    def call_value(
        self, pool: Pool, total: int, mask: int, index: int
    ) -> tuple[float, list[tuple[int, float]]]:
        """Expected chips of the showdown alone, and the hidden-card distribution."""
        opponent = self.opponents[index]
        dist = (
            self.hidden_distribution(pool, mask, index) if self.exact else self.frozen_hidden[index]
        )
        ev = 0.0
        for v, p in dist:
            ev += p * (-opponent.bet if opponent.total(v, self.aces_high) > total else opponent.bet)
        return ev, dist

    def value(self, pool: Pool, hard: int, ace: bool, mask: int) -> float:
        if mask == 0:
            return 0.0
        key = (pool if self.exact else self.root_pool, hard, ace, mask)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        if self.budget is not None and len(self.memo) >= self.budget:
            raise _OverBudget
        best = max(ev for _, _, ev in self.choices(pool, hard, ace, mask))
        self.memo[key] = best
        return best

    def choices(
        self, pool: Pool, hard: int, ace: bool, mask: int
    ) -> list[tuple[str, int | None, float]]:
        total = best_total(hard, ace, self.aces_high)
        out: list[tuple[str, int | None, float]] = []
        for index, opponent in enumerate(self.opponents):
            if not mask >> index & 1:
                continue
            rest = mask & ~(1 << index)
            showdown, dist = self.call_value(pool, total, mask, index)
            if self.exact and opponent.known is None:
                future = sum(p * self.value(_take(pool, v), hard, ace, rest) for v, p in dist)
            else:
                future = self.value(pool, hard, ace, rest)
            out.append(("call", opponent.seat, showdown + future))
        if total < BLACKJACK_TOTAL:
            dist = self.draw_distribution(pool, mask) if self.exact else self.frozen_draw
            ev = 0.0
            for v, p in dist:
                new_hard = hard + v
                if new_hard > BLACKJACK_TOTAL:
                    ev -= p * self.bets(mask)
                else:
                    next_pool = _take(pool, v) if self.exact else pool
                    ev += p * self.value(next_pool, new_hard, ace or v == 1, mask)
            if dist:
                out.append(("draw", None, ev))
        return out


def banker_choices(
    banker_cards: Sequence[int],
    opponents: Sequence[Opponent],
    pool: Pool,
    aces_high: bool = True,
    exact_budget: int = 2_000,
    exact_players: int = 2,
) -> list[BankerChoice]:
    """Expected chips (rest of the round) of each banker choice, best first.

    ``banker_cards``: the banker's card values; ``pool``: the cards he has not seen.
    Ties keep the order: calls from the banker's left (as ``opponents`` are given), then draw.

    >>> pool = pool_of([])
    >>> weak = Opponent(seat=1, hard=10, ace=False, bet=5, allowed=tuple(range(1, 11)))
    >>> best = banker_choices([10, 9], [weak], _take(_take(pool, 10), 9))[0]
    >>> best.action, best.target
    ('call', 1)
    """
    hard = sum(banker_cards)
    ace = 1 in banker_cards
    mask = (1 << len(opponents)) - 1
    exact = sum(1 for o in opponents if o.known is None) <= exact_players
    try:
        if not exact:
            raise _OverBudget
        search = _BankerSearch(opponents, aces_high, exact=True, pool=pool, budget=exact_budget)
        raw = search.choices(pool, hard, ace, mask)
    except _OverBudget:
        exact = False
        search = _BankerSearch(opponents, aces_high, exact=False, pool=pool)
        raw = search.choices(pool, hard, ace, mask)
    ranked = sorted(enumerate(raw), key=lambda item: (-round(item[1][2], 12), item[0]))
    return [BankerChoice(action, target, ev, exact) for _, (action, target, ev) in ranked]


# ---------------------------------------------------------------- the player's side


def _normalise(weights: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    total = sum(w for _, w in weights)
    return [(v, w / total) for v, w in weights if w > 0] if total > 0 else []


class _Policy:
    """The banker bot's choice against one player whose hidden total he believes is
    distributed as ``belief``: call or draw, by banker (hard, ace), frozen ``draws``."""

    def __init__(
        self,
        face_hard: int,
        face_ace: bool,
        belief: Sequence[tuple[int, float]],
        draws: Sequence[tuple[int, float]],
        aces_high: bool,
    ) -> None:
        self.totals = [
            (best_total(face_hard + v, face_ace or v == 1, aces_high), p) for v, p in belief
        ]
        self.draws = draws
        self.aces_high = aces_high
        self.values: dict[tuple[int, bool], tuple[float, bool]] = {}
        self.wins: dict[tuple[int, int, bool], float] = {}

    def evaluate(self, hard: int, ace: bool) -> tuple[float, bool]:
        """(the banker's expected result per chip, whether he calls) at (hard, ace)."""
        key = (hard, ace)
        found = self.values.get(key)
        if found is not None:
            return found
        total = best_total(hard, ace, self.aces_high)
        call = sum(p if t <= total else -p for t, p in self.totals)
        result = (call, True)
        if total < BLACKJACK_TOTAL:
            draw = 0.0
            for v, p in self.draws:
                if hard + v > BLACKJACK_TOTAL:
                    draw -= p
                else:
                    draw += p * self.evaluate(hard + v, ace or v == 1)[0]
            if draw > call:
                result = (draw, False)
        self.values[key] = result
        return result

    def player_wins(self, my_total: int, hard: int, ace: bool) -> float:
        """P(a player holding ``my_total`` beats this banker from (hard, ace))."""
        if hard > BLACKJACK_TOTAL:
            return 1.0
        key = (my_total, hard, ace)
        found = self.wins.get(key)
        if found is not None:
            return found
        if self.evaluate(hard, ace)[1]:
            win = 1.0 if my_total > best_total(hard, ace, self.aces_high) else 0.0
        else:
            win = sum(
                p * self.player_wins(my_total, hard + v, ace or v == 1) for v, p in self.draws
            )
        self.wins[key] = win
        return win


@dataclass(frozen=True, slots=True)
class PlayerChoices:
    """Expected result per chip bet of standing and of hitting (one-on-one model)."""

    stand: float
    hit: float

    @property
    def best(self) -> str:
        return "hit" if self.hit > self.stand else "stand"


class _PlayerModel:
    """A player's round against the one-on-one banker bot, composition frozen at the
    cards the player has not seen (one banker policy per face-up hand, shared by every
    banker hidden card)."""

    def __init__(
        self,
        hidden: int,
        up: int,
        pool: Pool,
        aces_high: bool,
        declares_21: bool,
        pays_double: bool,
        policy_pool: Pool | None = None,
        policies: dict[tuple[int, bool, bool], _Policy] | None = None,
    ) -> None:
        self.hidden = hidden
        self.up = up
        self.aces_high = aces_high
        self.declares_21 = declares_21
        self.pays_double = pays_double
        self.pool = pool
        size = sum(pool)
        self.draws = tuple((v, pool[v - 1] / size) for v in VALUES if pool[v - 1] > 0)
        # The banker's hidden card: no natural with his up card, since play goes on.
        self.banker_hidden = _normalise(
            [
                (b, float(pool[b - 1]))
                for b in VALUES
                if pool[b - 1] > 0 and best_total(b + up, b == 1 or up == 1, aces_high) != 21
            ]
        )
        # The banker's policy may be modelled on a slightly coarser composition, so that
        # models that differ only in the banker's up card share it (``bet_edges``).
        self.policy_pool = policy_pool or pool
        policy_size = sum(self.policy_pool)
        self.policy_draws = tuple(
            (v, self.policy_pool[v - 1] / policy_size)
            for v in VALUES
            if self.policy_pool[v - 1] > 0
        )
        self.policies = {} if policies is None else policies
        self.memo: dict[tuple[int, bool, bool], float] = {}

    def policy(self, face_hard: int, face_ace: bool, face_cards: int) -> _Policy:
        key = (face_hard, face_ace, face_cards == 1)
        policy = self.policies.get(key)
        if policy is None:
            allowed = allowed_hidden(
                face_hard, face_ace, face_cards + 1, self.declares_21, self.aces_high
            )
            # The banker does not see the player's hidden card: for him it is unseen too.
            weights = [(v, float(self.policy_pool[v - 1] + (v == self.hidden))) for v in allowed]
            policy = _Policy(
                face_hard, face_ace, _normalise(weights), self.policy_draws, self.aces_high
            )
            self.policies[key] = policy
        return policy

    def stand(self, face_hard: int, face_ace: bool, face_cards: int) -> float:
        my_total = best_total(face_hard + self.hidden, face_ace or self.hidden == 1, self.aces_high)
        policy = self.policy(face_hard, face_ace, face_cards)
        ev = 0.0
        for b, pb in self.banker_hidden:
            win = policy.player_wins(my_total, b + self.up, b == 1 or self.up == 1)
            ev += pb * (2 * win - 1)
        return ev

    def value(self, face_hard: int, face_ace: bool, face_cards: int) -> float:
        key = (face_hard, face_ace, face_cards == 1)
        if key not in self.memo:
            choices = self.choices(face_hard, face_ace, face_cards)
            self.memo[key] = max(choices.stand, choices.hit)
        return self.memo[key]

    def after_card(self, face_hard: int, face_ace: bool, face_cards: int) -> float:
        """Value once a card is added (forced stand at 21, declared 21, bust)."""
        hard = face_hard + self.hidden
        if hard > BLACKJACK_TOTAL:
            return -1.0
        total = best_total(hard, face_ace or self.hidden == 1, self.aces_high)
        if total == BLACKJACK_TOTAL:
            if face_cards == 1 and self.declares_21 and self.pays_double:
                return 2.0
            return self.stand(face_hard, face_ace, face_cards)
        return self.value(face_hard, face_ace, face_cards)

    def choices(self, face_hard: int, face_ace: bool, face_cards: int) -> PlayerChoices:
        stand = self.stand(face_hard, face_ace, face_cards)
        hit = sum(
            p * self.after_card(face_hard + v, face_ace or v == 1, face_cards + 1)
            for v, p in self.draws
        )
        return PlayerChoices(stand, hit)

    def turn(self) -> float:
        """Value at the start of the turn, before the face-up second card."""
        return sum(p * self.after_card(v, v == 1, 1) for v, p in self.draws)


def player_choices(
    hidden: Card,
    face_up: Sequence[Card],
    banker_up: Card,
    pool: Pool,
    aces_high: bool = True,
    declares_21: bool = False,
    pays_double: bool = False,
) -> PlayerChoices:
    """Expected result per chip of standing and hitting now.

    >>> from twentyone.cards import parse_cards
    >>> hidden, second, up = parse_cards("TS 9H 7D")
    >>> choice = player_choices(hidden, [second], up, pool_of([hidden, second, up]))
    >>> choice.best, choice.stand > 0
    ('stand', True)
    """
    model = _PlayerModel(hidden.value, banker_up.value, pool, aces_high, declares_21, pays_double)
    face_hard = sum(card.value for card in face_up)
    face_ace = any(card.is_ace for card in face_up)
    return model.choices(face_hard, face_ace, len(face_up))


@functools.lru_cache(maxsize=64)
def bet_edges(
    aces_high: bool, declares_21: bool, pays_double: bool, decks: int = 1
) -> tuple[float, ...]:
    """Expected result per chip bet, by hidden card value 1..10, with a fresh deck,
    before the banker's up card (a banker's natural takes the bet). The banker's policy is
    modelled on the deck less the hidden card (shared by every up card); the player's and
    the banker's cards are drawn from the deck less both."""
    edges = []
    for hidden in VALUES:
        pool = list(pool_of([], decks))
        pool[hidden - 1] -= 1
        size = sum(pool)
        policies: dict[tuple[int, bool, bool], _Policy] = {}
        edge = 0.0
        for up in VALUES:
            p_up = pool[up - 1] / size
            after_up = _take(tuple(pool), up)
            rest = sum(after_up)
            natural = sum(
                after_up[b - 1] / rest
                for b in VALUES
                if aces_high and best_total(b + up, b == 1 or up == 1, aces_high) == BLACKJACK_TOTAL
            )
            model = _PlayerModel(
                hidden, up, after_up, aces_high, declares_21, pays_double, tuple(pool), policies
            )
            edge += p_up * (-natural + (1 - natural) * model.turn())
        edges.append(edge)
    return tuple(edges)
