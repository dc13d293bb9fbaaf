"""Reverse futility pruning (search.pyx Step 3.4.1, ``Engine.rfp``: a margin
in centi-seeds per ply, off by default). Near the horizon and off the
principal variation, a node whose static value beats beta by the margin is
not searched: fewer nodes to a depth, the same proven results,
deterministic, legal, every variant. (Futility pruning, ``futility``, was
removed in issue 28: no variant turned it on.)"""

from __future__ import annotations

import pytest

from bingwa.engine import Position, variant_names
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher

pytest.importorskip("bingwa.engine.search")

KNOBS = ("rfp",)


def searched(position: Position, depth: int, **knobs: int) -> tuple[int, Searcher]:
    searcher = Searcher(4)
    searcher.knobs.update(knobs)
    result = searcher.search(position, Limits(depth=depth))
    assert result.best in {m.text for m in position.legal_moves()}
    return searcher.nodes, searcher


@pytest.mark.parametrize("knob", KNOBS)
def test_pruning_is_off_by_default_and_cuts_the_nodes_to_a_depth(knob):
    engine = Searcher(1).engine
    assert getattr(engine, knob) == 0
    pos = Position("oware").play("c").play("F")
    free = {"capture_cost": 0}  # captures free everywhere (Oware costs them off the PV)
    plain, _ = searched(pos, 8, **free, **{knob: 0})
    pruned, _ = searched(pos, 8, **free, **{knob: 100})
    assert pruned < plain
    assert searched(pos, 8, **free, **{knob: 100})[0] == pruned  # deterministic
    # a wider margin prunes less
    assert pruned < searched(pos, 8, **free, **{knob: 400})[0]


@pytest.mark.parametrize("knob", KNOBS)
@pytest.mark.parametrize("bad", [-1, 100001])
def test_margins_out_of_range_are_refused(knob, bad):
    engine = Searcher(1).engine
    with pytest.raises(ValueError, match=f"{knob} must be 0..100000"):
        setattr(engine, knob, bad)
    assert getattr(engine, knob) == 0
    setattr(engine, knob, 100000)
    assert getattr(engine, knob) == 100000


@pytest.mark.parametrize("name", variant_names())
def test_pruned_searches_play_legal_moves_in_every_variant(name):
    pos = Position(name)
    for _ in range(3):
        if pos.is_over():
            break
        _, searcher = searched(pos, 6, rfp=50)
        pos.push(searcher.lines[0].move)


@pytest.mark.parametrize("spec, text, mate, cp", [
    ("oware", "0,1,0,1,1,0/0,0,0,0,1,0 21 23 s", 5, 200),  # the feeding trap: b
    ("kalah", "0,0,0,0,2,1/0,5,0,0,0,0 22 18 s", 3, 200),  # f, e, f: extra turns
])
@pytest.mark.parametrize("knobs", [{"rfp": 50}])
def test_forced_wins_are_still_found_exactly(spec, text, mate, cp, knobs):
    searcher = Searcher(4)
    searcher.knobs.update(knobs)
    result = searcher.search(Position(spec, text=text), Limits(depth=12))
    assert result.info.score_mate == mate
    assert result.info.score_cp == cp


def test_the_variants_prune_as_their_sprts_chose():
    """VARIANT_KNOBS (docs/strength.md): reverse futility at 100 centi-seeds
    a ply in Oware, Kalah and Ayoayo, none in Bao and Kujifunza; and
    ``Searcher.knobs`` overrides the variant's choice."""
    for name, margin in (("oware", 100), ("kalah", 100), ("ayoayo", 100), ("bao", 0),
                         ("kujifunza", 0)):
        pos = Position(name)
        fresh = Searcher(4)
        fresh.search(pos, Limits(depth=5))
        assert fresh.engine.rfp == margin
        assert fresh.nodes == searched(pos, 5, rfp=margin)[0]
    off = Searcher(4)
    off.knobs["rfp"] = 0
    off.search(Position("oware"), Limits(depth=5))
    assert off.engine.rfp == 0
