"""The spec's numbers, matching rules and refusals, one by one."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from twentyone.errors import TwentyOneError
from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec, index_of, price_text
from twentyone.market.errors import (
    BelowMinimumStakeError,
    CancelRejectedError,
    InsufficientFundsError,
    MarketStateError,
    OffLadderError,
    ReferenceReusedError,
    RoundNotOpenError,
    SelectionClosedError,
    StaleRoundError,
    UnknownSelectionError,
)
from twentyone.market.ladder import LADDER_SIZE, PRICES_IN_HUNDREDTHS, index_above, index_below
from twentyone.market.settlement import backer_outcomes, liability

SELECTIONS = [SelectionSpec("Player 1", True), SelectionSpec("All cards unique", False)]


def setup(**deposits: int) -> tuple[Ledger, Market]:
    ledger = Ledger()
    for name, amount in deposits.items():
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{name}", name, amount)
    market = Market("g", ledger, SELECTIONS, MarketSettings())
    market.open_round(1)
    return ledger, market


def money(ledger: Ledger) -> tuple[dict[str, int], dict[str, tuple[str, int]]]:
    return {a: ledger.balance(a) for a in ledger.accounts()}, ledger.holds()


# -- the ladder -------------------------------------------------------------------------------
def test_ladder_has_350_steps_in_the_published_bands() -> None:
    assert LADDER_SIZE == 350
    assert PRICES_IN_HUNDREDTHS[0] == 101 and PRICES_IN_HUNDREDTHS[-1] == 100_000
    steps = {(a, b - a) for a, b in itertools.pairwise(PRICES_IN_HUNDREDTHS)}
    assert (199, 1) in steps and (200, 2) in steps and (300, 5) in steps and (980, 20) in steps
    assert [price_text(index_of(p)) for p in ("1.01", "2", "3.05", "4.1", "19.5", "1000")] == [
        "1.01",
        "2",
        "3.05",
        "4.1",
        "19.5",
        "1000",
    ]


@pytest.mark.parametrize("price", ["2.01", "3.02", "4.15", "1.00", "1010", "-2", "nan", "", "2,5"])
def test_off_ladder_prices_are_refused_never_moved(price: str) -> None:
    with pytest.raises(OffLadderError):
        index_of(price)


def test_binary_floats_are_refused() -> None:
    with pytest.raises(OffLadderError, match="binary float"):
        index_of(2.5)  # type: ignore[arg-type]


def test_kth_price_strictly_beyond_the_fair_price() -> None:
    assert price_text(index_below(Fraction(2), 1) or 0) == "1.99"
    assert price_text(index_above(Fraction(2), 1) or 0) == "2.02"
    assert index_below(Fraction(101, 100), 1) is None
    assert index_above(Fraction(1000), 1) is None


# -- money ------------------------------------------------------------------------------------
def test_a_lays_liability_is_held() -> None:
    ledger, market = setup(layer=100_00)
    market.place("layer", "l1", "Player 1", "lay", "4.5", 10_00, 1)
    assert liability(10_00, 450) == 35_00
    assert ledger.held("layer") == 35_00  # 10.00 x (4.5 - 1)


def test_dead_heat_at_4_and_at_1_2() -> None:
    assert backer_outcomes(10_00, 400)[1] == 10_00  # 10 x (4/2 - 1): half wins at 4.0, half lost
    assert backer_outcomes(10_00, 120)[1] == -4_00  # 10 x (1.2/2 - 1): the backer loses 4.00
    ledger, market = setup(backer=100_00, layer=100_00)
    market.place("layer", "l1", "Player 1", "lay", "4", 10_00, 1)
    market.place("backer", "b1", "Player 1", "back", "4", 10_00, 1)
    market.place("layer", "l2", "All cards unique", "lay", "1.2", 10_00, 1)
    market.place("backer", "b2", "All cards unique", "back", "1.2", 10_00, 1)
    market.close_round()
    market.settle_selection("Player 1", "tied")
    assert ledger.balance("backer") == 110_00 and ledger.balance("layer") == 90_00
    market.settle_selection("All cards unique", "winner")
    # Backer: +10.00 (tie at 4) + 2.00 (win at 1.2) = +12.00, commission 0.60.
    assert ledger.balance("backer") == 100_00 + 12_00 - 60
    assert ledger.balance("layer") == 100_00 - 12_00
    assert ledger.balance("house:commission") == 60
    assert not ledger.holds()


def test_dead_heat_is_refused_where_a_selection_cannot_tie() -> None:
    _, market = setup(a=10_00)
    market.close_round()
    with pytest.raises(MarketStateError, match="dead heat"):
        market.settle_selection("All cards unique", "tied")


def test_rounding_backer_toward_zero_layer_the_complement() -> None:
    # 3.33 at 1.21: 0.6993 -> 0.69; tie 3.33 x -0.395 = -1.31535 -> -1.31 (never more than exact)
    assert backer_outcomes(333, 121) == (69, -131, -333)
    ledger, market = setup(backer=100_00, layer=100_00)
    market.place("layer", "l1", "Player 1", "lay", "1.21", 333, 1)
    market.place("backer", "b1", "Player 1", "back", "1.21", 333, 1)
    market.close_round()
    market.settle_selection("Player 1", "tied")
    market.settle_selection("All cards unique", "loser")
    assert ledger.balance("backer") == 100_00 - 131
    assert ledger.balance("layer") == 100_00 + 131 - 6  # commission 5% of 1.31, rounded down


def test_commission_is_on_the_net_over_the_market() -> None:
    ledger, market = setup(ann=100_00, bob=100_00)
    # Ann backs Player 1 (wins 15.00) and lays "All cards unique" (loses 5.00): net +10.00.
    market.place("bob", "b1", "Player 1", "lay", "2.5", 10_00, 1)
    market.place("ann", "a1", "Player 1", "back", "2.5", 10_00, 1)
    market.place("bob", "b2", "All cards unique", "back", "1.5", 10_00, 1)
    market.place("ann", "a2", "All cards unique", "lay", "1.5", 10_00, 1)
    market.close_round()
    market.settle_selection("Player 1", "winner")
    assert ledger.balance("ann") == 115_00  # early-settled money is posted at once
    assert ledger.held("ann") == 5_00 + 75  # the lay's liability + commission on 15.00 so far
    market.settle_selection("All cards unique", "winner")
    assert market.commissions == {"ann": 50}
    assert ledger.balance("ann") == 110_00 - 50
    assert ledger.balance("bob") == 90_00  # a net loss pays no commission
    assert ledger.balance("house:commission") == 50


def test_void_returns_unsettled_and_charges_commission_on_settled() -> None:
    ledger, market = setup(ann=100_00, bob=100_00)
    market.place("bob", "b1", "Player 1", "lay", "3", 10_00, 1)
    market.place("ann", "a1", "Player 1", "back", "3", 10_00, 1)
    market.place("bob", "b2", "All cards unique", "lay", "2", 10_00, 1)
    market.place("ann", "a2", "All cards unique", "back", "2", 6_00, 1)
    market.close_round()
    market.settle_selection("Player 1", "winner")
    market.void("the card reader failed")
    assert ledger.balance("ann") == 120_00 - 1_00
    assert ledger.balance("bob") == 80_00
    assert not ledger.holds()
    assert market.selection_view("All cards unique").status == "void"
    assert all(o.remaining == 0 for o in market.orders.values())


# -- matching ---------------------------------------------------------------------------------
def test_a_back_is_matched_at_the_resting_lays_better_price() -> None:
    _, market = setup(ann=100_00, bob=100_00)
    market.place("bob", "b1", "Player 1", "lay", "2.2", 10_00, 1)
    result = market.place("ann", "a1", "Player 1", "back", "2", 10_00, 1)
    assert [(price_text(f.price), f.stake) for f in result.fills] == [("2.2", 10_00)]


def test_a_lay_is_matched_at_the_resting_backs_better_price() -> None:
    _, market = setup(ann=100_00, bob=100_00)
    market.place("bob", "b1", "Player 1", "back", "1.9", 10_00, 1)
    result = market.place("ann", "a1", "Player 1", "lay", "2", 10_00, 1)
    assert [(price_text(f.price), f.stake) for f in result.fills] == [("1.9", 10_00)]


def test_price_time_priority_partial_fills_and_remainders() -> None:
    _, market = setup(a=100_00, b=100_00, c=100_00, d=100_00)
    first = market.place("a", "1", "Player 1", "lay", "2", 5_00, 1).order
    market.place("b", "1", "Player 1", "lay", "2.1", 3_00, 1)
    second = market.place("c", "1", "Player 1", "lay", "2", 5_00, 1).order
    result = market.place("d", "1", "Player 1", "back", "2", 10_00, 1)
    assert [(f.lay_order, price_text(f.price), f.stake) for f in result.fills] == [
        (2, "2.1", 3_00),  # best price first
        (first.order_id, "2", 5_00),  # then first come first served
        (second.order_id, "2", 2_00),
    ]
    assert market.orders[second.order_id].remaining == 3_00
    assert result.order.remaining == 0
    view = market.selection_view("Player 1")
    assert view.to_back == (("2", 3_00),) and view.matched == 10_00


def test_partial_cancel_keeps_the_queue_place_and_lapse_releases_holds() -> None:
    ledger, market = setup(a=100_00, b=100_00, c=100_00)
    first = market.place("a", "1", "Player 1", "lay", "2", 10_00, 1).order
    market.place("b", "1", "Player 1", "lay", "2", 10_00, 1)
    cancel = market.cancel("a", first.order_id, 6_00)
    assert cancel.cancelled == 6_00 and ledger.held("a") == 4_00
    fills = market.place("c", "1", "Player 1", "back", "2", 6_00, 1).fills
    assert [(f.layer, f.stake) for f in fills] == [("a", 4_00), ("b", 2_00)]  # a kept its place
    with pytest.raises(CancelRejectedError, match="no longer open"):
        market.cancel("a", first.order_id)
    low = market.place("c", "2", "Player 1", "lay", "1.9", 5_00, 1).order
    assert market.cancel("c", low.order_id, 99_00).cancelled == 5_00  # capped at what is left
    market.close_round()
    assert market.orders[2].lapsed == 8_00
    assert ledger.held("b") == 2_00  # only the matched liability is still held
    with pytest.raises(CancelRejectedError):
        market.cancel("b", 2)


def test_self_matching_is_allowed_and_nets_to_zero() -> None:
    ledger, market = setup(a=100_00)
    market.place("a", "1", "Player 1", "lay", "3", 10_00, 1)
    assert market.place("a", "2", "Player 1", "back", "3", 10_00, 1).fills
    assert ledger.held("a") == 0


# -- refusals ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("selection", "price", "size", "round_no", "error"),
    [
        ("Player 1", "2.01", 10_00, 1, OffLadderError),
        ("Player 1", "2", 1_99, 1, BelowMinimumStakeError),
        ("Player 9", "2", 10_00, 1, UnknownSelectionError),
        ("Player 1", "2", 10_00, 2, RoundNotOpenError),
        ("Player 1", "2", 10_000_00, 1, InsufficientFundsError),
    ],
)
def test_bad_orders_change_nothing(
    selection: str, price: str, size: int, round_no: int, error: type[TwentyOneError]
) -> None:
    ledger, market = setup(a=100_00, b=100_00)
    market.place("b", "x", "Player 1", "lay", "2", 10_00, 1)
    before = money(ledger), market.snapshot()
    with pytest.raises(error) as caught:
        market.place("a", "r1", selection, "back", price, size, round_no)
    assert str(caught.value)
    assert (money(ledger), market.snapshot()) == before
    with pytest.raises(error):  # the retry meets the same answer
        market.place("a", "r1", selection, "back", price, size, round_no)


def test_stale_round_and_settled_selection() -> None:
    _, market = setup(a=100_00)
    market.close_round()
    market.settle_selection("Player 1", "loser")
    market.open_round(2)
    with pytest.raises(StaleRoundError, match="round is stale"):
        market.place("a", "1", "All cards unique", "back", "2", 10_00, 1)
    with pytest.raises(SelectionClosedError):
        market.place("a", "2", "Player 1", "back", "2", 10_00, 2)


def test_idempotent_references() -> None:
    ledger, market = setup(a=100_00)
    first = market.place("a", "r", "Player 1", "back", "2", 10_00, 1)
    again = market.place("a", "r", "Player 1", "back", "2.00", 10_00, 1)  # same price, same body
    assert again == first and len(market.orders) == 1
    with pytest.raises(ReferenceReusedError, match="reference reused"):
        market.place("a", "r", "Player 1", "back", "2", 11_00, 1)
    assert ledger.held("a") == 10_00


def test_a_retry_answers_the_placement_not_the_order_now() -> None:
    _, market = setup(a=100_00, b=100_00)
    market.place("b", "b1", "Player 1", "back", "1.9", 3_00, 1)
    first = market.place("a", "r", "Player 1", "lay", "2", 10_00, 1)  # takes 3.00, rests 7.00
    market.place("b", "b2", "Player 1", "back", "2", 4_00, 1)  # fills 4.00 of it later
    market.cancel("a", first.order.order_id, 1_00)
    market.close_round()
    order = market.orders[first.order.order_id]
    assert (order.matched, order.cancelled, order.lapsed) == (7_00, 1_00, 2_00)
    again = market.place("a", "r", "Player 1", "lay", "2", 10_00, 1)
    assert again == first
    assert (again.order.matched, again.order.remaining, again.order.lapsed) == (3_00, 7_00, 0)
    assert [(f.maker_order, f.stake) for f in again.fills] == [(1, 3_00)]


def test_reprice_moves_the_remainder_and_a_refused_one_leaves_the_old_order() -> None:
    ledger, market = setup(a=20_00, b=100_00)
    first = market.place("a", "1", "Player 1", "lay", "2", 10_00, 1).order
    market.place("b", "1", "Player 1", "lay", "2.5", 4_00, 1)
    market.place("b", "2", "Player 1", "back", "2.5", 4_00, 1)  # takes b's own lay first
    before = money(ledger), market.snapshot()
    with pytest.raises(InsufficientFundsError):  # 10.00 laid at 4.0 needs 30.00 held
        market.reprice("a", first.order_id, "2", "4")
    with pytest.raises(OffLadderError):
        market.reprice("a", first.order_id, "3", "2.01")
    assert (money(ledger), market.snapshot()) == before  # the old order stands
    moved = market.reprice("a", first.order_id, "4", "2.2")
    assert market.orders[first.order_id].cancelled == 10_00
    assert (price_text(moved.order.price), moved.order.size) == ("2.2", 10_00)
    assert ledger.held("a") == 12_00
    assert market.reprice("a", first.order_id, "4", "2.2") == moved  # a retry: same answer
    assert market.selection_view("Player 1").to_back == (("2.2", 10_00),)
