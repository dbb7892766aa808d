"""The rule options people change (the command line's ``--decks``, ``--s17`` ... and the rules
lab's form) as data: one list, so the two can never drift apart.

Each :class:`RuleOption` names a setting in people's terms (``s17``, ``bj_pays: "6:5"``) and
says how its value becomes fields of :class:`~twentyone.rules.Rules`.

>>> from twentyone.presets import CASINO
>>> rules = apply_rule_options(CASINO, {"decks": "2", "s17": False, "bj_pays": "6:5"})
>>> rules.decks, rules.dealer_hits_soft_17, str(rules.blackjack_pays)
(2, True, '6/5')
>>> form_values(rules)["bj_pays"]
'6:5'
>>> apply_rule_options(CASINO, {"bj_pays": "lots"})
Traceback (most recent call last):
...
twentyone.errors.InvalidRulesError: bj_pays: a ratio must look like 3:2, got 'lots'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from twentyone.errors import InvalidRulesError, shown
from twentyone.i18n import N_
from twentyone.rules import (
    Double,
    EnhcLoses,
    Peek,
    Rules,
    Surrender,
    format_ratio,
    format_shuffle,
    parse_decks,
    parse_ratio,
    parse_shuffle,
)

__all__ = [
    "OPTIONS_BY_NAME",
    "RULE_OPTIONS",
    "RuleOption",
    "apply_rule_options",
    "form_values",
    "option_fields",
]


@dataclass(frozen=True)
class RuleOption:
    """One rule option of the command line, as the lab's form shows it.

    ``kind``: ``bool`` (a switch), ``int`` (a whole number from ``minimum`` to ``maximum``),
    ``choice`` (one of ``choices``) or ``text`` (free text; ``choices`` are suggestions).
    """

    name: str
    label: str
    kind: str
    help: str
    flag: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "help": self.help,
            "flag": self.flag,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.kind == "int":
            out["min"], out["max"] = self.minimum, self.maximum
        return out


#: The rule options, in the order the command line and the lab's form show them.
RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "decks",
        N_("Decks"),
        "text",
        N_("Number of decks, or 'inf' for an infinite shoe."),
        "--decks",
        ("1", "2", "4", "5", "6", "8", "inf"),
    ),
    RuleOption(
        "s17",
        N_("Dealer stands on soft 17"),
        "bool",
        N_("Dealer stands (S17) or hits (H17) soft 17."),
        "--s17/--h17",
    ),
    RuleOption(
        "peek",
        N_("Dealer peek"),
        "choice",
        N_("Dealer peeks under ace and ten, ace only, or has no hole card."),
        "--peek",
        tuple(p.value for p in Peek),
    ),
    RuleOption(
        "enhc_loses",
        N_("No-peek BJ takes"),
        "choice",
        N_("What an unpeeked dealer blackjack takes: all bets or original only."),
        "--enhc-loses",
        tuple(e.value for e in EnhcLoses),
    ),
    RuleOption(
        "bj_pays",
        N_("Blackjack pays"),
        "text",
        N_("Blackjack payout ratio, e.g. 3:2 or 6:5."),
        "--bj-pays",
        ("3:2", "7:5", "6:5", "2:1", "1:1"),
    ),
    RuleOption(
        "double",
        N_("Double on"),
        "choice",
        N_("Which hands may double."),
        "--double",
        tuple(d.value for d in Double),
    ),
    RuleOption(
        "das", N_("Double after split"), "bool", N_("Double after split."), "--das/--no-das"
    ),
    RuleOption(
        "max_hands",
        N_("Split to hands"),
        "int",
        N_("Most hands one box can split into."),
        "--max-hands",
        minimum=1,
        maximum=16,
    ),
    RuleOption(
        "resplit_aces",
        N_("Resplit aces"),
        "bool",
        N_("Resplit aces."),
        "--resplit-aces/--no-resplit-aces",
    ),
    RuleOption(
        "hit_split_aces",
        N_("Hit split aces"),
        "bool",
        N_("Hit split aces."),
        "--hit-split-aces/--no-hit-split-aces",
    ),
    RuleOption(
        "surrender",
        N_("Surrender"),
        "choice",
        N_("Surrender: none, late or early."),
        "--surrender",
        tuple(s.value for s in Surrender),
    ),
    RuleOption(
        "shuffle",
        N_("Shuffle"),
        "text",
        N_("round, continuous or cut:FRACTION (e.g. cut:0.75)."),
        "--shuffle",
        ("round", "continuous", "cut:0.5", "cut:0.66", "cut:0.75", "cut:0.8", "cut:0.85"),
    ),
)
OPTIONS_BY_NAME = {option.name: option for option in RULE_OPTIONS}


def form_values(rules: Rules) -> dict[str, Any]:
    """``rules`` in the terms of :data:`RULE_OPTIONS` (what the form shows)."""
    return {
        "decks": "inf" if rules.decks is None else str(rules.decks),
        "s17": not rules.dealer_hits_soft_17,
        "peek": rules.peek.value,
        "enhc_loses": rules.enhc_loses.value,
        "bj_pays": format_ratio(rules.blackjack_pays),
        "double": rules.double.value,
        "das": rules.double_after_split,
        "max_hands": rules.max_hands,
        "resplit_aces": rules.resplit_aces,
        "hit_split_aces": rules.hit_split_aces,
        "surrender": rules.surrender.value,
        "shuffle": format_shuffle(rules),
    }


def option_fields(option: RuleOption, value: object) -> dict[str, Any]:
    """The Rules fields one option's value sets; :class:`InvalidRulesError` for a bad value."""
    _check_kind(option, value)
    return _fields_of(option.name, value)


def _check_kind(option: RuleOption, value: object) -> None:
    name = option.name
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidRulesError(f"{name} must be true or false, got {shown(value)}")
    elif option.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRulesError(f"{name} must be a whole number, got {shown(value)}")
        assert option.minimum is not None and option.maximum is not None
        if not option.minimum <= value <= option.maximum:
            raise InvalidRulesError(
                f"{name} must be {option.minimum} to {option.maximum}, got {value}"
            )
    elif not isinstance(value, str) and not (name == "decks" and isinstance(value, int)):
        raise InvalidRulesError(f"{name} must be text, got {shown(value)}")
    elif option.kind == "choice" and value not in option.choices:
        raise InvalidRulesError(
            f"{name} must be one of {', '.join(option.choices)}, got {shown(value)}"
        )


def _fields_of(name: str, value: Any) -> dict[str, Any]:
    if name == "decks":
        return {"decks": parse_decks(str(value))}
    if name == "s17":
        return {"dealer_hits_soft_17": not value}
    if name == "peek":
        return {"peek": Peek(value)}
    if name == "enhc_loses":
        return {"enhc_loses": EnhcLoses(value)}
    if name == "bj_pays":
        return {"blackjack_pays": parse_ratio(value)}
    if name == "double":
        return {"double": Double(value)}
    if name == "das":
        return {"double_after_split": value}
    if name == "surrender":
        return {"surrender": Surrender(value)}
    if name == "shuffle":
        return parse_shuffle(value)
    return {name: value}  # max_hands, resplit_aces, hit_split_aces: the Rules field's name


def apply_rule_options(
    rules: Rules,
    values: Mapping[str, object],
    named: Callable[[RuleOption], str] = lambda option: option.name,
) -> Rules:
    """``rules`` with each option of ``values`` applied (a ``None`` value leaves it as it is).

    :class:`InvalidRulesError` names the first problem: an unknown option, a value of the
    wrong kind, or rules that do not hold together; ``named`` says how a message names an
    option (the command line uses its flag, ``--decks``).
    """
    changes: dict[str, Any] = {}
    for name, value in values.items():
        option = OPTIONS_BY_NAME.get(name)
        if option is None:
            raise InvalidRulesError(
                f"unknown rule option {shown(name)} (expected one of {', '.join(OPTIONS_BY_NAME)})"
            )
        if value is None:
            continue
        try:
            changes.update(option_fields(option, value))
        except InvalidRulesError as error:
            message = str(error)
            if not message.startswith(option.name):  # say which option, once
                message = f"{named(option)}: {message}"
            raise InvalidRulesError(message) from None
    return rules.replace(**changes)
