"""The worked example of docs/house-games.md runs as written (it is the protocol's documentation)."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).parent.parent.parent / "docs" / "house-games.md"


def test_the_worked_example_of_explicit_chance_runs() -> None:
    text = DOC.read_text()
    start = text.index("```python") + len("```python")
    example = text[start : text.index("```", start)]
    test = doctest.DocTestParser().get_doctest(example, {}, DOC.name, str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 15
