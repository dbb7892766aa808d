"""Batches of exact analyses, one row per rule set: ``twentyone analyze --grid FILE``.

Each row is what ``twentyone analyze --json`` prints for that rule set (``seconds``: the time
the row took where it was computed). The rows are computed here, one after the other, or on a
Dask cluster (:mod:`twentyone.simulation.cluster`), each rule set a task any worker runs; either
way they come back in the order of the rule sets, and a row is the same wherever it was computed
(the analysis is deterministic).

>>> from twentyone.rules import Rules
>>> rows = analyze_grid([Rules(decks=None), Rules(decks=None, dealer_hits_soft_17=True)])
>>> [round(row["ev"] * 100, 4) for row in rows]
[-0.5117, -0.7311]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from twentyone.analysis.engine import check_convention
from twentyone.errors import InvalidRulesError
from twentyone.rules import Rules

#: The most rule sets one grid may have (a row costs seconds; a grid file is at most 1 MiB).
MAX_GRID_ROWS = 10_000


def analysis_row(rules: Rules, convention: str = "cdz-", exact: bool = False) -> dict[str, Any]:
    """The ``analyze --json`` object of ``rules`` (``exact``: with ``ev_exact``, infinite shoe
    only). A top-level function of plain values: what a cluster's worker is sent."""
    from twentyone.analysis.house_edge import analyze

    started = time.perf_counter()
    out = analyze(rules, convention).to_json()
    if exact:
        from twentyone.analysis.exact import exact_expected_return

        fraction = exact_expected_return(rules)
        out["ev_exact"] = f"{fraction.numerator}/{fraction.denominator}"
    out["seconds"] = time.perf_counter() - started
    return out


def check_grid(rule_sets: Sequence[Rules], convention: str = "cdz-", exact: bool = False) -> None:
    """Refuse, before anything is computed, a grid that some row would fail on: no rule sets,
    too many, an unknown split convention, ``exact`` with a finite shoe."""
    check_convention(convention)
    if not rule_sets:
        raise InvalidRulesError("the grid has no rule sets")
    if len(rule_sets) > MAX_GRID_ROWS:
        raise InvalidRulesError(
            f"the grid has {len(rule_sets):,} rule sets, more than the limit of {MAX_GRID_ROWS:,}"
        )
    if exact:
        for number, rules in enumerate(rule_sets, 1):
            if rules.decks is not None:
                raise InvalidRulesError(
                    f"rule set {number}: exact fractions are for the infinite shoe "
                    f"(decks=inf), got {rules.decks} decks"
                )


def analyze_grid(
    rule_sets: Sequence[Rules],
    convention: str = "cdz-",
    exact: bool = False,
    client: Any = None,
    progress: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """One :func:`analysis_row` per rule set, in their order; ``progress`` is called as each row
    is done. ``client``: a connected ``distributed.Client`` to compute the rows on (see
    :func:`twentyone.simulation.cluster.connect`), else they are computed in this process."""
    check_grid(rule_sets, convention, exact)
    if client is None:
        rows = []
        for rules in rule_sets:
            rows.append(analysis_row(rules, convention, exact))
            if progress is not None:
                progress()
        return rows
    from twentyone.simulation.cluster import check_workers, ordered_map, worker_count

    check_workers(client)
    window = 2 * max(worker_count(client), 1)  # a row queued behind each one running
    tasks = ((rules, convention, exact) for rules in rule_sets)
    done = None if progress is None else (lambda _row: progress())
    return list(ordered_map(client, analysis_row, tasks, window, done))
