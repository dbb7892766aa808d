"""``twentyone hand``: the hand calculator against the exact analysis, published figures and an
independent brute force, and its command line (text, JSON, bad input)."""

from __future__ import annotations

import functools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.analysis.engine import cached_context, initial_hands, prepare, round_value
from twentyone.analysis.hand_calculator import calculate
from twentyone.analysis.house_edge import optimal_by_upcard
from twentyone.analysis.shoe_counts import LABELS, full_shoe_counts
from twentyone.cli.main import cli
from twentyone.presets import CASINO
from twentyone.rules import Peek, Rules, Surrender

ONE_DECK_PEEK = Rules(decks=1, peek=Peek.ACE_TEN, surrender=Surrender.LATE)
SIX_DECK_ENHC = CASINO  # 6 decks, S17, no hole card, late surrender


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


# --- the same values as the analysis ---------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "up"),
    [(SIX_DECK_ENHC, 5), (SIX_DECK_ENHC, 9), (ONE_DECK_PEEK, 0), (ONE_DECK_PEEK, 9)],
)
def test_every_two_card_hand_has_the_analysis_values(rules: Rules, up: int) -> None:
    context = cached_context(prepare(rules), up)
    checked = 0
    for hand in initial_hands(context):
        if hand.blackjack:
            continue
        calc = calculate(rules, [LABELS[hand.first], LABELS[hand.second]], LABELS[up])
        # The analysis weights a peeked hand's values by P(no dealer blackjack); the
        # calculator shows them given no blackjack.
        scale = float(context.base.no_blackjack[hand.hand]) if context.peeked else 1.0
        assert set(calc.actions) == set(hand.options)
        for name, value in hand.options.items():
            assert calc.actions[name] * scale == pytest.approx(value, abs=1e-12), name
        checked += 1
    assert checked >= 50


@pytest.mark.parametrize(("rules", "up"), [(SIX_DECK_ENHC, 5), (ONE_DECK_PEEK, 9)])
def test_the_calculators_best_moves_give_the_analysis_ev_by_upcard(rules: Rules, up: int) -> None:
    context = cached_context(prepare(rules), up)
    total = 0.0
    for hand in initial_hands(context):
        calc = calculate(rules, [LABELS[hand.first], LABELS[hand.second]], LABELS[up])
        scale = float(context.base.no_blackjack[hand.hand]) if context.peeked else 1.0
        best = calc.actions[calc.best]
        if hand.blackjack:
            best = float(rules.blackjack_pays) * float(context.base.no_blackjack[hand.hand])
            total += hand.probability * best
            continue
        total += hand.probability * round_value(context, hand, best * scale)
    assert total == pytest.approx(optimal_by_upcard(rules)[up], abs=1e-12)


def test_infinite_shoe_fractions_are_the_floats() -> None:
    rules = Rules(decks=None, surrender=Surrender.LATE)
    for cards, up in [
        (["8", "8"], "T"),
        (["A", "7"], "9"),
        (["T", "6"], "A"),
        (["5", "4", "2"], "6"),
    ]:
        calc = calculate(rules, cards, up)
        assert calc.exact is not None and set(calc.exact) == set(calc.actions)
        for name, fraction in calc.exact.items():
            assert float(fraction) == pytest.approx(calc.actions[name], abs=1e-12), (cards, name)


# --- published figures -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "up", "stand", "hit", "double"),
    [
        # Wizard of Odds, blackjack Appendix 9 (one deck, S17, no dealer blackjack).
        (["2", "A"], "A", -0.661732, -0.067808, -0.593281),
        (["6", "4"], "A", -0.636118, +0.081506, +0.048615),
        (["T", "5"], "T", -0.538433, -0.501091, -1.002183),
    ],
)
def test_published_one_deck_values(
    hand: list[str], up: str, stand: float, hit: float, double: float
) -> None:
    calc = calculate(Rules(decks=1), hand, up)
    assert calc.peeked
    assert calc.actions["stand"] == pytest.approx(stand, abs=5e-7)
    assert calc.actions["hit"] == pytest.approx(hit, abs=5e-7)
    assert calc.actions["double"] == pytest.approx(double, abs=5e-7)


def test_stand_on_16_against_6_infinite_is_exactly_the_published_bust_chance() -> None:
    # P(dealer busts | 6 up, infinite shoe, S17) = 345176856 / 13^8 (published.md): a 16
    # wins exactly when he busts.
    calc = calculate(Rules(decks=None), ["T", "6"], "6")
    assert calc.exact is not None
    assert calc.exact["stand"] == 2 * Fraction(345176856, 13**8) - 1


# --- an independent brute force: a plain recursive dealer in fractions -----------------


def _dealer(counts: tuple[int, ...], hard: int, ace: bool, cards: int) -> dict[str, Fraction]:
    """The dealer's final results (S17) drawing from ``counts`` (index 0 = ace)."""
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    if total > 21:
        return {"bust": Fraction(1)}
    if total >= 17:
        return {"blackjack" if total == 21 and cards == 2 else str(total): Fraction(1)}
    found: dict[str, Fraction] = {}
    size = sum(counts)
    for value, count in enumerate(counts):
        if count == 0:
            continue
        left = tuple(c - (i == value) for i, c in enumerate(counts))
        for result, chance in _dealer(left, hard + value + 1, ace or value == 0, cards + 1).items():
            found[result] = found.get(result, Fraction(0)) + Fraction(count, size) * chance
    return found


@functools.cache
def _stand(counts: tuple[int, ...], up: int, total: int, peeked: bool) -> Fraction:
    dealer = _dealer(counts, up + 1, up == 0, 1)
    if peeked:
        no_blackjack = 1 - dealer.get("blackjack", Fraction(0))
        dealer = {k: v / no_blackjack for k, v in dealer.items() if k != "blackjack"}
    value = Fraction(0)
    for result, chance in dealer.items():
        if result == "bust" or (result != "blackjack" and total > int(result)):
            value += chance
        elif result == "blackjack" or total < int(result):
            value -= chance
    return value


def _best(counts: tuple[int, ...], up: int, hand: tuple[int, ...], peeked: bool) -> Fraction:
    hard = sum(v + 1 for v in hand)
    total = hard + 10 if 0 in hand and hard + 10 <= 21 else hard
    stand = _stand(counts, up, total, peeked)
    return stand if total == 21 else max(stand, _hit(counts, up, hand, peeked))


def _hit(counts: tuple[int, ...], up: int, hand: tuple[int, ...], peeked: bool) -> Fraction:
    # With a peek, the hole card is not a blackjack card; drawing from the shoe then needs
    # the hole card's conditioning, which this plain recursion does not do: it is only used
    # where the up card cannot make a blackjack.
    assert not peeked
    value = Fraction(0)
    size = sum(counts)
    for card, count in enumerate(counts):
        if count == 0:
            continue
        left = tuple(c - (i == card) for i, c in enumerate(counts))
        grown = (*hand, card)
        if sum(v + 1 for v in grown) > 21:
            value -= Fraction(count, size)
        else:
            value += Fraction(count, size) * _best(left, up, grown, peeked)
    return value


def _remaining(decks: int, *values: int) -> tuple[int, ...]:
    counts = list(full_shoe_counts(decks))
    for value in values:
        counts[value] -= 1
    return tuple(counts)


@pytest.mark.parametrize(
    ("cards", "up", "peek"),
    [
        (["T", "7"], "6", Peek.NONE),
        (["9", "9"], "5", Peek.ACE_TEN),
        (["T", "8"], "T", Peek.ACE_TEN),
        (["T", "2"], "A", Peek.ACE_TEN),
        (["5", "4", "7"], "9", Peek.NONE),
    ],
)
def test_stand_ev_is_the_brute_force_dealers(cards: list[str], up: str, peek: Peek) -> None:
    rules = Rules(decks=1, peek=peek)
    values = [LABELS.index(card) for card in cards]
    upcard = LABELS.index(up)
    calc = calculate(rules, cards, up)
    expected = _stand(_remaining(1, *values, upcard), upcard, calc.total, calc.peeked)
    assert calc.actions["stand"] == pytest.approx(float(expected), abs=1e-12)
    assert calc.exact is not None and calc.exact["stand"] == expected  # exactly


def test_finite_shoe_fractions_are_the_floats() -> None:
    for rules in (SIX_DECK_ENHC, ONE_DECK_PEEK, Rules(decks=2, surrender=Surrender.EARLY)):
        for cards, up in [
            (["8", "8"], "6"),
            (["T", "6"], "T"),
            (["A", "7"], "A"),
            (["7", "4", "A", "9"], "T"),
        ]:
            calc = calculate(rules, cards, up)
            assert calc.exact is not None and "stand" in calc.exact
            assert ("surrender" in calc.exact) == (len(cards) == 2)
            for name, fraction in calc.exact.items():
                assert float(fraction) == pytest.approx(calc.actions[name], abs=1e-12), name


@pytest.mark.parametrize(("cards", "up"), [(["T", "9"], "6"), (["T", "8"], "7"), (["9", "8"], "5")])
def test_hit_ev_is_the_brute_force_players(cards: list[str], up: str) -> None:
    rules = Rules(decks=1)
    values = tuple(LABELS.index(card) for card in cards)
    upcard = LABELS.index(up)
    expected = _hit(_remaining(1, *values, upcard), upcard, values, False)
    assert calculate(rules, cards, up).actions["hit"] == pytest.approx(float(expected), abs=1e-12)


# --- the command ---------------------------------------------------------------------------


def test_text_shows_signed_percentages_and_marks_the_best() -> None:
    code, out, err = run("hand", "8S", "8D", "--up", "6H", "--decks", "6")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "8S 8D (pair, hard 16) against 6H"
    assert "309 cards" in out and "8:22" in out and "6:23" in out
    split = next(line for line in lines if line.strip().startswith("split"))
    assert split.rstrip().endswith("<- best") and "+40.57%" in split
    stand = next(line for line in lines if line.strip().startswith("stand"))
    assert "-15.75%" in stand and "best" not in stand
    assert "/" not in out.split("\n", 2)[2].replace("A/T", "")  # no fractions in text


def test_insurance_is_shown_against_an_ace() -> None:
    code, out, _ = run("hand", "6", "4", "--up", "A", "--decks", "1", "--peek", "ace-ten")
    assert code == 0
    assert "given the dealer has no blackjack" in out
    assert "insurance: -2.04% per unit insured" in out


def test_json_gives_floats_and_exact_fractions() -> None:
    code, out, _ = run("hand", "T", "6", "--up", "6", "--decks", "inf", "--json")
    assert code == 0
    data = json.loads(out)
    stand = data["actions"]["stand"]
    assert Fraction(stand["exact"]) == 2 * Fraction(345176856, 13**8) - 1
    assert stand["ev"] == pytest.approx(float(Fraction(stand["exact"])), abs=1e-15)
    assert data["best"] in data["actions"] and data["remaining"] is None
    code, out, _ = run("hand", "8S", "8D", "--up", "AH", "--json")
    data = json.loads(out)
    assert data["actions"]["split"]["exact"] is None and data["remaining"]["8"] == 22
    assert data["actions"]["stand"]["exact"] is not None
    assert data["insurance"]["ev"] == pytest.approx(3 * 96 / 309 - 1)
    assert Fraction(data["insurance"]["exact"]) == Fraction(3 * 96, 309) - 1


def test_early_surrender_is_weighed_before_the_peek() -> None:
    # 14 against an ace: given no blackjack hitting (-44%) beats -50%, but early surrender is
    # chosen before the peek, where hitting also loses to the dealer's blackjacks (basic
    # strategy with early surrender gives up hard 12-17 against an ace).
    calc = calculate(Rules(decks=6, surrender=Surrender.EARLY), ["T", "4"], "A")
    assert calc.actions["hit"] > calc.actions["surrender"] == -0.5
    assert calc.best == "surrender" and calc.cost("surrender") == 0.0
    blackjack = 95 / 309  # the tens left after T, 4 and the ace
    hit_before_peek = calc.actions["hit"] * (1 - blackjack) - blackjack
    assert calc.cost("hit") == pytest.approx(-0.5 - hit_before_peek, abs=1e-12)
    late = calculate(Rules(decks=6, surrender=Surrender.LATE), ["T", "4"], "A")
    assert late.best == "hit" and late.decision_values == late.actions


def test_a_blackjack_is_paid() -> None:
    code, out, _ = run("hand", "AS", "KD", "--up", "9H", "--json")
    assert code == 0 and json.loads(out)["actions"] == {"blackjack": {"ev": 1.5, "exact": "3/2"}}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("8S", "8S", "--up", "6H", "--decks", "1"), ("8S", "1-deck")),
        (("5", "5", "5", "5", "--up", "5", "--decks", "1"), ("5", "holds only 4")),
        (("8S", "8D"), ("--up",)),
        (("TS", "8D", "5C", "--up", "6H"), ("bust",)),
        (("TS", "--up", "6H"), ("two cards",)),
        (("TS", "ZZ", "--up", "6H"), ("ZZ",)),
        (("TS", "8D", "--up", "X"), ("X",)),
        (("TS", "8D", "--up", "6", "--split-strategy", "cdp9"), ("cdp9",)),
    ],
)
def test_bad_input_is_one_line_exit_2(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    code, out, err = run("hand", *args)
    assert code == 2, (out, err)
    assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err + out
    for word in words:
        assert word in err, (word, err)


_TOKENS = ["8S", "8D", "AS", "KD", "TH", "10C", "5", "A", "K", "ZZ", "", " ", "1S", "٨", "8s", "-1"]


@settings(max_examples=40, deadline=None)
@given(
    cards=st.lists(st.sampled_from(_TOKENS), max_size=6),
    up=st.one_of(st.none(), st.sampled_from(_TOKENS)),
    decks=st.sampled_from(["1", "2", "6", "inf", "0", "x"]),
)
def test_any_input_is_an_answer_or_one_line_error(
    cards: list[str], up: str | None, decks: str
) -> None:
    args = ["hand", *cards, "--decks", decks, *([] if up is None else ["--up", up])]
    code, out, err = run(*args)
    assert code in (0, 2), (args, code, out, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.startswith("twentyone: error: ") and err.count("\n") == 1, (args, err)
    else:
        assert "<- best" in out
