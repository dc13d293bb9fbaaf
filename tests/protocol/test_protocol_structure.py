"""The protocol package's shape: its modules import one another without a
circle (issue 13, item 19), so each can be read and loaded on its own."""

from __future__ import annotations

import ast
from pathlib import Path

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"


def protocol_imports() -> dict[str, set[str]]:
    """Module name -> the protocol modules it imports (at any level of the
    file, function bodies included: a deferred import still closes a circle)."""
    graph: dict[str, set[str]] = {}
    for path in PROTOCOL.glob("*.py"):
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    imported.add(node.module.split(".")[0])
                elif node.level == 1:
                    imported.update(alias.name for alias in node.names)
                elif node.module and node.module.startswith("bingwa.protocol."):
                    imported.add(node.module.split(".")[2])
        graph[path.stem] = imported & {p.stem for p in PROTOCOL.glob("*.py")}
    return graph


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` as a path, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> list[str] | None:
        state[name] = 1
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                return path[path.index(other):] + [name, other] if other in path else [name, other]
            if other not in state:
                found = visit(other, path + [name])
                if found:
                    return found
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name, [])
            if found:
                return found
    return None


def test_the_circle_finder_sees_a_circle():
    assert find_circle({"a": {"b"}, "b": {"a"}}) is not None
    assert find_circle({"a": {"b"}, "b": set()}) is None


def test_protocol_modules_import_without_a_circle():
    graph = protocol_imports()
    assert "auale" in graph and "dialect" in graph
    assert find_circle(graph) is None
