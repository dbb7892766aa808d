"""`twentyone strategy`: the coloured terminal chart, the plain one, and the `--svg` card.

The card is rendered to PNG (resvg, no system libraries needed) and its cells' colours are
sampled; the pictures are saved under artifacts/screenshots/ for review.
"""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import resvg_py
from click.testing import CliRunner
from PIL import Image
from rich.console import Console

from twentyone.analysis.strategy import basic_strategy_analysis
from twentyone.cli.chart_render import (
    ACTIONS,
    UPCARD_LABELS,
    chart_sections,
    chart_svg,
    rules_summary,
    terminal_chart,
)
from twentyone.cli.main import cli
from twentyone.presets import CASINO, ONLINE
from twentyone.rules import Rules

SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "artifacts" / "screenshots"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def card(rules: Rules) -> str:
    result = basic_strategy_analysis(rules)
    return chart_svg(result.chart, rules_summary(rules), f"EV playing this chart: {result.ev:+.2%}")


def cells(svg: str) -> dict[tuple[str, str, str], ET.Element]:
    """Every cell of the card by (table, row label, up card)."""
    root = ET.fromstring(svg)
    found: dict[tuple[str, str, str], ET.Element] = {}
    for section in root.iter(f"{SVG}g"):
        if section.get("class") != "section":
            continue
        for cell in section.iter(f"{SVG}g"):
            if cell.get("class") == "cell":
                key = (
                    section.get("data-table", ""),
                    cell.get("data-row", ""),
                    cell.get("data-up", ""),
                )
                assert key not in found, key
                found[key] = cell
    return found


@pytest.mark.parametrize("rules", [CASINO, ONLINE], ids=["casino", "online"])
def test_the_card_is_well_formed_with_one_cell_per_row_and_up_card(rules: Rules) -> None:
    svg = card(rules)
    found = cells(svg)
    rows = sum(
        len(section.rows) for section in chart_sections(basic_strategy_analysis(rules).chart)
    )
    assert len(found) == rows * len(UPCARD_LABELS)
    assert len({key[1] for key in found if key[0] == "pairs"}) == 10
    assert all(cell.get("data-code") in ACTIONS for cell in found.values())
    # Each cell's letters are its code.
    assert all(cell.find(f"{SVG}text").text == cell.get("data-code") for cell in found.values())  # type: ignore[union-attr]
    assert rules_summary(rules) in svg


def test_known_cells_follow_the_rules() -> None:
    online, casino = cells(card(ONLINE)), cells(card(CASINO))
    # 16 against a ten: hit without surrender, surrender (else hit) with late surrender.
    assert online[("hard", "16", "10")].get("data-code") == "H"
    assert casino[("hard", "16", "10")].get("data-code") == "Rh"
    # Always split eights (with a peek); soft 18 hits a 9 under S17 with 6 decks.
    assert online[("pairs", "8,8", "10")].get("data-code") == "P"
    assert online[("soft", "A,7", "9")].get("data-code") == "H"
    # Double-else-hit and double-else-stand are told apart, as on printed cards.
    assert online[("hard", "11", "6")].get("data-code") == "Dh"
    assert online[("soft", "A,7", "3")].get("data-code") == "Ds"
    assert online[("hard", "17+", "A")].get("data-code") == "S"


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def test_the_card_renders_to_a_png_with_the_colours_of_its_cells() -> None:
    svg = card(CASINO)
    root = ET.fromstring(svg)
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "strategy-card-casino.png").write_bytes(png)
    (SCREENSHOTS / "strategy-card-casino.svg").write_text(svg, encoding="utf-8")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (int(root.get("width", "0")), int(root.get("height", "0")))
    assert image.width > 900 and image.height > 700
    found = cells(svg)
    for key, code in [
        (("hard", "16", "10"), "Rh"),
        (("hard", "13", "2"), "S"),
        (("hard", "11", "6"), "Dh"),
        (("soft", "A,7", "9"), "H"),
        (("soft", "A,7", "3"), "Ds"),
        (("pairs", "8,8", "9"), "P"),
    ]:
        assert found[key].get("data-code") == code
        rect = found[key].find(f"{SVG}rect")
        assert rect is not None
        # A corner inside the cell, away from its letters.
        x, y = int(rect.get("x", "0")) + 3, int(rect.get("y", "0")) + 3
        assert image.getpixel((x, y)) == _rgb(ACTIONS[code].fill), (key, code)
    # The grid's colours differ from each other (the card is not one colour).
    assert len({ACTIONS[code].fill for code in ACTIONS}) == len(ACTIONS)


def test_the_terminal_chart_is_in_colour_with_a_legend_and_is_saved_as_a_screenshot() -> None:
    result = basic_strategy_analysis(CASINO)
    footer = f"EV playing this chart: {result.ev:+.6%}"
    console = Console(record=True, force_terminal=True, color_system="truecolor", width=124)
    console.print(terminal_chart(result.chart, rules_summary(CASINO), footer))
    text = console.export_text(clear=False)
    assert "Legend" in text and "surrender, else hit" in text and "17+" in text
    # Wide enough: hard totals beside soft totals, as on a printed card.
    assert any("Hard totals" in line and "Soft totals" in line for line in text.splitlines())
    svg = console.export_svg(title="twentyone strategy", clear=False)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "strategy-terminal.svg").write_text(svg, encoding="utf-8")
    # Rich's picture asks for Fira Code: any monospace font installed here stands in for it.
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, monospace_family="DejaVu Sans Mono"))
    (SCREENSHOTS / "strategy-terminal.png").write_bytes(png)
    assert Image.open(io.BytesIO(png)).width > 400
    # Rich's export colours each cell: the stand red and the hit green are both in it.
    assert ACTIONS["S"].fill in svg and ACTIONS["H"].fill in svg
    ansi = console.export_text(styles=True)
    assert "\x1b[" in ansi


def test_the_plain_chart_has_no_colour_codes_and_keeps_the_ev_line() -> None:
    code, out, err = run("strategy", "--preset", "online")
    assert code == 0, err
    assert "\x1b" not in out
    lines = out.splitlines()
    assert lines[0] == "Basic strategy"
    assert "Hard totals" in lines and "Soft totals" in lines and "Splitting pairs" in lines
    row = next(line for line in lines if line.startswith("8,8"))
    assert row.split() == ["8,8", *["P"] * 10]
    assert "Legend" in lines and lines[-1].startswith("EV playing this chart: ")


def test_json_is_unchanged_by_the_picture(tmp_path: Path) -> None:
    target = tmp_path / "card.svg"
    code, out, err = run("strategy", "--preset", "online", "--json", "--svg", str(target))
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"rules", "chart", "basic_strategy_ev"}
    assert data["chart"]["pairs"]["8"]["T"] == "P"
    assert cells(target.read_text(encoding="utf-8"))[("pairs", "8,8", "10")].get("data-code") == "P"


@pytest.mark.parametrize(
    "where", ["folder", "missing folder", "a file as folder", "unwritable", "full disk"]
)
def test_a_picture_that_cannot_be_written_is_one_line_exit_2(tmp_path: Path, where: str) -> None:
    if where == "folder":
        target = tmp_path
    elif where == "missing folder":
        target = tmp_path / "nowhere" / "card.svg"
    elif where == "a file as folder":
        (tmp_path / "file").write_text("")
        target = tmp_path / "file" / "card.svg"
    elif where == "full disk":
        target = Path("/dev/full")
        if not target.exists():
            pytest.skip("no /dev/full here")
    else:
        if os.geteuid() == 0:
            pytest.skip("root may write anywhere")
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "card.svg"
    code, out, err = run("strategy", "--preset", "online", "--svg", str(target))
    assert code == 2, (code, out, err)
    assert err.startswith("twentyone: error: --svg ") and err.count("\n") == 1, err
    assert out == "" and "Traceback" not in err
