"""Vinte-e-um's fairness scheme and hint, without the server around them (docs/vinte-live.md).

One server seed per round. The deck is the platform's shuffle of the seed (``shuffled_shoe``
with the table's client seed and the round number as nonce). Before the deal the players get the
seed's commitment and, for every deck position ``i``, ``SHA-256("{salt_i}:{i}:{card_i}")`` where
``salt_i = HMAC-SHA256(server_seed, "vinte-salt:{i}")``. After the round each seat gets the salts
of the positions it was shown, and checks those cards against the hashes without learning any
other card; the seed itself is for the operator only (it would give every hidden card).

>>> seed = "00" * 32
>>> deck, scripted = round_deck(seed, "abc", 1, 1)
>>> len(deck), scripted, [str(card) for card in deck[:3]] == [str(c) for c in
...     shuffled_shoe(seed, "abc", 1, 1)[:3]]
(52, False, True)
>>> hashes = position_hashes(seed, deck)
>>> check_revealed(hashes, [{"position": 0, "card": str(deck[0]), "salt": salt(seed, 0)}])
>>> check_revealed(hashes, [{"position": 0, "card": str(deck[1]), "salt": salt(seed, 0)}])
Traceback (most recent call last):
...
twentyone.fairness.CardMismatchError: position 0: the salted hash of the card shown does not match the one committed before the deal
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from twentyone.analysis.vinte.bots import VinteBot, pool_from_view
from twentyone.analysis.vinte.search import (
    Opponent,
    allowed_hidden,
    banker_choices,
    bet_edges,
    player_choices,
)
from twentyone.analysis.vinte.search import stand_likelihoods as likelihoods
from twentyone.cards import Card
from twentyone.fairness import CardMismatchError, FairSource, shuffled_shoe
from twentyone.vinte.game import Bet, Phase, RoundState, Stand, Status
from twentyone.vinte.views import SeatView

__all__ = [
    "Position",
    "check_revealed",
    "first_banker",
    "position_hash",
    "position_hashes",
    "positions",
    "revealed_for",
    "round_deck",
    "salt",
    "vinte_hint",
]

#: Event kinds that deal one card each, in dealing order (so the n-th is deck position n).
CARD_EVENTS = ("hidden-card", "up-card", "card", "draw")


def salt(server_seed: str, position: int) -> str:
    """The salt of one deck position: 64 hex digits, derived from the round's seed."""
    key = server_seed.encode("ascii")
    return hmac.new(key, f"vinte-salt:{position}".encode(), hashlib.sha256).hexdigest()


def position_hash(salt_hex: str, position: int, card: str) -> str:
    """``SHA-256("{salt}:{position}:{card}")`` as hex: what is committed for one position."""
    return hashlib.sha256(f"{salt_hex}:{position}:{card}".encode()).hexdigest()


def position_hashes(server_seed: str, deck: Sequence[Card]) -> list[str]:
    """The committed hash of every position of the round's deck (top first)."""
    return [
        position_hash(salt(server_seed, index), index, str(card)) for index, card in enumerate(deck)
    ]


def round_deck(
    server_seed: str,
    client_seed: str,
    nonce: int,
    decks: int,
    top: Sequence[Card] | None = None,
) -> tuple[list[Card], bool]:
    """The round's deck, and whether test-only injection put ``top`` on it (then the rest is
    the seeded deck less those cards, once each, in its order)."""
    deck = shuffled_shoe(server_seed, client_seed, nonce, decks)
    if not top:
        return deck, False
    rest: Counter[Card] = Counter(top)
    remaining = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
        else:
            remaining.append(card)
    return [*top, *remaining], True


def first_banker(server_seed: str, client_seed: str, seats: int) -> int:
    """The drawn first banker: ``randbelow(seats)`` of round 1's stream under nonce 0."""
    return FairSource(server_seed, client_seed, 0).randbelow(seats)


@dataclass(frozen=True, slots=True)
class Position:
    """One dealt card: its deck position, whose it is, and whether it was dealt face down."""

    position: int
    card: str
    seat: int
    hidden: bool
    shown: bool

    def visible_to(self, viewer: int | None) -> bool:
        return not self.hidden or self.shown or viewer == self.seat


def positions(current: RoundState) -> list[Position]:
    """Every card the round dealt, by deck position, from its events and final hands."""
    shown = {hand.seat: hand.shown for hand in current.hands}
    out: list[Position] = []
    for event in current.events:
        if event.kind not in CARD_EVENTS:
            continue
        index = len(out)
        seat = event.seat if event.seat is not None else current.banker
        hidden = event.kind == "hidden-card"
        if hidden:
            was_shown = current.banker_shown if seat == current.banker else shown.get(seat, False)
        else:
            was_shown = True
        out.append(Position(index, str(current.deck[index]), seat, hidden, was_shown))
    return out


def revealed_for(
    server_seed: str, dealt: Sequence[Position], viewer: int | None, operator: bool = False
) -> list[dict[str, Any]]:
    """The positions ``viewer`` was shown (every one for the operator), with their salts."""
    return [
        {"position": p.position, "card": p.card, "salt": salt(server_seed, p.position)}
        for p in dealt
        if operator or p.visible_to(viewer)
    ]


def check_revealed(hashes: Sequence[str], revealed: Sequence[Mapping[str, Any]]) -> None:
    """What a player's check does: every card shown matches its position's committed hash."""
    for item in revealed:
        position = int(item["position"])
        if not 0 <= position < len(hashes) or hashes[position] != position_hash(
            str(item["salt"]), position, str(item["card"])
        ):
            raise CardMismatchError(
                f"position {position}: the salted hash of the card shown does not match the"
                " one committed before the deal",
                position,
            )


# ------------------------------------------------------------------------------ the hint
def vinte_hint(view: SeatView) -> dict[str, Any]:
    """The standard bot's choice for ``view``'s pending decision, with its expected value.

    Runs in the analysis worker (the banker's exact search may take a while). ``view`` is the
    seat's own :class:`~twentyone.vinte.views.SeatView`: the hint knows only what the seat knows.
    ``ev``: expected chips this round (a bet: per chip bet); ``win_chance``: for hit/stand, the
    chance to win the bet (outcomes are +1 or -1 chip per chip, so it is (1 + ev) / 2).
    """
    bot = VinteBot(read_stands=True)
    seat = view.viewer
    if seat is None or seat not in view.to_act:
        raise ValueError("a hint is for a seat's own pending decision")
    if view.phase is Phase.BANKER:
        # The same search the bot runs, every choice kept (the bot keeps only the best).
        ranked = _banker_ranking(bot, view)
        best = ranked[0]
        out: dict[str, Any] = {"action": best["action"], "ev": best["ev"], "choices": ranked}
        if best["action"] == "call":
            out["target"] = best["target"]
            out["win_chance"] = best["win_chance"]
        return out
    action = bot.decide(view)
    if view.phase is Phase.BETTING:
        hidden = view.hand(seat).cards[0]
        assert hidden is not None  # a seat sees its own hidden card
        settings = view.table.settings
        edges = bet_edges(
            view.table.rules.aces_high,
            settings.declares_21,
            settings.player_21_pays_double,
            view.table.rules.decks or 1,
        )
        assert isinstance(action, Bet)
        return {
            "action": "bet",
            "chips": action.chips,
            "ev": edges[hidden.value - 1],
            "choices": [],
        }
    if view.phase is Phase.PLAYERS:
        hand = view.hand(seat)
        settings = view.table.settings
        hidden, up = hand.cards[0], view.banker_cards[1]
        assert hidden is not None and up is not None  # his own card, and the face-up one
        choice = player_choices(
            hidden,
            hand.face_up,
            up,
            pool_from_view(view),
            view.table.rules.aces_high,
            settings.declares_21,
            settings.player_21_pays_double,
        )
        name = "stand" if isinstance(action, Stand) else "hit"
        ev = choice.stand if name == "stand" else choice.hit
        return {
            "action": name,
            "ev": ev,
            "win_chance": max(0.0, min(1.0, (1 + ev) / 2)),
            "choices": [
                {"action": "hit", "ev": choice.hit},
                {"action": "stand", "ev": choice.stand},
            ],
        }
    raise AssertionError(f"no decision in the {view.phase.value} phase")


def _banker_ranking(bot: VinteBot, view: SeatView) -> list[dict[str, Any]]:
    """Every banker choice with its expected chips, best first (the bot's own search)."""
    aces_high = view.table.rules.aces_high
    declares = view.table.settings.declares_21
    opponents = []
    for hand in view.hands:
        if hand.status is not Status.STOOD:
            continue
        face = hand.face_up
        hard = sum(card.value for card in face)
        ace = any(card.is_ace for card in face)
        allowed = allowed_hidden(hard, ace, len(hand.cards), declares, aces_high)
        first = hand.cards[0]
        known = first.value if first is not None else None
        weights = None
        if known is None:
            weights = likelihoods(
                [card.value for card in face], allowed, aces_high, bot.stand_from, bot.stand_noise
            )
        opponents.append(Opponent(hand.seat, hard, ace, hand.bet or 0, allowed, known, weights))
    values = [card.value for card in view.banker_cards if card is not None]
    pool = pool_from_view(view)
    choices = banker_choices(values, opponents, pool, aces_high, bot.exact_budget)
    banker_total = view.total(tuple(card for card in view.banker_cards if card is not None))
    by_seat = {opponent.seat: opponent for opponent in opponents}
    ranked = []
    for choice in choices:
        item: dict[str, Any] = {
            "action": choice.action,
            "target": choice.target,
            "ev": choice.ev,
            "exact": choice.exact,
        }
        if choice.target is not None:
            item["win_chance"] = _call_wins(by_seat[choice.target], banker_total, pool, aces_high)
        ranked.append(item)
    return ranked


def _call_wins(opponent: Opponent, banker: int, pool: Sequence[int], aces_high: bool) -> float:
    """The chance that the banker wins a call of ``opponent`` now (a tie is the bank's): his
    hidden card weighed by the unseen cards of each value and, as the bot reads stands, by how
    likely his play was with it."""
    if opponent.known is not None:
        return 1.0 if opponent.total(opponent.known, aces_high) <= banker else 0.0
    weights = {v: pool[v - 1] * opponent.weight(v) for v in opponent.allowed}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    won = sum(w for v, w in weights.items() if opponent.total(v, aces_high) <= banker)
    return won / total
