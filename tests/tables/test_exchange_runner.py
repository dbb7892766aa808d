"""The exchange table runner: betting windows on an injected clock, orders, the ledger."""

from __future__ import annotations

import pytest

from twentyone.clock import ManualClock
from twentyone.exchange.schedule import TURBO
from twentyone.ledger import AccountKind, Ledger
from twentyone.market.errors import CancelRejectedError, OffLadderError
from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import InfiniteShoe
from twentyone.tables.errors import TableStateError
from twentyone.tables.exchange import ExchangeRunner, WindowPhase
from twentyone.tables.listeners import TableEvent


def runner(seed: int = 3, clock: ManualClock | None = None, maker: bool = True) -> ExchangeRunner:
    source = SeededRandomSource(seed)
    table = ExchangeRunner(
        Ledger(),
        lambda game: InfiniteShoe(source),
        clock=clock,
        schedule=TURBO,
        market_maker=MarketMaker() if maker else None,
    )
    table.open_account("ann", 500_00)
    table.open_account("bob", 500_00)
    table.open_account(MARKET_MAKER_ACCOUNT, 100_000_00, AccountKind.HOUSE)
    return table


def test_windows_open_and_close_on_the_clock() -> None:
    clock = ManualClock()
    table = runner(clock=clock)
    seen: list[TableEvent] = []
    table.subscribe(seen.append)
    table.start_game()
    assert table.phase is WindowPhase.BETTING and table.window_closes_at == 22.0
    clock.advance(11.0)
    assert table.progress() == pytest.approx(0.5) and table.remaining() == 11.0
    table.tick()
    assert table.phase is WindowPhase.BETTING  # not yet
    clock.advance(11.0)
    table.tick()
    assert table.phase.value == "pause" and table.window_closes_at is None
    clock.advance(TURBO.pause)
    table.tick()
    assert table.phase.value == "betting" and table.window_closes_at == 25.0 + 18.0
    kinds = [event.kind for event in seen]
    assert kinds[:2] == ["game-started", "window-opened"]
    assert kinds.index("window-closed") < kinds.index("game") < kinds.index("window-opened", 2)
    while not table.finished:
        clock.advance(1.0)
        table.tick()
    assert table.current().over
    settled = [event.kind for event in seen].index("game-settled")
    assert [event.kind for event in seen[settled - 1 : settled + 1]] == ["game", "game-settled"]
    assert seen[settled - 1].data.kind == "end"
    assert all(event.round == 1 for event in seen)


def test_orders_go_through_the_runner_with_references_unique_per_customer() -> None:
    table = runner()
    table.start_game()
    maker_order = table.current().market.position(MARKET_MAKER_ACCOUNT).open_orders[0]
    first = table.place("ann", "Player 1", "back", "1.5", 10_00)
    assert first.order.matched == 10_00  # against the market maker's lay
    assert first.order.reference == "ann/exchange/1"
    with pytest.raises(CancelRejectedError, match=f"order {maker_order.order_id} is not yours"):
        table.cancel("ann", maker_order.order_id)
    with pytest.raises(OffLadderError):
        table.place("ann", "Player 1", "back", "2.01", 5_00)  # refused: keeps its reference
    waiting = table.place("ann", "Player 2", "back", "900", 5_00)
    assert waiting.order.remaining == 5_00
    assert table.cancel("ann", waiting.order.order_id).cancelled == 5_00
    table.play_out()
    assert table.finished and table.phase is WindowPhase.IDLE
    table.start_game()  # the next game: references keep counting for each customer
    again = table.place("ann", "Player 1", "back", "1.5", 5_00)
    assert again.order.reference == "ann/exchange/4"  # 2.01 was refused: 2 is not reused
    assert table.place("bob", "Player 1", "back", "1.5", 5_00).order.reference == "bob/exchange/1"
    assert table.ledger.total() == 0 and table.ledger.audit()


def test_out_of_turn_steps_are_refused() -> None:
    table = runner(maker=False)
    with pytest.raises(TableStateError, match="no game has started"):
        table.close_window()
    table.start_game()
    with pytest.raises(TableStateError, match="already open"):
        table.open_window()
    with pytest.raises(TableStateError, match="in progress"):
        table.start_game()
    table.close_window()
    with pytest.raises(TableStateError, match="no betting window"):
        table.close_window()
