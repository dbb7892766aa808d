"""``twentyone play vinte``: a Vinte-e-um match in the terminal, you against bots.

You sit at seat 0; the bots take the seats to your left. The match runs until there is a
winner (or the round limit). The terminal waits for you: there is no decision deadline here.
A thin client of :class:`twentyone.tables.vinte.VinteRunner`, which deals, runs the bots and
emits every event; this module reads your decisions and prints what you may see. ``q`` at any
prompt, the end of input or Ctrl-C leaves the match with its summary (rounds won, lost and
pushed, the net in chips and the biggest win: :mod:`twentyone.tables.summary`). Cards have
suit symbols in colour on a terminal and the plain ``AS``/``TH`` anywhere else
(:mod:`twentyone.cli.play_look`); a bust hand says ``BUST``.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table

from twentyone.analysis.vinte.bots import VinteBot, pool_from_view
from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.cli.options import SEED, WholeNumber
from twentyone.cli.play_input import Leave, read_line, source_for
from twentyone.cli.play_look import PLAIN, Look, summary_table
from twentyone.randomness import RandomSource
from twentyone.tables.listeners import TableEvent
from twentyone.tables.summary import track_vinte
from twentyone.tables.vinte import VinteRunner
from twentyone.vinte.game import Action, Bet, Call, Draw, Hit, MatchState, Phase, Stand
from twentyone.vinte.settings import SeatSpec, VinteSettings, VinteTable
from twentyone.vinte.views import SeatView

HUMAN = 0


def _cards(cards: tuple[Any, ...], look: Look = PLAIN) -> str:
    return look.cards(cards)


def _codes(codes: list[str], look: Look) -> str:
    """Cards of an event (their codes, ``7S``) as the look shows them."""
    return " ".join(look.code(code) for code in codes)


def render(console: Console, view: SeatView, look: Look = PLAIN) -> None:
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
            table.add_row(
                f"{seat.name} (bank)", str(seat.stack), _cards(cards, look) + total, "", ""
            )
            continue
        try:
            hand = view.hand(seat.seat)
        except KeyError:
            table.add_row(seat.name, str(seat.stack), "-", "-", "")
            continue
        cards_text = _cards(hand.cards, look)
        if None not in hand.cards:
            cards_text += f" ({view.total(hand.known)})"
        bet = str(hand.bet) if hand.bet is not None else ("placed" if hand.bet_placed else "")
        status = hand.result or hand.status.value
        if status == "bust":
            status = "BUST"
        table.add_row(seat.name, str(seat.stack), cards_text, bet, status)
    console.print(table)


def describe_event(event: dict[str, Any], names: list[str], look: Look = PLAIN) -> str | None:
    """One line for an event as the human sees it (``None``: not worth a line); cards as
    ``look`` shows them (console markup)."""
    kind = event["kind"]
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "round":
        return f"-- round {event['number']} -- bank: {names[event['banker']]}"
    if kind == "hidden-card" and "card" in event:
        return f"{who}: hidden card {look.code(event['card'])}"
    if kind == "bets-shown":
        return "bets: " + ", ".join(f"{names[int(s)]} {b}" for s, b in event["bets"].items())
    if kind == "up-card":
        return f"{who} (bank): face-up card {look.code(event['card'])}"
    if kind == "natural":
        return f"{who} (bank): 21 with {_codes(event['cards'], look)}, every bet collected"
    if kind == "card":
        return f"{who}: card {look.code(event['card'])}"
    if kind == "stand":
        return f"{who}: stand"
    if kind == "bust":
        return f"{who}: BUST with {_codes(event['cards'], look)}, {event['lost']} lost"
    if kind == "player-21":
        return f"{who}: 21 declared, {_codes(event['cards'], look)}"
    if kind == "reveal":
        return f"{who} (bank): hidden card {look.code(event['card'])} ({event['total']})"
    if kind == "draw":
        return f"{who} (bank): draws {look.code(event['card'])} ({event['total']})"
    if kind == "call":
        outcome = "won" if event["result"] == "win" else "lost"
        return (
            f"call {who}: {_codes(event['cards'], look)} ({event['total']}) against "
            f"{event['banker_total']}: {abs(event['net'])} {outcome}"
        )
    if kind == "banker-bust":
        return f"{who} (bank): BUST, every uncalled player is paid"
    if kind == "left":
        return f"{who}: no chips left, out of the game"
    if kind == "bank":
        return f"the bank passes to {who} ({event['reason']})"
    if kind == "match-over":
        return "the match is over: winner(s) " + ", ".join(names[s] for s in event["winners"])
    return None


def _ask_number(console: Console, prompt: str, low: int, high: int) -> int:
    while True:
        text = read_line(console, prompt, markup=True)
        if text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high:
            return int(text)
        console.print(f"[red]give a whole number from {low} to {high}[/red]")


def ask_human(view: SeatView, hints: bool, console: Console, look: Look = PLAIN) -> Action:
    """Prompt for the human's decision until it is a legal one (:class:`Leave` on q)."""
    seat = HUMAN
    settings = view.table.settings
    rules = view.table.rules
    if view.phase is Phase.BETTING:
        hidden = view.hand(seat).cards[0]
        chips = [a.chips for a in view.legal if isinstance(a, Bet)]
        if hints and hidden is not None:
            from twentyone.analysis.vinte.search import bet_edges

            edge = bet_edges(
                rules.aces_high,
                settings.declares_21,
                settings.player_21_pays_double,
                rules.decks or 1,
            )[hidden.value - 1]
            console.print(f"hint: your hidden {hidden} is worth {edge:+.3f} per chip bet")
        amount = _ask_number(
            console,
            f"Your hidden card is {look.card(hidden)}."
            f" Bet ({min(chips)}-{max(chips)}; q to leave):",
            min(chips),
            max(chips),
        )
        return Bet(seat, amount)
    if view.phase is Phase.PLAYERS:
        hand = view.hand(seat)
        if hints:
            from twentyone.analysis.vinte.search import player_choices

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
        while True:
            answer = read_line(
                console,
                f"You hold {_cards(hand.cards, look)} ({view.total(hand.known)}):"
                " (h)it or (s)tand (h, s, hit, stand):",
                markup=True,
            ).lower()
            if answer in ("h", "hit"):
                return Hit(seat)
            if answer in ("s", "stand"):
                return Stand(seat)
            console.print("[red]choose h or s[/red]")
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
        answer = read_line(console, f"You are the bank: {options}:").lower()
        if answer in ("d", "draw") and can_draw:
            return Draw(seat)
        words = answer.replace("call", "").split()
        if (
            len(words) == 1
            and words[0].isascii()
            and words[0].isdigit()
            and int(words[0]) in targets
        ):
            return Call(seat, int(words[0]))
        console.print("not a legal choice")


def chips_line(names: list[str], state: MatchState) -> str:
    return "chips: " + ", ".join(f"{n} {s.stack}" for n, s in zip(names, state.seats, strict=True))


def play(table: VinteTable, source: RandomSource, console: Console, hints: bool) -> MatchState:
    """Play the match in the terminal; the final (or, if you left, the current) state."""
    bots = {seat: VinteBot(read_stands=True) for seat in range(table.size) if seat != HUMAN}
    runner = VinteRunner(table, source, bots)
    names = [seat.name for seat in table.seats]
    look = Look.for_console(console)
    summary = track_vinte(runner, HUMAN)

    def show(event: TableEvent) -> None:
        if event.kind == "game":
            line = describe_event(event.data.for_seat(HUMAN), names, look)
            if line:
                console.print(line)

    runner.subscribe(show)
    first = names[runner.state.banker]
    you = runner.state.banker == HUMAN
    if runner.state.first_banker_drawn:
        console.print(f"{first} {'are' if you else 'is'} drawn to hold the bank first.")
    else:
        console.print(f"{first} {'hold' if you else 'holds'} the bank first.")
    try:
        while runner.advance():
            view = runner.view(HUMAN)
            render(console, view, look)
            runner.submit(HUMAN, ask_human(view, hints, console, look))
    except Leave as leave:
        state = runner.state
        if not leave.typed:
            console.print()  # end the prompt's line
        console.print(summary_table(summary, money=False))
        console.print(chips_line(names, state))
        console.print(
            f"You leave the match after {state.rounds_played} round(s)"
            f" with {state.seats[HUMAN].stack} chips."
        )
        return state
    console.print(summary_table(summary, money=False))
    console.print(chips_line(names, runner.state))
    return runner.state


@click.command("vinte")
@click.option("--seed", type=SEED, default=None, help="Seed for reproducible cards and bots.")
@click.option(
    "--bots",
    "bot_count",
    type=WholeNumber(1, 7),
    default=3,
    show_default=True,
    help="Number of bots at the table (1-7).",
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option(
    "--stack",
    type=WholeNumber(0, 1_000_000),
    default=50,
    show_default=True,
    help="Chips each seat starts with.",
)
@click.option(
    "--rounds",
    "round_limit",
    type=WholeNumber(0, 1_000_000),
    default=100,
    show_default=True,
    help="Round limit (0 = play until one seat holds all the chips).",
)
@click.option(
    "--bank-rounds",
    type=WholeNumber(0, 1_000_000),
    default=3,
    show_default=True,
    help="Rounds a banker keeps the bank (0 = permanent).",
)
@click.option(
    "--banker",
    type=WholeNumber(0, 7),
    default=None,
    help="First banker's seat (default: drawn at random).",
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
    bot_names = [f"Bot {i}" for i in range(1, bot_count + 1)]
    if not name.strip() or not name.isprintable() or len(name) > 40:
        raise UserInputError(f"--name must be 1 to 40 printable characters, got {name!r}")
    if name.strip().casefold() in (bot.casefold() for bot in bot_names):
        raise UserInputError(f"--name {name!r} is a bot's name at this table: choose another")
    seats = (SeatSpec(name), *(SeatSpec(bot, bot=True) for bot in bot_names))
    settings = VinteSettings(starting_stack=stack, round_limit=round_limit, bank_rounds=bank_rounds)
    table = VinteTable(seats, settings=settings, first_banker=banker)
    play(table, source_for(seed), Console(highlight=False), hints)
