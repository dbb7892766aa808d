"""Print the package's import graph by layer, and check that imports point down the layers only.

Run it from the repository root: ``python tools/import_graph.py`` prints each layer, its modules and
the layers it imports; ``--check`` exits 1 listing every import that points up (the test suite runs
the check). Every import counts, including the lazy ones inside functions.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "twentyone"

#: Layers from the bottom up; a module may import its own layer and the layers below it.
#: Each entry: layer name, then the unit names in it (a top-level module or a subpackage path).
LAYERS: list[tuple[str, list[str]]] = [
    (
        "core",
        [
            "errors",
            "cards",
            "hand",
            "rules",
            "rule_options",
            "presets",
            "randomness",
            "shoe",
            "moves",
            "strategy_chart",
            "compositions",
            "rules_text",
            "clock",
            "money",
            "protocol",
            "fairness",
            "jsonio",
            "i18n",
            "__init__",
        ],
    ),
    ("games", ["house", "exchange", "vinte"]),
    ("analysis", ["analysis", "simulation"]),
    ("ledger and market", ["ledger", "market"]),
    ("tables", ["tables"]),
    ("storage", ["storage"]),
    ("server", ["server"]),
    ("interfaces", ["games", "scenario", "cli"]),
]


def unit_of(module: str) -> str:
    """The unit a dotted module name (without the ``twentyone.`` prefix) belongs to."""
    parts = module.split(".")
    for depth in (2, 1):
        candidate = ".".join(parts[:depth])
        for _, units in LAYERS:
            if candidate in units:
                return candidate
    return parts[0]


def layer_of(unit: str) -> int:
    for index, (_, units) in enumerate(LAYERS):
        if unit in units:
            return index
    raise SystemExit(f"tools/import_graph.py: {unit!r} is in no layer; add it to LAYERS")


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Modules of the package (without the prefix) that ``path`` imports, lazily or not."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("twentyone."):
                    found.add(alias.name.removeprefix("twentyone."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and node.module.startswith("twentyone"):
                target = node.module.removeprefix("twentyone").lstrip(".")
            else:
                continue
            if target:
                found.add(target)
            else:  # ``from twentyone import x``: a module, or a name from the package itself
                for alias in node.names:
                    is_module = (ROOT / f"{alias.name}.py").exists() or (ROOT / alias.name).is_dir()
                    found.add(alias.name if is_module else "__init__")
    return found


def graph() -> dict[str, set[str]]:
    """Unit -> the other units it imports."""
    edges: dict[str, set[str]] = defaultdict(set)
    for path in sorted(ROOT.rglob("*.py")):
        source = unit_of(module_name(path))
        edges[source]
        for target in imports_of(path):
            unit = unit_of(target)
            if unit != source:
                edges[source].add(unit)
    return edges


def upward(edges: dict[str, set[str]]) -> list[str]:
    return [
        f"{source} ({LAYERS[layer_of(source)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for source, targets in sorted(edges.items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(source)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if any import points up")
    arguments = parser.parse_args()
    edges = graph()
    if arguments.check:
        problems = upward(edges)
        for line in problems:
            print(line)
        return 1 if problems else 0
    for index, (name, _) in enumerate(LAYERS):
        units = sorted(unit for unit in edges if layer_of(unit) == index)
        if not units:
            continue
        print(f"{name}:")
        for unit in units:
            targets = ", ".join(sorted(edges[unit])) or "-"
            print(f"  {unit} -> {targets}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
