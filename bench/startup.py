"""Benchmark of whole ``twentyone`` commands: CPU seconds of each, start-up included.

Each command runs in a fresh process, as a user runs it; what is measured is the child's CPU
time (user + system, from ``os.wait4``), not the wall clock, so that another process on the
machine changes the figures less. The commands are interleaved (one run of each, then the
next round), after one warm-up run of each (numba's on-disk cache is warm from then on), and
each gets its min and median over ``--runs`` rounds. Prints one JSON object.

Run: ``python bench/startup.py [--runs 7]``. The issue's targets (issue 19): ``dealer`` at
most 0.3 s, ``analyze`` (6 decks, S17, DAS, 4 hands, late surrender, peek) at most 0.6 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

_ISSUE_RULES = [
    "--preset", "online", "--decks", "6", "--s17", "--das", "--max-hands", "4",
    "--surrender", "late", "--peek", "ace-ten",
]  # fmt: skip

#: name -> the arguments of ``twentyone``.
COMMANDS: dict[str, list[str]] = {
    "help": ["--help"],
    "rules casino": ["rules", "casino"],
    "dealer": ["dealer"],
    "analyze (6d S17 DAS 4h LS peek)": ["analyze", *_ISSUE_RULES],
    "hand 8S 8D --up 6": ["hand", "8S", "8D", "--up", "6"],
}

#: What issue 19 asks of a whole command, CPU seconds.
TARGETS = {"dealer": 0.3, "analyze (6d S17 DAS 4h LS peek)": 0.6}

#: The same commands before the start-up work of issue 19 (min, median CPU seconds; 5
#: interleaved runs on the 2-core development machine, load average 3.1, 2026-12-01): each
#: run prints its ratio to these (rerun on a quiet machine for absolute figures).
BEFORE = {
    "help": (0.1053, 0.1435),
    "rules casino": (2.3303, 2.522),
    "dealer": (1.5792, 1.5901),
    "analyze (6d S17 DAS 4h LS peek)": (2.1612, 2.4648),
    "hand 8S 8D --up 6": (1.3324, 1.6555),
}


def cpu_seconds_of(arguments: list[str]) -> float:
    """Run ``twentyone ARGUMENTS`` to its end; its user + system CPU seconds."""
    script = Path(sys.executable).parent / "twentyone"
    child = subprocess.Popen(
        [str(script), *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # so that Popen does not wait again
    if child.returncode != 0:
        raise SystemExit(f"twentyone {' '.join(arguments)} failed: {errors.decode()}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="Interleaved runs of each command.")
    options = parser.parse_args()
    for arguments in COMMANDS.values():
        cpu_seconds_of(arguments)  # warm-up: the disk caches (numba's, the OS's)
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(options.runs):
        for name, arguments in COMMANDS.items():
            samples[name].append(cpu_seconds_of(arguments))
    results: dict[str, object] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "load_average": os.getloadavg()[0],
        "runs": options.runs,
        "unit": "CPU seconds (user + system) of the whole command",
    }
    for name, values in samples.items():
        entry: dict[str, object] = {
            "command": "twentyone " + " ".join(COMMANDS[name]),
            "min": round(min(values), 4),
            "median": round(statistics.median(values), 4),
        }
        if name in TARGETS:
            entry["target"] = TARGETS[name]
        if name in BEFORE:
            before_min, before_median = BEFORE[name]
            entry["before"] = {"min": before_min, "median": before_median}
            entry["speed-up (min)"] = round(before_min / min(values), 2)
        results[name] = entry
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
