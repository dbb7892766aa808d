"""Rules in words, for people (the terminal, the web UI, `twentyone rules`).

>>> from twentyone.presets import ONLINE
>>> describe(ONLINE)[0]
'6 decks, a fresh shoe every round'
"""

from __future__ import annotations

from twentyone.i18n import ENGLISH, N_, Translation
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
#: house options (doubling, insurance...) that do not exist in them. The lines are message ids
#: (``N_``): ``describe_preset(name, rules, t)`` gives them in ``t``'s language.
GAME_SUMMARIES: dict[str, list[str]] = {
    "exchange": [
        N_(
            "four automatic player hands and a dealer, played by the machine; customers back and lay the outcome"
        ),
        N_("an infinite deck: every card drawn independently"),
        N_(
            "player hands hit or stand by the player logic table; no double, split, surrender or insurance"
        ),
        N_("the dealer draws to 16 and stands on all 17s, and stands on five cards"),
        N_(
            "a five-card hand beats a blackjack, a blackjack beats any other 21; equal hands are a dead heat"
        ),
        N_("up to six timed betting rounds; unmatched bets lapse at the end of each"),
    ],
    "vinte": [
        N_("a banker against 1 to 7 players, people and bots; the bank rotates"),
        N_("one deck, shuffled every round; each seat's first card is dealt face down"),
        N_("bets of 1 to 5 chips; the banker's natural collects every bet"),
        N_("players hit or stand; a bust is shown and collected at once"),
        N_("the banker draws or calls the players one by one; ties go to the bank"),
    ],
}


def describe_preset(name: str, rules: Rules, t: Translation = ENGLISH) -> list[str]:
    """The rules of the preset ``name`` in words: its game's summary, or the house rules."""
    summary = GAME_SUMMARIES.get(name)
    return [t._(line) for line in summary] if summary else describe(rules, t)


def describe(rules: Rules, t: Translation = ENGLISH) -> list[str]:
    """One line per rule of a house-banked round, in plain words (English unless ``t``).

    Every line is one whole message (gettext style), so a translator never sees a fragment.
    """
    if rules.decks is None:
        shoe = t._("an infinite deck (every card drawn independently)")
    elif rules.shuffle is Shuffle.EVERY_ROUND:
        shoe = t.n_(
            "{n} deck, a fresh shoe every round", "{n} decks, a fresh shoe every round", rules.decks
        )
    elif rules.shuffle is Shuffle.CONTINUOUS:
        shoe = t.n_("{n} deck, continuous shuffle", "{n} decks, continuous shuffle", rules.decks)
    else:
        shoe = t.n_(
            "{n} deck, cut card at {penetration}",
            "{n} decks, cut card at {penetration}",
            rules.decks,
            penetration=t.percent(round(rules.penetration * 100)),
        )
    lines = [shoe]
    lines.append(
        t._("dealer hits soft 17") if rules.dealer_hits_soft_17 else t._("dealer stands on soft 17")
    )
    if rules.peek is Peek.NONE:
        lines.append(
            t._("no hole card: a dealer blackjack takes all bets")
            if rules.enhc_loses is EnhcLoses.ALL
            else t._("no hole card: a dealer blackjack takes original bets only")
        )
    else:
        lines.append(
            t._("dealer peeks for blackjack under an ace or a ten")
            if rules.peek is Peek.ACE_TEN
            else t._("dealer peeks for blackjack under an ace")
        )
    lines.append(t._("blackjack pays {ratio}", ratio=format_ratio(rules.blackjack_pays)))
    after_split = rules.double_after_split and rules.double is not Double.NONE
    lines.append(
        {
            (Double.ANY, False): t._("double on any first two cards"),
            (Double.ANY, True): t._("double on any first two cards, also after a split"),
            (Double.NINE_TO_ELEVEN, False): t._("double on 9, 10 or 11"),
            (Double.NINE_TO_ELEVEN, True): t._("double on 9, 10 or 11, also after a split"),
            (Double.TEN_TO_ELEVEN, False): t._("double on 10 or 11"),
            (Double.TEN_TO_ELEVEN, True): t._("double on 10 or 11, also after a split"),
            (Double.NONE, False): t._("no doubling"),
        }[rules.double, after_split]
    )
    if rules.max_hands > 1:
        lines.append(
            t._(
                "split pairs of equal value (any two tens), up to {hands} hands",
                hands=rules.max_hands,
            )
            if rules.split_by is SplitBy.VALUE
            else t._("split pairs of equal rank, up to {hands} hands", hands=rules.max_hands)
        )
        if rules.hit_split_aces:
            lines.append(
                t._("split aces may hit; aces resplit")
                if rules.resplit_aces
                else t._("split aces may hit; aces are not resplit")
            )
        else:
            lines.append(
                t._("split aces get one card each; aces resplit")
                if rules.resplit_aces
                else t._("split aces get one card each; aces are not resplit")
            )
    else:
        lines.append(t._("no splitting"))
    lines.append(
        {
            Surrender.NONE: t._("no surrender"),
            Surrender.LATE: t._("late surrender (half back unless the dealer has blackjack)"),
            Surrender.EARLY: t._("early surrender (half back whatever the dealer holds)"),
        }[rules.surrender]
    )
    lines.append(
        t._("insurance on an ace, up to half the bet, pays 2:1")
        if rules.insurance
        else t._("no insurance")
    )
    lines.append(t._("ties push") if rules.ties is Ties.PUSH else t._("ties go to the dealer"))
    low, high = t.money(rules.min_bet), t.money(rules.max_bet)
    lines.append(
        t._("bets {low} to {high}, one box", low=low, high=high)
        if rules.max_boxes == 1
        else t._(
            "bets {low} to {high}, up to {boxes} boxes", low=low, high=high, boxes=rules.max_boxes
        )
    )
    return lines
