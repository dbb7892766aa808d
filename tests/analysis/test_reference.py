"""The fast engine against the slow reference (fractions, plain recursion) on small shoes."""

from __future__ import annotations

import pytest

from tests.analysis.reference import Reference
from twentyone.analysis.dealer import dealer_distribution
from twentyone.analysis.dealer_table import OUTCOMES
from twentyone.analysis.engine import analyze_upcard, prepare
from twentyone.analysis.hand_ev import hand_ev
from twentyone.analysis.shoe_counts import LABELS
from twentyone.rules import Double, EnhcLoses, Peek, Rules, Surrender

ONE_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
#: Reduced one-deck shoes: enough card value (over 3 * 31 + 21) that no round can run out,
#: few enough cards for the reference to recurse quickly.
SMALL = (1, 1, 1, 1, 1, 1, 1, 2, 1, 7)
SPLIT_SHOE = (3, 0, 1, 0, 1, 1, 0, 3, 1, 9)
FOUR_HAND_SHOE = (2, 0, 1, 0, 1, 1, 0, 5, 0, 9)
#: Small cards enough that two or three split hands (eights, tens) can all bust.
BUST_SHOE = (2, 0, 2, 0, 2, 2, 0, 4, 0, 8)
TOLERANCE = 1e-12

PEEK = Rules(decks=1, peek=Peek.ACE_TEN, max_hands=2, surrender=Surrender.LATE)
ENHC_ALL = Rules(
    decks=1, peek=Peek.NONE, enhc_loses=EnhcLoses.ALL, max_hands=2, surrender=Surrender.LATE
)
ENHC_OBO = ENHC_ALL.replace(enhc_loses=EnhcLoses.ORIGINAL, dealer_hits_soft_17=True)
ACE_PEEK_H17 = Rules(decks=1, peek=Peek.ACE, dealer_hits_soft_17=True, max_hands=2)


@pytest.mark.parametrize("shoe", [ONE_DECK, SMALL])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_dealer_distribution_matches_reference(shoe: tuple[int, ...], hits_soft_17: bool) -> None:
    rules = Rules(decks=1, dealer_hits_soft_17=hits_soft_17)
    for up in range(10):
        if shoe[up] == 0:
            continue
        fast = dealer_distribution(rules, up, shoe)
        slow = Reference(rules, shoe, up).dealer_from(Reference(rules, shoe, up).shoe)
        assert sum(fast.values()) == pytest.approx(1.0, abs=TOLERANCE)
        for name, expected in zip(OUTCOMES, slow, strict=True):
            assert fast[name] == pytest.approx(float(expected), abs=TOLERANCE), (up, name)


def _hands(shoe: tuple[int, ...], up: int) -> list[tuple[int, int]]:
    left = list(shoe)
    left[up] -= 1
    return [
        (a, b)
        for a in range(10)
        for b in range(a, 10)
        if left[a] > 0 and left[b] > (1 if a == b else 0)
    ]


@pytest.mark.parametrize(
    "rules",
    [PEEK, ENHC_ALL, ENHC_OBO, ACE_PEEK_H17],
    ids=["peek", "enhc-all", "enhc-obo", "ace-peek"],
)
@pytest.mark.parametrize("up", [0, 9, pytest.param(5, marks=pytest.mark.slow)])
def test_hand_values_match_reference(rules: Rules, up: int) -> None:
    reference = Reference(rules, SMALL, up)
    for first, second in _hands(SMALL, up):
        hand = [0] * 10
        hand[first] += 1
        hand[second] += 1
        slow = reference.values(tuple(hand))
        fast = hand_ev(rules, [LABELS[first], LABELS[second]], LABELS[up], SMALL)
        for name, expected in slow.items():
            got = fast.options[name]
            assert got == pytest.approx(float(expected), abs=TOLERANCE), (first, second, name)


@pytest.mark.parametrize(
    "rules",
    [PEEK, ENHC_ALL, ACE_PEEK_H17],
    ids=["peek", "enhc-all", "ace-peek"],
)
@pytest.mark.parametrize("up", [0, 9, 5])
def test_two_hand_splits_match_the_true_game(rules: Rules, up: int) -> None:
    reference = Reference(rules, SPLIT_SHOE, up)
    for pair in (0, 7):
        fast = hand_ev(rules, [LABELS[pair]] * 2, LABELS[up], SPLIT_SHOE).split
        assert fast is not None
        assert fast == pytest.approx(float(reference.split_true_game(pair)), abs=TOLERANCE)


@pytest.mark.parametrize("max_hands", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    "variation",
    [{}, {"resplit_aces": True, "hit_split_aces": True}, {"double_after_split": False}],
    ids=["das", "rsa-hsa", "no-das"],
)
def test_original_bets_only_takes_one_bet_from_a_split_box(
    max_hands: int, variation: dict[str, bool]
) -> None:
    # No hole card, original bets only: a dealer blackjack takes one original bet from the
    # box (nothing more if every split hand is bust), as the round engine settles it. The
    # hands' busts are correlated on these tiny shoes (on SPLIT_SHOE they can never all bust,
    # where taken as independent they would: 3.4e-4 of a unit against a ten); the engine's
    # walk over their compositions is exact.
    rules = ENHC_OBO.replace(max_hands=max_hands, **variation)
    for shoe, pairs in ((SPLIT_SHOE, (0, 7)), (BUST_SHOE, (9,))):
        for up in (0, 5, 9):
            reference = Reference(rules, shoe, up)
            for pair in pairs:
                fast = hand_ev(rules, [LABELS[pair]] * 2, LABELS[up], shoe).split
                expected = float(reference.split_true_game(pair))
                assert fast == pytest.approx(expected, abs=TOLERANCE), (up, pair)


@pytest.mark.parametrize("up", [0, 9])
def test_original_bets_only_with_four_hands_really_dealt(up: int) -> None:
    # Five eights in the shoe: four hands happen and all of them can bust together.
    rules = Rules(decks=2, peek=Peek.NONE, enhc_loses=EnhcLoses.ORIGINAL, max_hands=4)
    reference = Reference(rules, FOUR_HAND_SHOE, up)
    fast = hand_ev(rules, ["8", "8"], LABELS[up], FOUR_HAND_SHOE).split
    assert fast == pytest.approx(float(reference.split_true_game(7)), abs=TOLERANCE)


def test_every_split_hand_busting_is_walked_exactly() -> None:
    # P(all split hands bust), set against a brute-force deal of the hands one after another
    # (the order does not matter), and the cheap bounds around it.
    from twentyone.analysis.engine import split_strategy, upcard_context
    from twentyone.analysis.split_busts import all_bust_bounds, all_bust_chance

    rules = ENHC_OBO.replace(max_hands=3)
    for up, pair in ((9, 7), (0, 7), (9, 9)):
        context = upcard_context(prepare(rules, BUST_SHOE), up)
        strategy = split_strategy(context, pair)
        shoe = context.shoe.copy()
        shoe[pair] -= 2
        reference = Reference(rules, BUST_SHOE, up)
        expected = _all_bust(reference, tuple(int(c) for c in shoe), pair, 2, 0, rules.max_hands)
        got = all_bust_chance(context.setup.space, strategy, pair, shoe, rules.max_hands)
        assert got == pytest.approx(float(expected), abs=TOLERANCE), (up, pair)
        assert 0.0 < got < 1.0
        for work in (0.0, 20.0, 200.0):
            low, high = all_bust_bounds(context.setup.space, strategy, pair, shoe, 3, work)
            assert low <= got + TOLERANCE and got <= high + TOLERANCE, work
        assert all_bust_bounds(context.setup.space, strategy, pair, shoe, 3, 0.0) == (0.0, 1.0)


def test_all_busting_to_four_hands_with_split_aces_hitting(monkeypatch: pytest.MonkeyPatch) -> None:
    # Resplit and hit split aces to four hands on a small shoe: the walk's fast paths (the
    # table of two busted hands, the value-by-value sums) against the brute-force deal.
    from twentyone.analysis import split_busts
    from twentyone.analysis.engine import split_strategy, upcard_context

    monkeypatch.setattr(split_busts, "_KNOWN", {})
    calls: list[int] = []
    real_pair_table = split_busts.pair_table

    def pair_table(*table: object) -> object:
        calls.append(1)
        return real_pair_table(*table)  # type: ignore[arg-type]

    monkeypatch.setattr(split_busts, "pair_table", pair_table)
    monkeypatch.setattr(split_busts, "PAIR_PATH", 0.0)  # the shoe is small: force that path
    rules = ENHC_OBO.replace(max_hands=4, resplit_aces=True, hit_split_aces=True)
    shoe_counts = (4, 0, 2, 0, 2, 2, 0, 4, 0, 8)
    for up, pair in ((9, 0), (0, 7)):
        context = upcard_context(prepare(rules, shoe_counts), up)
        strategy = split_strategy(context, pair)
        shoe = context.shoe.copy()
        shoe[pair] -= 2
        reference = Reference(rules, shoe_counts, up)
        expected = _all_bust(reference, tuple(int(c) for c in shoe), pair, 2, 0, 4)
        got = split_busts.all_bust_chance(context.setup.space, strategy, pair, shoe, 4)
        assert got == pytest.approx(float(expected), abs=TOLERANCE), (up, pair)
        assert got > 0.0
    assert calls  # the two-hand table was used


def test_value_by_value_sums_equal_the_plain_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    # One deck, aces resplit and hit to four hands: large levels, where the walk sums one
    # card value at a time; the same walk with the plain kernel's sums gives the same chance.
    from twentyone.analysis import kernels, split_busts
    from twentyone.analysis.engine import split_strategy, upcard_context

    rules = ENHC_OBO.replace(max_hands=4, resplit_aces=True, hit_split_aces=True)
    context = upcard_context(prepare(rules), 9)
    for pair in (0, 1):
        strategy = split_strategy(context, pair)
        shoe = context.shoe.copy()
        shoe[pair] -= 2
        shoe[0] -= 1  # the blackjack card set aside
        monkeypatch.setattr(split_busts, "_KNOWN", {})
        fast = split_busts.all_bust_chance(context.setup.space, strategy, pair, shoe, 4)
        with monkeypatch.context() as plain:
            plain.setattr(split_busts, "_KNOWN", {})
            plain.setattr(split_busts, "contract_compositions", kernels.composition_sum)
            plain.setattr(split_busts, "PAIR_PATH", float("inf"))
            slow = split_busts.all_bust_chance(context.setup.space, strategy, pair, shoe, 4)
        assert 0.0 < fast < 1.0
        assert fast == pytest.approx(slow, rel=1e-12, abs=1e-15), pair


@pytest.mark.parametrize("up", [0, 9])
def test_a_bounded_split_value_never_decides_the_play(up: int) -> None:
    # `split_value(..., below=b)` may return a cheap upper bound instead of the exact value,
    # but only one that is at most b (so a caller comparing with b decides the same way).
    from twentyone.analysis.engine import split_strategy, split_value, upcard_context

    rules = ENHC_OBO.replace(max_hands=4, dealer_hits_soft_17=False)
    context = upcard_context(prepare(rules), up)
    for pair in range(1, 9):
        strategy = split_strategy(context, pair)
        exact = split_value(context, pair, strategy)
        assert split_value(context, pair, strategy, below=exact - 1e-3) == exact
        bounded = split_value(context, pair, strategy, below=exact + 1e-3)
        assert exact - TOLERANCE <= bounded <= exact + 1e-3


def _all_bust(
    reference: Reference, shoe: tuple[int, ...], pair: int, waiting: int, resplits: int, limit: int
) -> object:
    """P(every one of ``waiting`` split hands busts), dealing each its second card when it is
    played (exchangeable with the settled order), resplitting while under ``limit`` hands."""
    from fractions import Fraction

    from tests.analysis.reference import _add

    if waiting == 0:
        return Fraction(1)
    size = sum(shoe)
    chance = Fraction(0)
    for second, count in enumerate(shoe):
        if not count:
            continue
        after = _add(shoe, second, -1)
        if second == pair and 2 + resplits < limit:
            chance += Fraction(count, size) * _all_bust(
                reference, after, pair, waiting + 1, resplits + 1, limit
            )
            continue
        hand = _add(_add((0,) * 10, pair, 1), second, 1)
        for left, bust in _busts(reference, after, hand, pair).items():
            chance += (
                Fraction(count, size)
                * bust
                * _all_bust(reference, left, pair, waiting - 1, resplits, limit)
            )
    return chance


def _busts(
    reference: Reference, shoe: tuple[int, ...], hand: tuple[int, ...], pair: int
) -> dict[tuple[int, ...], object]:
    """The shoes left after ``hand`` busts, with their chances (CDZ- play)."""
    from fractions import Fraction

    from tests.analysis.reference import _add, _total

    if _total(hand)[0] > 21:
        return {shoe: Fraction(1)}
    move = reference.split_move(hand, pair)  # CDZ-: judged on the unsplit shoe
    if move == "stand":
        return {}
    size = sum(shoe)
    found: dict[tuple[int, ...], object] = {}
    for card, count in enumerate(shoe):
        if not count:
            continue
        grown = _add(hand, card, 1)
        after = _add(shoe, card, -1)
        if move == "double":
            outcomes = {after: Fraction(1)} if _total(grown)[0] > 21 else {}
        else:
            outcomes = _busts(reference, after, grown, pair)
        for left, chance in outcomes.items():
            found[left] = found.get(left, Fraction(0)) + Fraction(count, size) * chance
    return found


@pytest.mark.slow
def test_values_of_longer_hands_on_one_deck() -> None:
    rules = Rules(decks=1, peek=Peek.ACE_TEN)
    for up, cards in ((0, ("5", "3", "2")), (9, ("2", "2", "A", "5")), (6, ("T", "2"))):
        reference = Reference(rules, ONE_DECK, up)
        hand = [0] * 10
        for card in cards:
            hand[LABELS.index(card)] += 1
        slow = reference.values(tuple(hand))
        fast = hand_ev(rules, list(cards), LABELS[up])
        for name, expected in slow.items():
            assert fast.options[name] == pytest.approx(float(expected), abs=TOLERANCE)


@pytest.mark.parametrize(
    ("rules", "ups"),
    [
        (Rules(decks=1, peek=Peek.ACE_TEN, max_hands=4), (0, 5, 9)),
        (Rules(decks=1, peek=Peek.NONE, max_hands=3, double_after_split=False), (0, 9)),
        (
            Rules(decks=1, peek=Peek.ACE_TEN, max_hands=4, resplit_aces=True, hit_split_aces=True),
            (0, 9),
        ),
        (Rules(decks=1, peek=Peek.ACE, dealer_hits_soft_17=True, max_hands=3), (0, 9)),
    ],
    ids=["peek-4", "enhc-3-nodas", "rsa-hsa", "ace-peek-h17-3"],
)
def test_resplits_match_the_true_game(rules: Rules, ups: tuple[int, ...]) -> None:
    # Resplits in a finite shoe, played out card by card in the true dealing order.
    for up in ups:
        reference = Reference(rules, SPLIT_SHOE, up)
        for pair in (0, 7):
            fast = hand_ev(rules, [LABELS[pair]] * 2, LABELS[up], SPLIT_SHOE).split
            assert fast is not None
            expected = float(reference.split_true_game(pair))
            assert fast == pytest.approx(expected, abs=TOLERANCE), (up, pair)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(decks=2, peek=Peek.ACE_TEN, max_hands=4),
        Rules(decks=2, peek=Peek.NONE, enhc_loses=EnhcLoses.ALL, max_hands=4),
    ],
    ids=["peek", "enhc-all"],
)
def test_four_hands_match_the_true_game(rules: Rules) -> None:
    # Enough eights (five) that a split really reaches four hands.
    for up in (5, 9):
        reference = Reference(rules, FOUR_HAND_SHOE, up)
        fast = hand_ev(rules, ["8", "8"], LABELS[up], FOUR_HAND_SHOE).split
        assert fast is not None
        assert fast == pytest.approx(float(reference.split_true_game(7)), abs=TOLERANCE), up


def test_two_hand_model_is_the_true_game() -> None:
    # With two hands at most the pair-card model is exact: both computations agree.
    rules = Rules(decks=1, peek=Peek.ACE_TEN, max_hands=2)
    reference = Reference(rules, SPLIT_SHOE, 5)
    assert reference.split_model(7) == reference.split_true_game(7)


@pytest.mark.parametrize(
    "rules",
    [
        PEEK,
        ENHC_ALL.replace(double=Double.TEN_TO_ELEVEN),
        pytest.param(PEEK.replace(max_hands=3), marks=pytest.mark.slow),
    ],
    ids=["peek", "enhc-10-11", "peek-resplits"],
)
def test_overall_ev_matches_reference(rules: Rules) -> None:
    from fractions import Fraction

    shoe = SPLIT_SHOE
    setup = prepare(rules, shoe)
    size = sum(shoe)
    fast_total = 0.0
    slow_total = Fraction(0)
    for up in range(10):
        if shoe[up] == 0:
            continue
        fast = analyze_upcard(setup, up)
        reference = Reference(rules, shoe, up)
        left = reference.shoe
        slow = Fraction(0)
        for first, second in _hands(shoe, up):
            chance = Fraction(left[first], size - 1) * Fraction(
                left[second] - (first == second), size - 2
            )
            if first != second:
                chance *= 2
            hand = [0] * 10
            hand[first] += 1
            hand[second] += 1
            no_blackjack = reference.no_blackjack(reference.shoe_for(tuple(hand)))
            if {first, second} == {0, 9}:
                value = rules.blackjack_pays * no_blackjack
            else:
                options = reference.values(tuple(hand))
                if first == second:
                    options["split"] = reference.split_true_game(first)
                best = max(options.values())
                value = best * no_blackjack - (1 - no_blackjack) if reference.peeked else best
            slow += chance * value
        assert fast.ev == pytest.approx(float(slow), abs=TOLERANCE), up
        fast_total += fast.probability * fast.ev
        slow_total += Fraction(shoe[up], size) * slow
    assert fast_total == pytest.approx(float(slow_total), abs=TOLERANCE)


def test_the_pair_card_model_is_not_the_true_game_with_resplits() -> None:
    # The older "pair-card model" (other hands' non-pair second cards treated as unseen) is
    # off by about 0.01 of a unit on this tiny shoe; the engine is not.
    rules = Rules(decks=1, peek=Peek.ACE_TEN, max_hands=3)
    for up in (0, 5):
        reference = Reference(rules, SPLIT_SHOE, up)
        true_game = float(reference.split_true_game(7))
        assert abs(float(reference.split_model(7)) - true_game) > 1e-3
        fast = hand_ev(rules, ["8", "8"], LABELS[up], SPLIT_SHOE).split
        assert fast == pytest.approx(true_game, abs=TOLERANCE)


@pytest.mark.parametrize(
    ("rules", "ups"),
    [
        (Rules(decks=1, peek=Peek.ACE_TEN, max_hands=3), (0, 5, 9)),
        (ENHC_OBO.replace(max_hands=3), (0, 9)),
        (
            Rules(decks=1, peek=Peek.ACE_TEN, max_hands=4, resplit_aces=True, hit_split_aces=True),
            (0, 9),
        ),
    ],
    ids=["peek-3", "enhc-obo-3", "rsa-hsa-4"],
)
def test_cdp1_splits_match_the_true_game(rules: Rules, ups: tuple[int, ...]) -> None:
    # CDP1: every split hand is played as is optimal with both pair cards out of the shoe.
    differs = False
    for up in ups:
        for pair in (0, 7):
            expected = Reference(rules, SPLIT_SHOE, up, "cdp1").split_true_game(pair)
            cdp1 = hand_ev(rules, [LABELS[pair]] * 2, LABELS[up], SPLIT_SHOE, convention="cdp1")
            assert cdp1.split == pytest.approx(float(expected), abs=TOLERANCE), (up, pair)
            cdz = hand_ev(rules, [LABELS[pair]] * 2, LABELS[up], SPLIT_SHOE).split
            assert cdz is not None
            differs |= abs(cdz - float(expected)) > 1e-3
    assert differs  # on this tiny shoe the conventions really play differently
