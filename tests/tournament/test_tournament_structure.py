"""The tournament package imports in one direction: no module imports
(at its top, inside a function, or for type checking only) a module that
imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tournament"


def local_imports(path: Path) -> set[str]:
    """The tournament modules ``path`` imports, wherever the import is."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.module and node.module.startswith("bingwa.tournament."):
                found.add(node.module.split(".")[2])
    return found


def test_no_two_tournament_modules_import_each_other_even_indirectly():
    graph = {p.stem: local_imports(p) for p in PACKAGE.glob("*.py")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(m for m in graph if reaches(m, m, {m}))
    assert circles == []


def test_the_ray_backend_and_the_runner_meet_through_the_seat_only():
    assert "runner" not in local_imports(PACKAGE / "ray_backend.py")
    assert {"seat", "ray_backend"} <= local_imports(PACKAGE / "runner.py")
