"""Hostile values to every public Market and MarketMaker constructor, setting and operation.

(The Ledger's: ``tests/ledger/test_ledger_hardening.py``, with the same values.)

Each example takes a valid call, replaces one argument by a hostile value (huge and tiny
numbers, NaN, infinities, bools, digits of other scripts, nested containers, very long text,
objects of no expected type) and makes the call on a market with resting orders and matched
bets. The call either succeeds (the value happened to be valid) or raises a
:class:`~twentyone.errors.TwentyOneError`; when it raises, a deep snapshot of the market, its
ledger and its reference registry is unchanged (an order refused by a rule is remembered
against its reference, as the spec asks: that record, and the logged refusal, are the only
difference allowed). Any other exception (TypeError, RecursionError, ValueError from printing
a huge integer, decimal.InvalidOperation...) fails the test.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.market.snapshots import market_state
from twentyone.errors import TwentyOneError
from twentyone.ledger import AccountKind, Ledger
from twentyone.market import Market, MarketSettings, SelectionSpec, Side, index_of
from twentyone.market.market import _Refused
from twentyone.market.market_maker import MARKET_MAKER_ACCOUNT, MarketMaker, MarketMakerSettings
from twentyone.market.references import ClientReferences

DEEP: Any = []
for _ in range(50_000):
    DEEP = [DEEP]

OTHER_DIGITS = st.text(
    alphabet=st.characters(whitelist_categories=("Nd",), blacklist_characters="0123456789"),
    min_size=1,
    max_size=4,
)
HOSTILE = st.one_of(
    st.integers(),
    st.sampled_from([10**5000, -(10**5000), 2**63, 2**64 + 1, -1, 0, 1]),
    st.floats(),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0, 1e-320, 2.5]),
    st.booleans(),
    st.none(),
    st.decimals(),
    st.sampled_from(
        [
            Decimal("1e999999999"),
            Decimal("-1e-5000"),
            Decimal("sNaN"),
            Decimal("NaN123"),
            Decimal("2.5"),
        ]
    ),
    st.fractions(),
    st.sampled_from([Fraction(10**5000, 7), Fraction(1, 10**5000), Fraction(5, 2)]),
    st.text(max_size=12),
    OTHER_DIGITS,
    OTHER_DIGITS.map(lambda d: f"{d}.{d}"),
    st.sampled_from(
        [
            "2_5",
            "1e-5000",
            "1e999999999",
            "Infinity",
            "nan",
            "2.5\n",
            " P1",
            "back ",
            "x" * 100_000,
            "9" * 5_000,
            "ann/x",
            "\x00",
            "winner ",
        ]
    ),
    st.recursive(
        st.integers() | st.text(max_size=3),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.text(max_size=3), inner, max_size=3)
            | st.tuples(inner, inner)
            | st.frozensets(st.integers(), max_size=3)
        ),
        max_leaves=6,
    ),
    st.just(DEEP),
    st.builds(object),
    st.just(b"2.5"),
    st.sampled_from([Side.BACK, AccountKind.HOUSE, bytearray(b"ann"), {"P1": Fraction(2)}]),
)
SELECTIONS = [SelectionSpec("P1", True), SelectionSpec("P2", False)]
#: Examples per test (a deeper hunt: ``HOSTILE_EXAMPLES=3000 pytest tests/market/test_hostile.py``).
CHECKS = settings(
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def busy_market() -> tuple[Ledger, Market, int]:
    """A market in round 2 with resting orders, matched bets and a settled-selection-free book."""
    ledger = Ledger()
    for name in ("ann", "bob"):
        ledger.open_account(name, AccountKind.CUSTOMER)
        ledger.deposit(f"d/{name}", name, 500_00)
    ledger.open_account(MARKET_MAKER_ACCOUNT, AccountKind.HOUSE)
    ledger.deposit("float", MARKET_MAKER_ACCOUNT, 500_00)
    market = Market("g1", ledger, SELECTIONS, MarketSettings())
    market.open_round(1, {"P1": Fraction(5, 2), "P2": None})
    MarketMaker().quote(market, {"P1": Fraction(5, 2)})
    market.place("bob", "b1", "P1", "lay", "2", 10_00, 1)
    market.place("ann", "a1", "P1", "back", "2", 4_00, 1)  # 4.00 matched, bob's 6.00 rests
    market.close_round()
    market.open_round(2)
    market.place("bob", "b2", "P2", "back", "3", 5_00, 2)
    resting = market.place("ann", "a2", "P1", "lay", "1.9", 5_00, 2).order.order_id
    return ledger, market, resting


def forget_refusal(market: Market, customer: Any, reference: Any, error: Exception) -> None:
    """Drop the record of an order refused by a rule (the one change a refusal may make)."""
    if type(customer) is not str or type(reference) is not str:
        return
    record = market._references.get(customer, {}).get(reference)
    if isinstance(record, _Refused):
        assert record.error is error  # it remembers this very refusal, nothing else
        del market._references[customer][reference]
        if not market._references[customer]:
            del market._references[customer]
        used = market.references.by_customer[customer]
        assert used.pop(reference) == market.market_id
        if not used:
            del market.references.by_customer[customer]


def attempt(
    state: Callable[[], Any],
    action: Callable[[], Any],
    forget: Callable[[Exception], None] = lambda error: None,
) -> None:
    """Run ``action``: accepted, or a TwentyOneError with ``state()`` unchanged."""
    before = state()
    try:
        action()
    except TwentyOneError as error:
        forget(error)
        assert state() == before, f"{type(error).__name__}: {error}"


def with_value(valid: tuple[Any, ...], position: int, value: Any) -> tuple[Any, ...]:
    args = list(valid)
    args[position % len(args)] = value
    return tuple(args)


MARKET_CALLS = [
    ("place", ("ann", "h1", "P1", "back", "2.2", 3_00, 2)),
    ("cancel", ("ann", 0, 1_00)),  # 0: the resting order's id, filled in
    ("reprice", ("ann", 0, "h1", "1.8")),
    ("open_round", (3, {"P1": Fraction(3)})),
    ("settle_selection", ("P2", "loser")),
    ("void", ("jammed",)),
    ("selection_view", ("P1", 3)),
    ("position", ("ann",)),
    ("hold_id", ("ann",)),
    ("fill_result", (None,)),  # a fill of the market, filled in
    ("placement_result", (None,)),  # an order of the market, filled in
]


@CHECKS
@given(
    call=st.sampled_from(MARKET_CALLS),
    position=st.integers(0, 6),
    value=HOSTILE,
    closed=st.booleans(),
)
def test_hostile_arguments_to_market_operations(
    call: tuple[str, tuple[Any, ...]], position: int, value: Any, closed: bool
) -> None:
    ledger, market, resting = busy_market()
    if closed:  # settle and void meet a market between rounds
        market.close_round()
    name, valid = call
    valid = tuple(
        resting if arg == 0 and isinstance(arg, int) and not isinstance(arg, bool) else arg
        for arg in valid
    )
    if name == "fill_result":
        valid = (market.fills[0],)
    elif name == "placement_result":
        valid = (market.orders[resting],)
    args = with_value(valid, position, value)
    logged = len(market.log)

    def forget(error: Exception) -> None:
        if name in ("place", "reprice"):
            forget_refusal(market, args[0], args[2 if name == "reprice" else 1], error)

    attempt(lambda: market_state(market), lambda: getattr(market, name)(*args), forget)
    assert len(market.log) - logged <= 1  # a command is logged once, refused or not
    assert json.dumps([entry.to_json() for entry in market.log])  # hostile values described
    assert ledger.audit() and ledger.total() == 0


@CHECKS
@given(position=st.integers(0, 6), value=HOSTILE)
def test_hostile_arguments_to_the_market_constructor(position: int, value: Any) -> None:
    ledger, market, _ = busy_market()
    valid = (
        "g2",
        ledger,
        SELECTIONS,
        MarketSettings(),
        "house:commission",
        MARKET_MAKER_ACCOUNT,
        None,
    )
    args = with_value(valid, position, value)
    attempt(lambda: market_state(market), lambda: Market(*args))


@CHECKS
@given(
    kind=st.sampled_from(["market", "selection", "maker"]),
    position=st.integers(0, 2),
    value=HOSTILE,
)
def test_hostile_settings_values(kind: str, position: int, value: Any) -> None:
    if kind == "market":
        valid: tuple[Any, ...] = (200, Fraction(5, 100), 2)
        make: Callable[..., Any] = MarketSettings
    elif kind == "selection":
        valid, make = ("P1", True), SelectionSpec
    else:
        valid, make = (2, 20_00, MARKET_MAKER_ACCOUNT), MarketMakerSettings
    args = with_value(valid, position, value)
    try:
        made = make(*args)
    except TwentyOneError:
        return
    if kind == "market":  # accepted: every field is a valid value
        assert type(made.min_stake) is int and type(made.commission_rate) is Fraction
        assert 0 <= made.commission_rate < 1 and made.dead_heat_divisor >= 1


@CHECKS
@given(which=st.sampled_from(["settings", "quotes", "quote-market", "quote-prices"]), value=HOSTILE)
def test_hostile_values_to_the_market_maker(which: str, value: Any) -> None:
    _, market, _ = busy_market()
    market.close_round()
    market.open_round(3)

    def action() -> Any:
        if which == "settings":
            return MarketMaker(value)
        if which == "quotes":
            return MarketMaker().quotes(value)
        if which == "quote-market":
            return MarketMaker().quote(value, {"P1": Fraction(3)})
        return MarketMaker().quote(market, value)

    attempt(lambda: market_state(market), action)


@pytest.mark.parametrize(
    "price",
    [DEEP, 10**5000, Fraction(10**5000, 3), Decimal("1e999999999"), Decimal("sNaN"), "x" * 10**6],
    ids=["deep", "huge-int", "huge-fraction", "huge-exponent", "signalling-nan", "long-text"],
)
def test_index_of_refuses_hostile_prices_typed(price: Any) -> None:
    with pytest.raises(TwentyOneError):
        index_of(price)


def test_the_registry_is_shared_per_ledger_and_may_be_given() -> None:
    ledger, market, _ = busy_market()
    assert market.references is ClientReferences.of(ledger)
    own = ClientReferences()
    separate = Market("g3", ledger, SELECTIONS, references=own)
    separate.open_round(1)
    separate.place("ann", "a1", "P1", "back", "2", 2_00, 1)  # "a1" is only taken in g1's registry
    assert own.market_of("ann", "a1") == "g3" and market.references.market_of("ann", "a1") == "g1"
