"""The shape of the compiled search's source (engine/search.pyx): one move
picker shared by the main search and quiescence (issue 13, item 19), so that
an ordering fix in one cannot miss the other; the transposition table in its
own module (_tt.pxd, _tt.pyx: issue 28)."""

from __future__ import annotations

import re
from importlib.util import find_spec
from pathlib import Path

import pytest


def engine_source(name: str = "search.pyx") -> str:
    spec = find_spec("bingwa.engine")
    assert spec is not None and spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / name
    if not path.exists():
        pytest.skip(f"{name} is not shipped with this install")
    return path.read_text()


def search_source() -> str:
    return engine_source("search.pyx")


def function_body(source: str, name: str) -> str:
    """The text of the ``cdef`` method ``name`` up to the next method."""
    match = re.search(rf"^    cdef [^\n]*\b{name}\(.*?(?=^    (?:cdef|def) )", source,
                      re.MULTILINE | re.DOTALL)
    assert match, f"{name} not found in search.pyx"
    return match.group(0)


def test_one_move_picker_serves_the_search_and_quiescence():
    source = search_source()
    # the selection loop itself is written once
    assert len(re.findall(r"if order\[i\] > order\[pick\]", source)) == 1
    assert "cdef inline int pick_next(" in source
    assert "pick_next(order" in function_body(source, "search")
    assert "pick_next(order" in function_body(source, "qsearch_moves")


def test_the_transposition_table_is_its_own_module():
    pytest.importorskip("bingwa.engine._tt")
    source = search_source()
    table = engine_source("_tt.pxd")
    for name in ("table_probe", "table_store", "table_prefetch"):
        assert re.search(rf"^cdef inline [^\n]*\b{name}\(", table, re.MULTILINE)
        assert f"{name}(self.table" in source  # its own table or a shared one (Threads)
    # the memory (mmap, huge pages) is _tt.pyx's alone
    assert "mmap" not in source and "mmap" in engine_source("_tt.pyx")
