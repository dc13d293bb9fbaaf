"""The perft tables of rules-bao.md section 13 (rules version bao-1). The
pure kernel runs the shallow rows, the compiled kernel every row (the
deepest, Kiswahili d = 11, takes about a third of a second)."""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import Position

KISWAHILI = [4, 14, 38, 124, 405, 1_430, 5_655, 23_270, 105_704, 494_462, 2_439_001]
KUJIFUNZA = [16, 108, 500, 1_902, 6_550, 23_442, 84_200, 319_524]
EXAMPLES = {
    "E5": ("kiswahili 0,4,0,0,0,8,0,0/0,0,4,6,0,0,3,2/0,0,2,0,6,0,0,0/0,0,0,0,4,0,0,3 S 11-11 namua Aa -",
           [3, 11, 43, 176, 779]),
    "E8": ("kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/0,0,0,3,0,0,0,0/3,3,3,0,21,0,0,0 S 0-0 mtaji - -",
           [2, 3, 10, 26, 117]),
    "E11": ("kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,9,0,0,1/1,6,3,1,0,5,4,0/2,1,0,5,0,3,0,1 S 11-11 namua - -",
            [7, 16, 75, 352, 1_716]),
}
# deepest row each kernel runs
PURE_DEPTH = {"bao": 6, "kujifunza": 4, "example": 3}


def rows(kind: str, table: list[int], key: str) -> list[int]:
    depth = len(table) if kind == "compiled" else PURE_DEPTH[key]
    return table[:depth]


@pytest.mark.parametrize("spec, table", [("bao", KISWAHILI), ("kujifunza", KUJIFUNZA)])
def test_perft_from_the_start(kind, spec, table):
    pos = Position(make_variant(spec, kind))
    assert pos.perft(0) == 1
    for depth, expected in enumerate(rows(kind, table, spec), start=1):
        assert pos.perft(depth) == expected, f"{spec} perft({depth})"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_perft_from_the_worked_examples(kind, name):
    text, table = EXAMPLES[name]
    pos = Position(make_variant("bao", kind), text=text)
    for depth, expected in enumerate(rows(kind, table, "example"), start=1):
        assert pos.perft(depth) == expected, f"{name} perft({depth})"


def test_perft_of_a_finished_game_is_zero(kind):
    won = "kiswahili 0,0,0,28,0,0,0,20/0,0,0,0,0,0,0,0/1,3,1,0,2,0,0,0/0,0,4,0,0,0,0,0 N 2-3 namua - -"
    pos = Position(make_variant("bao", kind), text=won)
    assert [pos.perft(d) for d in range(4)] == [1, 0, 0, 0]


def test_the_kujifunza_tree_holds_a_finite_move_of_204_seeds(kind):
    """Section 13 says no move of its trees drops more than 152 seeds; the
    Kujifunza perft(8) tree holds a legal 40-lap takasa of 204 (plain relays,
    so no way of counting gives 152). Far below CAP: the table stands."""
    from bingwa.engine.bao import LEGAL, Run

    pos = Position(make_variant("kujifunza", kind))
    pos.push_all("A4> b7> A3< a7< B6< a1> B5>".split())
    move = pos.parse_move("a6>")
    run = Run(pos.state, move.code).execute()
    assert (run.status, run.dropped, run.capture_move) == (LEGAL, 204, False)
    assert pos.play(move).text() == (
        "kujifunza 2,4,3,0,3,0,5,4/1,2,3,4,5,3,1,8/0,0,1,1,0,0,1,1/2,0,1,2,0,1,2,4 S 0-0 mtaji - -"
    )
