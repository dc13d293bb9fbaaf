"""Late move reductions (search.pyx Step 3.6.2, ``Engine.lmr``: off by
default, two plies in Oware, where an SPRT at fixed nodes showed a gain,
docs/strength.md). With them on, late quiet moves are searched one or two
plies shallower first and again at full depth when they beat alpha: fewer
nodes to a depth, the same proven results, deterministic, legal."""

from __future__ import annotations

import pytest

from bingwa.engine import Position, variant_names
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import SEARCH_KNOBS, VARIANT_KNOBS, Searcher

pytest.importorskip("bingwa.engine.search")


def searched(position: Position, depth: int, lmr: int, **knobs: int) -> tuple[int, Searcher]:
    searcher = Searcher(4)
    searcher.knobs.update(knobs, lmr=lmr)
    result = searcher.search(position, Limits(depth=depth))
    assert result.best in {m.text for m in position.legal_moves()}
    return searcher.nodes, searcher


OPENINGS = ("cF", "aB", "dE", "fA", "bC")  # one opening's tree may grow (the evaluation's whim)


def test_reductions_are_off_by_default_and_cut_the_nodes_to_a_depth():
    assert Searcher(1).engine.lmr == 0
    free = {"capture_cost": 0}  # captures free everywhere (Oware costs them off the PV)
    totals = [0, 0, 0]
    for opening in OPENINGS:
        pos = Position("oware").play(opening[0]).play(opening[1])
        plain, _ = searched(pos, 8, 0, **free)
        reduced, _ = searched(pos, 8, 1, **free)
        assert reduced < plain, opening
        assert searched(pos, 8, 1, **free)[0] == reduced  # deterministic
        further, _ = searched(pos, 8, 2, **free)
        assert searched(pos, 8, 2, **free)[0] == further
        totals = [totals[0] + plain, totals[1] + reduced, totals[2] + further]
    # two plies for the latest moves, from depth 6: fewer still, over the openings
    assert totals[2] < totals[1] < totals[0]


@pytest.mark.parametrize("bad", [-1, 3])
def test_reductions_beyond_two_plies_are_refused(bad):
    engine = Searcher(1).engine
    with pytest.raises(ValueError, match="0..2"):
        engine.lmr = bad
    assert engine.lmr == 0


@pytest.mark.parametrize("lmr", [1, 2])
@pytest.mark.parametrize("name", variant_names())
def test_reduced_searches_play_legal_moves_in_every_variant(name, lmr):
    pos = Position(name)
    for _ in range(3):  # depth 7: two-ply reductions need a node 6 plies from the horizon
        if pos.is_over():
            break
        _, searcher = searched(pos, 7, lmr)
        pos.push(searcher.lines[0].move)


@pytest.mark.parametrize("spec, text, mate, cp", [
    ("oware", "0,1,0,1,1,0/0,0,0,0,1,0 21 23 s", 5, 200),  # the feeding trap: b
    ("kalah", "0,0,0,0,2,1/0,5,0,0,0,0 22 18 s", 3, 200),  # f, e, f: extra turns
])
@pytest.mark.parametrize("lmr", [1, 2])
def test_forced_wins_are_still_found_exactly(spec, text, mate, cp, lmr):
    searcher = Searcher(4)
    searcher.knobs["lmr"] = lmr
    result = searcher.search(Position(spec, text=text), Limits(depth=12))
    assert result.info.score_mate == mate
    assert result.info.score_cp == cp


def test_oware_searches_with_its_chosen_reductions():
    """VARIANT_KNOBS (an SPRT's choice, docs/strength.md): Oware reduces late
    quiet moves by up to two plies, the other variants keep the engine's
    defaults, one searcher follows the variant of each search, and
    ``Searcher.knobs`` overrides the variant's."""
    oware = Position("oware").play("c").play("F")
    fresh = Searcher(4)
    fresh.search(oware, Limits(depth=8))
    assert fresh.engine.lmr == 2
    assert fresh.nodes == searched(oware, 8, 2)[0] < searched(oware, 8, 0)[0]
    fresh = Searcher(4)
    fresh.search(Position("kalah"), Limits(depth=6))
    assert fresh.engine.lmr == 0
    assert fresh.nodes == searched(Position("kalah"), 6, 0)[0]
    one = Searcher(4)
    for spec, lmr in (("oware", 2), ("kalah", 0), ("oware", 2)):
        one.search(Position(spec), Limits(depth=5))
        assert one.engine.lmr == lmr
    one.knobs["lmr"] = 0
    one.search(oware, Limits(depth=5))
    assert one.engine.lmr == 0


def test_the_knobs_defaults_are_the_engines():
    engine = Searcher(1).engine
    assert {name: getattr(engine, name) for name in SEARCH_KNOBS} == SEARCH_KNOBS
    assert set(VARIANT_KNOBS) <= set(variant_names())
    assert all(set(knobs) <= set(SEARCH_KNOBS) for knobs in VARIANT_KNOBS.values())
