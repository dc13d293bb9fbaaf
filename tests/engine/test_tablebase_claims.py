"""Exact claims hold: the search's proven scores (with and without the
endgame databases) against the history-aware exhaustive solver of
engine/oware_exhaustive.py, on positions with no history and on
positions whose history since the last capture decides what repeats
(docs/databases.md, "Exact claims and the path").

A proven score claims the result (a win, a loss; a draw is proven apart)
and a distance, not the final margin: the search prefers the fastest win
and the slowest loss, so the margin of the line it shows is neither the
game's value nor a bound on it (0,0,0,2,0,0/1,0,0,0,0,2 is worth -5; the
search's line there ends -1)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.oware_exhaustive import INF, ExhaustiveSolver
from bingwa.engine.searcher import Searcher

pytest.importorskip("bingwa.engine._owaredb")
search = pytest.importorskip("bingwa.engine.search")

TOP = 5  # seeds


@pytest.fixture(scope="module")
def values() -> dict[Any, int]:
    """The value of every position of 0..TOP seeds with no history."""
    return ExhaustiveSolver().solve(TOP)


@pytest.fixture(scope="module")
def proven_tb(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("proven")
    tablebase.build(path, TOP, prove=True)
    return tablebase.open_tablebase(path)


@pytest.fixture(scope="module")
def plain_tb(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("plain")
    tablebase.build(path, TOP, prove=False)
    return tablebase.open_tablebase(path)


def endgame(rng: random.Random, seeds: int) -> Position:
    """A position of ``seeds`` seeds and no history, nothing captured yet:
    the databases' game exactly (no "more than 24" end can come)."""
    while True:
        pits = [0] * 12
        for _ in range(seeds):
            pits[rng.randrange(12)] += 1
        pos = Position("oware", (tuple(pits), (0, 0), rng.randrange(2)))
        if not pos.is_over():
            return pos


def proven_result(searcher: Searcher) -> int | None:
    """The result the root's proven score claims for the side to move (1 a
    win, -1 a loss, 0 a draw), or None when the score is heuristic."""
    line = searcher.lines[0]
    if line.info.score_draw is not None:
        return 0
    _, margin = search.decode_score(line.score)
    return None if margin is None else (margin > 0) - (margin < 0)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize("which", ["none", "proven", "plain"])
def test_proven_scores_are_the_history_aware_value(which: str, values, proven_tb,
                                                   plain_tb) -> None:
    """With no history, a proven score at the root claims the result of the
    game started there, whatever the databases (a build without --prove
    only estimates)."""
    tb = {"none": None, "proven": proven_tb, "plain": plain_tb}[which]
    rng = random.Random(26)
    proven = 0
    for _ in range(60):
        pos = endgame(rng, rng.randrange(2, TOP + 1))
        searcher = Searcher()
        searcher.set_tablebase(tb)
        searcher.search(pos, Limits(depth=12))
        result = proven_result(searcher)
        if result is None:
            continue
        proven += 1
        board, _, turn = pos.state
        assert result == sign(values[(tuple(board), (0, 0), turn)]), pos.text()
    assert proven >= 20


def walk(rng: random.Random, pos: Position, plies: int) -> Position:
    """``pos`` after up to ``plies`` random moves that capture nothing (the
    history since the last capture grows) and do not end the game."""
    for _ in range(plies):
        quiet = [m for m in pos.legal_moves()
                 if pos.play(m).state[1] == pos.state[1] and not pos.play(m).is_over()]
        if not quiet:
            break
        pos = pos.play(rng.choice(quiet))
    return pos


def value_with_history(naive: ExhaustiveSolver, pos: Position, since: Position) -> int:
    """The board's value of ``pos`` for the side to move, the game's
    positions since ``since`` (no capture between) standing on the path."""
    seeds = sum(pos.state[0])
    states = naive.open_level(seeds)
    # every position may stand on the path (the solver gives bits only to
    # those its bounds leave open, the only ones its own searches put there)
    naive._bit = {state: 1 << i for i, state in enumerate(states)}
    path = 0
    probe = since
    for move in pos.move_stack[len(since.move_stack):]:
        board, _, turn = probe.state
        path |= naive._bit[(tuple(board), (0, 0), turn)]
        probe = probe.play(move)
    board, _, turn = pos.state
    value = naive.search((tuple(board), (0, 0), turn), path, -INF, INF)[0]
    naive.close_level()
    return value


@pytest.mark.parametrize("which", ["none", "proven"])
def test_proven_scores_hold_where_the_history_decides(which: str, values, proven_tb) -> None:
    """After quiet moves the game's history decides what repeats: a proven
    score claims the result of the game with that history, never what the
    databases say of the board alone."""
    naive = ExhaustiveSolver()
    naive.values = dict(values)
    rng = random.Random(27)
    proven = differs = 0
    for _ in range(40):
        start = endgame(rng, rng.randrange(2, 5))
        pos = walk(rng, start, rng.randrange(2, 9))
        if pos.is_over() or pos is start:
            continue
        searcher = Searcher()
        searcher.set_tablebase(proven_tb if which == "proven" else None)
        searcher.search(pos, Limits(depth=12))
        result = proven_result(searcher)
        if result is None:
            continue
        proven += 1
        truth = value_with_history(naive, pos, start)
        board, _, turn = pos.state
        differs += sign(truth) != sign(values[(tuple(board), (0, 0), turn)])
        assert result == sign(truth), (start.text(), [m.text for m in pos.move_stack])
    assert proven >= 15
    assert differs >= 1  # the history did change the result somewhere


def test_a_warm_table_proves_nothing_the_path_refutes(values) -> None:
    """The table keeps results from search to search: a proven score
    stored right after a capture must not be read where the same position
    comes after quiet moves, whose positions its search may meet again.
    Here, after E, South holds the draw with a; a table warmed by a shallow
    search once made a lose too (a proven loss in 16)."""
    start = Position("oware", text="1,0,0,0,0,1/0,0,0,0,1,1 22 22 n")
    pos = start.play("E")
    naive = ExhaustiveSolver()
    naive.values = dict(values)
    assert value_with_history(naive, pos, start) == 0
    for shallow in (3, 4, 5):
        searcher = Searcher()
        searcher.search(pos, Limits(depth=shallow))
        searcher.search(pos, Limits(depth=8))
        assert searcher.lines[0].move == "a"
        assert proven_result(searcher) in (None, 0)


def test_warm_tables_keep_every_claim_right(values) -> None:
    """One searcher through several searches of positions after quiet
    moves: every proven result it claims is the game's."""
    naive = ExhaustiveSolver()
    naive.values = dict(values)
    rng = random.Random(28)
    proven = 0
    for _ in range(25):
        start = endgame(rng, rng.randrange(3, 5))
        pos = walk(rng, start, rng.randrange(1, 6))
        if pos.is_over() or pos is start:
            continue
        truth = sign(value_with_history(naive, pos, start))
        searcher = Searcher()
        for depth in (3, 6, 10):
            searcher.search(pos, Limits(depth=depth))
            result = proven_result(searcher)
            if result is not None:
                proven += 1
                assert result == truth, (start.text(), [m.text for m in pos.move_stack], depth)
    assert proven >= 10
