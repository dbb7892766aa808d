"""Rules in words, for people (the terminal, the web UI, `twentyone rules`).

>>> from twentyone.presets import ONLINE
>>> describe(ONLINE)[0]
'6 decks, a fresh shoe every round'
"""

from __future__ import annotations

from twentyone.money import format_money
from twentyone.rules import (
    Double,
    EnhcLoses,
    Peek,
    Rules,
    Shuffle,
    SplitBy,
    Surrender,
    Ties,
    format_ratio,
)

#: Games that are not house-banked rounds are described by their own summaries, not by the
#: house options (doubling, insurance...) that do not exist in them.
GAME_SUMMARIES: dict[str, list[str]] = {
    "exchange": [
        "four automatic player hands and a dealer, played by the machine; customers back and lay the outcome",
        "an infinite deck: every card drawn independently",
        "player hands hit or stand by the player logic table; no double, split, surrender or insurance",
        "the dealer draws to 16 and stands on all 17s, and stands on five cards",
        "a five-card hand beats a blackjack, a blackjack beats any other 21; equal hands are a dead heat",
        "up to six timed betting rounds; unmatched bets lapse at the end of each",
    ],
    "vinte": [
        "a banker against 1 to 7 players, people and bots; the bank rotates",
        "one deck, shuffled every round; each seat's first card is dealt face down",
        "bets of 1 to 5 chips; the banker's natural collects every bet",
        "players hit or stand; a bust is shown and collected at once",
        "the banker draws or calls the players one by one; ties go to the bank",
    ],
}


def describe_preset(name: str, rules: Rules) -> list[str]:
    """The rules of the preset ``name`` in words: its game's summary, or the house rules."""
    return GAME_SUMMARIES.get(name) or describe(rules)


def describe(rules: Rules) -> list[str]:
    """One line per rule of a house-banked round, in plain English."""
    if rules.decks is None:
        shoe = "an infinite deck (every card drawn independently)"
    else:
        decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
        shoe = {
            Shuffle.EVERY_ROUND: f"{decks}, a fresh shoe every round",
            Shuffle.CONTINUOUS: f"{decks}, continuous shuffle",
            Shuffle.CUT_CARD: f"{decks}, cut card at {float(rules.penetration):.0%}",
        }[rules.shuffle]
    lines = [shoe]
    lines.append("dealer hits soft 17" if rules.dealer_hits_soft_17 else "dealer stands on soft 17")
    if rules.peek is Peek.NONE:
        takes = "all bets" if rules.enhc_loses is EnhcLoses.ALL else "original bets only"
        lines.append(f"no hole card: a dealer blackjack takes {takes}")
    else:
        under = "an ace or a ten" if rules.peek is Peek.ACE_TEN else "an ace"
        lines.append(f"dealer peeks for blackjack under {under}")
    lines.append(f"blackjack pays {format_ratio(rules.blackjack_pays)}")
    lines.append(
        {
            Double.ANY: "double on any first two cards",
            Double.NINE_TO_ELEVEN: "double on 9, 10 or 11",
            Double.TEN_TO_ELEVEN: "double on 10 or 11",
            Double.NONE: "no doubling",
        }[rules.double]
        + (
            ", also after a split"
            if rules.double_after_split and rules.double is not Double.NONE
            else ""
        )
    )
    if rules.max_hands > 1:
        pairs = "equal value (any two tens)" if rules.split_by is SplitBy.VALUE else "equal rank"
        lines.append(f"split pairs of {pairs}, up to {rules.max_hands} hands")
        aces = "split aces get one card each" if not rules.hit_split_aces else "split aces may hit"
        lines.append(aces + ("; aces resplit" if rules.resplit_aces else "; aces are not resplit"))
    else:
        lines.append("no splitting")
    lines.append(
        {
            Surrender.NONE: "no surrender",
            Surrender.LATE: "late surrender (half back unless the dealer has blackjack)",
            Surrender.EARLY: "early surrender (half back whatever the dealer holds)",
        }[rules.surrender]
    )
    lines.append(
        "insurance on an ace, up to half the bet, pays 2:1" if rules.insurance else "no insurance"
    )
    lines.append("ties push" if rules.ties is Ties.PUSH else "ties go to the dealer")
    boxes = "one box" if rules.max_boxes == 1 else f"up to {rules.max_boxes} boxes"
    lines.append(f"bets {format_money(rules.min_bet)} to {format_money(rules.max_bet)}, {boxes}")
    return lines
