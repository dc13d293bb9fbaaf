"""The proof search (engine/_proof.pyx, solvers.prove_win) against an
exhaustive AND/OR search written apart on bingwa.engine.Position
(support.proofs): the fastest forced win's length, or none within the
limit, on Bao la Kujifunza endgames and small Kalah boards (rules without a repetition ending)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from click.testing import CliRunner
from support.proofs import wins_within

from bingwa.cli import main
from bingwa.engine import Position
from bingwa.engine.solvers import SolveInterrupted, SolverError, WinFinder, prove_win

pytest.importorskip("bingwa.engine._proof")


def fastest_win(pos: Position, limit: int) -> int | None:
    return next((p for p in range(1, limit + 1) if wins_within(pos, pos.turn, p)), None)


@cache
def kalah_wins_within(spec: str, text: str, attacker: int, plies: int) -> bool:
    """wins_within, remembered by position (Kalah has no repetition rule)."""
    pos = Position(spec, text=text)
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.winner == attacker
    if plies == 0:
        return False
    results = (kalah_wins_within(spec, pos.play(m).text(), attacker, plies - 1)
               for m in pos.legal_moves())
    return any(results) if pos.turn == attacker else all(results)


def endgames(spec: str, count: int, seed: int) -> list[Position]:
    """Positions 1..4 plies before the end of seeded random games."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position(spec)
        while not pos.is_over() and len(pos.move_stack) < 400:
            pos.push(rng.choice(pos.legal_moves()))
        back = rng.randrange(1, 5)
        if not pos.is_over() or len(pos.move_stack) < back:
            continue
        for _ in range(back):
            pos.pop()
        found.append(pos)
    return found


def test_kujifunza_endgames_get_the_exhaustive_fastest_win():
    wins = misses = 0
    for pos in endgames("kujifunza", 16, seed=5):
        want = fastest_win(pos, 3)
        proof = prove_win(pos, max_plies=3, table_mb=4)
        assert proof.plies == want, pos.text()
        if want is None:
            misses += 1
            assert proof.move is None
            continue
        wins += 1
        # the proof's move wins in time, and the proof tree ends in wins only
        assert wins_within(pos.play(proof.move), pos.turn, want - 1)
        assert proof.tree_nodes >= proof.tree_states >= want
    assert wins > 0 and misses > 0


@pytest.mark.parametrize("spec", ["kalah pits=3 seeds=2", "kalah pits=4 seeds=1",
                                  "kalah pits=3 seeds=3 empty-capture=true"])
def test_small_kalah_boards_get_the_exhaustive_fastest_win(spec):
    """Kalah(3,2) is a win (by 4) for South, Kalah(4,1) one by 2; the
    win's length is the exhaustive one. A draw (Kalah(3,1)) is no win."""
    for pos in [Position(spec)] + endgames(spec, 10, seed=3):
        text = pos.text()
        want = next((p for p in range(1, 25)
                     if kalah_wins_within(spec, text, pos.turn, p)), None)
        assert prove_win(pos, max_plies=24, table_mb=4).plies == want, text
    assert prove_win(Position("kalah pits=3 seeds=1"), max_plies=30, table_mb=1).plies is None


def test_the_start_of_kujifunza_has_no_short_win():
    proof = prove_win(Position("kujifunza"), max_plies=6, table_mb=4)
    assert proof.plies is None and proof.nodes > 0


def test_a_proof_out_of_nodes_claims_nothing():
    with pytest.raises(SolveInterrupted):
        prove_win(Position("kujifunza"), max_plies=30, table_mb=4, node_limit=5000)


def test_rules_with_a_repetition_ending_are_refused():
    with pytest.raises(SolverError):
        prove_win(Position("oware"))


def test_solve_kujifunza_prints_the_proof():
    pos = next(p for p in endgames("kujifunza", 16, seed=5) if fastest_win(p, 3))
    result = CliRunner().invoke(main, ["solve", "kujifunza", "-p", pos.text(), "-q",
                                       "--max-plies", "5"])
    assert result.exit_code == 0, result.output
    plies = fastest_win(pos, 3)
    assert f"result: {pos.turn_name} wins, proven, the fastest forced win takes {plies} plies" \
        in result.output
    assert "proof move: " in result.output and "proof tree: " in result.output


@pytest.mark.parametrize("args, message", [
    (["-p", "kujifunza 1,2"], "bingwa: error: "),
    (["-m", "Z9<"], "move 1"),
])
def test_bad_input_is_one_error_line(args, message):
    result = CliRunner().invoke(main, ["solve", "kujifunza", "-q", *args])
    assert result.exit_code == 2
    assert result.output.startswith("bingwa: error: ") and message in result.output


def test_one_finder_over_many_positions_gives_each_its_exhaustive_fastest_win():
    """WinFinder keeps its table from position to position (the sides to
    move alternate among these endgames, so the attacker changes too): each
    answer is still the exhaustive one, and its move wins in time."""
    positions = endgames("kujifunza", 16, seed=5)
    assert {p.turn for p in positions} == {0, 1}
    finder = WinFinder(positions[0].variant, 4)
    for pos in positions + positions[::-1]:
        want = fastest_win(pos, 3)
        found = finder.find(pos, 3)
        if want is None:
            assert found is None, pos.text()
            continue
        assert found is not None and found.plies == want, pos.text()
        assert wins_within(pos.play(found.move), pos.turn, want - 1)


def test_a_finder_refuses_other_rules_and_finished_games():
    with pytest.raises(SolverError):
        WinFinder(Position("oware").variant)
    finder = WinFinder(Position("kujifunza").variant, 1)
    with pytest.raises(SolverError):
        finder.find(Position("bao"), 3)
    over = next(p for p in endgames("kujifunza", 4, seed=1))
    while not over.is_over():
        over.push(over.legal_moves()[0])
    with pytest.raises(SolverError):
        finder.find(over, 3)
