"""Exchange Blackjack as a pure state machine: rounds, reveals and settlement.

The game holds no clock and draws no randomness of its own: cards come from an injected
shoe (an :class:`~twentyone.shoe.InfiniteShoe` at a live table, a
:class:`~twentyone.shoe.ScriptedShoe` in tests and replays), and the caller ends each betting
round (see :mod:`twentyone.exchange.schedule` for the timing). Cards are taken from the shoe
when they are turned: the four two-card player hands and the dealer's first card after round 1
(P1's two cards, P2's, P3's, P4's, then the dealer's), the players' draws in order P1..P4 after
round 2, then one dealer card after each later round.

>>> from twentyone.cards import parse_cards
>>> from twentyone.shoe import ScriptedShoe
>>> cards = parse_cards("TS 6H 9D 9C AS KD 5C 2H 7C TC 3D 8S QH")
>>> game = ExchangeGame(ScriptedShoe(cards))
>>> game.open_round
1
>>> [event.kind for event in game.end_round()]
['reveal']
>>> game.open_round, game.players[2], game.dealer
(2, (Card('AS'), Card('KD')), (Card('7C'),))
>>> while not game.over:
...     _ = game.end_round()
>>> {name: s.outcome.value for name, s in game.settlements.items()}["Player 3"]
'winner'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from twentyone.cards import Card
from twentyone.errors import IllegalActionError
from twentyone.exchange.dealer import dealer_draws
from twentyone.exchange.hands import state_of
from twentyone.exchange.logic_table import LogicTable, load_logic_table
from twentyone.exchange.selections import SELECTIONS, Settlement
from twentyone.exchange.settlement import certain_outcomes
from twentyone.exchange.state import PLAYERS, ExchangeState
from twentyone.shoe import Shoe

LAST_ROUND = 6


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the end of a betting round."""

    after_round: int
    kind: str  # "reveal", "settle" or "end"
    cards: tuple[tuple[str, Card], ...] = ()  # (hand name, card) in the order turned
    settled: tuple[Settlement, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"after_round": self.after_round, "kind": self.kind}
        if self.cards:
            out["cards"] = [{"hand": hand, "card": str(card)} for hand, card in self.cards]
        if self.settled:
            out["settled"] = {s.selection: s.outcome.value for s in self.settled}
        return out


@dataclass
class ExchangeGame:
    """One game: four player hands and the dealer, up to six betting rounds."""

    shoe: Shoe
    table: LogicTable = field(default_factory=load_logic_table)
    players: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    dealer: tuple[Card, ...] = ()
    played: bool = False
    open_round: int | None = 1
    settlements: dict[str, Settlement] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.shoe.start_round()

    @property
    def over(self) -> bool:
        return self.open_round is None

    def state(self) -> ExchangeState:
        """What the customers see now (the input of the odds)."""
        return ExchangeState(self.players, self.dealer, self.played)

    def open_selections(self) -> list[str]:
        """Selections still taking bets (not settled)."""
        return [name for name in SELECTIONS if name not in self.settlements]

    def end_round(self) -> list[Event]:
        """Close the open betting round: turn the next cards and settle what is now certain."""
        if self.open_round is None:
            raise IllegalActionError("the game is over: there is no betting round to end")
        closing = self.open_round
        turned: list[tuple[str, Card]] = []
        if closing == 1:
            hands: list[tuple[Card, ...]] = []
            for index in range(PLAYERS):
                first, second = self._draw(), self._draw()
                hands.append((first, second))
                turned += [(f"Player {index + 1}", first), (f"Player {index + 1}", second)]
            self.players = tuple(hands)
            self.dealer = (self._draw(),)
            turned.append(("Dealer", self.dealer[0]))
        elif closing == 2:
            up = self.dealer[0].value
            hands = []
            for index, hand in enumerate(self.players):
                while self.table.hits(state_of(hand), up):
                    card = self._draw()
                    hand = (*hand, card)
                    turned.append((f"Player {index + 1}", card))
                hands.append(hand)
            self.players = tuple(hands)
            self.played = True
        else:
            if not dealer_draws(state_of(self.dealer)):  # pragma: no cover (guarded by is_over)
                raise IllegalActionError("the dealer has finished drawing")
            card = self._draw()
            self.dealer = (*self.dealer, card)
            turned.append(("Dealer", card))
        new_events = [Event(closing, "reveal", tuple(turned))]
        state = self.state()
        settled = []
        for name, outcome in certain_outcomes(state, self.table).items():
            if name not in self.settlements:
                settlement = Settlement(name, outcome, closing)
                self.settlements[name] = settlement
                settled.append(settlement)
        if settled:
            new_events.append(Event(closing, "settle", settled=tuple(settled)))
        next_round = state.open_round(self.table)
        if next_round is None or closing == LAST_ROUND:
            missing = [name for name in SELECTIONS if name not in self.settlements]
            if missing:  # pragma: no cover (a finished game decides everything)
                raise AssertionError(f"game over with {missing} unsettled")
            self.open_round = None
            self.shoe.end_round()
            new_events.append(Event(closing, "end"))
        else:
            self.open_round = next_round
        self.events += new_events
        return new_events

    def play_out(self) -> list[Event]:
        """End every round in turn until the game is over."""
        while not self.over:
            self.end_round()
        return list(self.events)

    def _draw(self) -> Card:
        return self.shoe.draw()
