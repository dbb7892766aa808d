"""A double-entry ledger in integer minor units, with holds.

Every movement of money is a :class:`Transfer` from a *debit* account (the one the money
leaves) to a *credit* account (the one it reaches), with a unique id and a reason. A
:class:`HoldSet` reserves part of an account's balance (a stake, an exchange exposure); a hold
is later released (set to 0) or posted (a transfer out of the account plus a smaller hold).
Balances are never stored on their own: they are the sum of the transfers, kept up to date as
each batch is applied and checkable by :meth:`Ledger.audit`, which recomputes them from the
journal.

Money is created only by deposits, transfers out of the :data:`EXTERNAL_ACCOUNT` (the outside
world, whose balance is minus everything deposited and not withdrawn), so the sum over all
accounts is always zero. There is exactly one external account (a second one could mint money
that :meth:`Ledger.deposited` would not count), so it cannot be opened.

Every argument is checked before anything changes: account names and transfer ids are printable
ASCII text (:data:`MAX_ID_LENGTH` characters at most, no space at either end); a hold id is such
a text or a tuple of them (structured ids, such as the exchange's ``(market, customer)``,
cannot collide the way joined strings do); amounts are ``int`` minor units (never ``bool``) up to
:data:`~twentyone.money.MAX_AMOUNT`; an account kind is an :class:`AccountKind`. Anything else is
refused with a :class:`~twentyone.ledger.errors.LedgerError`, nothing changed.

Every change is a *batch* of entries, validated as a whole and applied all or nothing:
customer and house accounts never go below zero and never hold more than their balance;
clearing accounts (money in passage during a settlement) must be back to zero at the end of
each batch. A storage layer persists a batch in one database transaction through the
``on_commit`` hook, which is called after validation and before anything changes (if it
raises, nothing is applied); :meth:`Ledger.from_journal` rebuilds a ledger from the batches.

>>> ledger = Ledger()
>>> ledger.open_account("alice", AccountKind.CUSTOMER)
>>> ledger.open_account("house", AccountKind.HOUSE)
>>> _ = ledger.deposit("d1", "alice", 10_000)
>>> ledger.set_hold("bet-1", "alice", 2_500)
>>> ledger.balance("alice"), ledger.held("alice"), ledger.available("alice")
(10000, 2500, 7500)
>>> ledger.post_hold("bet-1", "t1", "house", 1_000, "lost bet")
>>> ledger.balance("alice"), ledger.held("alice"), ledger.balance("house")
(9000, 1500, 1000)
>>> ledger.transfer("t2", "alice", "house", 9_000, "too much")
Traceback (most recent call last):
...
twentyone.ledger.errors.InsufficientBalanceError: account alice would be left with 0, less than the 1500 it holds
>>> ledger.balance("alice"), ledger.audit()
(9000, True)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, overload

from twentyone.errors import shown
from twentyone.ledger.errors import (
    DuplicateTransferError,
    InsufficientBalanceError,
    LedgerError,
    UnknownAccountError,
)
from twentyone.money import MAX_AMOUNT

#: The outside world: deposits come from it and withdrawals go to it.
EXTERNAL_ACCOUNT = "external"


class AccountKind(enum.Enum):
    CUSTOMER = "customer"  # never below zero; holds never above the balance
    HOUSE = "house"  # the house's own money (commission, market making): same limits
    CLEARING = "clearing"  # money in passage: back to zero at the end of every batch
    EXTERNAL = "external"  # the outside world: may go below zero


_LIMITED = (AccountKind.CUSTOMER, AccountKind.HOUSE)

#: The longest account name, transfer id or hold id part (characters).
MAX_ID_LENGTH = 256
#: The longest reason of a transfer (characters).
MAX_REASON_LENGTH = 500
#: The most parts of a structured (tuple) hold id.
MAX_HOLD_ID_PARTS = 8
#: An account name or transfer id: printable ASCII, no space at either end.
_ID = re.compile(r"[!-~](?:[ -~]*[!-~])?")

#: A hold's id: a text, or a tuple of texts (a structured id that cannot collide).
HoldId = str | tuple[str, ...]


def check_id(value: object, what: str = "an id") -> str:
    """``value`` if it is a valid account name or transfer id (see the module documentation).

    >>> check_id("house:commission")
    'house:commission'
    >>> check_id(" ann")
    Traceback (most recent call last):
    ...
    twentyone.ledger.errors.LedgerError: an id must be printable ASCII text of 1 to 256 characters with no space at either end, not ' ann'
    """
    if type(value) is not str or len(value) > MAX_ID_LENGTH or not _ID.fullmatch(value):
        raise LedgerError(
            f"{what} must be printable ASCII text of 1 to {MAX_ID_LENGTH} characters with no"
            f" space at either end, not {shown(value)}"
        )
    return value


def check_hold_id(value: object) -> HoldId:
    """``value`` if it is a valid hold id: an id, or a tuple of 1 to 8 ids.

    >>> check_hold_id(("g1", "ann"))
    ('g1', 'ann')
    """
    if type(value) is tuple and 0 < len(value) <= MAX_HOLD_ID_PARTS:
        for part in value:
            check_id(part, "each part of a hold id")
        return value
    return check_id(value, "a hold id")


class OpenAccount(NamedTuple):
    account: str
    kind: AccountKind


class Transfer(NamedTuple):
    """``amount`` minor units from ``debit`` to ``credit``."""

    transfer_id: str
    debit: str
    credit: str
    amount: int
    reason: str


class HoldSet(NamedTuple):
    """The hold ``hold_id`` on ``account`` is now ``amount`` (0 releases it)."""

    hold_id: HoldId
    account: str
    amount: int


LedgerEntry = OpenAccount | Transfer | HoldSet
Batch = tuple[LedgerEntry, ...]
#: A batch of one hold change, as stored in the journal: (hold id, account, amount).
HoldRow = tuple[HoldId, str, int]


class Journal(Sequence[Batch]):
    """Every committed batch in order (read as batches), stored compactly.

    A batch that only changes one hold (the exchange writes one per order) is stored as the
    plain tuple of its fields, :data:`HoldRow`, and read back as ``(HoldSet(...),)``. Why:
    CPython's collector stops tracking an exact tuple of strings and numbers once it survives
    a collection, never a named tuple, so a journal of ``HoldSet`` records would make every
    full collection walk all of them.

    >>> journal = Journal()
    >>> journal.append((OpenAccount("ann", AccountKind.CUSTOMER),))
    >>> journal.rows.append(("h1", "ann", 200))
    >>> len(journal), journal[1], journal == [journal[0], journal[1]]
    (2, (HoldSet(hold_id='h1', account='ann', amount=200),), True)
    """

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: list[Batch | HoldRow] = []  # the ledger's hot path appends HoldRows here

    def append(self, batch: Batch) -> None:
        self.rows.append(batch)

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, index: int) -> Batch: ...

    @overload
    def __getitem__(self, index: slice) -> list[Batch]: ...

    def __getitem__(self, index: int | slice) -> Batch | list[Batch]:
        if isinstance(index, slice):
            return [_as_batch(row) for row in self.rows[index]]
        return _as_batch(self.rows[index])

    def __iter__(self) -> Iterator[Batch]:
        return map(_as_batch, self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Journal | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list


def _as_batch(row: Batch | HoldRow) -> Batch:
    if len(row) == 3 and type(row[2]) is int:  # a HoldRow: a batch's entries are records
        return (tuple.__new__(HoldSet, row),)
    return row  # type: ignore[return-value]  # a stored batch


class _Hold:
    """A live hold: its account and amount (changed in place: one lookup per change)."""

    __slots__ = ("account", "amount")

    def __init__(self, account: str, amount: int) -> None:
        self.account = account
        self.amount = amount


class Ledger:
    """Accounts, transfers and holds; see the module documentation."""

    def __init__(self, on_commit: Callable[[Batch], None] | None = None) -> None:
        self._kinds: dict[str, AccountKind] = {EXTERNAL_ACCOUNT: AccountKind.EXTERNAL}
        self._balances: dict[str, int] = {EXTERNAL_ACCOUNT: 0}
        self._held: dict[str, int] = {EXTERNAL_ACCOUNT: 0}
        # hold id -> the live hold. Changed in place: a structured (tuple) hold id is hashed
        # on every lookup, so the hot path looks it up once per change.
        self._holds: dict[HoldId, _Hold] = {}
        self._transfer_ids: set[str] = set()
        self.journal = Journal()
        self._on_commit: Callable[[Batch], None] | None = None
        self.on_commit = on_commit

    @property
    def on_commit(self) -> Callable[[Batch], None] | None:
        """The storage hook: called with each batch after validation, before it applies."""
        return self._on_commit

    @on_commit.setter
    def on_commit(self, hook: Callable[[Batch], None] | None) -> None:
        if hook is not None and not callable(hook):
            raise LedgerError(f"on_commit must be a function or None, not {shown(hook)}")
        self._on_commit = hook

    @classmethod
    def from_journal(cls, batches: Iterable[Sequence[LedgerEntry]]) -> Ledger:
        """A ledger rebuilt by applying recorded batches in order."""
        if isinstance(batches, str | bytes) or not isinstance(batches, Iterable):
            raise LedgerError(f"a journal must be a sequence of batches, not {shown(batches)}")
        ledger = cls()
        for batch in batches:
            ledger.commit(batch)
        return ledger

    # -- reading ---------------------------------------------------------------------------
    def has_account(self, account: str) -> bool:
        """Whether there is such an account (never, for anything but a text)."""
        return type(account) is str and account in self._kinds

    def kind_or_none(self, account: str) -> AccountKind | None:
        """The account's kind, or ``None`` if there is no such account."""
        return self._kinds.get(account) if type(account) is str else None

    def kind(self, account: str) -> AccountKind:
        self._check_account(account)
        return self._kinds[account]

    def accounts(self) -> list[str]:
        return list(self._kinds)

    def balance(self, account: str) -> int:
        self._check_account(account)
        return self._balances[account]

    def held(self, account: str) -> int:
        self._check_account(account)
        return self._held[account]

    def available(self, account: str) -> int:
        """Balance minus holds: what the account can still stake or withdraw."""
        try:
            balance = self._balances.get(account)
        except TypeError:  # unhashable
            balance = None
        if balance is None:
            self._check_account(account)  # raises: no such account
        return self._balances[account] - self._held[account]

    def hold(self, hold_id: HoldId) -> int:
        """The amount of a hold (0 if it does not exist or was released)."""
        found = self._holds.get(check_hold_id(hold_id))
        return 0 if found is None else found.amount

    def holds(self) -> dict[HoldId, tuple[str, int]]:
        return {hold_id: (hold.account, hold.amount) for hold_id, hold in self._holds.items()}

    def total(self) -> int:
        """The sum over every account: always 0 in a double-entry ledger."""
        return sum(self._balances.values())

    def deposited(self) -> int:
        """Money brought in from outside and not withdrawn."""
        return -self._balances[EXTERNAL_ACCOUNT]

    def audit(self) -> bool:
        """Recompute every balance and hold from the journal and compare; raise if different."""
        balances = dict.fromkeys(self._kinds, 0)
        holds: dict[HoldId, tuple[str, int]] = {}
        for batch in self.journal:
            for entry in batch:
                if isinstance(entry, Transfer):
                    balances[entry.debit] -= entry.amount
                    balances[entry.credit] += entry.amount
                elif isinstance(entry, HoldSet):
                    holds[entry.hold_id] = (entry.account, entry.amount)
        held = dict.fromkeys(self._kinds, 0)
        for account, amount in holds.values():
            held[account] += amount
        if balances != self._balances or held != self._held or sum(balances.values()) != 0:
            raise LedgerError("the ledger's balances differ from its journal")  # pragma: no cover
        return True

    # -- changing ----------------------------------------------------------------------------
    def open_account(self, account: str, kind: AccountKind) -> None:
        self.commit((OpenAccount(account, kind),))

    def transfer(
        self, transfer_id: str, debit: str, credit: str, amount: int, reason: str
    ) -> Transfer:
        entry = Transfer(transfer_id, debit, credit, amount, reason)
        self.commit((entry,))
        return entry

    def deposit(
        self, transfer_id: str, account: str, amount: int, reason: str = "deposit"
    ) -> Transfer:
        return self.transfer(transfer_id, EXTERNAL_ACCOUNT, account, amount, reason)

    def withdraw(
        self, transfer_id: str, account: str, amount: int, reason: str = "withdrawal"
    ) -> Transfer:
        return self.transfer(transfer_id, account, EXTERNAL_ACCOUNT, amount, reason)

    def set_hold(self, hold_id: HoldId, account: str, amount: int) -> None:
        """Create, change or (with 0) release a hold; an unchanged amount is journalled too."""
        old = self._holds.get(check_hold_id(hold_id))
        if type(amount) is int and (0 if old is None else old.amount) == amount:
            self.commit((HoldSet(hold_id, account, amount),))  # checks it, changes nothing
        else:
            self.update_hold(hold_id, account, amount)

    def update_hold(self, hold_id: HoldId, account: str, amount: int) -> None:
        """:meth:`set_hold`, except that an unchanged amount writes nothing (no batch at all).

        The exchange's hot path, kept lean: an order or a fill that leaves a customer's hold
        where it was costs no journal entry.

        >>> ledger = Ledger()
        >>> ledger.open_account("ann", AccountKind.CUSTOMER)
        >>> _ = ledger.deposit("d1", "ann", 500)
        >>> ledger.update_hold("h", "ann", 0)  # no hold, and none wanted: nothing written
        >>> ledger.update_hold("h", "ann", 200); ledger.update_hold("h", "ann", 200)
        >>> len(ledger.journal), ledger.held("ann")
        (3, 200)
        """
        try:
            old = self._holds.get(hold_id)
        except TypeError:  # unhashable: the general path below refuses it
            old = None
        if (
            type(amount) is not int
            or old is None
            or old.account != account
            or not 0 <= amount <= MAX_AMOUNT
        ):
            if old is None and type(amount) is int and amount == 0:
                check_hold_id(hold_id)
                self._check_account(account)
                return  # nothing held and nothing to hold
            self.commit((HoldSet(hold_id, account, amount),))
            return
        previous = old.amount
        if amount == previous:
            return
        held = self._held[account] + amount - previous
        if held > self._balances[account]:
            raise InsufficientBalanceError(
                f"account {account} would hold {held} with a balance of {self._balances[account]}"
                " (it may not hold more than it has)"
            )
        if self._on_commit is not None:  # in C: skips the named tuple's Python constructor
            self._on_commit((tuple.__new__(HoldSet, (hold_id, account, amount)),))
        self._held[account] = held
        if amount:
            old.amount = amount
        else:
            del self._holds[hold_id]
        self.journal.rows.append((hold_id, account, amount))  # read back as a HoldSet batch

    def room(self, hold_id: HoldId, account: str) -> int:
        """What the hold ``hold_id`` on ``account`` may be raised to: available plus the hold.

        >>> ledger = Ledger()
        >>> ledger.open_account("ann", AccountKind.CUSTOMER)
        >>> _ = ledger.deposit("d1", "ann", 500)
        >>> ledger.set_hold("h1", "ann", 100); ledger.set_hold("h2", "ann", 150)
        >>> ledger.room("h1", "ann"), ledger.room("h3", "ann")
        (350, 250)
        """
        try:
            balance = self._balances.get(account)
            found = self._holds.get(hold_id)
        except TypeError:  # an unhashable account or hold id
            balance = found = None
        if balance is None or found is None:
            self._check_account(account)  # raises if there is no such account
            check_hold_id(hold_id)
        room = self._balances[account] - self._held[account]
        return room + found.amount if found is not None and found.account == account else room

    def release_hold(self, hold_id: HoldId) -> None:
        found = self._holds.get(check_hold_id(hold_id))
        if found is None:
            raise LedgerError(f"there is no hold {hold_id!r} to release")
        self.set_hold(hold_id, found.account, 0)

    def post_hold(
        self, hold_id: HoldId, transfer_id: str, credit: str, amount: int, reason: str
    ) -> None:
        """Move ``amount`` of a hold to ``credit``; the hold keeps what is left of it."""
        found = self._holds.get(check_hold_id(hold_id))
        if found is None:
            raise LedgerError(f"there is no hold {hold_id!r} to post")
        account, held = found.account, found.amount
        amount = _amount(amount, f"the amount posted from hold {hold_id!r}", 1)
        if amount > held:
            raise LedgerError(f"cannot post {amount} from hold {hold_id!r} of {held}")
        self.commit(
            (
                Transfer(transfer_id, account, credit, amount, reason),
                HoldSet(hold_id, account, held - amount),
            )
        )

    def commit(self, batch: Sequence[LedgerEntry]) -> None:
        """Validate a batch as a whole, hand it to ``on_commit``, then apply it (all or nothing)."""
        if not isinstance(batch, list | tuple):
            raise LedgerError(f"a batch must be a list or tuple of entries, not {shown(batch)}")
        batch = tuple(batch)
        kinds: dict[str, AccountKind] = {}
        balances: dict[str, int] = {}
        held: dict[str, int] = {}
        holds: dict[HoldId, tuple[str, int]] = {}
        transfer_ids: set[str] = set()

        def kind_of(account: str) -> AccountKind:
            found = None
            if type(account) is str:
                found = kinds.get(account) or self._kinds.get(account)
            if found is None:
                raise UnknownAccountError(f"there is no account {shown(account, 300)}")
            return found

        def touch(account: str) -> None:
            kind_of(account)
            if account not in balances:
                balances[account] = self._balances.get(account, 0)
                held[account] = self._held.get(account, 0)

        for entry in batch:
            if type(entry) is OpenAccount:
                check_id(entry.account, "an account name")
                if entry.account in self._kinds or entry.account in kinds:
                    raise DuplicateTransferError(f"account {entry.account!r} already exists")
                if type(entry.kind) is not AccountKind:
                    raise LedgerError(
                        f"account {entry.account!r}: the kind must be an AccountKind, not"
                        f" {shown(entry.kind)}"
                    )
                if entry.kind is AccountKind.EXTERNAL:
                    raise LedgerError(
                        f"account {entry.account!r}: the ledger has one external account,"
                        f" {EXTERNAL_ACCOUNT!r}; a second could create money uncounted"
                    )
                kinds[entry.account] = entry.kind
                touch(entry.account)
            elif type(entry) is Transfer:
                check_id(entry.transfer_id, "a transfer id")
                if entry.transfer_id in self._transfer_ids or entry.transfer_id in transfer_ids:
                    raise DuplicateTransferError(
                        f"transfer id {entry.transfer_id!r} was used before"
                    )
                _amount(entry.amount, f"transfer {entry.transfer_id!r}: the amount", 1)
                kind_of(entry.debit)
                kind_of(entry.credit)
                if entry.debit == entry.credit:
                    raise LedgerError(
                        f"transfer {entry.transfer_id!r} moves money to its own account"
                    )
                reason = entry.reason
                if type(reason) is not str or not reason:
                    raise LedgerError(f"transfer {entry.transfer_id!r} needs a reason")
                if len(reason) > MAX_REASON_LENGTH or not reason.isprintable():
                    raise LedgerError(
                        f"transfer {entry.transfer_id!r}: the reason must be printable text of at"
                        f" most {MAX_REASON_LENGTH} characters, not {shown(reason)}"
                    )
                transfer_ids.add(entry.transfer_id)
                touch(entry.debit)
                touch(entry.credit)
                balances[entry.debit] -= entry.amount
                balances[entry.credit] += entry.amount
            elif type(entry) is HoldSet:
                check_hold_id(entry.hold_id)
                _amount(entry.amount, f"hold {entry.hold_id!r}: the amount", 0)
                touch(entry.account)
                if kind_of(entry.account) not in _LIMITED:
                    raise LedgerError(f"account {entry.account!r} cannot carry holds")
                previous = holds.get(entry.hold_id)
                if previous is None:
                    live = self._holds.get(entry.hold_id)
                    previous = None if live is None else (live.account, live.amount)
                if previous is not None:
                    if previous[0] != entry.account:
                        raise LedgerError(
                            f"hold {entry.hold_id!r} belongs to account {previous[0]!r},"
                            f" not {entry.account!r}"
                        )
                    held[entry.account] -= previous[1]
                held[entry.account] += entry.amount
                holds[entry.hold_id] = (entry.account, entry.amount)
            else:
                raise LedgerError(
                    f"a batch holds OpenAccount, Transfer and HoldSet entries, not {shown(entry)}"
                )
        for account, balance in balances.items():
            kind = kind_of(account)
            if kind is AccountKind.CLEARING and balance != 0:
                raise LedgerError(
                    f"clearing account {account!r} would end the batch at {balance}, not 0"
                )
            if kind in _LIMITED:
                if balance < 0:
                    raise InsufficientBalanceError(
                        f"account {account} would go below zero ({balance}); it has"
                        f" {self._balances.get(account, 0)}"
                    )
                if held[account] > balance and held[account] > self._held.get(account, 0):
                    raise InsufficientBalanceError(
                        f"account {account} would hold {held[account]} with a balance of"
                        f" {balance} (it may not hold more than it has)"
                    )
                if held[account] > balance:
                    raise InsufficientBalanceError(
                        f"account {account} would be left with {balance}, less than the"
                        f" {held[account]} it holds"
                    )
        if self._on_commit is not None:
            self._on_commit(batch)
        self._kinds.update(kinds)
        self._balances.update(balances)
        self._held.update(held)
        for hold_id, (account, amount) in holds.items():
            if amount:
                live = self._holds.get(hold_id)
                if live is None:
                    self._holds[hold_id] = _Hold(account, amount)
                else:
                    live.amount = amount  # the same account: checked above
            else:
                self._holds.pop(hold_id, None)
        self._transfer_ids |= transfer_ids
        self.journal.append(batch)

    def _check_account(self, account: str) -> None:
        if type(account) is not str or account not in self._kinds:
            raise UnknownAccountError(f"there is no account {shown(account, 300)}")


def _amount(value: object, what: str, minimum: int) -> int:
    """``value`` as an amount of at least ``minimum``, or a :class:`LedgerError` saying why."""
    if type(value) is not int or not minimum <= value <= MAX_AMOUNT:
        kind = "a positive whole" if minimum else "a whole"
        raise LedgerError(
            f"{what} must be {kind} number of minor units (an int) up to {MAX_AMOUNT},"
            f" got {shown(value)}"
        )
    return value
