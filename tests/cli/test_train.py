"""``twentyone train``: the drills' scoring on scripted hands and cards, and whole sessions
through the real command with scripted input."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from twentyone.analysis import engine
from twentyone.analysis.hand_calculator import calculate
from twentyone.analysis.training import (
    KEY_OF_MOVE,
    CountDrill,
    DrillHand,
    StrategyDrill,
    TrainingInputError,
    _calculation,
)
from twentyone.cards import parse_cards
from twentyone.cli.main import cli
from twentyone.presets import CASINO
from twentyone.randomness import SeededRandomSource
from twentyone.rules import Double, Rules, Surrender

RULES = CASINO


def scripted(drill: StrategyDrill, cards: str, up: str) -> DrillHand:
    player = parse_cards(cards)
    return drill.hand_of(player, parse_cards(up)[0])


# --- the strategy drill's scoring -----------------------------------------------------------


def test_a_right_move_costs_nothing_and_a_wrong_one_the_ev_difference() -> None:
    drill = StrategyDrill(RULES, SeededRandomSource(0))
    hand = scripted(drill, "8S 8D", "6H")
    calc = calculate(RULES, ["8", "8"], "6")
    assert hand.best == "split" and hand.hand_type == "pair"
    right = drill.answer(hand, "p")
    assert right.correct and right.cost == 0.0
    wrong = drill.answer(hand, "S")  # case and spaces do not matter
    assert not wrong.correct and wrong.move == "stand"
    assert wrong.cost == pytest.approx(calc.actions["split"] - calc.actions["stand"], abs=1e-15)
    assert drill.summary.hands == 2 and drill.summary.right == 1
    assert drill.summary.cost == pytest.approx(wrong.cost)
    assert drill.summary.worst is wrong


def test_accuracy_is_kept_by_hand_type() -> None:
    drill = StrategyDrill(RULES, SeededRandomSource(0))
    soft = scripted(drill, "AS 7D", "9C")  # soft 18 against 9: hit
    hard = scripted(drill, "TS 6D", "5C")  # hard 16 against 5: stand
    pair = scripted(drill, "AS AD", "TC")  # aces: split
    assert (soft.hand_type, hard.hand_type, pair.hand_type) == ("soft", "hard", "pair")
    assert drill.answer(soft, "s").correct is False
    assert drill.answer(hard, "s").correct is True
    assert drill.answer(pair, "p").correct is True
    assert drill.answer(pair, "h").correct is False
    by_type = drill.summary.by_type
    assert (by_type["soft"].hands, by_type["soft"].right) == (1, 0)
    assert (by_type["hard"].hands, by_type["hard"].right) == (1, 1)
    assert (by_type["pair"].hands, by_type["pair"].right, by_type["pair"].accuracy) == (2, 1, 0.5)
    assert drill.summary.accuracy == 0.5


def test_early_surrender_mistakes_are_costed_before_the_peek() -> None:
    rules = Rules(decks=6, surrender=Surrender.EARLY)
    drill = StrategyDrill(rules, SeededRandomSource(0))
    hand = scripted(drill, "TS 4D", "AC")
    answer = drill.answer(hand, "h")  # the better move given no blackjack, not before the peek
    assert not answer.correct and answer.cost > 0.05
    assert drill.answer(hand, "r").correct


def test_unknown_or_unavailable_moves_count_nothing() -> None:
    drill = StrategyDrill(RULES.replace(double=Double.TEN_TO_ELEVEN), SeededRandomSource(0))
    hand = scripted(drill, "TS 6D", "5C")
    with pytest.raises(TrainingInputError, match="unknown move"):
        drill.answer(hand, "x")
    with pytest.raises(TrainingInputError, match="split is not allowed"):
        drill.answer(hand, "p")
    with pytest.raises(TrainingInputError, match="double is not allowed"):
        drill.answer(hand, "d")
    assert drill.summary.hands == 0


def test_scripted_cards_must_fit_the_shoe() -> None:
    drill = StrategyDrill(Rules(decks=1), SeededRandomSource(0))
    with pytest.raises(Exception, match="8S"):
        scripted(drill, "8S 8S", "6H")


def test_dealt_hands_are_reproducible_never_blackjack_and_analysed_once_per_upcard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules(decks=2)  # rules of their own: nothing cached yet
    calls: list[int] = []
    original = engine.upcard_context

    def counting(setup: engine.Setup, upcard: int) -> engine.UpcardContext:
        calls.append(upcard)
        return original(setup, upcard)

    monkeypatch.setattr(engine, "upcard_context", counting)
    first = StrategyDrill(rules, SeededRandomSource(9)).deal()
    drill = StrategyDrill(rules, SeededRandomSource(9))
    hands = [drill.deal() for _ in range(40)]
    assert [str(c) for c in hands[0].cards] == [str(c) for c in first.cards]
    assert all({c.value for c in h.cards} != {1, 10} for h in hands)
    # Forty hands, one optimal pass per up card at most: the tables are per session.
    assert len(calls) == len(set(calls)) <= 10
    assert _calculation.cache_info().hits + _calculation.cache_info().misses >= 40


# --- the counting drill -----------------------------------------------------------------------


def test_the_running_count_of_scripted_cards() -> None:
    drill = CountDrill(Rules(decks=6), SeededRandomSource(0), every=4)
    drill.add(parse_cards("2S 5H KD AC"))  # +1 +1 -1 -1
    assert drill.check(0).correct
    drill.add(parse_cards("3S 4H 6D 7C 8S 9H"))  # +3
    answer = drill.check(2)
    assert not answer.correct and answer.expected == 3 and answer.cards_seen == 10
    assert drill.summary.checks == 2 and drill.summary.right == 1
    assert drill.summary.largest_miss == 1


def test_an_unbalanced_system_starts_at_its_initial_count() -> None:
    drill = CountDrill(Rules(decks=6), SeededRandomSource(0), system="ko")
    assert drill.running_count == -20
    drill.add(parse_cards("7S"))  # KO counts sevens
    assert drill.check(-19).correct


def test_dealing_checks_every_n_cards_and_reshuffles_at_the_cut_card() -> None:
    drill = CountDrill(Rules(decks=1), SeededRandomSource(4), every=10)
    seen = 0
    shuffles = 0
    for _ in range(10):
        cards, shuffled = drill.deal()
        assert len(cards) == 10
        shuffles += shuffled
        seen = 10 if shuffled else seen + 10
        assert seen <= 39  # the cut card of one deck at 3/4
    assert shuffles == drill.summary.shuffles >= 2
    with pytest.raises(TrainingInputError):
        CountDrill(Rules(decks=1), SeededRandomSource(4), every=0)


# --- whole sessions through the command ---------------------------------------------------


def _invoke(args: list[str], text: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, input=text)
    return result.exit_code, result.stdout, result.stderr


def test_a_basic_session_with_every_move_right() -> None:
    drill = StrategyDrill(RULES, SeededRandomSource(5))
    answers = [KEY_OF_MOVE[drill.deal().best] for _ in range(8)]
    code, out, err = _invoke(["train", "basic", "--seed", "5", "--rounds", "8"], "\n".join(answers))
    assert code == 0, err
    assert out.count("  right: ") == 8 and "wrong" not in out
    assert "hands: 8, right: 8 (100.0%)" in out
    assert "EV given away: 0.00% of a bet in all" in out


def test_a_basic_session_with_mistakes_retries_and_q() -> None:
    drill = StrategyDrill(RULES, SeededRandomSource(6))
    hands = [drill.deal() for _ in range(3)]
    wrong = [next(k for k in hand.allowed if k != KEY_OF_MOVE[hand.best]) for hand in hands]
    code, out, err = _invoke(["train", "basic", "--seed", "6"], "\n".join(["zz", *wrong[:2], "q"]))
    assert code == 0, err
    assert "unknown move 'zz'" in out
    assert out.count("wrong: ") == 2 and "Hand 3:" in out
    assert "hands: 2, right: 0 (0.0%)" in out
    given_away = sum(
        hand.allowed[KEY_OF_MOVE[hand.best]] - hand.allowed[key]
        for hand, key in zip(hands[:2], wrong[:2], strict=True)
    )
    match = re.search(r"EV given away: ([0-9.]+)% of a bet in all", out)
    assert match is not None and float(match.group(1)) == pytest.approx(given_away * 100, abs=0.006)
    assert "costliest mistake:" in out


def test_the_end_of_input_and_ctrl_c_end_with_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _invoke(["train", "basic", "--seed", "1"], "")
    assert code == 0 and "Summary" in out and "no hands played" in out

    calls = {"n": 0}
    original = StrategyDrill.deal

    def interrupted(self: StrategyDrill) -> DrillHand:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return original(self)

    monkeypatch.setattr(StrategyDrill, "deal", interrupted)
    code, out, _ = _invoke(["train", "basic", "--seed", "1"], "s\n")
    assert code == 0 and "hands: 1," in out


def test_a_count_session() -> None:
    drill = CountDrill(Rules(decks=1), SeededRandomSource(2), every=5)
    counts = []
    for _ in range(6):
        drill.deal()
        counts.append(drill.running_count)
    answers = [str(c) for c in counts[:5]] + [str(counts[5] + 2)]
    code, out, err = _invoke(
        ["train", "count", "--seed", "2", "--decks", "1", "--every", "5", "--rounds", "6"],
        "\n".join(["seven", *answers]),
    )
    assert code == 0, err
    assert "a whole number" in out
    assert out.count("  right: ") == 5 and out.count("  wrong: ") == 1
    assert "checks: 6, right: 5 (83.3%)" in out and "largest miss: 2" in out


def test_bad_options_are_one_line_errors() -> None:
    for args in (
        ["train", "golf"],
        ["train", "count", "--system", "nope"],
        ["train", "basic", "--rounds", "0"],
        ["train", "basic", "--seed", "-1"],
    ):
        code, out, err = _invoke(args, "")
        assert code == 2, (args, out, err)
        assert err.startswith("twentyone: error: ") and err.count("\n") == 1, err
