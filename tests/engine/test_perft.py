"""perft tables: counts of move sequences of exactly d plies.

- Oware d = 1..8: rules.md, rule 8.
- Oware d = 9, 10 and Kalah(6,4) d = 1..10: confirmed by OpenSpiel's
  `oware` and `mancala` (an independent C++ implementation), with
  benchmarks/crosscheck_openspiel.py; they also agree with bingwa's
  compiled and pure kernels (below, to the depth pure Python affords).
- Ayoayo and the small Kalah boards: no independent implementation to run;
  pinned from bingwa's compiled kernel and checked against the pure
  reference here to depth 6 (and on random games in test_invariants.py).
"""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import Position

TABLES = {
    "oware": [6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964],
    "kalah": [6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519607],
    "ayoayo": [6, 28, 132, 624, 2870, 13041, 58497, 260939, 1156048, 5095070],
    "kalah pits=4 seeds=3": [4, 15, 50, 158, 488, 1510, 4637, 14102, 41831, 120669],
    "kalah pits=3 seeds=2 empty-capture=true": [3, 8, 19, 40, 81, 148, 257, 404, 578, 770],
}

PURE_DEPTH = 6


@pytest.mark.parametrize("spec", list(TABLES))
def test_perft_table(spec, kind):
    pos = Position(make_variant(spec, kind))
    depth = len(TABLES[spec]) if kind == "compiled" else PURE_DEPTH
    for d in range(1, depth + 1):
        assert pos.perft(d) == TABLES[spec][d - 1], f"perft({d})"


def test_perft_zero_is_one_and_a_finished_game_has_no_moves(kind):
    pos = Position(make_variant("kalah", kind), text="0,0,0,0,0,0/1,2,3,0,0,0 21 21 n")
    assert pos.perft(0) == 1
    assert pos.perft(1) == 0 and pos.perft(3) == 0


def test_perft_from_a_middle_game_position_matches_between_kernels():
    text = "1,0,7,2,0,5/3,0,0,6,1,2 12 9 n"
    counts = {
        kind: [Position(make_variant("oware", kind), text=text).perft(d) for d in range(1, 6)]
        for kind in ("compiled", "pure")
    }
    assert counts["compiled"] == counts["pure"]
    assert counts["compiled"][0] == 4  # North's non-empty pits A, D, E, F
