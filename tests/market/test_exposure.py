"""The exposure's fast per-price tables and bit masks agree with their plain statements."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.market.reference import backer_pnl
from twentyone.market.book import SelectionBook
from twentyone.market.exposure import MarketExposure, unmatched_contribution
from twentyone.market.ladder import LADDER_SIZE, price_fraction
from twentyone.market.orders import Side


@pytest.mark.parametrize("divisor", [2, 3])
def test_contribution_tables_equal_the_formula_at_every_price(divisor: int) -> None:
    exposure = MarketExposure([True], Fraction(5, 100), divisor)
    for price in range(LADDER_SIZE):
        for size in (0, 1, 199, 200, 333, 1_000, 4_999, 123_457):
            for side in Side:
                fast = exposure.contribution(side, price, size)
                assert fast == unmatched_contribution(side, price, size, divisor)
                if divisor == 2:  # and the spec's figures, computed with Fractions
                    pnl = [
                        backer_pnl(size, price_fraction(price), o) for o in ("win", "tie", "lose")
                    ]
                    sign = 1 if side is Side.BACK else -1
                    assert list(fast) == [min(0, sign * p) for p in pnl]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["rest", "fill", "cancel"]),
            st.sampled_from(list(Side)),
            st.integers(0, LADDER_SIZE - 1),
            st.integers(1, 5_000),
        ),
        max_size=40,
    )
)
def test_incremental_loss_equals_a_full_recomputation(
    steps: list[tuple[str, Side, int, int]],
) -> None:
    exposure = MarketExposure([True, False], Fraction(5, 100), 2)
    position = exposure.of("ann")
    resting: list[tuple[Side, int, int, int]] = []  # side, price, remaining, selection
    for n, (kind, side, price, size) in enumerate(steps):
        selection = n % 2
        if kind == "rest":
            needed = exposure.hold_with_order("ann", selection, side, price, size)
            exposure.rest_whole(position, selection, side, price, size)
            resting.append((side, price, size, selection))
            assert exposure.hold("ann") == needed  # what was checked is what is held
        elif kind == "fill":
            backer, layer = ("ann", "bob") if side is Side.BACK else ("bob", "ann")
            exposure.add_fill(backer, layer, selection, price, size)
        elif resting:
            side, price, remaining, selection = resting.pop()
            exposure.change_unmatched("ann", selection, side, price, remaining, remaining // 2)
        for customer, found in exposure.customers.items():
            assert found.loss == exposure.full_loss(customer)


@given(st.lists(st.tuples(st.booleans(), st.sampled_from(list(Side)), st.integers(0, 349))))
def test_book_masks_track_the_levels(steps: list[tuple[bool, Side, int]]) -> None:
    book = SelectionBook()
    orders: list[tuple[Side, int]] = []  # side and price of each resting order (5.00 each)
    for n, (add, side, price) in enumerate(steps):
        if add or not orders:
            if (side is Side.BACK and price <= book.best_lay) or (
                side is Side.LAY and price >= book.best_back
            ):
                continue  # it would cross: matching is tested elsewhere
            book.rest(n + 1, side, price, 500)
            orders.append((side, price))
        else:
            side, price = orders.pop(n % len(orders))
            book.reduce(side, price, 500)
        backs = [i for i, size in enumerate(book.back_sizes) if size]
        lays = [i for i, size in enumerate(book.lay_sizes) if size]
        assert book.best_back == (backs[0] if backs else LADDER_SIZE)
        assert book.best_lay == (lays[-1] if lays else -1)
        assert book.back_mask == sum(1 << i for i in backs)
        assert book.lay_mask == sum(1 << i for i in lays)
