"""The search's statistics (``Engine.qnodes``, ``Engine.ext_nodes``) and
benchmarks/depth.py, which prints them with the depth reached and the
effective branching factor."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import SEARCH_KNOBS, Searcher

pytest.importorskip("bingwa.engine.search")
DEPTH_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "depth.py"


def counted(position: Position, depth: int, **knobs: int) -> Searcher:
    searcher = Searcher(2)
    for name, value in knobs.items():
        # the facade's knobs (they override the variant's), else the engine's
        if name in SEARCH_KNOBS:
            searcher.knobs[name] = value
        else:
            setattr(searcher.engine, name, value)
    searcher.search(position, Limits(depth=depth))
    return searcher


def test_quiescence_and_extension_nodes_are_counted_apart():
    pos = Position("oware").play("c").play("F")
    searcher = counted(pos, 7)
    engine = searcher.engine
    assert 0 < engine.qnodes < searcher.nodes
    assert 0 < engine.ext_nodes < searcher.nodes
    assert engine.qnodes + engine.ext_nodes <= searcher.nodes


def test_without_extensions_no_line_outgrows_the_nominal_depth():
    """Oware has no extra turns: without the capture extension every
    main-search node is within the nominal depth; without quiescence
    nothing is searched past the horizon."""
    pos = Position("oware").play("c").play("F")
    assert counted(pos, 7, capture_extension=0).engine.ext_nodes == 0
    searcher = Searcher(2)
    searcher.set_qsearch(False)
    searcher.search(pos, Limits(depth=7))
    assert searcher.engine.qnodes == 0


def test_the_counters_do_not_change_the_search():
    pos = Position("kalah")
    first = counted(pos, 7)
    second = counted(pos, 7)
    assert first.nodes == second.nodes
    assert (first.engine.qnodes, first.engine.ext_nodes) == (second.engine.qnodes,
                                                            second.engine.ext_nodes)


def depth_rows(nodes: int) -> list[list[str]]:
    """The rows of ``benchmarks/depth.py --nodes N --variant oware``, run as
    a command: it stands alone (``--python`` runs it under other builds,
    which have no module of this one)."""
    if not DEPTH_SCRIPT.exists():
        pytest.skip("benchmarks/ is not here")
    done = subprocess.run([sys.executable, str(DEPTH_SCRIPT), "--nodes", str(nodes),
                           "--variant", "oware"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [line.split() for line in done.stdout.splitlines() if line.startswith("oware")]


def test_depth_benchmark_prints_a_row_per_position():
    rows = depth_rows(3000)
    assert [row[1] for row in rows] == ["0", "20", "40"]
    for row in rows:
        assert int(row[2]) >= 3 and int(row[4]) <= 3000 + 1  # depth, nodes
        assert row[8].endswith("%") and row[9].endswith("%")  # qs and ext shares


def test_effective_branching_factor_is_the_growth_per_iteration():
    """Over the last four completed iterations: none below depth 5, and a
    growth (above 1) from there."""
    for row in depth_rows(20000):
        depth, ebf = int(row[2]), float(row[7])
        if depth < 5:
            assert math.isnan(ebf), row
        else:
            assert ebf > 1.0, row


def test_the_extension_budget_is_twice_the_depth_and_can_be_narrowed():
    """Captures are free while the line is shorter than 2 x the iteration's
    depth (docs/strength.md): the default searches exactly as 200 does, a
    narrower budget extends fewer lines."""
    pos = Position("oware").play("c").play("F")
    default = counted(pos, 7)
    assert default.engine.ext_pct == 200
    assert default.nodes == counted(pos, 7, ext_pct=200).nodes
    narrower = counted(pos, 7, ext_pct=150)
    assert narrower.nodes < default.nodes
    assert narrower.engine.ext_nodes < default.engine.ext_nodes
    kalah = counted(Position("kalah"), 6)
    assert kalah.engine.ext_pct == 200
    assert kalah.nodes == counted(Position("kalah"), 6, ext_pct=200).nodes


def test_knob_engine_sets_the_search_knobs_from_the_environment():
    """benchmarks/knob_engine.py (the SPRTs' experimental engine): a knob
    in the environment changes the search, so the node count of one
    fixed-depth search differs."""
    import os
    import subprocess

    script = DEPTH_SCRIPT.with_name("knob_engine.py")
    if not script.exists():
        pytest.skip("benchmarks/ is not here")

    def nodes(**knobs: str) -> int:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KNOB_")}
        env.update(knobs)
        engine = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write("uci\nposition startpos\ngo depth 6\n")
        engine.stdin.flush()
        lines = []
        for line in engine.stdout:  # quit only once the search answered
            lines.append(line)
            if line.startswith("bestmove"):
                break
        engine.communicate("quit\n", timeout=30)
        last = [line for line in lines if line.startswith("info depth 6 ")][-1]
        return int(last.split(" nodes ")[1].split()[0])

    plain = nodes()
    assert nodes(KNOB_EXT_PCT="100") != plain
    assert nodes(KNOB_LMR="0") != plain  # Oware reduces by default
    assert nodes(KNOB_CAPTURE_COST="0") != plain  # Oware's captures cost off the PV
    assert nodes(KNOB_CAPTURE_COST_PV="2") != plain  # ... and nothing on it


@pytest.mark.parametrize("knob, value, says", [
    ("KNOB_LMR", "x", "KNOB_LMR='x' is not a whole number"),
    ("KNOB_CAPTURE_COST_PV", "9", "capture_cost_pv must be"),
])
def test_knob_engine_refuses_a_bad_knob_in_one_line(knob, value, says):
    import os
    import subprocess

    script = DEPTH_SCRIPT.with_name("knob_engine.py")
    if not script.exists():
        pytest.skip("benchmarks/ is not here")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOB_")}
    env[knob] = value
    done = subprocess.run([sys.executable, str(script)], input="uci\nquit\n", env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("knob_engine: ") and says in done.stderr


def test_a_capture_that_costs_a_whole_ply_is_no_extension():
    """``capture_cost`` (quarter plies an extended capture costs): 4 is the
    search without the capture extension, node for node; 0 is the default."""
    pos = Position("oware").play("c").play("F")
    assert Searcher(1).engine.capture_cost == 0
    ayoayo = Position("ayoayo")
    assert counted(ayoayo, 6, capture_cost=0).nodes == counted(ayoayo, 6).nodes
    # (Oware's captures are free on the principal variation: pv cost -1 follows capture_cost)
    whole = counted(pos, 7, capture_cost=4, capture_cost_pv=-1)
    assert whole.nodes == counted(pos, 7, capture_extension=0).nodes
    assert whole.engine.ext_nodes == 0


def test_a_fractional_capture_cost_extends_less_and_goes_deeper():
    """Half a ply a capture: fewer nodes to a depth than free captures,
    more than whole-ply ones, so the same nodes reach a deeper iteration."""
    pos = Position("oware").play("c").play("F")
    free, half, whole = (counted(pos, 7, capture_cost=c, capture_cost_pv=-1) for c in (0, 2, 4))
    assert whole.nodes < half.nodes < free.nodes
    assert 0 < half.engine.ext_nodes < free.engine.ext_nodes

    def depth_reached(cost: int) -> int:
        searcher = Searcher(2)
        searcher.knobs.update(capture_cost=cost, capture_cost_pv=-1)
        return searcher.search(pos, Limits(nodes=100_000)).info.depth

    assert depth_reached(0) < depth_reached(2) < depth_reached(4)


@pytest.mark.parametrize("bad", [-1, 5])
def test_capture_cost_outside_a_ply_is_refused(bad):
    engine = Searcher(1).engine
    with pytest.raises(ValueError, match="0..4"):
        engine.capture_cost = bad
    assert engine.capture_cost == 0


def test_captures_on_the_principal_variation_can_cost_apart():
    """``capture_cost_pv``: what an extended capture costs at a
    principal-variation node; -1 (the default) is ``capture_cost``'s. Free
    on the principal variation and a whole ply elsewhere, the search
    extends only along it: some lines outgrow the nominal depth, far fewer
    nodes than free captures everywhere, more than no extension at all."""
    pos = Position("oware").play("c").play("F")
    assert Searcher(1).engine.capture_cost_pv == -1
    for cost in (0, 2, 4):
        same = counted(pos, 7, capture_cost=cost, capture_cost_pv=cost).nodes
        assert counted(pos, 7, capture_cost=cost, capture_cost_pv=-1).nodes == same
    free = counted(pos, 7, capture_cost=0, capture_cost_pv=0)
    on_pv = counted(pos, 7, capture_cost=4, capture_cost_pv=0)
    none = counted(pos, 7, capture_cost=4, capture_cost_pv=4)
    assert none.nodes < on_pv.nodes < free.nodes
    assert 0 == none.engine.ext_nodes < on_pv.engine.ext_nodes < free.engine.ext_nodes
    again = counted(pos, 7, capture_cost=4, capture_cost_pv=0)
    assert (again.nodes, again.engine.ext_nodes) == (on_pv.nodes, on_pv.engine.ext_nodes)


@pytest.mark.parametrize("bad", [-2, 5])
def test_capture_cost_pv_outside_a_ply_is_refused(bad):
    engine = Searcher(1).engine
    with pytest.raises(ValueError, match="0..4"):
        engine.capture_cost_pv = bad
    assert engine.capture_cost_pv == -1


@pytest.mark.parametrize("spec, text, mate, cp", [
    ("oware", "0,1,0,1,1,0/0,0,0,0,1,0 21 23 s", 5, 200),  # the feeding trap: b
    ("kalah", "0,0,0,0,2,1/0,5,0,0,0,0 22 18 s", 3, 200),  # f, e, f: extra turns
])
@pytest.mark.parametrize("cost, cost_pv", [(2, 0), (4, 0), (0, 4)])
def test_forced_wins_are_found_exactly_whatever_captures_cost(spec, text, mate, cp, cost,
                                                              cost_pv):
    searcher = Searcher(4)
    searcher.knobs.update(capture_cost=cost, capture_cost_pv=cost_pv)
    result = searcher.search(Position(spec, text=text), Limits(depth=12))
    assert result.info.score_mate == mate
    assert result.info.score_cp == cp


def test_captures_cost_half_a_ply_off_the_principal_variation_where_sprts_chose():
    """VARIANT_KNOBS (SPRTs' choice, docs/strength.md): an extended capture
    costs Oware, Kalah, Bao and Kujifunza half a ply away from the principal
    variation and nothing on it; Ayoayo keeps captures free."""
    for pos, depth in ((Position("oware").play("c").play("F"), 7),
                       (Position("kalah").play("c"), 7), (Position("bao"), 5),
                       (Position("kujifunza"), 5)):
        fresh = counted(pos, depth)
        assert (fresh.engine.capture_cost, fresh.engine.capture_cost_pv) == (2, 0)
        assert fresh.nodes == counted(pos, depth, capture_cost=2, capture_cost_pv=0).nodes
        assert fresh.nodes < counted(pos, depth, capture_cost=0).nodes
    ayoayo = counted(Position("ayoayo"), 3)
    assert (ayoayo.engine.capture_cost, ayoayo.engine.capture_cost_pv) == (0, -1)
