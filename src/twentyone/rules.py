"""The rule parameters every game is built from, as one immutable value.

>>> from twentyone.presets import CASINO
>>> CASINO.decks, CASINO.max_hands, CASINO.peek.value
(6, 4, 'none')
>>> CASINO.replace(max_hands=2).max_hands
2
>>> CASINO.replace(max_hands=0)
Traceback (most recent call last):
...
twentyone.errors.InvalidRulesError: max_hands must be 1 to 16 (1: no split), got 0
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twentyone.errors import InvalidRulesError, shown
from twentyone.money import MAX_AMOUNT

#: The allowed ranges of the numeric rules (the errors state them).
MAX_DECKS = 8
MAX_HANDS = 16
MAX_BOXES = 7
MAX_BLACKJACK_PAYS = 10
MAX_PAYS_DENOMINATOR = 100
#: A penetration is a share of the shoe given to at most four decimals (or as a small fraction).
MAX_DENOMINATOR = 10_000


class Shuffle(enum.Enum):
    """When the shoe is shuffled."""

    EVERY_ROUND = "round"
    CUT_CARD = "cut"
    CONTINUOUS = "continuous"


class Peek(enum.Enum):
    """Whether and when the dealer checks the hole card for blackjack."""

    ACE_TEN = "ace-ten"
    ACE = "ace"
    NONE = "none"  # no hole card (ENHC): the second card comes after the players


class EnhcLoses(enum.Enum):
    """What a dealer blackjack not found by a peek takes."""

    ALL = "all"
    ORIGINAL = "original"


class Double(enum.Enum):
    """Which two-card hands may double (by best total)."""

    ANY = "any"
    NINE_TO_ELEVEN = "9-11"
    TEN_TO_ELEVEN = "10-11"
    NONE = "none"

    def allows(self, total: int) -> bool:
        """Whether a two-card hand of this best total may double."""
        # Compared by value: enum member lookups are slow in Python 3.11 and this is a hot path.
        rule = self._value_
        if rule == "any":
            return True
        if rule == "9-11":
            return 9 <= total <= 11
        if rule == "10-11":
            return 10 <= total <= 11
        return False


class SplitBy(enum.Enum):
    """Which pairs may split: equal rank only, or equal value (any two ten-value cards)."""

    RANK = "rank"
    VALUE = "value"


class Surrender(enum.Enum):
    NONE = "none"
    LATE = "late"
    EARLY = "early"


class Ties(enum.Enum):
    PUSH = "push"
    DEALER_WINS = "dealer-wins"


class FiveCardHand(enum.Enum):
    NONE = "none"
    BEATS_BLACKJACK = "beats-blackjack"


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set. ``decks=None`` is an infinite shoe.

    Every field is validated on construction; build variants with :meth:`replace`.
    """

    decks: int | None = 6
    shuffle: Shuffle = Shuffle.CUT_CARD
    penetration: Fraction = Fraction(3, 4)
    dealer_hits_soft_17: bool = False
    peek: Peek = Peek.ACE_TEN
    enhc_loses: EnhcLoses = EnhcLoses.ALL
    blackjack_pays: Fraction = Fraction(3, 2)
    double: Double = Double.ANY
    double_after_split: bool = True
    split_by: SplitBy = SplitBy.VALUE
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = Surrender.NONE
    insurance: bool = True
    ties: Ties = Ties.PUSH
    aces_high: bool = True  # False: an ace counts 1 only (a vinte-e-um variant)
    five_card_hand: FiveCardHand = FiveCardHand.NONE
    min_bet: int = 100
    max_bet: int = 50_000
    max_boxes: int = 7

    def __post_init__(self) -> None:
        _check_types(self)
        if self.decks is not None and not 1 <= self.decks <= MAX_DECKS:
            raise InvalidRulesError(
                f"decks must be 1 to {MAX_DECKS} or infinite, got {shown(self.decks)}"
            )
        if not 0 < self.penetration < 1 or self.penetration.denominator > MAX_DENOMINATOR:
            raise InvalidRulesError(
                "penetration must be a share of the shoe more than 0 and less than 1 (like 0.75),"
                f" got {_decimal(self.penetration)}"
            )
        if (
            not 0 < self.blackjack_pays <= MAX_BLACKJACK_PAYS
            or self.blackjack_pays.denominator > MAX_PAYS_DENOMINATOR
        ):
            raise InvalidRulesError(
                f"blackjack_pays must be a ratio above 0:1 and at most {MAX_BLACKJACK_PAYS}:1 with"
                f" a second number up to {MAX_PAYS_DENOMINATOR}, got {_ratioshown(self.blackjack_pays)}"
            )
        if not 1 <= self.max_hands <= MAX_HANDS:
            raise InvalidRulesError(
                f"max_hands must be 1 to {MAX_HANDS} (1: no split), got {shown(self.max_hands)}"
            )
        if not 1 <= self.min_bet <= self.max_bet <= MAX_AMOUNT:
            raise InvalidRulesError(
                f"table limits need 1 <= min_bet <= max_bet <= {MAX_AMOUNT},"
                f" got {shown(self.min_bet)}..{shown(self.max_bet)}"
            )
        if not 1 <= self.max_boxes <= MAX_BOXES:
            raise InvalidRulesError(
                f"max_boxes must be 1 to {MAX_BOXES}, got {shown(self.max_boxes)}"
            )

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from their JSON form (:meth:`to_json`, or :func:`rules_state` for the exact,
        complete form); fields not given keep their defaults. Every problem is an
        :class:`InvalidRulesError`."""
        return rules_from_json(data)

    @property
    def infinite(self) -> bool:
        return self.decks is None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated; unknown names are an error)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (the names used by scenarios and ``--json`` output)."""
        return rules_to_json(self)


_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "decks": (int, type(None)),
    "shuffle": (Shuffle,),
    "penetration": (Fraction,),
    "dealer_hits_soft_17": (bool,),
    "peek": (Peek,),
    "enhc_loses": (EnhcLoses,),
    "blackjack_pays": (Fraction,),
    "double": (Double,),
    "double_after_split": (bool,),
    "split_by": (SplitBy,),
    "max_hands": (int,),
    "resplit_aces": (bool,),
    "hit_split_aces": (bool,),
    "surrender": (Surrender,),
    "insurance": (bool,),
    "ties": (Ties,),
    "aces_high": (bool,),
    "five_card_hand": (FiveCardHand,),
    "min_bet": (int,),
    "max_bet": (int,),
    "max_boxes": (int,),
}


def _check_types(rules: Rules) -> None:
    for name, types in _FIELD_TYPES.items():
        value = getattr(rules, name)
        is_int_field = int in types and bool not in types
        if not isinstance(value, types) or (is_int_field and isinstance(value, bool)):
            expected = " or ".join("infinite" if t is type(None) else t.__name__ for t in types)
            raise InvalidRulesError(f"{name} must be {expected}, got {shown(value)}")


def _decimal(value: Fraction) -> str:
    """A fraction as a decimal for messages (``1.5``, ``0.333333``), never ``3/2``."""
    if abs(value) >= 10**18:
        return "a huge number"
    return f"{float(value):.6g}"


def _ratioshown(value: Fraction) -> str:
    if abs(value.numerator) >= 10**18 or value.denominator >= 10**18:
        return "a huge ratio"
    return format_ratio(value)


_RATIO_TEXT = re.compile(r"([0-9]{1,4}):([0-9]{1,4})")
_SHARE_TEXT = re.compile(r"[0-9]{0,6}\.[0-9]{1,6}|[0-9]{1,6}(?:/[0-9]{1,6})?")


def parse_share(text: object, what: str = "penetration") -> Fraction:
    """A share such as ``0.75`` or ``3/4`` (ASCII digits, short) as an exact fraction.

    >>> parse_share("0.8"), parse_share("2/3")
    (Fraction(4, 5), Fraction(2, 3))
    """
    if not isinstance(text, str) or not _SHARE_TEXT.fullmatch(text):
        raise InvalidRulesError(f"{what} must be a number like 0.75, got {shown(text)}")
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise InvalidRulesError(f"{what} must be a number like 0.75, got {shown(text)}") from None


def parse_ratio(text: str) -> Fraction:
    """Parse a payout ratio such as ``3:2``, ``6:5`` or ``1:1``.

    >>> parse_ratio("6:5")
    Fraction(6, 5)
    """
    match = _RATIO_TEXT.fullmatch(text) if isinstance(text, str) else None
    if match is None or int(match[2]) == 0:
        raise InvalidRulesError(f"a ratio must look like 3:2, got {shown(text)}")
    ratio = Fraction(int(match[1]), int(match[2]))
    if ratio <= 0:
        raise InvalidRulesError(f"a ratio must be positive, got {shown(text)}")
    return ratio


def format_ratio(ratio: Fraction) -> str:
    return f"{ratio.numerator}:{ratio.denominator}"


def format_shuffle(rules: Rules) -> str:
    if rules.shuffle is Shuffle.CUT_CARD:
        return f"cut:{_share_text(rules.penetration)}"
    return str(rules.shuffle.value)


def _share_text(share: Fraction) -> str:
    """A share as short decimal text when that is exact, else as ``n/d``."""
    text = f"{float(share):g}"
    return text if "e" not in text and Fraction(text) == share else format_fraction(share)


def format_fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def parse_shuffle(text: str) -> dict[str, Any]:
    """``round``, ``continuous`` or ``cut:0.75`` as Rules fields."""
    if text in ("round", "continuous"):
        return {"shuffle": Shuffle(text)}
    if isinstance(text, str) and text.startswith("cut"):
        _, colon, share = text.partition(":")
        if text != "cut" and not colon:
            raise InvalidRulesError(
                f"shuffle must be round, continuous or cut:FRACTION, got {shown(text)}"
            )
        penetration = parse_share(share) if share else Fraction(3, 4)
        return {"shuffle": Shuffle.CUT_CARD, "penetration": penetration}
    raise InvalidRulesError(f"shuffle must be round, continuous or cut:FRACTION, got {shown(text)}")


_DECKS_TEXT = re.compile(r"[0-9]{1,3}")


def parse_decks(value: object) -> int | None:
    if value is None or (isinstance(value, str) and value in ("inf", "infinite")):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _DECKS_TEXT.fullmatch(value.strip()):
        return int(value)
    raise InvalidRulesError(f"decks must be a whole number or 'inf', got {shown(value)}")


_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "peek": Peek,
    "enhc_loses": EnhcLoses,
    "double": Double,
    "split_by": SplitBy,
    "surrender": Surrender,
    "ties": Ties,
    "five_card_hand": FiveCardHand,
}
_BOOL_FIELDS = {
    "dealer_hits_soft_17",
    "double_after_split",
    "resplit_aces",
    "hit_split_aces",
    "insurance",
    "aces_high",
}
_INT_FIELDS = {"max_hands", "min_bet", "max_bet", "max_boxes"}


#: The playing rules a scenario may override (spec interfaces.md): everything but the shoe's
#: shuffling and the table's limits and box count, which stay the preset's.
PLAYING_RULE_KEYS = (
    "decks",
    "dealer_hits_soft_17",
    "peek",
    "enhc_loses",
    "blackjack_pays",
    "double",
    "double_after_split",
    "split_by",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
    "surrender",
    "insurance",
    "ties",
)


def rules_to_json(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"decks": "inf" if rules.decks is None else rules.decks}
    out["shuffle"] = format_shuffle(rules)
    for name in _BOOL_FIELDS | _INT_FIELDS:
        out[name] = getattr(rules, name)
    for name in _ENUM_FIELDS:
        out[name] = getattr(rules, name).value
    out["blackjack_pays"] = format_ratio(rules.blackjack_pays)
    return dict(sorted(out.items()))


def rules_state(rules: Rules) -> dict[str, Any]:
    """The exact and complete JSON form of ``rules`` (saved game states): :func:`rules_to_json`
    plus the penetration as a fraction; :meth:`Rules.from_json` reads it back unchanged.

    >>> from twentyone.presets import CASINO
    >>> Rules.from_json(rules_state(CASINO.replace(penetration=Fraction(2, 3)))).penetration
    Fraction(2, 3)
    """
    return {**rules_to_json(rules), "penetration": format_fraction(rules.penetration)}


def overrides_from_json(data: object) -> dict[str, Any]:
    """Turn JSON rule overrides (scenario ``rules`` object) into Rules fields."""
    if not isinstance(data, dict):
        raise InvalidRulesError(f"rules must be an object of overrides, got {type(data).__name__}")
    fields: dict[str, Any] = {}
    penetration: Fraction | None = None
    for key, value in data.items():
        if key == "decks":
            fields["decks"] = parse_decks(value)
        elif key == "shuffle":
            if not isinstance(value, str):
                raise InvalidRulesError(
                    f"shuffle must be round, continuous or cut:FRACTION, got {shown(value)}"
                )
            fields.update(parse_shuffle(value))
        elif key == "penetration":
            penetration = parse_share(value)
        elif key == "blackjack_pays":
            fields["blackjack_pays"] = parse_ratio(value)
        elif key in _ENUM_FIELDS:
            members = _ENUM_FIELDS[key]
            member = next((m for m in members if isinstance(value, str) and m.value == value), None)
            if member is None:
                allowed = ", ".join(str(m.value) for m in members)
                raise InvalidRulesError(f"{key} must be one of {allowed}, got {shown(value)}")
            fields[key] = member
        elif key in _BOOL_FIELDS:
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{key} must be true or false, got {shown(value)}")
            fields[key] = value
        elif key in _INT_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRulesError(f"{key} must be a whole number, got {shown(value)}")
            fields[key] = value
        else:
            raise InvalidRulesError(f"unknown rule option {shown(key)}")
    if penetration is not None:  # after "shuffle", whose cut:X also sets it
        fields["penetration"] = penetration
    return fields


def rules_from_json(data: object, base: Rules | None = None) -> Rules:
    """Apply JSON overrides to ``base`` (default: :class:`Rules` defaults)."""
    return (base or Rules()).replace(**overrides_from_json(data))
