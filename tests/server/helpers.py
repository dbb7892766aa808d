"""Test helpers: steering the next round's cards through its committed seed."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from twentyone.cards import Card
from twentyone.fairness import commitment, shuffled_shoe
from twentyone.storage.models import FairnessSeed, User


def find_seed(client_seed: str, nonce: int, wanted: Callable[[list[Card]], bool]) -> str:
    """A server seed whose 6-deck shoe (under these client seed and nonce) satisfies ``wanted``."""
    for index in itertools.count(secrets.randbelow(2**200)):  # never a seed used before
        seed = f"{index:064x}"
        if wanted(shuffled_shoe(seed, client_seed, nonce, 6)):
            return seed
    raise AssertionError("unreachable")


async def steer_next_round(
    server: Any, name: str, wanted: Callable[[list[Card]], bool]
) -> list[Card]:
    """Replace the player's committed next seed by one that deals what ``wanted`` asks.

    The deal order of one box: player, dealer up, player, dealer hole, then draws.
    """
    async with server.write() as session:
        user = await session.scalar(select(User).where(User.name_key == name.casefold()))
        assert user is not None
        pending = await session.scalar(
            select(FairnessSeed).where(
                FairnessSeed.user_id == user.id, FairnessSeed.used_at.is_(None)
            )
        )
        seed = find_seed(user.client_seed, user.nonce, wanted)
        if pending is None:
            session.add(
                FairnessSeed(
                    user_id=user.id, server_seed=seed, commitment=commitment(seed), created_at=0.0
                )
            )
        else:
            pending.server_seed, pending.commitment = seed, commitment(seed)
        return shuffled_shoe(seed, user.client_seed, user.nonce, 6)


def no_dealer_blackjack_or_ace(shoe: list[Card]) -> bool:
    """A deal where the player must decide: no ace or ten up, no player blackjack."""
    player = {shoe[0].value, shoe[2].value}
    return shoe[1].value not in (1, 10) and player != {1, 10}
