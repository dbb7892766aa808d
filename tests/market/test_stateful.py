"""Random sequences of place, cancel, round close, settle and void, checked after every step."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.market.reference import (
    backer_pnl,
    expected_hold,
    matched_pnl,
    settled_net,
    unmatched_pnl,
)
from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, MarketStatus, SelectionSpec, replay
from twentyone.market.errors import CancelRejectedError, OrderRejectedError
from twentyone.market.ladder import PRICES_IN_HUNDREDTHS, price_fraction
from twentyone.market.orders import Side

CUSTOMERS = ("ann", "bob", "cid")
DEPOSITS = {"ann": 100_00, "bob": 500_00, "cid": 2_000_00}
SELECTIONS = (
    SelectionSpec("Player 1", can_tie=True),
    SelectionSpec("Player 2", can_tie=True),
    SelectionSpec("All cards unique", can_tie=False),
)
# A few prices, mostly around 2 so that orders meet often, some near 1.2 and 4 so that dead
# heats below and above 2 both happen and rounding is exercised; plus prices off the ladder.
PRICES = ["1.99", "2", "2.02"] * 4 + ["1.19", "1.2", "3.95", "4"]
OFF_LADDER = ["2.01", "1.005", "1001", "abc", "4.05"]


def new_ledger() -> Ledger:
    ledger = Ledger()
    for name in CUSTOMERS:
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"deposit/{name}", name, DEPOSITS[name])
    return ledger


def money_state(ledger: Ledger) -> dict[str, Any]:
    return {"balances": {a: ledger.balance(a) for a in ledger.accounts()}, "holds": ledger.holds()}


def market_state(market: Market) -> dict[str, Any]:
    return market.snapshot()


class ExchangeMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.ledger = new_ledger()
        self.market = Market("m", self.ledger, SELECTIONS, MarketSettings())
        self.references = 0
        self.answers: dict[tuple[str, str], tuple[tuple[Any, ...], Any]] = {}
        self.market.open_round(1)
        self.opened_at = len(self.market.log)

    # -- rules -------------------------------------------------------------------------------
    @precondition(
        lambda self: self.market.status is MarketStatus.OPEN and not self.market.round_open
    )
    @rule()
    def open_round(self) -> None:
        self.market.open_round(self.market.round + 1)
        self.opened_at = len(self.market.log)

    @precondition(lambda self: self.market.round_open)
    @rule(
        customer=st.sampled_from(CUSTOMERS),
        selection=st.sampled_from([s.name for s in SELECTIONS] + ["Player 1"] * 8 + ["Dealer"]),
        side=st.sampled_from(["back", "lay"]),
        price=st.sampled_from(PRICES * 5 + OFF_LADDER),
        size=st.one_of(st.integers(200, 4_000), st.integers(200, 4_000), st.integers(1, 199)),
        round_offset=st.sampled_from([0] * 10 + [-1, 1]),
    )
    def place(
        self, customer: str, selection: str, side: str, price: str, size: int, round_offset: int
    ) -> None:
        self.references += 1
        reference = f"ref{self.references}"
        body = (selection, side, price, size, self.market.round + round_offset)
        self._place(customer, reference, body)

    # Placing is most of what happens on an exchange: the same rule three times weighs it so.
    place_more = place
    place_again = place

    @precondition(lambda self: bool(self.answers))
    @rule(data=st.data(), same_body=st.booleans())
    def retry(self, data: st.DataObject, same_body: bool) -> None:
        key = data.draw(st.sampled_from(sorted(self.answers)))
        body, answer = self.answers[key]
        if same_body:
            before = (money_state(self.ledger), market_state(self.market))
            try:
                again: Any = self.market.place(key[0], key[1], *body)
            except OrderRejectedError as error:
                again = str(error)
            assert again == answer  # the original answer, never a second order
            assert (money_state(self.ledger), market_state(self.market)) == before
        else:
            changed = (*body[:3], body[3] + 1, body[4])
            self._expect_rejection(lambda: self.market.place(key[0], key[1], *changed))

    @rule(data=st.data(), partial=st.booleans())
    def cancel(self, data: st.DataObject, partial: bool) -> None:
        orders = sorted(self.market.orders)
        if not orders:
            return
        order = self.market.orders[data.draw(st.sampled_from(orders))]
        amount = data.draw(st.integers(1, order.size)) if partial else None
        if not order.remaining:
            before = (money_state(self.ledger), market_state(self.market))
            try:
                self.market.cancel(order.customer, order.order_id, amount)
            except CancelRejectedError:
                pass
            else:
                raise AssertionError("cancelling an order that is not open must be refused")
            assert (money_state(self.ledger), market_state(self.market)) == before
            return
        remaining = order.remaining
        result = self.market.cancel(order.customer, order.order_id, amount)
        assert result.cancelled == (remaining if amount is None else min(amount, remaining))

    @precondition(lambda self: self.market.round_open)
    @rule(data=st.data(), price=st.sampled_from([*PRICES, "2.01"]))
    def reprice(self, data: st.DataObject, price: str) -> None:
        open_orders = sorted(i for i, o in self.market.orders.items() if o.remaining)
        if not open_orders:
            return
        old = self.market.orders[data.draw(st.sampled_from(open_orders))]
        remaining = old.remaining
        self.references += 1
        before = (money_state(self.ledger), market_state(self.market))
        try:
            result = self.market.reprice(old.customer, old.order_id, f"ref{self.references}", price)
        except OrderRejectedError:
            assert (money_state(self.ledger), market_state(self.market)) == before
            return
        assert old.remaining == 0 and result.order.size == remaining
        assert result.order.side is old.side and result.order.selection == old.selection

    @rule(customer=st.sampled_from(CUSTOMERS))
    def cancel_someone_elses(self, customer: str) -> None:
        for order in self.market.orders.values():
            if order.customer != customer and order.remaining:
                before = (money_state(self.ledger), market_state(self.market))
                try:
                    self.market.cancel(customer, order.order_id)
                except CancelRejectedError:
                    pass
                else:
                    raise AssertionError("a customer cancelled someone else's order")
                assert (money_state(self.ledger), market_state(self.market)) == before
                return

    @precondition(lambda self: self.market.round_open and len(self.market.log) > self.opened_at + 5)
    @rule()
    def close_round(self) -> None:
        self.market.close_round()
        assert not any(order.remaining for order in self.market.orders.values())

    @precondition(
        lambda self: self.market.status is MarketStatus.OPEN and not self.market.round_open
    )
    @rule(data=st.data())
    def settle(self, data: st.DataObject) -> None:
        open_selections = [i for i, result in enumerate(self.market.results) if result is None]
        index = data.draw(st.sampled_from(open_selections))
        results = ["winner", "loser"] + (["tied"] if SELECTIONS[index].can_tie else [])
        self.market.settle_selection(SELECTIONS[index].name, data.draw(st.sampled_from(results)))

    @precondition(
        lambda self: (
            self.market.status is MarketStatus.OPEN
            and not self.market.round_open
            and len(self.market.log) > 30
        )
    )
    @rule(data=st.data())
    def settle_every_selection(self, data: st.DataObject) -> None:
        while self.market.status is MarketStatus.OPEN:
            self.settle(data)

    @precondition(
        lambda self: self.market.status is MarketStatus.OPEN and len(self.market.log) > 30
    )
    @rule()
    def void(self) -> None:
        self.market.void("dealer's shoe jammed")
        assert not any(order.remaining for order in self.market.orders.values())

    # -- helpers -----------------------------------------------------------------------------
    def _place(self, customer: str, reference: str, body: tuple[Any, ...]) -> None:
        before = (money_state(self.ledger), market_state(self.market))
        try:
            result: Any = self.market.place(customer, reference, *body)
        except OrderRejectedError as error:
            assert (money_state(self.ledger), market_state(self.market)) == before
            assert str(error)
            self.answers[(customer, reference)] = (body, str(error))
            return
        self.answers[(customer, reference)] = (body, result)
        order = result.order
        assert order.matched == sum(f.stake for f in result.fills)
        for fill in result.fills:
            maker = self.market.orders[fill.maker_order]
            assert fill.price == maker.price  # at the resting order's price

    def _expect_rejection(self, action: Any) -> None:
        before = (money_state(self.ledger), market_state(self.market))
        try:
            action()
        except OrderRejectedError:
            pass
        else:
            raise AssertionError("a reused reference with a different body was accepted")
        assert (money_state(self.ledger), market_state(self.market)) == before

    # -- invariants --------------------------------------------------------------------------
    @invariant()
    def book_never_crossed_and_fifo(self) -> None:
        orders = self.market.orders
        for selection, book in enumerate(self.market.books):
            assert book.best_lay < book.best_back
            for side, levels in ((Side.BACK, book.back_levels), (Side.LAY, book.lay_levels)):
                for index, queue in enumerate(levels):
                    live = [i for i in queue if orders[i].remaining]
                    assert live == sorted(live)
                    for order_id in live:  # queued where it belongs
                        order = orders[order_id]
                        assert (order.selection, order.side, order.price) == (
                            selection,
                            side,
                            index,
                        )
            # every open order of the round is queued (once)
            queued = [
                i for levels in (book.back_levels, book.lay_levels) for q in levels for i in q
            ]
            open_here = [i for i, o in orders.items() if o.remaining and o.selection == selection]
            assert sorted(i for i in queued if orders[i].remaining) == sorted(open_here)
            for index in range(len(book.back_sizes)):
                backs = book.back_levels[index]
                assert book.back_sizes[index] == sum(orders[i].remaining for i in backs)
                assert book.lay_sizes[index] == sum(
                    orders[i].remaining for i in book.lay_levels[index]
                )
                # The incremental bit masks and best prices equal a scan of the levels.
                assert bool(book.back_mask >> index & 1) == bool(book.back_sizes[index])
                assert bool(book.lay_mask >> index & 1) == bool(book.lay_sizes[index])
            backs = [i for i, size in enumerate(book.back_sizes) if size]
            lays = [i for i, size in enumerate(book.lay_sizes) if size]
            assert book.best_back == (backs[0] if backs else len(book.back_sizes))
            assert book.best_lay == (lays[-1] if lays else -1)

    @invariant()
    def order_sizes_add_up(self) -> None:
        matched: dict[int, int] = {}
        for fill in self.market.fills:
            matched[fill.back_order] = matched.get(fill.back_order, 0) + fill.stake
            matched[fill.lay_order] = matched.get(fill.lay_order, 0) + fill.stake
        for order in self.market.orders.values():
            parts = (order.matched, order.remaining, order.cancelled, order.lapsed, order.voided)
            assert min(parts) >= 0
            assert sum(parts) == order.size
            assert order.matched == matched.get(order.order_id, 0)

    @invariant()
    def fills_within_both_limits(self) -> None:
        for fill in self.market.fills:
            back = self.market.orders[fill.back_order]
            lay = self.market.orders[fill.lay_order]
            assert back.price <= fill.price <= lay.price  # nobody worse than his limit
            assert fill.stake > 0
            price = price_fraction(fill.price)
            liability = -backer_pnl(fill.stake, price, "win")
            assert liability == -math.floor(fill.stake * (price - 1))
            assert fill.price == self.market.orders[fill.maker_order].price

    @invariant()
    def exposure_matches_the_fills(self) -> None:
        for customer, position in self.market.exposure.customers.items():
            for index in range(len(SELECTIONS)):
                if self.market.results[index] is not None or self.market.voided_selections:
                    continue
                reference = matched_pnl(self.market, customer, index)
                assert position.rows[index][:3] == [reference[o] for o in ("win", "tie", "lose")]

    @invariant()
    def incremental_exposure_equals_a_full_recomputation(self) -> None:
        exposure = self.market.exposure
        for customer, position in exposure.customers.items():
            for index, spec in enumerate(SELECTIONS):
                if exposure.settled[index]:
                    continue
                unmatched = unmatched_pnl(self.market, customer, index)
                assert position.rows[index][3:] == [unmatched[o] for o in ("win", "tie", "lose")]
                matched = matched_pnl(self.market, customer, index)
                outcomes = ("win", "tie", "lose") if spec.can_tie else ("win", "lose")
                worst = min(matched[o] + unmatched[o] for o in outcomes)
                assert position.worst[index] == worst
            assert position.loss == exposure.full_loss(customer)

    @invariant()
    def holds_cover_the_worst_case(self) -> None:
        for customer in CUSTOMERS:
            hold = self.ledger.hold(self.market.hold_id(customer))
            assert hold == expected_hold(self.market, customer)
            assert self.ledger.held(customer) <= self.ledger.balance(customer)

    @invariant()
    def money_is_conserved(self) -> None:
        ledger = self.ledger
        assert ledger.total() == 0
        assert ledger.audit()
        inside = sum(ledger.balance(a) for a in ledger.accounts() if a != "external")
        assert inside == sum(DEPOSITS.values()) == ledger.deposited()
        assert all(ledger.balance(a) >= 0 for a in ledger.accounts() if a != "external")
        assert ledger.balance(self.market.clearing_account) == 0

    @invariant()
    def settled_market_leaves_only_commission(self) -> None:
        if self.market.status is MarketStatus.OPEN:
            return
        profit = sum(self.ledger.balance(c) - DEPOSITS[c] for c in CUSTOMERS)
        commission = self.ledger.balance("house:commission")
        assert profit == -commission
        assert commission == sum(self.market.commissions.values())
        assert not self.ledger.holds()
        for customer in CUSTOMERS:
            net = settled_net(self.market, customer)
            owed = max(0, math.floor(net * self.market.settings.commission_rate))
            assert self.market.commissions.get(customer, 0) == owed
            assert self.ledger.balance(customer) == DEPOSITS[customer] + net - owed

    @invariant()
    def replaying_the_log_rebuilds_the_state(self) -> None:
        ledger = new_ledger()
        rebuilt = replay(self.market.log, ledger, "m", SELECTIONS, MarketSettings())
        assert market_state(rebuilt) == market_state(self.market)
        assert money_state(ledger) == money_state(self.ledger)


ExchangeMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestExchange = ExchangeMachine.TestCase


def test_side_enum_values() -> None:
    assert {side.value for side in Side} == {"back", "lay"}
    assert PRICES_IN_HUNDREDTHS[0] == 101
