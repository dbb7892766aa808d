"""The layers of docs/architecture.md hold in the real import graph (tools/import_graph.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "import_graph.py"


def test_imports_point_down_the_layers_only() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_the_graph_prints_every_layer_that_has_modules() -> None:
    done = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True, check=True)
    for layer in ("core:", "games:", "analysis:", "ledger and market:", "interfaces:"):
        assert layer in done.stdout.splitlines()
    assert "  house -> " in done.stdout


def test_the_protocol_example_of_the_architecture_page_runs() -> None:
    import doctest

    doc = TOOL.parent.parent / "docs" / "architecture.md"
    text = doc.read_text(encoding="utf-8")
    start = text.index("```python") + len("```python")
    example = text[start : text.index("```", start)]
    test = doctest.DocTestParser().get_doctest(example, {}, doc.name, str(doc), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 10
