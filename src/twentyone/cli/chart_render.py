"""The basic strategy chart drawn for people: a coloured terminal chart and a printed-card SVG.

Pure functions from a :class:`~twentyone.strategy_chart.StrategyChart` to something to show:
:func:`chart_sections` lays the chart out as a printed card does (hard totals, soft totals,
pairs, each against the dealer's up card 2..A, with the all-alike lowest and highest rows
merged, as in "17+"), :func:`terminal_chart` makes it a Rich renderable (colour in a terminal,
plain text elsewhere) and :func:`chart_svg` an SVG picture.

Cells show the chart's codes as printed cards do, except that the chart's ``D`` (double, else
hit) is shown as ``Dh`` so that it reads apart from ``Ds`` (double, else stand).

>>> from twentyone.strategy_chart import UPCARD_KEYS, StrategyChart
>>> chart = StrategyChart.from_json({
...     "hard": {str(t): {u: "S" if t >= 17 else "D" if t == 11 else "H" for u in UPCARD_KEYS}
...              for t in range(4, 22)},
...     "soft": {str(t): {u: "S" if t >= 18 else "H" for u in UPCARD_KEYS} for t in range(12, 22)},
...     "pairs": {p: {u: "P" if p in "A8" else "H" for u in UPCARD_KEYS} for p in UPCARD_KEYS},
... })
>>> [(row.label, row.codes[0]) for row in chart_sections(chart)[0].rows]
[('4-10', 'H'), ('11', 'Dh'), ('12', 'H'), ('13', 'H'), ('14', 'H'), ('15', 'H'), ('16', 'H'), ('17+', 'S')]
>>> [row.label for row in chart_sections(chart)[1].rows]
['A,A-A,6', 'A,7+']
>>> chart_svg(chart, "6 decks").startswith("<svg")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from twentyone.rules import Double, Peek, Rules, Surrender, format_ratio
from twentyone.strategy_chart import HARD_TOTALS, SOFT_TOTALS, StrategyChart
from twentyone.strategy_chart import Table as Table_

#: Up cards in chart order (the chart keys the ace as 1), and how they are printed.
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
UPCARD_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")


@dataclass(frozen=True)
class Action:
    """How one code is shown: its meaning, cell colour and the colour of its letters."""

    code: str
    meaning: str
    short: str
    fill: str
    ink: str


_DARK = "#16202a"
_LIGHT = "#ffffff"
#: Every code a chart shows, in legend order, on the colours of printed strategy cards.
ACTIONS: dict[str, Action] = {
    action.code: action
    for action in (
        Action("H", "hit", "hit", "#3fa34d", _LIGHT),
        Action("S", "stand", "stand", "#d9363e", _LIGHT),
        Action("Dh", "double, else hit", "double, else hit", "#2b63c9", _LIGHT),
        Action("Ds", "double, else stand", "double, else stand", "#4fc3e8", _DARK),
        Action("P", "split", "split", "#f5c518", _DARK),
        Action(
            "Ph",
            "split if double after split is allowed, else hit",
            "split if DAS, else hit",
            "#fae69a",
            _DARK,
        ),
        Action("Rh", "surrender, else hit", "surrender, else hit", "#8d67c9", _LIGHT),
        Action("Rs", "surrender, else stand", "surrender, else stand", "#bfa8e6", _DARK),
        Action("Rp", "surrender, else split", "surrender, else split", "#5f3f91", _LIGHT),
    )
}


def shown_code(code: str) -> str:
    """The code as a cell shows it (``D`` is ``Dh``)."""
    return "Dh" if code == "D" else code


@dataclass(frozen=True)
class ChartRow:
    """One row of a section: its label (a total, a merged range, a pair) and its shown codes
    against :data:`UPCARDS`."""

    label: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class ChartSection:
    """One grid of the card: ``name`` is the chart's table (``hard``, ``soft``, ``pairs``)."""

    name: str
    title: str
    rows: tuple[ChartRow, ...]


def _soft_label(total: int) -> str:
    other = total - 11
    return "A," + ("A" if other == 1 else str(other))


def _merged(labels: list[str], codes: list[tuple[str, ...]]) -> tuple[ChartRow, ...]:
    """Rows with the run of alike rows at each end merged into one (``4-8``, ``17+``)."""
    start = 0
    while start + 1 < len(codes) and codes[start + 1] == codes[0]:
        start += 1
    end = len(codes) - 1
    while end - 1 > start and codes[end - 1] == codes[-1]:
        end -= 1
    rows: list[ChartRow] = []
    first = labels[0] if start == 0 else f"{labels[0]}-{labels[start]}"
    rows.append(ChartRow(first, codes[0]))
    rows += [ChartRow(labels[i], codes[i]) for i in range(start + 1, end)]
    if end > start:
        last = labels[end] if end == len(codes) - 1 else f"{labels[end]}+"
        rows.append(ChartRow(last, codes[-1]))
    return tuple(rows)


def chart_sections(chart: StrategyChart) -> tuple[ChartSection, ChartSection, ChartSection]:
    """The hard, soft and pair grids as a printed card shows them."""

    def codes(table: Table_, row: int) -> tuple[str, ...]:
        return tuple(shown_code(table[row][up]) for up in UPCARDS)

    hard_codes = [codes(chart.hard, total) for total in HARD_TOTALS]
    hard = _merged([str(total) for total in HARD_TOTALS], hard_codes)
    soft_codes = [codes(chart.soft, total) for total in SOFT_TOTALS]
    soft = _merged([_soft_label(total) for total in SOFT_TOTALS], soft_codes)
    pairs = tuple(
        ChartRow(f"{label},{label}", codes(chart.pairs, value))
        for value, label in zip(UPCARDS, UPCARD_LABELS, strict=True)
    )
    return (
        ChartSection("hard", "Hard totals", hard),
        ChartSection("soft", "Soft totals", soft),
        ChartSection("pairs", "Splitting pairs", pairs),
    )


def used_actions(sections: tuple[ChartSection, ...]) -> list[Action]:
    """The actions the chart uses, in legend order."""
    used = {code for section in sections for row in section.rows for code in row.codes}
    return [action for code, action in ACTIONS.items() if code in used]


def rules_summary(rules: Rules) -> str:
    """The rules that shape the chart, short, as printed cards put them in their title.

    >>> from twentyone.presets import ONLINE
    >>> rules_summary(ONLINE)
    '6 decks, S17, double any 2 cards, DAS, split to 2 hands, no surrender, blackjack pays 3:2, dealer peeks with A or 10'
    """
    if rules.decks is None:
        decks = "infinite deck"
    else:
        decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    double = {
        Double.ANY: "double any 2 cards",
        Double.NINE_TO_ELEVEN: "double 9-11",
        Double.TEN_TO_ELEVEN: "double 10-11",
        Double.NONE: "no double",
    }[rules.double]
    parts = [decks, "H17" if rules.dealer_hits_soft_17 else "S17", double]
    if rules.double is not Double.NONE:
        parts.append("DAS" if rules.double_after_split else "no DAS")
    parts.append("no split" if rules.max_hands == 1 else f"split to {rules.max_hands} hands")
    if rules.max_hands > 1:
        if rules.resplit_aces:
            parts.append("resplit aces")
        if rules.hit_split_aces:
            parts.append("hit split aces")
    parts.append(
        {
            Surrender.NONE: "no surrender",
            Surrender.LATE: "late surrender",
            Surrender.EARLY: "early surrender",
        }[rules.surrender]
    )
    parts.append(f"blackjack pays {format_ratio(rules.blackjack_pays)}")
    parts.append(
        {
            Peek.ACE_TEN: "dealer peeks with A or 10",
            Peek.ACE: "dealer peeks with A only",
            Peek.NONE: (
                "no hole card, a dealer blackjack takes "
                + ("all bets" if rules.enhc_loses.value == "all" else "the original bets")
            ),
        }[rules.peek]
    )
    return ", ".join(parts)


# --- the terminal -------------------------------------------------------------------------

_CELL_WIDTH = 4


def _cell(code: str) -> Text:
    action = ACTIONS[code]
    return Text(code.center(_CELL_WIDTH), style=f"bold {action.ink} on {action.fill}")


def _section_table(section: ChartSection) -> Table:
    table = Table(
        title=section.title,
        title_justify="left",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=0,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("", justify="left", min_width=8, no_wrap=True)
    for label in UPCARD_LABELS:
        # Centred by hand, as the cells are, so that a header stands over its cells.
        table.add_column(
            Text(label.center(_CELL_WIDTH)), justify="left", width=_CELL_WIDTH, no_wrap=True
        )
    for row in section.rows:
        table.add_row(Text(row.label, style="bold"), *(_cell(code) for code in row.codes))
    return table


def terminal_chart(chart: StrategyChart, title: str, footer: str | None = None) -> RenderableType:
    """The chart for a console: a title, the three grids, a legend and ``footer``.

    Hard totals on the left and soft totals over pairs on the right, as on a printed card,
    where the console is wide enough; one under the other where it is not. A console that is
    not a terminal prints the same layout without colour."""
    return _TerminalChart(chart_sections(chart), title, footer)


class _TerminalChart:
    """The chart's layout, chosen for the width of the console it is printed on."""

    def __init__(
        self,
        sections: tuple[ChartSection, ChartSection, ChartSection],
        title: str,
        footer: str | None,
    ) -> None:
        self.sections = sections
        self.title = title
        self.footer = footer

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        hard, soft, pairs = (_section_table(section) for section in self.sections)
        legend = Table.grid(padding=(0, 1))
        legend.add_column(no_wrap=True)
        legend.add_column()
        for action in used_actions(self.sections):
            legend.add_row(_cell(action.code), Text(action.meaning))
        yield Text("Basic strategy", style="bold")
        yield Text(self.title)
        yield Text("rows: the player's hand; columns: the dealer's up card", style="dim")
        yield Text("")
        width = Measurement.get(console, options, hard).maximum
        legend_block = Group(Text("Legend", style="bold"), legend)
        if options.max_width >= 2 * width + 4:
            layout = Table.grid(padding=(0, 4))
            layout.add_column(no_wrap=True)
            layout.add_column(no_wrap=True)
            layout.add_row(Group(hard, Text(""), legend_block), Group(soft, Text(""), pairs))
            yield layout
        else:
            for table in (hard, soft, pairs):
                yield table
                yield Text("")
            yield legend_block
        if self.footer:
            yield Text("")
            yield Text(self.footer)


# --- the printed card ----------------------------------------------------------------------

_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
_CELL_W = 40
_CELL_H = 28
_GAP = 2
_LABEL_W = 76
_MARGIN = 24
_SECTION_BAR = 30
_HEADER_ROW = 26
_COLUMN_GAP = 28
_FELT = "#0d5c3d"
_PAPER = "#fbf8ef"
_RULE = "#c9c2ad"


def _text(x: float, y: float, content: str, size: int, **attributes: str) -> str:
    extra = "".join(
        f" {name.replace('_', '-')}={quoteattr(value)}" for name, value in attributes.items()
    )
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{extra}>{escape(content)}</text>'


def _title_lines(title: str, longest: int = 120) -> list[str]:
    """``title`` in lines of at most about ``longest`` characters, broken after commas."""
    lines = [""]
    for part in title.split(", "):
        candidate = f"{lines[-1]}, {part}" if lines[-1] else part
        if len(candidate) > longest and lines[-1]:
            lines[-1] += ","
            lines.append(part)
        else:
            lines[-1] = candidate
    return lines


def _section_width() -> int:
    return _LABEL_W + len(UPCARDS) * (_CELL_W + _GAP)


def _section_height(section: ChartSection) -> int:
    return _SECTION_BAR + _HEADER_ROW + len(section.rows) * (_CELL_H + _GAP)


def _section_svg(section: ChartSection, left: int, top: int) -> list[str]:
    width = _section_width()
    out = [
        f'<g class="section" data-table="{section.name}">',
        f'<rect x="{left}" y="{top}" width="{width}" height="{_SECTION_BAR - 4}" rx="4" fill="{_FELT}"/>',
        _text(
            left + 10,
            top + 18,
            section.title.upper(),
            14,
            font_weight="bold",
            fill="#ffffff",
            letter_spacing="1.5",
        ),
        _text(
            left + width - 10,
            top + 18,
            "dealer's up card",
            11,
            fill="#e9f2ec",
            text_anchor="end",
            font_style="italic",
        ),
    ]
    y = top + _SECTION_BAR
    out.append(_text(left + 10, y + 17, "your hand", 11, fill="#6b6656", font_style="italic"))
    for index, label in enumerate(UPCARD_LABELS):
        x = left + _LABEL_W + index * (_CELL_W + _GAP)
        out.append(
            f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_HEADER_ROW - _GAP}" fill="#e4decb"/>'
        )
        out.append(
            _text(
                x + _CELL_W / 2,
                y + 17,
                label,
                14,
                font_weight="bold",
                text_anchor="middle",
                fill=_DARK,
            )
        )
    y += _HEADER_ROW
    for row in section.rows:
        out.append(
            f'<rect x="{left}" y="{y}" width="{_LABEL_W - _GAP}" height="{_CELL_H}" fill="#e4decb"/>'
        )
        out.append(_text(left + 10, y + 19, row.label, 14, font_weight="bold", fill=_DARK))
        for index, code in enumerate(row.codes):
            action = ACTIONS[code]
            x = left + _LABEL_W + index * (_CELL_W + _GAP)
            out.append(
                f'<g class="cell" data-row={quoteattr(row.label)} '
                f'data-up="{UPCARD_LABELS[index]}" data-code="{code}">'
                f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="{action.fill}"/>'
                + _text(
                    x + _CELL_W / 2,
                    y + 19,
                    code,
                    15,
                    font_weight="bold",
                    text_anchor="middle",
                    fill=action.ink,
                )
                + "</g>"
            )
        y += _CELL_H + _GAP
    out.append("</g>")
    return out


def chart_svg(chart: StrategyChart, title: str, footer: str | None = None) -> str:
    """The chart as an SVG picture with the look of a printed strategy card.

    ``title`` (the rules) goes under the heading, ``footer`` (such as the chart's EV) at the
    bottom. Each cell is a ``<g class="cell">`` with ``data-row``, ``data-up`` and ``data-code``
    (inside a ``<g class="section" data-table=...>``), so that the picture can be checked.
    """
    hard, soft, pairs = chart_sections(chart)
    section_w = _section_width()
    width = 2 * _MARGIN + 2 * section_w + _COLUMN_GAP
    heading_h = 96
    left_h = _section_height(hard)
    right_h = _section_height(soft) + 16 + _section_height(pairs)
    actions = used_actions((hard, soft, pairs))
    legend_columns = 2
    legend_rows = -(-len(actions) // legend_columns)
    legend_h = 34 + legend_rows * (_CELL_H + 8)
    legend_top = heading_h + left_h + 22
    title_lines = _title_lines(title)
    heading_h += 18 * (len(title_lines) - 1)
    legend_top += 18 * (len(title_lines) - 1)
    body_h = max(left_h + 22 + legend_h, right_h)
    footer_h = 34 if footer else 8
    height = heading_h + body_h + footer_h + _MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{_FONT}" shape-rendering="crispEdges">',
        f"<title>Basic strategy: {escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="{_FELT}"/>',
        f'<rect x="8" y="8" width="{width - 16}" height="{height - 16}" rx="14" fill="{_PAPER}" '
        f'stroke="#c8a951" stroke-width="3" shape-rendering="geometricPrecision"/>',
        _text(
            width / 2,
            _MARGIN + 30,
            "BLACKJACK BASIC STRATEGY",
            28,
            font_weight="bold",
            text_anchor="middle",
            fill=_FELT,
            letter_spacing="2",
        ),
        *(
            _text(width / 2, _MARGIN + 56 + 18 * index, line, 13, text_anchor="middle", fill=_DARK)
            for index, line in enumerate(title_lines)
        ),
        f'<rect x="{_MARGIN}" y="{heading_h - 14}" width="{width - 2 * _MARGIN}" height="1" fill="{_RULE}"/>',
    ]
    out += _section_svg(hard, _MARGIN, heading_h)
    right = _MARGIN + section_w + _COLUMN_GAP
    out += _section_svg(soft, right, heading_h)
    out += _section_svg(pairs, right, heading_h + _section_height(soft) + 16)
    out.append('<g class="legend">')
    out.append(
        f'<rect x="{_MARGIN}" y="{legend_top - 10}" width="{section_w}" height="1" fill="{_RULE}"/>'
    )
    out.append(
        _text(
            _MARGIN,
            legend_top + 14,
            "LEGEND",
            13,
            font_weight="bold",
            fill=_FELT,
            letter_spacing="1.5",
        )
    )
    column_w = section_w // legend_columns
    for index, action in enumerate(actions):
        x = _MARGIN + (index // legend_rows) * column_w
        y = legend_top + 26 + (index % legend_rows) * (_CELL_H + 8)
        out.append(
            f'<g class="key" data-code="{action.code}">'
            f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="{action.fill}"/>'
            + _text(
                x + _CELL_W / 2,
                y + 19,
                action.code,
                15,
                font_weight="bold",
                text_anchor="middle",
                fill=action.ink,
            )
            + _text(x + _CELL_W + 10, y + 19, action.short, 13, fill=_DARK)
            + "</g>"
        )
    out.append("</g>")
    if footer:
        out.append(
            _text(
                width / 2,
                height - _MARGIN - 6,
                footer,
                12,
                text_anchor="middle",
                fill="#5a5a4e",
                font_style="italic",
            )
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
