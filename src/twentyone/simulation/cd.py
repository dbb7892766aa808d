"""Composition-dependent (CD) play: the best move for every hand composition and up card.

The exact analysis values every option of a hand given its cards and the up card
(:func:`twentyone.analysis.hand_ev.hand_ev`, full shoe less those cards). A
:class:`CompositionStrategy` holds, for each composition that has a decision (two or more
cards, best total under 21; hard hands of 11 or less with three or more cards always hit), a
chart code for each up card: ``H``, ``S``, ``Dh``/``Ds`` (double, else hit/stand), ``Rh``/``Rs``
(surrender, else hit/stand). Pairs are split by the pair rows of the chart the run plays
(basic strategy), as the analysis's own CD play splits by its pair strategy; a pair not split
plays its composition. Split hands play the same composition table (CDZ-: zero memory of the
split), with double as the rules allow after a split and no surrender.

The kernels look codes up in O(1): a hand keeps the node of its composition, and adding a card
of value ``v`` moves it to ``child[node, v]`` (:meth:`CompositionStrategy.encode`).

Computing a strategy costs one ``hand_ev`` call per composition and up card (about 23,000 for
a 6-deck shoe, a few minutes), so the presets' strategies ship as data
(``data/cd_<preset>.json``); :func:`cd_strategy` loads the one whose playing rules match and
computes any other.

>>> from twentyone.presets import ONLINE
>>> strategy = cd_strategy(ONLINE)
>>> strategy.code((10, 6), 10), strategy.code((2, 4, 10), 10), strategy.code((2, 3, 4), 5)
('H', 'S', 'H')
>>> strategy.decide([10, 2, 4], 10, can_double=False, can_surrender=False)
'stand'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from twentyone import hand
from twentyone.rules import PLAYING_RULE_KEYS, Rules
from twentyone.simulation.encoding import CODE_NUMBERS
from twentyone.simulation.errors import SimulationError

FORMAT = "twentyone-cd-strategy/1"
#: Shipped strategies: ``data/cd_<name>.json``.
SHIPPED = ("casino", "online")
_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T")  # by card value 1..10
_HAND_CODES = ("H", "S", "Dh", "Ds", "Rh", "Rs")

Composition = tuple[int, ...]  # card values 1..10, sorted


class CDStrategyError(SimulationError):
    """A composition-dependent strategy is malformed or was made for other rules."""


def playing_rules(rules: Rules) -> dict[str, Any]:
    """The rules that decide the best moves (the scenario's playing rules)."""
    data = rules.to_json()
    return {key: data[key] for key in PLAYING_RULE_KEYS}


def compositions(max_hard: int = 21) -> Iterator[Composition]:
    """Every composition of two or more cards with a hard total up to ``max_hard``.

    >>> sum(1 for _ in compositions())
    3072
    """

    def extend(start: int, hard: int, cards: Composition) -> Iterator[Composition]:
        if len(cards) >= 2:
            yield cards
        for value in range(start, 11):
            if hard + value <= max_hard:
                yield from extend(value, hard + value, (*cards, value))

    yield from extend(1, 0, ())


def best_total(cards: Composition) -> int:
    """The best total of a composition (:func:`twentyone.hand.best_total`)."""
    return hand.best_total(sum(cards), 1 in cards)


def needs_decision(cards: Composition) -> bool:
    """Whether a composition's move is not obvious: under 21, and not a hard hand of 11 or
    less with three or more cards (drawing cannot bust it, so it hits)."""
    if best_total(cards) >= 21:
        return False
    return len(cards) == 2 or sum(cards) >= 12 or 1 in cards


@dataclass(frozen=True)
class CompositionStrategy:
    """Chart codes by composition and up card (``codes[cards][up - 1]``, up 1 = ace)."""

    rules: Mapping[str, Any]  # playing rules (playing_rules()) it was computed for
    codes: Mapping[Composition, tuple[str, ...]]
    source: str = "composition-dependent play (exact analysis, full shoe)"
    # encode()'s tables, built once (every traced round and every run encodes the strategy).
    _tables: list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for cards, row in self.codes.items():
            if len(row) != 10 or any(code not in _HAND_CODES for code in row):
                raise CDStrategyError(f"hand {cards}: ten codes of {_HAND_CODES} expected")
            if sorted(cards) != list(cards) or not all(1 <= value <= 10 for value in cards):
                raise CDStrategyError(f"hand {cards}: sorted card values 1..10 expected")

    def check_rules(self, rules: Rules) -> None:
        """Raise unless the strategy was computed for ``rules``' playing rules."""
        if dict(self.rules) != playing_rules(rules):
            raise CDStrategyError("the composition-dependent strategy was computed for other rules")

    def code(self, cards: Composition, up: int) -> str:
        """The code of a hand (sorted values) against up card value ``up`` (1 = ace)."""
        row = self.codes.get(cards)
        return "H" if row is None else row[up - 1]

    def decide(self, values: list[int], up: int, can_double: bool, can_surrender: bool) -> str:
        """The move (``hit``, ``stand``, ``double``, ``surrender``) of a hand that is not split:
        the slow reference of the kernels' lookup."""
        code = self.code(tuple(sorted(values)), up)
        fallback = "stand" if code in ("S", "Ds", "Rs") else "hit"
        if code in ("Dh", "Ds"):
            return "double" if can_double else fallback
        if code in ("Rh", "Rs"):
            return "surrender" if can_surrender else fallback
        return fallback

    def encode(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
        """The kernels' tables: ``child[node, value]`` and ``codes[node, up]`` (node 0: no card).

        A card that busts the hand leads back to node 0, which the kernels never look up.
        """
        if not self._tables:
            self._tables.append(self._build_tables())
        return self._tables[0]

    def _build_tables(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int8]]:
        nodes: dict[Composition, int] = {(): 0}
        for value in range(1, 11):
            nodes[(value,)] = len(nodes)
        for cards in compositions():
            nodes[cards] = len(nodes)
        child = np.zeros((len(nodes), 11), dtype=np.int32)
        codes = np.zeros((len(nodes), 11), dtype=np.int8)
        for cards, node in nodes.items():
            for value in range(1, 11):
                grown = tuple(sorted((*cards, value)))
                child[node, value] = nodes.get(grown, 0)
            if len(cards) >= 2:
                for up in range(1, 11):
                    codes[node, up] = CODE_NUMBERS[self.code(cards, up)]
        return child, codes

    def to_json(self) -> dict[str, Any]:
        hands = {
            ",".join(_LABELS[value] for value in cards): list(row)
            for cards, row in sorted(self.codes.items())
        }
        return {
            "format": FORMAT,
            "source": self.source,
            "rules": dict(self.rules),
            "up_cards": list(_LABELS[1:]),  # the order of each hand's codes
            "hands": hands,
        }

    @classmethod
    def from_json(cls, data: Any) -> CompositionStrategy:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CDStrategyError(f"a CD strategy is a JSON object of format {FORMAT!r}")
        hands = data.get("hands")
        if data.get("up_cards", list(_LABELS[1:])) != list(_LABELS[1:]):
            raise CDStrategyError(f"a CD strategy's up cards are {', '.join(_LABELS[1:])}")
        if not isinstance(hands, dict) or not isinstance(data.get("rules"), dict):
            raise CDStrategyError("a CD strategy has 'rules' and 'hands' objects")
        codes: dict[Composition, tuple[str, ...]] = {}
        for text, row in hands.items():
            try:
                cards = tuple(_LABELS.index(label) for label in str(text).split(","))
            except ValueError:
                raise CDStrategyError(f"hand {text!r}: card labels A, 2..9, T expected") from None
            if not isinstance(row, list) or 0 in cards:
                raise CDStrategyError(f"hand {text!r}: a list of ten codes expected")
            codes[cards] = tuple(str(code) for code in row)
        return cls(data["rules"], codes, str(data.get("source", cls.source)))


def best_code(options: Mapping[str, float]) -> str:
    """The chart code of a hand's option values (split ignored: the pair rows decide it).

    >>> best_code({"stand": -0.5, "hit": -0.4, "double": -0.3})
    'Dh'
    >>> best_code({"stand": -0.54, "hit": -0.58, "surrender": -0.5})
    'Rs'
    """
    fallback = "H" if options.get("hit", -np.inf) > options["stand"] else "S"
    played = {name: value for name, value in options.items() if name != "split"}
    best = max(played, key=lambda name: played[name])
    if best == "double":
        return "D" + fallback.lower()
    if best == "surrender":
        return "R" + fallback.lower()
    return fallback


def compute_cd_strategy(
    rules: Rules, progress: Callable[[int, int], None] | None = None
) -> CompositionStrategy:
    """Ask the exact analysis for the best move of every composition against every up card.

    A composition the shoe cannot hold together with the up card (one deck: five aces) is
    left out for that up card; the kernels then hit it, which never happens in play.
    """
    from twentyone.analysis.hand_ev import hand_ev
    from twentyone.errors import InvalidCardError

    todo = [cards for cards in compositions() if needs_decision(cards)]
    codes: dict[Composition, tuple[str, ...]] = {}
    for done, cards in enumerate(todo):
        labels = [_LABELS[value] for value in cards]
        row = []
        for up in range(1, 11):
            try:
                options = hand_ev(rules, labels, _LABELS[up]).options
            except InvalidCardError:
                row.append("H")
                continue
            row.append(best_code(options))
        codes[cards] = tuple(row)
        if progress is not None:
            progress(done + 1, len(todo))
    return CompositionStrategy(playing_rules(rules), codes)


def shipped_strategy(name: str) -> CompositionStrategy:
    """A shipped strategy, ``data/cd_<name>.json``."""
    text = resources.files("twentyone").joinpath("data", f"cd_{name}.json").read_text("utf-8")
    return CompositionStrategy.from_json(json.loads(text))


def cd_strategy(rules: Rules) -> CompositionStrategy:
    """The CD strategy of ``rules``: a shipped one when its playing rules match, else computed
    (minutes)."""
    wanted = playing_rules(rules)
    for name in SHIPPED:
        try:
            strategy = shipped_strategy(name)
        except FileNotFoundError:
            continue
        if dict(strategy.rules) == wanted:
            return strategy
    return compute_cd_strategy(rules)


def main(argv: list[str] | None = None) -> None:
    """``python -m twentyone.simulation.cd PRESET FILE``: compute and write a preset's data."""
    import sys

    from twentyone.presets import preset

    args = sys.argv[1:] if argv is None else argv
    name, path = args
    strategy = compute_cd_strategy(preset(name))
    with open(path, "w", encoding="utf-8") as out:
        out.write(dumps(strategy))


def dumps(strategy: CompositionStrategy) -> str:
    """The data file's text: one line a hand (readable, and diffs show the changed hands)."""
    data = strategy.to_json()
    hands = data.pop("hands")
    head = json.dumps(data, indent=1)[:-2]
    lines = [f"{json.dumps(hand)}: {json.dumps(codes)}" for hand, codes in hands.items()]
    return head + ',\n "hands": {\n  ' + ",\n  ".join(lines) + "\n }\n}\n"


if __name__ == "__main__":
    main()
