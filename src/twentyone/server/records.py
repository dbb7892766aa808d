"""Recall across games: each table's rules in words, with its payouts and theoretical return.

The player's rounds themselves come from each game's own routes (``GET /api/online/rounds``,
``GET /api/casino/rounds``), which the history page merges; each round carries its events and,
once its seed is revealed, its provably fair record, which the browser checks itself
(``web/js/fairness.js``). This module adds what the rules pages read:

- ``GET /api/rules/{game}`` for ``casino``, ``online``, ``vinte`` and ``exchange`` (``?table=ID``
  for a given table of a house game): ``{"game", "title", "summary", "sections": [{"heading",
  "items"}], "payouts": [{"hand", "pays"}], "theoretical_return", "house_edge", "basis",
  "rules", "lab"}``. For the house games (Casino and Online Blackjack) the lines are the core's
  :mod:`twentyone.rules_text` of the table's current rules, and the theoretical return is the
  exact analysis of those rules (optimal composition-dependent play), computed in the analysis
  worker and cached, never on the event loop. Vinte-e-um and Exchange Blackjack are described
  from their specifications; their return depends on the players (vinte) or the market
  (exchange), so it is ``null``.

>>> answer = theoretical_return(house_rules_text(preset("online")))
>>> round(answer["house_edge"] * 100, 2), round(answer["theoretical_return"] * 100, 2)
(0.46, 99.54)
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final

from fastapi import FastAPI, Query, Request

from twentyone.analysis.house_edge import Analysis, analyze
from twentyone.errors import TwentyOneError
from twentyone.i18n import ENGLISH, N_, Translation
from twentyone.money import format_money
from twentyone.presets import preset
from twentyone.rules import (
    FiveCardHand,
    Peek,
    Rules,
    Surrender,
    format_ratio,
    rules_from_json,
    rules_state,
)
from twentyone.rules_text import describe
from twentyone.server import online
from twentyone.server.context import Server
from twentyone.server.errors import Phrase, not_found, unprocessable
from twentyone.server.i18n import request_translation
from twentyone.server.worker import analysis_worker
from twentyone.storage.models import TableConfig

#: The games that have a rules page, with the page's title.
GAMES: Final = {
    "casino": N_("Casino Blackjack"),
    "online": N_("Online Blackjack"),
    "vinte": N_("Vinte-e-um"),
    "exchange": N_("Exchange Blackjack"),
}
#: The table a house game's rules page shows when no ``table`` is named.
DEFAULT_TABLE: Final = {"casino": "casino-1", "online": online.ONLINE_TABLE}
BASIS: Final = N_(
    "the exact expected return of the table's rules under optimal composition-dependent play"
    " (splits played CDZ-), per unit of the initial bet"
)


# ------------------------------------------------------------------ the figures
def house_rules_text(rules: Rules) -> str:
    """The rules' exact JSON as canonical text (a rules set as plain, hashable data)."""
    return json.dumps(rules_state(rules), sort_keys=True, separators=(",", ":"))


def figures_of(analysis: Analysis) -> dict[str, float]:
    """The rules page's figures of an exact analysis: ``theoretical_return`` is what a bet of 1
    returns on average (``1 + EV``), ``house_edge`` the player's expected loss per unit bet
    (``-EV``), ``basic_strategy_return`` the return with the total-dependent basic strategy."""
    return {
        "theoretical_return": 1 + analysis.ev,
        "house_edge": -analysis.ev,
        "basic_strategy_return": 1 + analysis.basic_strategy_ev,
    }


def theoretical_return(rules_text: str) -> dict[str, float]:
    """:func:`figures_of` the rules given as their JSON text, computed here (not in a worker)."""
    return figures_of(analyze(rules_from_json(json.loads(rules_text), Rules())))


async def house_figures(server: Server, rules: Rules) -> dict[str, float] | None:
    """The figures of these rules from the analysis worker (cached there per rules), or None
    when there is no worker or the analysis does not support the rules.

    The worker runs the library's own :func:`~twentyone.analysis.house_edge.analyze` on the
    (hashable, picklable) rules, so its process imports only the analysis, not the server.
    """
    try:
        worker = analysis_worker(server.services)
    except LookupError:
        return None
    try:
        analysis = await worker.cached(analyze, rules)
    except TwentyOneError:
        return None  # rules the analysis does not support: the page says so
    return figures_of(analysis)


# -------------------------------------------------------------------- the words
def localised(value: Any, t: Translation, keep: frozenset[str] = frozenset()) -> Any:
    """The words of a rules answer (its ``N_`` message ids) in ``t``'s language: every string
    in it translated, except the values of the keys in ``keep`` (already translated).

    >>> localised({"heading": "A round", "items": ["ties push"]}, Translation("fi", {"A round": "Kierros"}))
    {'heading': 'Kierros', 'items': ['ties push']}
    """
    if isinstance(value, str):
        return t._(value)
    if isinstance(value, list):
        return [localised(item, t) for item in value]
    if isinstance(value, dict):
        return {key: item if key in keep else localised(item, t) for key, item in value.items()}
    return value


def _house_sections(game: str, rules: Rules, t: Translation) -> list[dict[str, Any]]:
    """The play in words, then the table's rules (the core's lines), then fair dealing."""
    if game == "casino":
        play = [
            N_(
                "A live table of seven boxes shared with other people: sit at one or more empty boxes;"
                " anyone may watch."
            ),
            N_(
                "Each round opens with a betting window; when it closes, every box with a bet is dealt"
                " two cards and the dealer one card face up."
            ),
            N_(
                "Each box acts in turn, with a time limit per decision; a hand whose time runs out"
                " stands (and insurance is declined)."
            ),
            (
                N_(
                    "The dealer draws his second card only after every box has acted, then plays by"
                    " the fixed rule below; hands are then paid."
                )
                if rules.peek is Peek.NONE
                else N_(
                    "The dealer takes a hole card and checks it for blackjack; after every box"
                    " has acted he plays by the fixed rule below, and hands are paid."
                )
            ),
        ]
        fair = [
            N_(
                "The shoe is dealt until the cut card. Its server seed is committed (its SHA-256 shown)"
                " before its first card, and revealed when the shoe is retired."
            ),
            N_(
                "The table's client seed and the revealed server seed give the whole shoe: each round's"
                " record names the position of its first card, and the history page recomputes the"
                " cards in your browser."
            ),
        ]
    else:
        play = [
            N_("You play alone against the dealer, one box per round; a fresh shoe every round."),
            N_(
                "Bet with the chip tray, then deal: you and the dealer get two cards, the dealer's"
                " second face down."
            ),
            N_(
                "Only the actions the rules allow at each moment are offered; the dealer then plays by"
                " the fixed rule below."
            ),
        ]
        fair = [
            N_(
                "Before you bet, the server commits to the round's server seed by showing its SHA-256."
                " You may set your own client seed; the nonce counts your rounds under it."
            ),
            N_(
                "After the round the seed is revealed: the seeds give the whole shoe, and the history"
                " page recomputes the cards in your browser."
            ),
        ]
    return [
        {"heading": N_("How a round goes"), "items": play},
        {
            "heading": N_("This table's rules"),
            # Already in t's language: each line is its own message in rules_text.
            "items": [t.sentence(line) for line in describe(rules, t)],
        },
        {"heading": N_("Provably fair dealing"), "items": fair},
    ]


def _house_payouts(rules: Rules) -> list[dict[str, str]]:
    payouts = [
        {
            "hand": N_("Blackjack: an ace and a ten-card"),
            "pays": format_ratio(rules.blackjack_pays),
        },
        {"hand": N_("A win"), "pays": "1:1"},
    ]
    if rules.five_card_hand is FiveCardHand.BEATS_BLACKJACK:
        payouts.append({"hand": N_("Five cards, not bust: beats any hand"), "pays": "1:1"})
    elif rules.five_card_hand is not FiveCardHand.NONE:
        payouts.append({"hand": N_("Five cards, not bust: wins"), "pays": "1:1"})
    if rules.insurance:
        payouts.append({"hand": N_("Insurance, against a dealer blackjack"), "pays": "2:1"})
    if rules.surrender is not Surrender.NONE:
        payouts.append({"hand": N_("Surrender"), "pays": N_("half back")})
    payouts.append({"hand": N_("A tie (push)"), "pays": N_("bet back")})
    payouts.append({"hand": N_("A bust or a lower total"), "pays": N_("bet lost")})
    return payouts


VINTE: Final = {
    "summary": (
        N_(
            "A Brazilian home banking game: one seat is the banker and plays against all the"
            " others, people and computer players together; the bank rotates."
        )
    ),
    "sections": [
        {
            "heading": N_("The table"),
            "items": [
                N_(
                    "Two to eight seats, the banker among them; every seat starts with the same stack of chips."
                ),
                N_(
                    "One 52-card deck, shuffled before every round and never cut. An ace counts 1 or 11,"
                    " whichever is better for its holder."
                ),
                N_(
                    "Before each deal the banker must cover the table: hold at least the sum of the"
                    " largest bets the others can make. The bank passes to the left after a set number"
                    " of rounds (3 by default), or when the banker cannot cover."
                ),
            ],
        },
        {
            "heading": N_("A round"),
            "items": [
                N_(
                    "Each player, then the banker, gets one card face down; nobody shows his first card."
                ),
                N_(
                    "Each player bets 1 to 5 chips (the table's limits) in one shared betting window;"
                    " the bets are shown together once all are in."
                ),
                N_(
                    "The banker takes a second card face up. If his two cards make 21 he shows them and"
                    " collects every bet: ties go to the bank."
                ),
                N_(
                    "Otherwise each player in turn, from the banker's left, gets a face-up card and"
                    " hits or stands. A player who passes 21 shows his cards and loses his bet at once."
                ),
                N_(
                    "Then the banker turns his hidden card and, as often as he likes, either draws a"
                    " card or calls a player. A called player shows his cards: a higher total than the"
                    " banker's wins his bet from the bank; a tie or a lower total loses it."
                ),
                N_("If the banker passes 21 he pays every player not yet called."),
            ],
        },
        {
            "heading": N_("Time and fairness"),
            "items": [
                N_(
                    "Every decision has a time limit (30 seconds by default): a player who lets it pass"
                    " stands; a banker calls the next player. After three missed decisions in a row a"
                    " seat is played by the standard bot until its person returns."
                ),
                N_(
                    "The game ends when one seat holds every chip, or after the table's round limit"
                    " (100 by default): then the most chips win."
                ),
                N_(
                    "Cards you were never shown stay hidden from you forever, in every view and"
                    " history; the round's seed is committed before the deal and revealed to the operator."
                ),
            ],
        },
    ],
    "payouts": [
        {"hand": N_("A called player beats the banker's total"), "pays": "1:1"},
        {"hand": N_("The banker busts: each player still in"), "pays": "1:1"},
        {"hand": N_("A tie with the banker (ties go to the bank)"), "pays": N_("bet lost")},
        {"hand": N_("The banker's two-card 21"), "pays": N_("every bet lost")},
    ],
}

EXCHANGE: Final = {
    "summary": (
        N_(
            "A blackjack game played by the machine, on which customers bet against each other:"
            " back a selection to win, or lay it to lose, at prices set by the market."
        )
    ),
    "sections": [
        {
            "heading": N_("The cards"),
            "items": [
                N_(
                    "Four player hands and a dealer hand, all played by fixed rules: nobody plays them."
                ),
                N_(
                    "An infinite deck: every card is drawn independently, so one card can appear twice in a game."
                ),
                N_(
                    "The player hands hit or stand by the player logic table and stop at five cards; no"
                    " double, split, surrender or insurance."
                ),
                N_(
                    "The dealer has no hole card, draws to 16, stands on every 17 (soft 17 included)"
                    " and stands on five cards."
                ),
                N_(
                    "Best hand first: any five-card hand, then blackjack, then 21, 20, 19 and so on. A"
                    " bust player hand loses even to a bust dealer; an equal hand is a dead heat."
                ),
            ],
        },
        {
            "heading": N_("The betting"),
            "items": [
                N_(
                    "Up to six timed betting rounds: before any card, after the first nine cards, after"
                    " the player hands are played out, then before each further dealer card."
                ),
                N_(
                    "Eight selections: Player 1 to 4 (that hand beats the dealer), Dealer wins or ties"
                    " all, One or more has 5 cards, All cards unique, Only one has 21pts. Any number of"
                    " them can win."
                ),
                N_(
                    "Prices are decimal odds set by the market: by the customers' own orders and the"
                    " house's market maker, matched best price first, then first come first served."
                ),
                N_(
                    "At the end of each betting round every unmatched bet lapses and its money is released."
                ),
                N_(
                    "A selection whose outcome becomes certain is settled at once and takes no more bets."
                ),
            ],
        },
        {
            "heading": N_("Money"),
            "items": [
                N_(
                    "Backing a stake S at price P risks S to win S × (P − 1); laying it risks"
                    " S × (P − 1) to win S."
                ),
                N_("A dead heat divides the odds by two: the backer wins S × (P/2 − 1)."),
                N_(
                    "The house takes a commission of 5% of your net winnings on each game's market,"
                    " when it settles; nothing on a net loss."
                ),
                N_(
                    "The cards come from a server seed committed before the first betting round and"
                    " revealed when the game is settled."
                ),
            ],
        },
    ],
    "payouts": [
        {"hand": N_("A backed selection that wins"), "pays": N_("stake × (price − 1)")},
        {"hand": N_("A laid selection that loses"), "pays": N_("the backer's stake")},
        {"hand": N_("A dead heat on a player hand"), "pays": N_("stake × (price ÷ 2 − 1)")},
        {"hand": N_("Commission on net winnings per game"), "pays": "5%"},
    ],
}


# ----------------------------------------------------------------------- tables
#: Rule fields that are table limits, not rules of play (left out of the lab's overrides).
_LIMITS: Final = ("min_bet", "max_bet", "max_boxes")


def lab_overrides(rules: Rules, preset_name: str) -> dict[str, Any]:
    """The rules of play that differ from the preset, as the lab's ``rules`` overrides."""
    base = preset(preset_name).to_json()
    return {
        name: value
        for name, value in rules.to_json().items()
        if name not in _LIMITS and base.get(name) != value
    }


def _live_casino_rules(server: Server, table: str) -> Rules | None:
    """The current rules of a live Casino table, from the Casino service's runner (if any)."""
    tables = getattr(server.services.get("casino"), "tables", None)
    runtime = tables.get(table) if isinstance(tables, dict) else None
    rules = getattr(getattr(runtime, "table", None), "rules", None)
    return rules if isinstance(rules, Rules) else None


async def table_rules(server: Server, game: str, table: str) -> tuple[Rules, str]:
    """The current rules of a house game's table and the preset they start from."""
    if game == "casino":
        live = _live_casino_rules(server, table)
        if live is not None:
            return live, "casino"
    else:
        async with server.read() as session:
            config = await session.get(TableConfig, table)
        if config is not None and config.game == game:
            return online.table_rules(config), config.preset
    if table != DEFAULT_TABLE[game]:
        raise not_found(
            N_("there is no {game} table {table}"), game=Phrase(GAMES[game]), table=repr(table)
        )
    return preset(game), game


async def house_answer(
    server: Server, game: str, table: str, with_figures: bool = True, t: Translation = ENGLISH
) -> dict[str, Any]:
    rules, preset_name = await table_rules(server, game, table)
    found = await house_figures(server, rules) if with_figures else None
    limits = t._(
        "{low} to {high}", low=format_money(rules.min_bet), high=format_money(rules.max_bet)
    )
    return {
        "game": game,
        "title": t._(GAMES[game]),
        "table": table,
        "summary": (
            t._("Blackjack against the house, {limits} a box.", limits=limits)
            if game == "casino"
            else t._(
                "Blackjack against the house, alone at your own table: bets {limits}.",
                limits=limits,
            )
        ),
        "sections": [
            localised(section, t, frozenset({"items"}) if index == 1 else frozenset())
            for index, section in enumerate(_house_sections(game, rules, t))
        ],
        "payouts": [localised(payout, t) for payout in _house_payouts(rules)],
        "theoretical_return": None if found is None else found["theoretical_return"],
        "house_edge": None if found is None else found["house_edge"],
        "basic_strategy_return": None if found is None else found["basic_strategy_return"],
        "figures": "computed"
        if found is not None
        else "skipped"
        if not with_figures
        else "unavailable",
        "basis": t._(BASIS),
        "rules": rules.to_json(),
        "lab": {"preset": preset_name, "rules": lab_overrides(rules, preset_name)},
    }


def install(app: FastAPI, server: Server) -> None:
    """Adds the rules route."""

    @app.get("/api/rules/{game}", tags=["rules"])
    async def rules_of(
        request: Request,
        game: str,
        table: Annotated[str | None, Query(pattern="^[a-z0-9_-]{1,32}$")] = None,
        figures: bool = True,
    ) -> dict[str, Any]:
        """A game's rules in words, its payouts and its theoretical return (``figures=false``:
        at once, without the exact analysis, which can take seconds for new rules)."""
        t = request_translation(request)
        if game not in GAMES:
            raise not_found(
                N_("there is no game {game} (the games are {games})"),
                game=repr(game),
                games=", ".join(GAMES),
            )
        if game in DEFAULT_TABLE:
            return await house_answer(server, game, table or DEFAULT_TABLE[game], figures, t)
        if table is not None:
            raise unprocessable(N_("{game} has no table setting here"), game=Phrase(GAMES[game]))
        text = VINTE if game == "vinte" else EXCHANGE
        return {
            "game": game,
            "title": t._(GAMES[game]),
            "table": None,
            "summary": t._(str(text["summary"])),
            "sections": localised(text["sections"], t),
            "payouts": localised(text["payouts"], t),
            "theoretical_return": None,
            "house_edge": None,
            "basic_strategy_return": None,
            "figures": "none",
            "basis": (
                t._("it depends on how the players and the bank play")
                if game == "vinte"
                else t._("the house earns only its commission on net winnings")
            ),
            "rules": None,
            "lab": None,
        }
