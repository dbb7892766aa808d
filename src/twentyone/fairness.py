"""Provably fair dealing: the published algorithm of ``spec/platform.md`` (decided).

Before a round the server draws a secret *server seed* (32 bytes from :mod:`secrets`, written as
64 lowercase hex digits) and publishes its *commitment*, the SHA-256 of that text. The player
chooses a *client seed*; the *nonce* counts his rounds under it. The cards then follow from the
three with no other randomness:

- the **byte stream** is ``HMAC-SHA256(key=seed, msg=f"{client_seed}:{nonce}:{i}")`` for
  ``i = 0, 1, 2, ...``, concatenated (the common crypto-casino stream, so its public tools can
  check the bytes);
- ``randbelow(n)`` takes the next 4 bytes as a big-endian ``u`` and rejects
  ``u >= 2**32 - 2**32 % n`` (so every result is exactly equally likely), else gives ``u % n``;
- a shoe of ``D`` decks starts in the **canonical order** (deck by deck, suits S H D C, ranks
  A 2 .. 9 T J Q K) and is shuffled by **Fisher-Yates** from the top index down; an infinite
  deck gives each card as ``canonical[randbelow(52)]``.

After settlement the seed is revealed in the round's :class:`FairnessRecord`, and anyone can
recompute the cards (``twentyone verify``).

>>> seed = "00" * 32
>>> commitment(seed)
'60e05bd1b195af2f94112fa7197a5c88289058840ce7c6df9693756bc6250f55'
>>> [str(card) for card in shuffled_shoe(seed, "abc", 0, 6)[:4]]
['9D', '2H', '8S', '3H']
>>> record = FairnessRecord.of_shoe(seed, "abc", 0, 6, 4)
>>> verify_record(record)
>>> verify_record(FairnessRecord.from_json({**record.to_json(), "cards": ["9D", "2H", "8S", "3S"]}))
Traceback (most recent call last):
...
twentyone.fairness.CardMismatchError: card 4 (index 3, shoe position 3) is 3S in the record but the seeds give 3H
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from twentyone.cards import DECK, Card
from twentyone.errors import TwentyOneError

__all__ = [
    "CLIENT_SEED_MAX",
    "CardMismatchError",
    "CommitmentMismatchError",
    "FairSource",
    "FairnessError",
    "FairnessRecord",
    "VerificationError",
    "byte_stream",
    "check_client_seed",
    "check_nonce",
    "check_server_seed",
    "commitment",
    "expected_cards",
    "infinite_cards",
    "new_client_seed",
    "new_server_seed",
    "shuffled_shoe",
    "verify_record",
]

#: The longest client seed (characters, each from space to tilde).
CLIENT_SEED_MAX = 64
_TWO_32 = 1 << 32
_HEX = frozenset("0123456789abcdef")


class FairnessError(TwentyOneError):
    """A seed, nonce or record is malformed (bad input, not a failed verification)."""


class VerificationError(FairnessError):
    """A well-formed record does not verify: its commitment or a card does not match."""


class CommitmentMismatchError(VerificationError):
    """The revealed server seed does not hash to the published commitment."""


class CardMismatchError(VerificationError):
    """A card in the record is not the card the seeds give at that position."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        #: 0-based index into the record's ``cards`` of the first card that differs.
        self.index = index


# ----------------------------------------------------------------------------- seeds
def new_server_seed() -> str:
    """A fresh server seed: 32 bytes from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """The random default client seed a player has until he sets his own (16 hex digits)."""
    return secrets.token_hex(8)


def commitment(server_seed: str) -> str:
    """The lowercase hex SHA-256 of the seed text: published before the round."""
    check_server_seed(server_seed)
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def check_server_seed(server_seed: object) -> str:
    """Raise :class:`FairnessError` unless ``server_seed`` is 64 lowercase hex digits.

    >>> check_server_seed("AB" * 32)
    Traceback (most recent call last):
    ...
    twentyone.fairness.FairnessError: a server seed is 64 lowercase hex digits, got 'ABABABABABABABAB...' (64 characters)
    """
    if (
        not isinstance(server_seed, str)
        or len(server_seed) != 64
        or not _HEX.issuperset(server_seed)
    ):
        shown = (
            f"{server_seed[:16] + '...'!r} ({len(server_seed)} characters)"
            if isinstance(server_seed, str) and len(server_seed) > 16
            else repr(server_seed)
        )
        raise FairnessError(f"a server seed is 64 lowercase hex digits, got {shown}")
    return server_seed


def check_client_seed(client_seed: object) -> str:
    """Raise :class:`FairnessError` unless ``client_seed`` is 1-64 characters from space to tilde.

    >>> check_client_seed("my lucky seed")
    'my lucky seed'
    >>> check_client_seed("")
    Traceback (most recent call last):
    ...
    twentyone.fairness.FairnessError: a client seed is 1 to 64 characters from space to '~', got ''
    """
    if (
        not isinstance(client_seed, str)
        or not 1 <= len(client_seed) <= CLIENT_SEED_MAX
        or any(not " " <= char <= "~" for char in client_seed)
    ):
        raise FairnessError(
            f"a client seed is 1 to {CLIENT_SEED_MAX} characters from space to '~',"
            f" got {client_seed!r}"
        )
    return client_seed


def check_nonce(nonce: object) -> int:
    """Raise :class:`FairnessError` unless ``nonce`` is a whole number >= 0 (not a bool)."""
    if type(nonce) is not int or nonce < 0:
        raise FairnessError(f"a nonce is a whole number >= 0, got {nonce!r}")
    return nonce


# ----------------------------------------------------------------------- the stream
def byte_stream(server_seed: str, client_seed: str, nonce: int) -> Iterator[bytes]:
    """The HMAC-SHA256 blocks of the stream, in order (32 bytes each, without end).

    >>> next(byte_stream("00" * 32, "abc", 0)).hex()[:16]
    'e0f6ad7d0f7e648b'
    """
    key = check_server_seed(server_seed).encode("ascii")
    prefix = f"{check_client_seed(client_seed)}:{check_nonce(nonce)}:"
    index = 0
    while True:
        yield hmac.new(key, f"{prefix}{index}".encode(), hashlib.sha256).digest()
        index += 1


class FairSource:
    """A :class:`~twentyone.randomness.RandomSource` reading the provably fair byte stream.

    >>> source = FairSource("00" * 32, "abc", 0)
    >>> source.randbelow(312), source.randbelow(311)
    (213, 251)
    """

    __slots__ = ("_buffer", "_offset", "_stream")

    def __init__(self, server_seed: str, client_seed: str, nonce: int) -> None:
        self._stream = byte_stream(server_seed, client_seed, nonce)
        self._buffer = b""
        self._offset = 0

    def _next_u32(self) -> int:
        if self._offset + 4 > len(self._buffer):
            # 32-byte blocks hold eight whole 4-byte words: a word never spans two blocks.
            self._buffer = next(self._stream)
            self._offset = 0
        offset = self._offset
        self._offset = offset + 4
        return int.from_bytes(self._buffer[offset : offset + 4], "big")

    def randbelow(self, n: int) -> int:
        """An unbiased integer in ``[0, n)`` (``1 <= n <= 2**32``) by rejection sampling."""
        if type(n) is not int or not 1 <= n <= _TWO_32:
            raise FairnessError(f"randbelow needs a whole n from 1 to 2**32, got {n!r}")
        limit = _TWO_32 - _TWO_32 % n
        value = self._next_u32()
        while value >= limit:
            value = self._next_u32()
        return value % n


def _check_decks(decks: object) -> int:
    if type(decks) is not int or not 1 <= decks <= 64:
        raise FairnessError(f"decks must be a whole number from 1 to 64 (or null), got {decks!r}")
    return decks


def shuffled_shoe(server_seed: str, client_seed: str, nonce: int, decks: int) -> list[Card]:
    """The whole shoe of ``decks`` decks, from the top, as the seeds shuffle it."""
    cards = list(DECK) * _check_decks(decks)  # DECK is the canonical order: S H D C, A..K
    source = FairSource(server_seed, client_seed, nonce)
    for i in range(len(cards) - 1, 0, -1):
        j = source.randbelow(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def infinite_cards(server_seed: str, client_seed: str, nonce: int, count: int) -> list[Card]:
    """The first ``count`` cards of an infinite deck under these seeds."""
    if type(count) is not int or count < 0:
        raise FairnessError(f"a card count is a whole number >= 0, got {count!r}")
    source = FairSource(server_seed, client_seed, nonce)
    return [DECK[source.randbelow(52)] for _ in range(count)]


# ----------------------------------------------------------------------- the record
@dataclass(frozen=True, slots=True)
class FairnessRecord:
    """What a settled round reveals: the seeds, and the cards it dealt in dealing order."""

    server_seed: str
    commitment: str
    client_seed: str
    nonce: int
    #: Decks in the shoe; ``None`` for the infinite deck.
    decks: int | None
    #: Index in the shoe of the round's first card (0 except in Casino Blackjack).
    position: int
    cards: tuple[Card, ...]

    @classmethod
    def of_shoe(
        cls,
        server_seed: str,
        client_seed: str,
        nonce: int,
        decks: int | None,
        count: int,
        position: int = 0,
    ) -> FairnessRecord:
        """The record of a round that dealt ``count`` cards from ``position`` on."""
        if decks is None:
            cards = infinite_cards(server_seed, client_seed, nonce, position + count)
        else:
            cards = shuffled_shoe(server_seed, client_seed, nonce, decks)
        return cls(
            server_seed,
            commitment(server_seed),
            client_seed,
            nonce,
            decks,
            position,
            tuple(cards[position : position + count]),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "server_seed": self.server_seed,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": self.nonce,
            "decks": self.decks,
            "position": self.position,
            "cards": [str(card) for card in self.cards],
        }

    @classmethod
    def from_json(cls, data: object) -> FairnessRecord:
        """Read a record, checking every field's form; raise :class:`FairnessError` if malformed."""
        if not isinstance(data, Mapping):
            raise FairnessError("a fairness record is a JSON object")
        inner = data.get("fairness")
        if isinstance(inner, Mapping):
            data = inner  # a whole round as the API returns it
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise FairnessError(f"the record lacks {', '.join(missing)}")
        server_seed = check_server_seed(data["server_seed"])
        published = data["commitment"]
        if not isinstance(published, str):
            raise FairnessError(f"the commitment is a hex string, got {published!r}")
        decks = data["decks"]
        if decks is not None:
            _check_decks(decks)
        position = data["position"]
        if type(position) is not int or position < 0:
            raise FairnessError(f"position is a whole number >= 0, got {position!r}")
        raw_cards = data["cards"]
        if not isinstance(raw_cards, list) or not all(isinstance(c, str) for c in raw_cards):
            raise FairnessError("cards is a list of card strings like 'AS'")
        cards: list[Card] = []
        for index, text in enumerate(raw_cards):
            try:
                cards.append(Card.parse(text))
            except TwentyOneError as error:
                raise FairnessError(f"card {index + 1}: {error}") from None
        if decks is not None and position + len(cards) > 52 * decks:
            raise FairnessError(
                f"{len(cards)} cards from position {position} do not fit a {decks}-deck shoe"
            )
        return cls(
            server_seed,
            published,
            check_client_seed(data["client_seed"]),
            check_nonce(data["nonce"]),
            decks,
            position,
            tuple(cards),
        )


_FIELDS = ("server_seed", "commitment", "client_seed", "nonce", "decks", "position", "cards")


def expected_cards(record: FairnessRecord) -> list[Card]:
    """The cards the record's seeds give at its positions."""
    count = len(record.cards)
    if record.decks is None:
        cards = infinite_cards(
            record.server_seed, record.client_seed, record.nonce, record.position + count
        )
    else:
        cards = shuffled_shoe(record.server_seed, record.client_seed, record.nonce, record.decks)
    return cards[record.position : record.position + count]


def verify_record(record: FairnessRecord) -> None:
    """Check the commitment and every card; raise :class:`VerificationError` at the first fault."""
    actual = commitment(record.server_seed)
    if actual != record.commitment:
        raise CommitmentMismatchError(
            f"the server seed hashes to {actual}, not to the commitment {record.commitment}"
        )
    for index, (shown, wanted) in enumerate(zip(record.cards, expected_cards(record), strict=True)):
        if shown != wanted:
            raise CardMismatchError(
                f"card {index + 1} (index {index}, shoe position {record.position + index}) is"
                f" {shown} in the record but the seeds give {wanted}",
                index,
            )
