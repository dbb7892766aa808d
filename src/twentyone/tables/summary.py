"""A session's summary: rounds played, won, lost, pushed, the net and the biggest win.

Every game keeps the same summary: one entry per finished round (per game at the exchange),
counted by its net for the player (money in minor units, chips at Vinte-e-um). The trackers
subscribe to a runner's events, so the summary is the runner's own account of the session,
not the terminal's.

>>> summary = SessionSummary()
>>> for net in (1000, -500, 0, 2500):
...     summary.record(net)
>>> summary.rounds, summary.won, summary.lost, summary.pushed, summary.net, summary.biggest_win
(4, 2, 1, 1, 3000, 2500)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from twentyone.tables.listeners import TableEvent

if TYPE_CHECKING:
    from twentyone.tables.exchange import ExchangeRunner
    from twentyone.tables.house import HouseTable
    from twentyone.tables.vinte import VinteRunner

__all__ = ["SessionSummary", "track_exchange", "track_house", "track_vinte"]


@dataclass(slots=True)
class SessionSummary:
    """Counts of a session's finished rounds by their net for the player."""

    unit: str = "rounds"  # what one entry is: "rounds", or "games" at the exchange
    rounds: int = 0
    won: int = 0
    lost: int = 0
    pushed: int = 0
    net: int = 0
    biggest_win: int = 0  # the largest net of one round (0 if none was won)

    def record(self, net: int) -> None:
        """One finished round with ``net`` for the player."""
        self.rounds += 1
        self.net += net
        if net > 0:
            self.won += 1
            self.biggest_win = max(self.biggest_win, net)
        elif net < 0:
            self.lost += 1
        else:
            self.pushed += 1


def track_house(table: HouseTable) -> SessionSummary:
    """A summary kept from ``table``'s ``round-settled`` events from now on."""
    summary = SessionSummary()

    def on_event(event: TableEvent) -> None:
        if event.kind == "round-settled":
            summary.record(event.data["net"])

    table.subscribe(on_event)
    return summary


def track_vinte(runner: VinteRunner, seat: int) -> SessionSummary:
    """A summary of ``seat``'s rounds at ``runner``'s match: each finished round's change of
    the seat's chips (a round it sat out, with no chips, is not counted)."""
    summary = SessionSummary()
    stack = runner.state.seats[seat].stack
    finished = runner.state.rounds_played

    def on_event(event: TableEvent) -> None:
        nonlocal stack, finished
        state = runner.state
        if state.rounds_played > finished:
            finished = state.rounds_played
            now = state.seats[seat].stack
            if stack > 0:
                summary.record(now - stack)
            stack = now

    runner.subscribe(on_event)
    return summary


def track_exchange(runner: ExchangeRunner, customer: str) -> SessionSummary:
    """A summary of ``customer``'s games at ``runner``'s exchange table: each settled game's
    change of the customer's ledger balance (commission included)."""
    summary = SessionSummary(unit="games")
    before = runner.ledger.balance(customer)

    def on_event(event: TableEvent) -> None:
        nonlocal before
        if event.kind == "game-started":
            before = runner.ledger.balance(customer)
        elif event.kind == "game-settled":
            summary.record(runner.ledger.balance(customer) - before)

    runner.subscribe(on_event)
    return summary
