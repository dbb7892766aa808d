"""The server's settings and its injected pieces (clock, password hasher, seed source)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from twentyone.cards import Card
from twentyone.clock import Clock
from twentyone.fairness import new_client_seed, new_server_seed
from twentyone.storage.db import DEFAULT_URL


class WallClock:
    """Seconds since the epoch: stored times and the top-up limit must survive a restart
    (``twentyone.clock.SystemClock`` is monotonic, which does not)."""

    def now(self) -> float:
        return time.time()


def default_hasher() -> PasswordHash:
    """Argon2id with the library's recommended parameters (pwdlib)."""
    return PasswordHash((Argon2Hasher(),))


def fast_hasher() -> PasswordHash:
    """Argon2id at its cheapest settings: for tests only, where hundreds of accounts are made."""
    return PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))


class CardScript:
    """Test-only card injection: cards to deal instead of the seeded shoe, per table.

    Each :meth:`push` queues one deck order (a round's cards for Online, a shoe's top cards
    for a Casino table, a round's deck for a Vinte-e-um table); the table takes the oldest with
    :meth:`take` when it next deals or shuffles. Only Python code can make one: ``twentyone
    serve`` has no option, setting or environment variable that creates it, so a production
    server always deals from the seeded CSPRNG (``ServerConfig.card_script`` is None).

    >>> from twentyone.cards import parse_cards
    >>> script = CardScript()
    >>> script.push("online", parse_cards("AS TD"))
    >>> [str(card) for card in script.take("online") or []], script.take("online")
    (['AS', 'TD'], None)
    """

    def __init__(self) -> None:
        self._queues: dict[str, list[list[Card]]] = {}

    def push(self, table: str, cards: Sequence[Card]) -> None:
        self._queues.setdefault(table, []).append(list(cards))

    def take(self, table: str) -> list[Card] | None:
        queue = self._queues.get(table)
        return queue.pop(0) if queue else None


@dataclass
class ServerConfig:
    db_url: str = DEFAULT_URL
    #: PostgreSQL schema for every table (tests isolate themselves with it); None: the default.
    db_schema: str | None = None
    clock: Clock = field(default_factory=WallClock)
    hasher: PasswordHash = field(default_factory=default_hasher)
    #: Where server seeds come from: the CSPRNG. Tests may pass a reproducible source.
    server_seeds: Callable[[], str] = new_server_seed
    client_seeds: Callable[[], str] = new_client_seed
    #: Play money given to a new account and by each top-up (minor units).
    grant: int = 100_000
    topup: int = 100_000
    #: A top-up is allowed once per this many seconds.
    topup_interval: float = 3600.0
    #: Session cookie lifetime (seconds) and whether it is marked Secure (behind HTTPS).
    session_seconds: float = 30 * 24 * 3600.0
    secure_cookies: bool = False
    #: Run start-up recovery (replay every open round, void what cannot be replayed).
    recover_at_start: bool = True
    #: Processes of the analysis worker (exact analysis and simulations off the event loop).
    analysis_processes: int = 1
    #: Test-only card injection (see :class:`CardScript`); also enables ``/api/test/...``.
    card_script: CardScript | None = None
    #: Exchange tables: what the house market maker may risk on one game (minor units).
    exchange_maker_cap: int = 500_000
    #: Exchange tables: the fair prices quoted at each round's open (None: the exact odds,
    #: worked out off the event loop). Tests pass a cheap function of the shown cards.
    exchange_fair_prices: Callable[[Any], Any] | None = None
