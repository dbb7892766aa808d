"""The house table runner: a session's money in the ledger, rounds never refunded."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twentyone.cards import parse_cards
from twentyone.clock import ManualClock
from twentyone.errors import BetError, IllegalActionError, TwentyOneError
from twentyone.house.actions import DOUBLE, HIT, STAND, Action, ActionKind
from twentyone.house.events import HandSettled
from twentyone.house.round import Phase
from twentyone.presets import CASINO, ONLINE
from twentyone.randomness import SeededRandomSource
from twentyone.shoe import ScriptedShoe, shoe_for
from twentyone.tables.errors import BankrollError, TableStateError
from twentyone.tables.house import HOUSE_ACCOUNT, PLAYER_ACCOUNT, HouseTable, standard_action
from twentyone.tables.listeners import TableEvent


def scripted(cards: str, bankroll: int = 100_00, rules=ONLINE) -> HouseTable:  # type: ignore[no-untyped-def]
    return HouseTable.session(rules, ScriptedShoe(parse_cards(cards)), bankroll)


def money_state(table: HouseTable) -> tuple[int, int, int]:
    ledger = table.ledger
    return (len(ledger.journal), ledger.balance(PLAYER_ACCOUNT), ledger.balance(HOUSE_ACCOUNT))


def test_the_stake_moves_to_the_round_hold_and_settles_by_transfers() -> None:
    # Player 9S 2C, dealer 7H and 9D; the double draws 5S (16), the dealer draws TH and busts.
    table = scripted("9S 7H 2C 9D 5S TH")
    house_before = table.ledger.balance(HOUSE_ACCOUNT)
    table.start_round([10_00])
    hold = table.hold_account
    assert table.ledger.balance(PLAYER_ACCOUNT) == 90_00
    assert table.ledger.balance(hold) == 10_00
    table.act(DOUBLE)
    assert not table.in_round and table.last_net == 20_00
    assert table.ledger.balance(hold) == 0  # every unit left the hold
    assert table.ledger.balance(PLAYER_ACCOUNT) == 120_00
    assert table.ledger.balance(HOUSE_ACCOUNT) == house_before - 20_00
    # The settlement is one batch: the stake back from the hold and the win from the house.
    last = table.ledger.journal[-1]
    assert {(t.debit, t.credit, t.amount) for t in last} == {  # type: ignore[union-attr]
        (hold, PLAYER_ACCOUNT, 20_00),
        (HOUSE_ACCOUNT, PLAYER_ACCOUNT, 20_00),
    }
    assert table.ledger.total() == 0 and table.ledger.audit()


def test_insurance_is_held_and_settled_on_its_own() -> None:
    # Player TS 9D (19) against an ace up with 7C below: insurance 5.00 is lost, 19 beats 18.
    table = scripted("TS AH 9D 7C")
    table.start_round([10_00])
    assert table.round is not None and table.round.phase is Phase.INSURANCE
    assert table.most_insurance() == 5_00
    table.act(Action(ActionKind.INSURANCE, 5_00))
    assert table.ledger.balance(table.hold_account) == 15_00
    table.act(STAND)
    assert table.last_net == 10_00 - 5_00
    assert table.ledger.balance(PLAYER_ACCOUNT) == 105_00
    assert table.ledger.balance(table.hold_account) == 0


def test_refused_bets_change_nothing() -> None:
    table = HouseTable.session(CASINO, shoe_for(CASINO, SeededRandomSource(1)), 20_00)
    before = money_state(table)
    for bets, error in (
        ([], "give 1 to 7 amounts"),
        ([10_00] * 8, "give 1 to 7 amounts"),
        ([50], "each bet must be"),
        ([15_00, 10_00], "more than your 20.00"),
        ([2.5], "an int"),
        ([True], "an int"),
    ):
        with pytest.raises(TwentyOneError, match=error):
            table.start_round(bets)  # type: ignore[arg-type]
        assert money_state(table) == before and table.rounds == 0 and table.round is None
    with pytest.raises(BankrollError):
        table.start_round([15_00, 10_00])


def test_a_double_the_bankroll_cannot_pay_is_refused_and_changes_nothing() -> None:
    table = scripted("9S 7H 2C 9D 5S TH", bankroll=10_00)
    table.start_round([10_00])
    assert [str(a) for a in table.legal_actions()] == ["hit", "stand"]  # no money to double
    round_ = table.round
    assert round_ is not None
    events, before = list(round_.events), money_state(table)
    with pytest.raises(BankrollError, match=r"double needs 10\.00; you have 0\.00"):
        table.act(DOUBLE)
    assert round_.events == events and money_state(table) == before
    with pytest.raises(IllegalActionError):
        table.act(Action(ActionKind.SPLIT))  # not a pair: the round's own refusal
    assert money_state(table) == before


def test_table_steps_out_of_turn_are_refused() -> None:
    table = scripted("9S 7H 2C 9D 5S TH 9S 7H 2C 9D")
    with pytest.raises(TableStateError, match="no round in play"):
        table.act(HIT)
    with pytest.raises(TableStateError, match="no round has been played"):
        table.rebet()
    table.start_round([10_00])
    with pytest.raises(TableStateError, match="a round is in play"):
        table.start_round([10_00])


def test_leaving_mid_round_plays_it_out_by_standing_never_refunds() -> None:
    for seed in range(30):
        left = HouseTable.session(CASINO, shoe_for(CASINO, SeededRandomSource(seed)), 100_00)
        stood = HouseTable.session(CASINO, shoe_for(CASINO, SeededRandomSource(seed)), 100_00)
        left.start_round([10_00, 5_00])
        stood.start_round([10_00, 5_00])
        left.close()  # the player leaves mid-round
        while stood.in_round:
            assert stood.round is not None
            stood.act(standard_action(stood.round))
        assert left.closed and not left.in_round
        assert left.bankroll == stood.bankroll
        assert left.last_net == stood.last_net
        assert left.ledger.balance(left.hold_account) == 0


def test_rebet_and_double_the_bet() -> None:
    table = HouseTable.session(CASINO, shoe_for(CASINO, SeededRandomSource(4)), 1_000_00)
    table.start_round([10_00, 2_00])
    table.finish_round()
    table.rebet()
    assert table.round is not None and [box.bet for box in table.round.boxes] == [10_00, 2_00]
    table.finish_round()
    table.double_bet()
    assert [box.bet for box in table.round.boxes] == [20_00, 4_00]
    assert table.last_bets == (20_00, 4_00)


def test_events_come_in_order_stamped_by_the_clock() -> None:
    clock = ManualClock(100.0)
    table = HouseTable.session(
        ONLINE, ScriptedShoe(parse_cards("9S 7H 2C 9D 5S TH")), 100_00, clock=clock
    )
    seen: list[TableEvent] = []
    stop = table.subscribe(seen.append)
    table.start_round([10_00])
    clock.advance(4.5)
    table.act(DOUBLE)
    kinds = [event.kind for event in seen]
    assert kinds[0] == "round-opened" and kinds[-1] == "round-settled"
    assert set(kinds[1:-1]) == {"game"}
    assert [e.data for e in seen if isinstance(e.data, HandSettled)] == [
        HandSettled(0, 0, "win", 20_00)
    ]
    assert seen[0].at == 100.0 and seen[-1].at == 104.5
    assert seen[-1].data == {"net": 20_00, "bankroll": 120_00}
    stop()
    table.close()
    assert seen[-1].kind == "round-settled"  # unsubscribed: the close was not seen


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from([CASINO, ONLINE]),
    choices=st.lists(st.integers(0, 10), min_size=30, max_size=30),
    bets=st.lists(st.integers(1, 60), min_size=1, max_size=3),
)
def test_money_is_conserved_in_random_sessions(
    seed: int, rules: object, choices: list[int], bets: list[int]
) -> None:
    table = HouseTable.session(rules, shoe_for(rules, SeededRandomSource(seed)), 150_00)  # type: ignore[arg-type]
    ledger, grant, nets = table.ledger, 150_00, 0
    deposited = ledger.deposited()
    picks = iter(choices * 10)
    for _ in range(5):
        stakes = [bet * 100 for bet in bets[: table.rules.max_boxes]]
        try:
            table.start_round(stakes)
        except BetError:
            break
        while table.in_round:
            round_ = table.round
            assert round_ is not None
            if round_.phase is Phase.INSURANCE:
                action = Action(ActionKind.INSURANCE, table.most_insurance() or 1)
                if next(picks) % 2 or not table.most_insurance():
                    action = standard_action(round_)
            else:
                legal = table.legal_actions()
                action = legal[next(picks) % len(legal)]
            table.act(action)
            # Nothing is created or lost at any step: the player, the house and the hold.
            assert ledger.total() == 0 and ledger.deposited() == deposited
        assert table.last_net is not None
        nets += table.last_net
        assert ledger.balance(table.hold_account) == 0
        assert ledger.balance(PLAYER_ACCOUNT) == grant + nets
    assert ledger.audit()


def test_a_decision_not_taken_in_time_is_the_standard_one() -> None:
    clock = ManualClock()
    shoe = ScriptedShoe(parse_cards("9S 7H 2C 9D 5S TH"))
    table = HouseTable.session(ONLINE, shoe, 100_00, clock=clock, decision_seconds=10.0)
    table.start_round([10_00])
    assert table.deadline() == 10.0
    clock.advance(9.0)
    table.tick()
    assert table.in_round
    clock.advance(1.0)
    table.tick()  # the box stands on 9S 2C; the dealer's 7H 9D draws 5S: 21
    assert not table.in_round and table.deadline() is None
    assert table.round is not None and table.round.boxes[0].hands[0].cards == parse_cards("9S 2C")
    assert table.last_net == -10_00 and table.bankroll == 90_00
    assert table.ledger.balance(table.hold_account) == 0 and table.ledger.audit()


def test_an_explicit_chance_round_is_dealt_by_the_runner_from_its_shoe() -> None:
    # What a server does: the round waits for each card; the runner deals them from its shoe.
    from twentyone.house.round import Round

    def explicit(rules, bets, shoe, seconds, now):  # type: ignore[no-untyped-def]
        return Round.start(rules, bets, decision_seconds=seconds, now=now)

    for seed in range(20):
        automatic = HouseTable.session(CASINO, shoe_for(CASINO, SeededRandomSource(seed)), 100_00)
        dealt = HouseTable.session(
            CASINO, shoe_for(CASINO, SeededRandomSource(seed)), 100_00, opener=explicit
        )
        for table in (automatic, dealt):
            for _ in range(3):
                table.start_round([10_00, 20_00])
                table.finish_round()
        assert automatic.round is not None and dealt.round is not None
        assert dealt.round.cards_dealt() == automatic.round.cards_dealt()
        assert dealt.bankroll == automatic.bankroll
