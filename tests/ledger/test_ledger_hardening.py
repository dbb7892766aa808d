"""Issue 12's ledger defects (D7, and the ledger's part of D3-D5): typed refusals, nothing changed.

Hostile values (the strategies of ``tests/market/test_hostile.py``) to every public Ledger
operation, batch entry and hook; a deep snapshot of the ledger is unchanged by any refusal,
money inside always equals the deposits (one external account) and no hold exceeds a balance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.market.snapshots import deep_state, ledger_state
from tests.market.test_hostile import CHECKS, HOSTILE, attempt, with_value
from twentyone.ledger import (
    AccountKind,
    HoldSet,
    Ledger,
    LedgerError,
    OpenAccount,
    Transfer,
    check_hold_id,
)


def test_d7_an_account_kind_must_be_the_enum_and_there_is_one_external_account() -> None:
    ledger = Ledger()
    ledger.open_account("ann", AccountKind.CUSTOMER)
    ledger.deposit("d", "ann", 500)
    before = ledger_state(ledger)
    with pytest.raises(LedgerError):
        ledger.open_account("q", "customer")  # type: ignore[arg-type]
    with pytest.raises(LedgerError):
        ledger.open_account("mint", AccountKind.EXTERNAL)
    with pytest.raises(LedgerError):
        ledger.commit((OpenAccount("q", "customer"),))  # type: ignore[arg-type]
    with pytest.raises(LedgerError):
        ledger.commit(
            (
                OpenAccount("mint", AccountKind.EXTERNAL),
                Transfer("m", "mint", "ann", 1_000_000, "minted"),
            )
        )
    with pytest.raises(LedgerError):
        Ledger.from_journal([(OpenAccount("q", "customer"),)])  # type: ignore[list-item]
    assert ledger_state(ledger) == before
    inside = sum(ledger.balance(a) for a in ledger.accounts() if a != "external")
    assert inside == ledger.deposited() == 500


def test_hold_ids_are_texts_or_tuples_of_texts() -> None:
    ledger = Ledger()
    ledger.open_account("ann", AccountKind.CUSTOMER)
    ledger.deposit("d", "ann", 500)
    ledger.set_hold(("g1", "x/y"), "ann", 100)
    ledger.set_hold(("g1/x", "y"), "ann", 200)  # a different hold: no collision
    assert ledger.held("ann") == 300 and len(ledger.holds()) == 2
    assert Ledger.from_journal(ledger.journal).holds() == ledger.holds()
    for bad in ((), ("a", 1), ("a",) * 9, ("a", ["b"]), "", " h", 5, ["h"]):
        with pytest.raises(LedgerError):
            check_hold_id(bad)
        before = ledger_state(ledger)
        with pytest.raises(LedgerError):
            ledger.set_hold(bad, "ann", 1)  # type: ignore[arg-type]
        assert ledger_state(ledger) == before


LEDGER_CALLS = [
    ("open_account", ("cid", AccountKind.CUSTOMER)),
    ("transfer", ("t1", "ann", "bob", 1_00, "gift")),
    ("deposit", ("t2", "ann", 1_00, "deposit")),
    ("withdraw", ("t3", "ann", 1_00, "withdrawal")),
    ("set_hold", ("h1", "ann", 1_00)),
    ("update_hold", (("x", "ann"), "ann", 1_00)),
    ("room", ("h0", "ann")),
    ("release_hold", ("h0",)),
    ("post_hold", ("h0", "t4", "bob", 1_00, "lost")),
    ("balance", ("ann",)),
    ("held", ("ann",)),
    ("available", ("ann",)),
    ("kind", ("ann",)),
    ("hold", ("h0",)),
    ("commit", ((Transfer("t5", "ann", "bob", 1, "x"), HoldSet("h0", "ann", 2_00)),)),
    ("entry", ("t6", "ann", "bob", 1, "x")),  # one field of a Transfer in a batch
    ("open_entry", ("dan", AccountKind.HOUSE)),  # one field of an OpenAccount in a batch
]


@CHECKS
@given(call=st.sampled_from(LEDGER_CALLS), position=st.integers(0, 4), value=HOSTILE)
def test_hostile_arguments_to_ledger_operations(
    call: tuple[str, tuple[Any, ...]], position: int, value: Any
) -> None:
    ledger = Ledger()
    for name in ("ann", "bob"):
        ledger.open_account(name, AccountKind.CUSTOMER)
    ledger.deposit("d", "ann", 100_00)
    ledger.set_hold("h0", "ann", 5_00)
    name, valid = call
    args = with_value(valid, position, value)
    if name == "entry":
        action: Callable[[], Any] = lambda: ledger.commit((Transfer(*args),))  # noqa: E731
    elif name == "open_entry":
        action = lambda: ledger.commit((OpenAccount(*args),))  # noqa: E731
    else:
        action = lambda: getattr(ledger, name)(*args)  # noqa: E731
    attempt(lambda: ledger_state(ledger), action)
    assert ledger.total() == 0 and ledger.audit()
    inside = sum(ledger.balance(a) for a in ledger.accounts() if a != "external")
    assert inside == ledger.deposited()  # no second external account, nothing minted
    assert all(ledger.held(a) <= ledger.balance(a) for a in ledger.accounts() if a != "external")


@CHECKS
@given(value=HOSTILE)
def test_hostile_batches_journals_and_hooks(value: Any) -> None:
    ledger = Ledger()
    ledger.open_account("ann", AccountKind.CUSTOMER)
    ledger.deposit("d", "ann", 100_00)
    for action in (
        lambda: ledger.commit(value),
        lambda: ledger.commit([value]),
        lambda: ledger.commit((HoldSet(value, "ann", 1),)),
        lambda: Ledger.from_journal(value),
        lambda: Ledger(on_commit=value),
        lambda: setattr(ledger, "on_commit", value),
    ):
        attempt(lambda: deep_state(ledger), action)
    ledger.on_commit = None
