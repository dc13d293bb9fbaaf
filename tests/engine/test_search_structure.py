"""The shape of the compiled search's source (engine/search.pyx): one move
picker shared by the main search and quiescence (issue 13, item 19), so that
an ordering fix in one cannot miss the other."""

from __future__ import annotations

import re
from importlib.util import find_spec
from pathlib import Path

import pytest


def search_source() -> str:
    spec = find_spec("bingwa.engine")
    assert spec is not None and spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / "search.pyx"
    if not path.exists():
        pytest.skip("search.pyx is not shipped with this install")
    return path.read_text()


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
