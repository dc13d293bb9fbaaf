"""The search: forced wins in constructed endgames, proven results with the
right sign, distance and margin (checked against exhaustive solving),
repetition, determinism, the table's size, and legality of every answer."""

from __future__ import annotations

import random

import pytest
from support.variants import make_variant

from bingwa.engine import Position, Termination, find_variant, variant_names
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher, search_kernel

search = pytest.importorskip("bingwa.engine.search")

SOUTH, NORTH = 0, 1


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(hash_mb=4)


def best_line(searcher: Searcher, spec: str, text: str, depth: int = 12):
    pos = Position(spec, text=text)
    searcher.new_game()
    result = searcher.search(pos, Limits(depth=depth))
    return pos, result


def forced_win(pos: Position, side: int, plies: int) -> bool:
    """Whether ``side`` wins by the rules within ``plies`` plies whatever
    the other side plays (an exhaustive AND-OR search)."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.winner == side
    if plies == 0:
        return False
    results = (forced_win(pos.play(m), side, plies - 1) for m in pos.legal_moves())
    return any(results) if pos.turn == side else all(results)


def shortest_forced_win(pos: Position, side: int, limit: int) -> int | None:
    for plies in range(1, limit + 1):
        if forced_win(pos, side, plies):
            return plies
    return None


def end_of(pos: Position, pv: list[str]):
    line = pos.copy()
    line.push_all(pv)
    return line.outcome()


# -- a capture that wins at once -----------------------------------------------
@pytest.mark.parametrize(
    "spec, text, move, margin",
    [
        ("oware", "1,0,0,0,0,1/2,0,0,0,0,1 23 20 s", "f", 6),  # f takes A: 26
        ("ayoayo", "1,0,0,0,2,0/0,0,0,0,2,2 22 19 s", "a", 6),  # a lands in b, takes E
        ("kalah", "1,0,0,0,0,1/0,0,0,0,3,0 22 21 s", "a", 6),  # a takes E, North's row empties
    ],
)
def test_capture_that_wins_at_once_is_found(searcher, spec, text, move, margin):
    pos, result = best_line(searcher, spec, text)
    assert result.best == move
    assert result.info.score_mate == 1
    assert result.info.score_cp == 100 * margin
    assert end_of(pos, [move]).winner == SOUTH


@pytest.mark.parametrize("name", variant_names())
def test_an_immediate_win_is_found_in_random_games(searcher, name):
    """Every variant (Bao included): wherever a move wins at once, the
    search reports a win in 1 ply and plays a move that wins."""
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        pos = Position(name)
        while not pos.is_over() and len(pos.move_stack) < 300 and checked < 3:
            moves = pos.legal_moves()
            winning = [
                m for m in moves
                if (o := pos.play(m).outcome()) is not None and o.winner == pos.turn
            ]
            if winning:
                searcher.new_game()
                result = searcher.search(pos, Limits(depth=3))
                assert result.info.score_mate == 1, pos.text()
                assert result.best in {m.text for m in winning}
                checked += 1
                break
            pos.push(rng.choice(moves))
        if checked >= 3:
            break
    if checked == 0:
        pytest.skip(f"no immediate win met in random {name} games")


# -- Oware: a feeding trap -------------------------------------------------------
def test_oware_feeding_trap_is_sprung():
    """b leaves North one seed to sow into South's row; South then cannot
    feed, plays on in its own row, and North, with no move, ends the game:
    South keeps its row (25-23). The only forced win; found in 5 plies."""
    searcher = Searcher(4)
    pos, result = best_line(searcher, "oware", "0,1,0,1,1,0/0,0,0,0,1,0 21 23 s")
    assert result.best == "b"
    assert result.info.score_mate == 5
    assert result.info.score_cp == 200
    outcome = end_of(pos, result.info.pv)
    assert outcome.termination is Termination.NO_MOVES and outcome.scores == (25, 23)
    assert shortest_forced_win(pos, SOUTH, 5) == 5
    assert [m.text for m in pos.legal_moves() if forced_win(pos.play(m), SOUTH, 4)] == ["b"]


def test_losing_side_sees_the_loss_with_its_distance():
    searcher = Searcher(4)
    pos = Position("oware", text="0,1,0,1,1,0/0,0,0,0,1,0 21 23 s").play("b")
    result = searcher.search(pos, Limits(depth=12))
    assert pos.turn == NORTH
    assert result.info.score_mate == -4
    assert result.info.score_cp == -200


# -- Kalah: a chain of extra turns ------------------------------------------------
def test_kalah_extra_turn_chain_wins_without_changing_sides():
    """f, e, f each end in South's store; South's row is then empty and
    South wins 25-23. The value is never negated along the chain."""
    searcher = Searcher(4)
    pos, result = best_line(searcher, "kalah", "0,0,0,0,2,1/0,5,0,0,0,0 22 18 s")
    assert result.info.pv == ["f", "e", "f"]
    assert result.info.score_mate == 3
    assert result.info.score_cp == 200
    line = pos.copy()
    for move in result.info.pv:
        assert line.turn == SOUTH
        line.push(move)
    assert line.outcome().scores == (25, 23)


# -- proven values against exhaustive solving -----------------------------------------
def reference_value(pos: Position, ply: int) -> int:
    """The search's preference order by brute force: win > draw > loss, a
    faster win and a slower loss first, then the larger margin."""
    outcome = pos.outcome()
    if outcome is not None:
        margin = outcome.margin(pos.turn)
        if margin == 0:
            return 0
        value = search.MATE_SCORE - ply * search.SPAN + abs(margin)
        return value if margin > 0 else -value
    best = -search.INFINITE
    for move in pos.legal_moves():
        child = pos.play(move)
        value = reference_value(child, ply + 1)
        best = max(best, value if child.turn == pos.turn else -value)
    return best


@pytest.mark.parametrize("spec", ["kalah pits=2 seeds=2", "kalah pits=3 seeds=1",
                                  "kalah pits=2 seeds=3 empty-capture=true"])
def test_every_root_move_value_matches_exhaustive_solving(spec):
    """multi-PV over all root moves: each score is the exact solved value."""
    pos = Position(spec)
    searcher = Searcher(4)
    searcher.search(pos, Limits(depth=40), multipv=len(pos.legal_moves()))
    got = {line.move: line.score for line in searcher.lines}
    expected = {}
    for move in pos.legal_moves():
        child = pos.play(move)
        value = reference_value(child, 1)
        expected[move.text] = value if child.turn == pos.turn else -value
    assert got == expected
    scores = [line.score for line in searcher.lines]
    assert scores == sorted(scores, reverse=True)


def test_decode_score_gives_distance_and_margin():
    win = search.MATE_SCORE - 7 * search.SPAN + 3
    assert search.decode_score(win) == (7, 3)
    assert search.decode_score(-win) == (7, -3)
    assert search.decode_score(250) == (None, None)


# -- repetition ----------------------------------------------------------------------------
def test_a_move_into_a_repeated_position_ends_the_game_by_the_rules():
    """With the child of d among the game's earlier positions, d repeats it:
    the game ends and each side keeps its row (South 21+6 against 20+1).
    Without that history, no move ends the game at once."""
    pos = Position("oware", text="3,1,0,1,1,0/0,0,0,0,1,0 21 20 s")
    child = pos.play("d")
    kernel = search_kernel(pos.variant)
    engine = search.Engine(1)
    engine.start(kernel, pos.state, [kernel.key(child.state)])
    engine.iterate(6)
    code, score, _bound, _pv, _searched = engine.root_moves()[0]
    assert pos.variant.format_move(code, pos.state) == "d"
    assert search.decode_score(score) == (1, 6)
    engine.start(kernel, pos.state, [])
    engine.iterate(6)
    assert search.decode_score(engine.root_moves()[0][1])[0] != 1


def test_kalah_ignores_history_it_has_no_repetition_rule():
    pos = Position("kalah")
    kernel = search_kernel(pos.variant)
    results = []
    for history in ([], [kernel.key(pos.play(m).state) for m in pos.legal_moves()]):
        engine = search.Engine(1)
        engine.start(kernel, pos.state, history)
        engine.iterate(7)
        results.append((engine.nodes, engine.root_moves()))
    assert results[0] == results[1]


# -- determinism and the table ----------------------------------------------------------------
def test_same_search_gives_the_same_node_count_after_a_new_game():
    searcher = Searcher(2)
    pos = Position("oware").play("c").play("F")
    first = searcher.search(pos, Limits(depth=9))
    n1 = searcher.nodes
    searcher.search(Position("kalah"), Limits(depth=8))
    searcher.new_game()
    second = searcher.search(pos, Limits(depth=9))
    assert searcher.nodes == n1
    assert second.best == first.best and second.info.pv == first.info.pv


def test_bench_signature_is_stable():
    from bingwa.engine.bench import bench_run

    first = bench_run(depth=5, hash_mb=2)[0]
    second = bench_run(depth=5, hash_mb=2)[0]
    assert first == second > 0


@pytest.mark.parametrize("mb", [1, 3, 16])
def test_table_never_grows_past_its_size(mb):
    searcher = Searcher(mb)
    assert searcher.table_bytes <= mb << 20
    assert searcher.table_bytes > (mb << 20) // 2
    searcher.search(Position("oware"), Limits(nodes=300_000))
    engine = searcher.engine
    assert engine.table_bytes == searcher.table_bytes
    assert 0 < engine.table_entries() <= engine.table_bytes // engine.entry_bytes
    assert 0 <= engine.hashfull() <= 1000
    searcher.new_game()
    assert engine.table_entries() == 0


def test_a_large_table_is_used_through_a_sixteen_mib_window():
    searcher = Searcher(64)
    engine = searcher.engine
    assert engine.table_bytes == 64 << 20
    assert engine.window_bytes == 16 << 20
    searcher.search(Position("oware"), Limits(nodes=200_000))
    # a short search writes inside the window only, and hashfull counts the whole table
    assert 0 < engine.table_entries() <= engine.window_bytes // engine.entry_bytes
    assert 0 < engine.hashfull() <= 250


@pytest.mark.parametrize("mb", [1, 16])
def test_a_small_table_is_its_own_window(mb):
    engine = Searcher(mb).engine
    assert engine.window_bytes == engine.table_bytes


def test_the_window_doubles_when_a_search_overwrites_itself_and_a_new_game_resets_it():
    searcher = Searcher(8)
    engine = searcher.engine
    engine.resize(8, 1)
    assert engine.window_bytes == 1 << 20
    searcher.search(Position("oware"), Limits(nodes=60_000))
    assert engine.window_bytes == 1 << 20  # nothing evicted yet: no growth
    # 6 M nodes evict about 1.3 M of its own entries: 16 times the window's 65,536 is 1 M
    searcher.search(Position("oware"), Limits(nodes=6_000_000))
    assert engine.evicted > 16 * (1 << 20) // engine.entry_bytes
    assert (1 << 20) < engine.window_bytes <= engine.table_bytes
    assert engine.table_entries() > (1 << 20) // engine.entry_bytes  # beyond the first window
    searcher.new_game()
    assert engine.window_bytes == 1 << 20 and engine.table_entries() == 0


def test_a_growing_window_keeps_node_counts_deterministic():
    def run():
        searcher = Searcher(8)
        searcher.engine.resize(8, 1)
        result = searcher.search(Position("oware"), Limits(nodes=6_000_000))
        return searcher.nodes, result.best, searcher.engine.window_bytes

    first = run()
    assert first[2] > 1 << 20
    assert run() == first


def test_entry_is_sixteen_bytes():
    assert search.Engine(1).entry_bytes == 16


# -- answers are always legal moves -------------------------------------------------------------
@pytest.mark.parametrize("name", variant_names())
def test_never_an_illegal_move_in_random_games(name):
    rng = random.Random(3)
    searcher = Searcher(1)
    for game in range(2):
        pos = Position(name)
        searcher.new_game()
        while not pos.is_over() and len(pos.move_stack) < 120:
            if len(pos.move_stack) % 2 == game:
                result = searcher.search(pos, Limits(nodes=300 + rng.randrange(500)))
                assert result.best in {m.text for m in pos.legal_moves()}
                pos.push(result.best)
            else:
                pos.push(rng.choice(pos.legal_moves()))


def test_a_finished_game_has_no_best_move(searcher):
    pos = Position("oware", text="1,0,0,0,0,0/0,0,0,0,0,1 26 20 n")
    assert pos.is_over()
    assert searcher.search(pos, Limits(depth=5)).best is None


def test_searchmoves_restricts_the_root(searcher):
    pos = Position("oware")
    result = searcher.search(pos, Limits(depth=6, searchmoves=["a", "b"]), multipv=6)
    assert {line.move for line in searcher.lines} == {"a", "b"}
    assert result.best in ("a", "b")


def test_search_gives_the_same_answer_whichever_rules_the_position_uses(kind):
    """The search always runs on the compiled kernel; a Position playing
    with the pure rules gets the same answer (both kernels share states)."""
    pos = Position(make_variant("oware", kind)).play("c")
    reference = Searcher(2).search(Position("oware").play("c"), Limits(depth=8))
    result = Searcher(2).search(pos, Limits(depth=8))
    assert (result.best, result.info.pv, result.info.score_cp) == (
        reference.best, reference.info.pv, reference.info.score_cp)


def test_multipv_ranks_every_root_move(searcher):
    pos = Position("oware")
    searcher.search(pos, Limits(depth=7), multipv=6)
    assert sorted(line.move for line in searcher.lines) == list("abcdef")
    scores = [line.score for line in searcher.lines]
    assert scores == sorted(scores, reverse=True)
    assert [line.info.multipv for line in searcher.lines] == [1, 2, 3, 4, 5, 6]


def test_bao_is_searched_through_the_same_interface():
    if "bao" not in variant_names():
        pytest.skip("no Bao")
    searcher = Searcher(2)
    pos = Position(find_variant("bao"))
    result = searcher.search(pos, Limits(depth=4))
    assert result.best in {m.text for m in pos.legal_moves()}
    assert len(result.info.pv) >= 1
