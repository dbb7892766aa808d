"""Draw the playing cards of the web interface as one SVG sprite: src/twentyone/web/img/cards.svg.

Run ``python tools/make_cards.py`` (or ``--check`` to fail when the committed sprite differs from
what this script draws). The output is deterministic: the same script always writes the same bytes.

The sprite has one ``<symbol>`` per card, ``card-AS`` ... ``card-KC`` (rank A 2-9 T J Q K, suit
S H D C, as the engine writes cards), and ``card-back``. Every card is 240 x 336 (the 2.5 x 3.5
proportions of a real card). The suit colours are CSS custom properties read through ``<use>``
(``--suit-spade``, ``--suit-heart``, ``--suit-diamond``, ``--suit-club``), so the page switches to
the four-colour deck with CSS alone and the sprite is fetched once.

The number cards have the classic pip layout (the pips in the lower half turned over), the court
cards a gold frame with the letter and two pips, the aces one big pip.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "twentyone" / "web" / "img" / "cards.svg"

WIDTH, HEIGHT = 240, 336
RANKS = "A23456789TJQK"
SUITS = "SHDC"
RANK_NAMES = {"T": "10"}
#: Each suit's colour: a CSS custom property with the classic two-colour default.
SUIT_FILL = {
    "S": "var(--suit-spade, #161616)",
    "H": "var(--suit-heart, #c0142b)",
    "D": "var(--suit-diamond, #c0142b)",
    "C": "var(--suit-club, #161616)",
}
FONT = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"

#: The suit shapes, each in a 100 x 100 box (drawn once, used by every pip).
SUIT_PATHS = {
    "S": (
        "M50 2C58 20 98 38 98 64C98 80 86 90 72 90C63 90 56 86 53 79C54 90 58 96 67 100"
        "H33C42 96 46 90 47 79C44 86 37 90 28 90C14 90 2 80 2 64C2 38 42 20 50 2Z"
    ),
    "H": (
        "M50 98C36 80 2 58 2 30C2 14 14 2 28 2C39 2 46 9 50 19C54 9 61 2 72 2"
        "C86 2 98 14 98 30C98 58 64 80 50 98Z"
    ),
    "D": "M50 1C60 20 74 36 90 50C74 64 60 80 50 99C40 80 26 64 10 50C26 36 40 20 50 1Z",
    "C": (
        "M50 4A22 22 0 0 1 68.5 37.8A22 22 0 1 1 56 74C56 86 60 94 68 100H32C40 94 44 86 44 74"
        "A22 22 0 1 1 31.5 37.8A22 22 0 0 1 50 4Z"
    ),
}

# Pip centres: three columns and the rows of the classic layouts.
LEFT, CENTRE, RIGHT = 72, 120, 168
TOP, BOTTOM, MIDDLE = 74, 262, 168
ROW_2, ROW_3 = 137, 199  # the inner rows of the four-row layouts (9 and 10)
PIPS: dict[str, list[tuple[int, int]]] = {
    "2": [(CENTRE, TOP), (CENTRE, BOTTOM)],
    "3": [(CENTRE, TOP), (CENTRE, MIDDLE), (CENTRE, BOTTOM)],
    "4": [(LEFT, TOP), (RIGHT, TOP), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    "5": [(LEFT, TOP), (RIGHT, TOP), (CENTRE, MIDDLE), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    "6": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)],
    "7": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)] + [(CENTRE, 121)],
    "8": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)]
    + [(CENTRE, 121), (CENTRE, 215)],
    "9": [(x, y) for y in (TOP, ROW_2, ROW_3, BOTTOM) for x in (LEFT, RIGHT)] + [(CENTRE, MIDDLE)],
    "T": [(x, y) for y in (TOP, ROW_2, ROW_3, BOTTOM) for x in (LEFT, RIGHT)]
    + [(CENTRE, 105), (CENTRE, 231)],
}
PIP_SIZE = 46


def pip(suit: str, x: float, y: float, size: float, turned: bool = False) -> str:
    """One suit shape centred on (x, y); ``turned`` upside down (the lower half of a card)."""
    scale = size / 100
    place = f"translate({x - size / 2:g} {y - size / 2:g}) scale({scale:g})"
    if turned:
        place = f"rotate(180 {x:g} {y:g}) {place}"
    return f'<use href="#suit-{suit}" width="100" height="100" transform="{place}"/>'


def corner(rank: str, suit: str) -> str:
    """The rank and a small pip in the top-left corner, and the same turned in the bottom-right."""
    label = RANK_NAMES.get(rank, rank)
    # Big enough to read on a phone; "10" a little smaller and tighter, to fit the same width.
    size, spacing = (42, ' letter-spacing="-4"') if len(label) > 1 else (52, "")
    one = (
        f'<text x="27" y="54" text-anchor="middle" font-family="{FONT}" font-size="{size}"'
        f' font-weight="bold"{spacing}>{label}</text>' + pip(suit, 27, 78, 28)
    )
    return f'{one}<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{one}</g>'


def face(rank: str, suit: str) -> str:
    """The middle of the card: pips, a court frame or the ace's big pip."""
    if rank == "A":
        size = 132 if suit == "S" else 104
        ring = (
            '<circle cx="120" cy="168" r="78" fill="none" stroke="currentColor"'
            ' stroke-opacity="0.18" stroke-width="2"/>'
            if suit == "S"
            else ""
        )
        return ring + pip(suit, 120, 168, size)
    if rank in "JQK":
        frame = (
            '<rect x="56" y="46" width="128" height="244" rx="8" fill="#fbf3dc"'
            ' stroke="#b8892b" stroke-width="4"/>'
            '<rect x="63" y="53" width="114" height="230" rx="5" fill="none"'
            ' stroke="#b8892b" stroke-width="1.5"/>'
        )
        letter = (
            f'<text x="120" y="206" text-anchor="middle" font-family="{FONT}" font-size="112"'
            f' font-weight="bold">{rank}</text>'
        )
        crown = (
            '<path d="M96 112L104 88L114 104L120 82L126 104L136 88L144 112Z" fill="#d4a62a"'
            ' stroke="#8a6416" stroke-width="2" stroke-linejoin="round"/>'
            if rank == "K"
            else '<circle cx="120" cy="100" r="11" fill="#d4a62a" stroke="#8a6416" stroke-width="2"/>'
            if rank == "Q"
            else '<path d="M108 104H132L126 88H114Z" fill="#d4a62a" stroke="#8a6416"'
            ' stroke-width="2" stroke-linejoin="round"/>'
        )
        return frame + crown + letter + pip(suit, 82, 82, 28) + pip(suit, 158, 254, 28, turned=True)
    return "".join(pip(suit, x, y, PIP_SIZE, turned=y > MIDDLE) for x, y in PIPS[rank])


def card(rank: str, suit: str) -> str:
    return (
        f'<symbol id="card-{rank}{suit}" viewBox="0 0 {WIDTH} {HEIGHT}">'
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16"'
        ' fill="#fffdf8" stroke="#9a9486" stroke-width="3"/>'
        f'<g style="fill: {SUIT_FILL[suit]}; color: {SUIT_FILL[suit]}">'
        f"{corner(rank, suit)}{face(rank, suit)}</g></symbol>"
    )


def lattice(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """Diagonal lines both ways inside a rectangle (drawn as lines: no pattern or clip
    reference, which not every browser follows through an external ``<use>``)."""
    lines: list[str] = []
    width, height = x1 - x0, y1 - y0
    offset = -height
    while offset < width:
        # The line y - y0 = (x - x0) - offset, clipped to the rectangle.
        start_x = max(x0, x0 + offset)
        end_x = min(x1, x0 + offset + height)
        if end_x > start_x:
            a = (start_x, y0 + start_x - x0 - offset)
            b = (end_x, y0 + end_x - x0 - offset)
            lines.append(f"M{a[0]:g} {a[1]:g}L{b[0]:g} {b[1]:g}")
            # Its mirror image across the rectangle's vertical centre line.
            lines.append(f"M{x0 + x1 - a[0]:g} {a[1]:g}L{x0 + x1 - b[0]:g} {b[1]:g}")
        offset += step
    return "".join(lines)


def back() -> str:
    inner = (18, 18, WIDTH - 18, HEIGHT - 18)
    return (
        f'<symbol id="card-back" viewBox="0 0 {WIDTH} {HEIGHT}">'
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16"'
        ' fill="#fffdf8" stroke="#9a9486" stroke-width="3"/>'
        f'<rect x="{inner[0]}" y="{inner[1]}" width="{inner[2] - inner[0]}"'
        f' height="{inner[3] - inner[1]}" rx="8" style="fill: var(--card-back, #8e1b2c)"/>'
        f'<path d="{lattice(*inner, step=18)}" stroke="#e9c46a" stroke-opacity="0.45"'
        ' stroke-width="2" fill="none"/>'
        f'<rect x="{inner[0] + 6}" y="{inner[1] + 6}" width="{inner[2] - inner[0] - 12}"'
        f' height="{inner[3] - inner[1] - 12}" rx="5" fill="none" stroke="#e9c46a"'
        ' stroke-width="2.5"/>'
        '<circle cx="120" cy="168" r="44" style="fill: var(--card-back, #8e1b2c)"'
        ' stroke="#e9c46a" stroke-width="4"/>'
        f'<text x="120" y="185" text-anchor="middle" font-family="{FONT}" font-size="48"'
        ' font-weight="bold" fill="#f4d58d">21</text>'
        "</symbol>"
    )


def sprite() -> str:
    suits = "".join(
        f'<symbol id="suit-{suit}" viewBox="0 0 100 100"><path d="{path}"/></symbol>'
        for suit, path in SUIT_PATHS.items()
    )
    cards = "\n".join(card(rank, suit) for suit in SUITS for rank in RANKS)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- Generated by tools/make_cards.py: edit that script, not this file. -->\n"
        f"<defs>{suits}</defs>\n{cards}\n{back()}\n</svg>\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the sprite is stale")
    args = parser.parse_args(argv)
    text = sprite()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/make_cards.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
