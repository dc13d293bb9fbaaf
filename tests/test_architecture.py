"""The layers of docs/architecture.md, kept: engine < bots < protocol <
tournament < the command line and the web. A module imports only from its
own layer or lower ones, no two modules import each other (directly or
through a chain), and the library never reaches into tests/ or benchmarks/.

Imports are read from the sources (every ``import``, at any depth: one
inside a function is an import too; ``cimport`` in Cython files), so the
test needs no build and sees the source tree, not the installed package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "pyproject.toml").exists() and ROOT != ROOT.parent:
    ROOT = ROOT.parent  # tests may sit in subfolders

# folder -> layer; the folder <sub> is the package bingwa.<sub> (setup.py)
LAYERS = {"engine": 0, "bots": 1, "protocol": 2, "tournament": 3}
TOP = 4  # bingwa/: the command line and the web front-end
NAMES = ["engine", "bots", "protocol", "tournament", "command line and web"]

CIMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+cimport\s+([\w, ()]+)|cimport\s+([\w.]+))", re.M)


def module_files() -> dict[str, Path]:
    """Every library module by dotted name: bingwa.engine.search, ..."""
    found = {}
    folders = [(ROOT / sub, f"bingwa.{sub}") for sub in LAYERS] + [(ROOT / "bingwa", "bingwa")]
    for folder, package in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".py", ".pyx", ".pxd") or "static" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(".".join([package, *parts]), path)
    return found


def imported_names(path: Path, module: str) -> set[str]:
    """The dotted names ``path`` imports, relative imports resolved, each
    ``from X import y`` giving X and X.y (y may be a module)."""
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    names: set[str] = set()

    def resolve(dots: int, base: str | None) -> str:
        anchor = package.split(".")
        if dots > 1:
            anchor = anchor[: len(anchor) - dots + 1]
        return ".".join(anchor + ([base] if base else [])) if dots else (base or "")

    text = path.read_text()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = resolve(node.level, node.module)
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
    else:  # Cython: cimports, and plain imports read the same way
        for m in CIMPORT.finditer(text):
            if m.group(3):
                names.add(m.group(3))
            else:
                dots = len(m.group(1)) - len(m.group(1).lstrip("."))
                base = resolve(dots, m.group(1).lstrip(".") or None)
                names.add(base)
                names.update(f"{base}.{n.strip(' ()')}" for n in m.group(2).split(","))
        py_lines = [line for line in text.splitlines()
                    if re.match(r"\s*(import|from)\s", line) and " cimport " not in line]
        for line in py_lines:
            try:
                tree = ast.parse(line.strip())
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    base = resolve(node.level, node.module)
                    names.add(base)
                    names.update(f"{base}.{a.name}" for a in node.names)
    return names


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 0  # bingwa/__init__.py: the version, imported by every layer
    return LAYERS.get(parts[1], TOP)


def graph() -> dict[str, set[str]]:
    """Module -> the library modules it imports (packages mean their
    __init__; the package a module sits in is not counted: Python imports
    it first anyway, and an __init__ that re-exports its modules is the
    package's face, not a dependency of theirs)."""
    files = module_files()
    edges: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = set()
        for name in imported_names(path, module):
            if name in files and name != module and not module.startswith(name + "."):
                targets.add(name)
        edges[module] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_library():
    edges = graph()
    assert {"bingwa.engine.search", "bingwa.engine.tworow", "bingwa.bots.base",
            "bingwa.protocol.server", "bingwa.tournament.runner", "bingwa.cli"} <= set(edges)
    # a relative import, an import inside a function and a cimport are all read
    assert "bingwa.engine.variant" in edges["bingwa.engine.tworow"]
    assert "bingwa.engine.core" in edges["bingwa.engine.search"]


def test_no_module_imports_upward():
    upward = [f"{module} ({NAMES[layer(module)]}) imports {target} ({NAMES[layer(target)]})"
              for module, targets in sorted(graph().items())
              for target in sorted(targets) if layer(target) > layer(module)]
    assert not upward, "\n".join(upward)


def test_no_import_circle():
    assert not cycles(graph()), "\n".join(" <-> ".join(c) for c in cycles(graph()))


def test_the_cycle_finder_finds_a_chain():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("folder", [*LAYERS, "bingwa"])
def test_the_library_never_reaches_into_tests_or_benchmarks(folder):
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        text = path.read_text()
        if re.search(r"\b(tests|benchmarks)\b[/\"']", text) and "sys.path" in text:
            bad.append(str(path.relative_to(ROOT)))
    assert not bad


def test_tests_and_benchmarks_never_load_each_other_by_path():
    """Code both use lives in the library and is imported (a benchmark may
    still be run as a program by a test that checks its command line)."""
    bad = []
    for folder in ("tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            if path.name == Path(__file__).name:
                continue
            if "spec_from_file_location" in text or "run_path(" in text or re.search(
                    r"sys\.path\.(insert|append)", text):
                bad.append(str(path.relative_to(ROOT)))
    assert not bad, "\n".join(bad)
