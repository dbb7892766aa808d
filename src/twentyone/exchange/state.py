"""What the customers can see of an Exchange Blackjack game, and whether it could exist.

The JSON form is the input of ``twentyone exchange odds``::

    {"players": [["TS", "6H"], [...], [...], [...]], "dealer": ["7C"], "played": false}

Empty lists before round 1; ``played`` says whether the player hands have finished drawing.

>>> from twentyone.exchange.logic_table import load_logic_table
>>> state = ExchangeState.from_json(
...     {"players": [["TS", "6H"], ["9D", "9C"], ["AS", "KD"], ["5C", "2H"]],
...      "dealer": ["7C"], "played": False})
>>> state.open_round(load_logic_table())
2
>>> ExchangeState.from_json({"players": [[], [], []], "dealer": [], "played": False})
Traceback (most recent call last):
...
twentyone.exchange.state.InvalidStateError: an exchange state needs exactly 4 player hands, got 3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twentyone.cards import Card
from twentyone.errors import TwentyOneError, shown
from twentyone.exchange.certainty import all_decided
from twentyone.exchange.dealer import dealer_draws, dealer_reachable
from twentyone.exchange.hands import MAX_CARDS, HandState, final_code, state_of
from twentyone.exchange.logic_table import LogicTable

PLAYERS = 4
#: The longest text a card is parsed from (" 10h " and the like); longer is refused unread.
_LONGEST_CARD = 8


class InvalidStateError(TwentyOneError):
    """An exchange state is malformed or could not arise in a game."""


@dataclass(frozen=True)
class ExchangeState:
    """The cards face up: four player hands, the dealer's cards, and whether the players played."""

    players: tuple[tuple[Card, ...], ...]
    dealer: tuple[Card, ...]
    played: bool

    @classmethod
    def from_json(cls, data: Any) -> ExchangeState:
        if not isinstance(data, dict):
            raise InvalidStateError("an exchange state must be a JSON object")
        unknown = [key for key in data if key not in ("players", "dealer", "played")]
        if unknown:
            raise InvalidStateError(
                f"unknown key(s) in exchange state: {', '.join(sorted(map(_key_name, unknown)))}"
            )
        players = data.get("players")
        if not isinstance(players, list) or len(players) != PLAYERS:
            count = len(players) if isinstance(players, list) else "none"
            raise InvalidStateError(
                f"an exchange state needs exactly {PLAYERS} player hands, got {count}"
            )
        hands = tuple(_cards(hand, f"player {i + 1}") for i, hand in enumerate(players))
        dealer = _cards(data.get("dealer", []), "dealer")
        played = data.get("played", False)
        if not isinstance(played, bool):
            raise InvalidStateError(f"played must be true or false, got {shown(played)}")
        return cls(hands, dealer, played)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [[str(card) for card in hand] for hand in self.players],
            "dealer": [str(card) for card in self.dealer],
            "played": self.played,
        }

    @property
    def started(self) -> bool:
        """Whether the first nine cards are face up."""
        return bool(self.dealer)

    @property
    def shown(self) -> tuple[Card, ...]:
        return tuple(card for hand in self.players for card in hand) + self.dealer

    @property
    def up_value(self) -> int:
        return self.dealer[0].value

    def player_states(self) -> list[HandState]:
        return [state_of(hand) for hand in self.players]

    def dealer_state(self) -> HandState:
        return state_of(self.dealer)

    def validate(self, table: LogicTable) -> None:
        """Raise :class:`InvalidStateError` unless a game could show exactly these cards."""
        if len(self.players) != PLAYERS:
            raise InvalidStateError(
                f"an exchange state needs exactly {PLAYERS} player hands, got {len(self.players)}"
            )
        if not self.started:
            if any(self.players) or self.played:
                raise InvalidStateError(
                    "before round 1 nothing is shown: player hands must be empty, the dealer "
                    "must have no card and played must be false"
                )
            return
        for index, hand in enumerate(self.players, start=1):
            if len(hand) < 2:
                raise InvalidStateError(
                    f"player {index} must have at least 2 cards once the dealer's card is shown"
                )
            if not self.played and len(hand) != 2:
                raise InvalidStateError(
                    f"player {index} has {len(hand)} cards but the players have not played"
                    " (played is false): each hand has exactly 2"
                )
        if not self.played:
            if len(self.dealer) != 1:
                raise InvalidStateError(
                    f"the dealer shows {len(self.dealer)} cards before the players have played;"
                    " only the first card is shown then"
                )
            return
        up = self.up_value
        for index, hand in enumerate(self.players, start=1):
            _check_player(index, hand, up, table)
        self._check_dealer(table)

    def _check_dealer(self, table: LogicTable) -> None:
        finals = [frozenset({final_code(s)}) for s in self.player_states()]
        for count in range(1, len(self.dealer)):
            prefix = state_of(self.dealer[:count])
            if not dealer_draws(prefix):
                raise InvalidStateError(
                    f"the dealer stands at card {count} ({_describe(self.dealer[:count])}) and"
                    f" should not have drawn {self.dealer[count]}"
                )
            if all_decided(finals, dealer_reachable(prefix)):
                raise InvalidStateError(
                    f"every player hand was decided with the dealer on"
                    f" {_describe(self.dealer[:count])}: the game had ended before the dealer's"
                    f" card {count + 1} ({self.dealer[count]})"
                )

    def is_over(self, table: LogicTable) -> bool:
        """Whether the game has ended (every player hand decided, or the dealer finished)."""
        if not self.started:
            return False
        if not self.played:
            reach = [table.final_codes(s, self.up_value) for s in self.player_states()]
            return all_decided(reach, dealer_reachable(self.dealer_state()))
        dealer = self.dealer_state()
        if not dealer_draws(dealer):
            return True
        finals = [frozenset({final_code(s)}) for s in self.player_states()]
        return all_decided(finals, dealer_reachable(dealer))

    def open_round(self, table: LogicTable) -> int | None:
        """The betting round open now (1 to 6), or ``None`` when the game is over."""
        if self.is_over(table):
            return None
        if not self.started:
            return 1
        if not self.played:
            return 2
        return 2 + len(self.dealer)


def _check_player(index: int, hand: tuple[Card, ...], up: int, table: LogicTable) -> None:
    for count in range(2, len(hand)):
        if not table.hits(state_of(hand[:count]), up):
            raise InvalidStateError(
                f"player {index} stands on {_describe(hand[:count])} by the logic table and"
                f" should not have drawn {hand[count]}"
            )
    if table.hits(state_of(hand), up):
        raise InvalidStateError(
            f"player {index} hits {_describe(hand)} by the logic table, so it has not finished"
            " drawing (played is true)"
        )


def _describe(cards: tuple[Card, ...]) -> str:
    return " ".join(str(card) for card in cards)


def _key_name(key: object) -> str:
    return key if isinstance(key, str) and len(key) <= 40 else shown(key)


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidStateError(f'{where} cards must be a list like ["TS", "6H"]')
    if len(value) > MAX_CARDS:
        # No hand, the dealer's included, ever holds more (and validation is quadratic in it).
        raise InvalidStateError(f"{where} has {len(value)} cards; a hand holds at most {MAX_CARDS}")
    cards = []
    for item in value:
        if not isinstance(item, str) or len(item) > _LONGEST_CARD:
            raise InvalidStateError(f"{where}: unknown card {shown(item)} (a card is like 'AS')")
        try:
            cards.append(Card.parse(item))
        except TwentyOneError as error:
            raise InvalidStateError(f"{where}: {error}") from None
    return tuple(cards)
