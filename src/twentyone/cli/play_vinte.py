"""``twentyone play vinte``: a Vinte-e-um match in the terminal, you against bots.

You sit at seat 0; the bots take the seats to your left. The match runs until there is a
winner (or the round limit). The terminal waits for you: there is no decision deadline here.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from twentyone.cli.errors import reports_bad_input
from twentyone.randomness import RandomSource, SeededRandomSource, SystemRandomSource
from twentyone.vinte.bots import VinteBot, pool_from_view
from twentyone.vinte.decision import bet_edges, player_choices
from twentyone.vinte.game import (
    Action,
    Bet,
    Call,
    Draw,
    Hit,
    MatchState,
    Phase,
    Stand,
    apply,
    deal,
    new_match,
    to_act,
)
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable
from twentyone.vinte.table import shuffled_deck
from twentyone.vinte.views import SeatView, view_for

HUMAN = 0


def _cards(cards: tuple[Any, ...]) -> str:
    return " ".join("??" if card is None else str(card) for card in cards) or "-"


def render(console: Console, view: SeatView) -> None:
    """The table as the human seat sees it."""
    table = Table(title=f"Round {view.round_number} - banker: {view.seats[view.banker].name}")
    for column in ("seat", "chips", "cards", "bet", "status"):
        table.add_column(column)
    banker = view.round_banker
    for seat in view.seats:
        if not seat.in_game:
            table.add_row(seat.name, "0", "-", "-", "out")
            continue
        if seat.seat == banker:
            cards = view.banker_cards
            total = ""
            known = tuple(c for c in cards if c is not None)
            if known and None not in cards:
                total = f" ({view.total(known)})"
            table.add_row(f"{seat.name} (bank)", str(seat.stack), _cards(cards) + total, "", "")
            continue
        try:
            hand = view.hand(seat.seat)
        except KeyError:
            table.add_row(seat.name, str(seat.stack), "-", "-", "")
            continue
        cards_text = _cards(hand.cards)
        if None not in hand.cards:
            cards_text += f" ({view.total(hand.known)})"
        bet = str(hand.bet) if hand.bet is not None else ("placed" if hand.bet_placed else "")
        status = hand.result or hand.status.value
        table.add_row(seat.name, str(seat.stack), cards_text, bet, status)
    console.print(table)


def describe_event(event: dict[str, Any], names: list[str]) -> str | None:
    """One line for an event as the human sees it (``None``: not worth a line)."""
    kind = event["kind"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "round":
        return f"-- round {event['number']} -- bank: {names[event['banker']]}"
    if kind == "hidden-card" and "card" in event:
        return f"{who}: hidden card {event['card']}"
    if kind == "bets-shown":
        return "bets: " + ", ".join(f"{names[int(s)]} {b}" for s, b in event["bets"].items())
    if kind == "up-card":
        return f"{who} (bank): face-up card {event['card']}"
    if kind == "natural":
        return f"{who} (bank): 21 with {' '.join(event['cards'])}, every bet collected"
    if kind == "card":
        return f"{who}: card {event['card']}"
    if kind == "stand":
        return f"{who}: stand"
    if kind == "bust":
        return f"{who}: bust with {' '.join(event['cards'])}, {event['lost']} lost"
    if kind == "player-21":
        return f"{who}: 21 declared, {' '.join(event['cards'])}"
    if kind == "reveal":
        return f"{who} (bank): hidden card {event['card']} ({event['total']})"
    if kind == "draw":
        return f"{who} (bank): draws {event['card']} ({event['total']})"
    if kind == "call":
        outcome = "won" if event["result"] == "win" else "lost"
        return (
            f"call {who}: {' '.join(event['cards'])} ({event['total']}) against "
            f"{event['banker_total']}: {abs(event['net'])} {outcome}"
        )
    if kind == "banker-bust":
        return f"{who} (bank): bust, every uncalled player is paid"
    if kind == "left":
        return f"{who}: no chips left, out of the game"
    if kind == "bank":
        return f"the bank passes to {who} ({event['reason']})"
    if kind == "match-over":
        return "the match is over: winner(s) " + ", ".join(names[s] for s in event["winners"])
    return None


def ask_human(view: SeatView, hints: bool, console: Console) -> Action:
    """Prompt for the human's decision until it is a legal one."""
    seat = HUMAN
    settings = view.table.settings
    rules = view.table.rules
    if view.phase is Phase.BETTING:
        hidden = view.hand(seat).cards[0]
        chips = [a.chips for a in view.legal if isinstance(a, Bet)]
        if hints and hidden is not None:
            edge = bet_edges(
                rules.aces_high,
                settings.declares_21,
                settings.player_21_pays_double,
                rules.decks or 1,
            )[hidden.value - 1]
            console.print(f"hint: your hidden {hidden} is worth {edge:+.3f} per chip bet")
        amount = click.prompt(
            f"Your hidden card is {hidden}. Bet ({min(chips)}-{max(chips)})",
            type=click.IntRange(min(chips), max(chips)),
        )
        return Bet(seat, amount)
    if view.phase is Phase.PLAYERS:
        hand = view.hand(seat)
        if hints:
            hidden, up = hand.cards[0], view.banker_cards[1]
            assert hidden is not None and up is not None
            choice = player_choices(
                hidden,
                hand.face_up,
                up,
                pool_from_view(view),
                rules.aces_high,
                settings.declares_21,
                settings.player_21_pays_double,
            )
            console.print(f"hint: stand {choice.stand:+.3f}, hit {choice.hit:+.3f} per chip")
        answer = click.prompt(
            f"You hold {_cards(hand.cards)} ({view.total(hand.known)}): (h)it or (s)tand",
            type=click.Choice(["h", "s", "hit", "stand"]),
        )
        return Hit(seat) if answer.startswith("h") else Stand(seat)
    targets = [a.target for a in view.legal if isinstance(a, Call)]
    can_draw = any(isinstance(a, Draw) for a in view.legal)
    if hints:
        best = VinteBot(read_stands=True).decide(view)
        console.print(
            f"hint: the bot would {'draw' if isinstance(best, Draw) else 'call'}"
            + (f" seat {best.target}" if isinstance(best, Call) else "")
        )
    while True:
        options = (
            ("(d)raw or " if can_draw else "") + "call SEAT (" + ", ".join(map(str, targets)) + ")"
        )
        answer = click.prompt(f"You are the bank: {options}").strip().lower()
        if answer in ("d", "draw") and can_draw:
            return Draw(seat)
        words = answer.replace("call", "").split()
        if len(words) == 1 and words[0].isdigit() and int(words[0]) in targets:
            return Call(seat, int(words[0]))
        console.print("not a legal choice")


def play(table: VinteTable, source: RandomSource, console: Console, hints: bool) -> MatchState:
    bot = VinteBot(read_stands=True)
    names = [seat.name for seat in table.seats]
    state = new_match(table, source)
    first = names[state.banker]
    verb = "are" if first == "You" else "is"
    console.print(f"{first} {verb} drawn to hold the bank first.")
    printed = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            state = deal(state, shuffled_deck(table.rules, source), 0.0)
            printed = 0
        current = state.round
        assert current is not None
        for event in current.events[printed:]:
            line = describe_event(event.for_seat(HUMAN), names)
            if line:
                console.print(line)
        printed = len(current.events)
        pending = to_act(state)
        if not pending:
            continue
        seat = pending[0]
        view = view_for(state, seat)
        if seat == HUMAN and state.seats[HUMAN].in_game:
            render(console, view)
            action = ask_human(view, hints, console)
        else:
            action = bot.decide(view)
        state = apply(state, action, 0.0)
    assert state.round is not None
    for event in state.round.events[printed:]:
        line = describe_event(event.for_seat(HUMAN), names)
        if line:
            console.print(line)
    console.print(
        "chips: " + ", ".join(f"{n} {s.stack}" for n, s in zip(names, state.seats, strict=True))
    )
    return state


@click.command("vinte")
@click.option("--seed", type=int, default=None, help="Seed for reproducible cards and bots.")
@click.option(
    "--bots",
    "bot_count",
    type=click.IntRange(1, 7),
    default=3,
    show_default=True,
    help="Number of bots at the table (1-7).",
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option(
    "--stack", type=int, default=50, show_default=True, help="Chips each seat starts with."
)
@click.option(
    "--rounds",
    "round_limit",
    type=int,
    default=100,
    show_default=True,
    help="Round limit (0 = play until one seat holds all the chips).",
)
@click.option(
    "--bank-rounds",
    type=int,
    default=3,
    show_default=True,
    help="Rounds a banker keeps the bank (0 = permanent).",
)
@click.option(
    "--banker", type=int, default=None, help="First banker's seat (default: drawn at random)."
)
@click.option("--hints/--no-hints", default=False, help="Show the decision support's figures.")
@reports_bad_input
def vinte(
    seed: int | None,
    bot_count: int,
    name: str,
    stack: int,
    round_limit: int,
    bank_rounds: int,
    banker: int | None,
    hints: bool,
) -> None:
    """Play Vinte-e-um in the terminal: you and bots, until there is a winner."""
    seats = (SeatSpec(name), *(SeatSpec(f"Bot {i}", bot=True) for i in range(1, bot_count + 1)))
    settings = VinteSettings(starting_stack=stack, round_limit=round_limit, bank_rounds=bank_rounds)
    table = VinteTable(seats, settings=settings, first_banker=banker)
    source: RandomSource = SystemRandomSource() if seed is None else SeededRandomSource(seed)
    console = Console(highlight=False)
    try:
        play(table, source, console, hints)
    except click.Abort:
        console.print("\nGoodbye.")
