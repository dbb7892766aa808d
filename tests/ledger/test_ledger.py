"""The double-entry ledger: conservation, limits, holds, atomic batches, journal replay."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.ledger import (
    AccountKind,
    DuplicateTransferError,
    HoldSet,
    InsufficientBalanceError,
    Ledger,
    LedgerError,
    Transfer,
    UnknownAccountError,
)
from twentyone.ledger.core import Batch


def two_customers() -> Ledger:
    ledger = Ledger()
    ledger.open_account("ann", AccountKind.CUSTOMER)
    ledger.open_account("bob", AccountKind.CUSTOMER)
    ledger.open_account("house", AccountKind.HOUSE)
    ledger.deposit("d-ann", "ann", 100_00)
    return ledger


def test_deposit_transfer_withdraw_conserve_money() -> None:
    ledger = two_customers()
    ledger.transfer("t1", "ann", "bob", 30_00, "gift")
    ledger.withdraw("w1", "bob", 10_00)
    assert (ledger.balance("ann"), ledger.balance("bob")) == (70_00, 20_00)
    assert ledger.total() == 0 and ledger.deposited() == 90_00 and ledger.audit()


def test_no_customer_below_zero_and_nothing_changes_on_refusal() -> None:
    ledger = two_customers()
    with pytest.raises(InsufficientBalanceError, match="below zero"):
        ledger.transfer("t1", "bob", "ann", 1, "overdraw")
    with pytest.raises(UnknownAccountError):
        ledger.transfer("t2", "ann", "nobody", 1, "lost")
    with pytest.raises(LedgerError, match="positive whole"):
        ledger.transfer("t3", "ann", "bob", 0, "nothing")
    with pytest.raises(LedgerError, match="reason"):
        ledger.transfer("t4", "ann", "bob", 1, "")
    assert ledger.balance("ann") == 100_00 and len(ledger.journal) == 4


def test_transfer_ids_are_unique_forever() -> None:
    ledger = two_customers()
    ledger.transfer("t1", "ann", "bob", 1, "a")
    with pytest.raises(DuplicateTransferError):
        ledger.transfer("t1", "ann", "bob", 1, "a")


def test_holds_reserve_release_and_post() -> None:
    ledger = two_customers()
    ledger.set_hold("h", "ann", 60_00)
    assert ledger.available("ann") == 40_00
    with pytest.raises(InsufficientBalanceError):
        ledger.transfer("t1", "ann", "bob", 50_00, "spend held money")
    with pytest.raises(InsufficientBalanceError):
        ledger.set_hold("h2", "ann", 40_01)
    ledger.post_hold("h", "t2", "house", 25_00, "lost stake")
    assert (ledger.balance("ann"), ledger.held("ann"), ledger.hold("h")) == (75_00, 35_00, 35_00)
    ledger.release_hold("h")
    assert ledger.held("ann") == 0 and ledger.holds() == {}
    with pytest.raises(LedgerError):
        ledger.release_hold("h")


def test_a_batch_is_all_or_nothing_and_clearing_must_net_to_zero() -> None:
    ledger = two_customers()
    ledger.open_account("clearing", AccountKind.CLEARING)
    good: Batch = (
        Transfer("s1", "ann", "clearing", 10_00, "lost"),
        Transfer("s2", "clearing", "bob", 10_00, "won"),
    )
    ledger.commit(good)
    assert ledger.balance("bob") == 10_00
    before = [ledger.balance(a) for a in ledger.accounts()]
    with pytest.raises(LedgerError, match="clearing"):
        ledger.commit((Transfer("s3", "ann", "clearing", 5_00, "half"),))
    with pytest.raises(InsufficientBalanceError):
        ledger.commit((Transfer("s4", "ann", "bob", 5_00, "ok part"), HoldSet("h", "ann", 90_00)))
    assert [ledger.balance(a) for a in ledger.accounts()] == before and not ledger.holds()


def test_storage_hook_sees_every_batch_before_it_applies() -> None:
    stored: list[Batch] = []
    ledger = Ledger(on_commit=stored.append)
    ledger.open_account("ann", AccountKind.CUSTOMER)
    ledger.deposit("d", "ann", 5)
    ledger.set_hold("h", "ann", 3)
    assert stored == ledger.journal and len(stored) == 3

    def failing(batch: Batch) -> None:
        raise LedgerError("database unavailable")

    ledger.on_commit = failing
    with pytest.raises(LedgerError):
        ledger.set_hold("h", "ann", 4)
    assert ledger.hold("h") == 3  # the failed write changed nothing


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["ann", "bob", "house"]),
            st.sampled_from(["ann", "bob", "house"]),
            st.integers(1, 80_00),
        ),
        max_size=30,
    )
)
def test_random_transfers_conserve_money_and_replay(moves: list[tuple[str, str, int]]) -> None:
    ledger = two_customers()
    for number, (debit, credit, amount) in enumerate(moves):
        with contextlib.suppress(LedgerError):
            ledger.transfer(f"t{number}", debit, credit, amount, "random")
        assert all(ledger.balance(a) >= 0 for a in ("ann", "bob", "house"))
        assert ledger.total() == 0
    rebuilt = Ledger.from_journal(ledger.journal)
    assert {a: rebuilt.balance(a) for a in rebuilt.accounts()} == {
        a: ledger.balance(a) for a in ledger.accounts()
    }
    assert rebuilt.audit()
