"""How the terminal tables look: cards with suit symbols in colour, totals, the session summary.

A terminal gets suit symbols in colour (spades and clubs plain, hearts and diamonds red) and
tens as ``10``; any other output (a pipe, a file, the tests' CliRunner) gets the cards as the
rest of the project writes them (``AS``, ``TH``), with no colour codes, so that transcripts and
scripts read the same as scenarios. Totals say what a hand is: ``soft 15``, ``BJ`` (a natural),
``BUST``.

>>> from twentyone.cards import parse_cards
>>> plain, fancy = Look(symbols=False), Look(symbols=True)
>>> plain.cards(parse_cards("AS TH"))
'AS TH'
>>> fancy.cards(parse_cards("AS TH"))
'A♠ [red]10♥[/red]'
>>> total_label(parse_cards("AS 4D")), total_label(parse_cards("AS KD"), natural=True)
('soft 15', 'BJ')
>>> total_label(parse_cards("TS 6D 8C")), total_label(parse_cards("TS 6D"))
('BUST', '16')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from twentyone.cards import Card
from twentyone.errors import TwentyOneError
from twentyone.hand import hand_value
from twentyone.tables.summary import SessionSummary

__all__ = ["PLAIN", "SUIT_SYMBOLS", "Look", "hand_summary", "summary_table", "total_label"]

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: The red suits (the others print in the terminal's own colour).
RED_SUITS = frozenset("HD")


@dataclass(frozen=True, slots=True)
class Look:
    """Suit symbols in colour (``symbols``), or the plain ``AS``/``TH`` of scenarios."""

    symbols: bool = False

    @classmethod
    def for_console(cls, console: Console) -> Look:
        """Symbols on a terminal that can print them; plain text anywhere else."""
        encoding = (console.encoding or "").lower().replace("-", "")
        return cls(symbols=console.is_terminal and encoding == "utf8")

    def card(self, card: Card | None) -> str:
        """One card as console markup (``??`` for a face-down card)."""
        if card is None:
            return "??"
        if not self.symbols:
            return str(card)
        rank = "10" if card.rank == "T" else card.rank
        text = rank + SUIT_SYMBOLS[card.suit]
        return f"[red]{text}[/red]" if card.suit in RED_SUITS else text

    def cards(self, cards: Iterable[Card | None]) -> str:
        return " ".join(self.card(card) for card in cards) or "-"

    def code(self, code: str) -> str:
        """A card given by its code (``7S``, as events carry them); other text as it is."""
        try:
            return self.card(Card.parse(code))
        except TwentyOneError:
            return code


#: The look of anything that is not a terminal (and the default of the rendering functions).
PLAIN = Look(symbols=False)


def total_label(cards: Sequence[Card], aces_high: bool = True, natural: bool = False) -> str:
    """A hand's total as the table says it: ``BJ``, ``BUST``, ``soft 15`` or ``15``."""
    if natural:
        return "BJ"
    value = hand_value(cards, aces_high)
    if value.bust:
        return "BUST"
    return f"soft {value.total}" if value.soft else str(value.total)


def hand_summary(cards: Sequence[Card], aces_high: bool = True, natural: bool = False) -> str:
    """A hand in a prompt: its ranks and total (``A,4 = soft 15``), the same on any output.

    >>> from twentyone.cards import parse_cards
    >>> hand_summary(parse_cards("AS 4D")), hand_summary(parse_cards("TS 6D"))
    ('A,4 = soft 15', '10,6 = 16')
    """
    ranks = ",".join("10" if card.rank == "T" else card.rank for card in cards)
    return f"{ranks} = {total_label(cards, aces_high, natural)}"


def summary_table(summary: SessionSummary, money: bool = True) -> Table:
    """The session's summary as a small table (``money``: minor units; else chips)."""

    def amount(value: int, signed: bool = True) -> str:
        from twentyone.money import format_money

        if not money:
            return f"{value:+d}" if signed else str(value)
        text = format_money(abs(value))
        return ("-" if value < 0 else "+" if signed and value > 0 else "") + text

    table = Table(title="Session summary", show_header=True, header_style="bold")
    for column in (summary.unit, "won", "lost", "pushed", "net", "biggest win"):
        table.add_column(column, justify="right")
    table.add_row(
        str(summary.rounds),
        str(summary.won),
        str(summary.lost),
        str(summary.pushed),
        amount(summary.net),
        amount(summary.biggest_win, signed=False),
    )
    return table
