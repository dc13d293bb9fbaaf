"""Proven database values reached by play: the ranks of a --prove build
and ``tablebase.keeping_move`` (docs/databases.md, "Playing the claims").

A move that keeps a proven value is not enough to reach it: a cycle of
such moves can end the game by repetition at another score. These tests
show that it happens (value-keeping play without the ranks is refuted by
an opponent that ends the game by repetition whenever it can), that play
by the ranks is not (from boards with and without a history), and that
the ranks hold the invariant the argument needs, checked on every board
with the rules of the bare board, not the builder's code."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest

from bingwa.bots import find_bot
from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.playout import margin_reached, random_endgame, refuter, repeater, walk

db = pytest.importorskip("bingwa.engine._owaredb")
pytest.importorskip("bingwa.engine.search")

TOP = 8  # seeds: the build takes about a second

Player = Callable[[Position], str]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("ranked")
    tablebase.build(path, TOP, prove=True)
    return path


@pytest.fixture(scope="module")
def tb(folder):
    return tablebase.open_tablebase(folder)


def bounds(tb, board: tuple[int, ...]) -> tuple[int, int]:
    """The proven bounds of the board's value (South to move, no scores)."""
    kind, lo, hi = tb.probe((board, (0, 0), 0))
    assert kind in ("exact", "bounds")
    return lo, hi


def ranks(tb, board: tuple[int, ...]) -> tuple[int, int]:
    index = 2 * db.rank(board)
    return tb.ranks[sum(board)][index], tb.ranks[sum(board)][index + 1]


def test_a_proven_build_writes_ranks_and_a_plain_one_none(folder, tmp_path):
    assert (folder / tablebase.ranks_name(TOP)).is_file()
    assert tablebase.open_tablebase(folder).ranks is not None
    tablebase.build(tmp_path, 3, prove=False)
    assert not list(tmp_path.glob("*.bwrk"))
    assert tablebase.open_tablebase(tmp_path).ranks is None


def test_every_rank_is_found_and_ordered(tb):
    """rank_lo 0: the bound is the trivial -n or a capture (or having no
    move) reaches it; else a quiet move to a board of -H = L has a smaller
    rank_hi. rank_hi > 0: every quiet move to a board of -L = H has a
    smaller rank_lo. So keeping the bound by the ranks comes nearer at every
    ply, and no board repeats."""
    checked = 0
    for seeds in range(1, TOP + 1):
        for index in range(db.positions(seeds)):
            board = tuple(db.unrank(index, seeds))
            lo, hi = bounds(tb, board)
            rank_lo, rank_hi = ranks(tb, board)
            assert tablebase.RANK_NONE not in (rank_lo, rank_hi), board
            quiet, capture_best = [], -seeds
            for _, child, gain in db.moves_of(board):
                if sum(child) == seeds:
                    quiet.append(child)
                else:
                    capture_best = max(capture_best, gain - bounds(tb, child)[1])
            if rank_lo == 0:
                assert lo == -seeds or capture_best == lo, board
            else:
                assert any(-bounds(tb, c)[1] == lo and ranks(tb, c)[1] < rank_lo
                           for c in quiet), board
            if rank_hi > 0:
                assert hi != seeds
                assert all(ranks(tb, c)[0] < rank_hi for c in quiet
                           if -bounds(tb, c)[0] == hi), board
            checked += 1
    assert checked == sum(db.positions(n) for n in range(1, TOP + 1))


def reached(position: Position, side: int, claim: int) -> bool:
    outcome = position.outcome()
    assert outcome is not None
    return margin_reached(outcome, side, claim)


def play(start: Position, side: int, keeper: Player, other: Player) -> Position:
    game = start.copy()
    for _ in range(2000):
        if game.is_over():
            return game
        game.push(keeper(game) if game.turn == side else other(game))
    raise AssertionError(f"no end within 2000 plies from {start.text()}")


def ranked(tb) -> Player:
    def keep(position: Position) -> str:
        move = tablebase.keeping_move(tb, position)
        assert move is not None, f"no keeping move at {position.text()} on its own line"
        return move.move

    return keep


def value_keeping(tb, rng: random.Random) -> Player:
    """Any move that keeps the proven value, a quiet one first: the
    databases read as if a value were enough."""

    def keep(position: Position) -> str:
        lo = tablebase.bounds_of(tb, position.state)[0]
        quiet, other = [], []
        for move in position.legal_moves():
            child = position.play(move)
            if -tablebase.bounds_of(tb, child.state)[1] >= lo:
                (other if child.state[1] != position.state[1] else quiet).append(move.text)
        return rng.choice(quiet or other)

    return keep


def claims(tb, count: int, seed: str):
    """(board, side, claimed final margin for side) for boards whose entry
    is proven exact, no history, the side drawn."""
    for n in range(count):
        rng = random.Random(f"{seed}:{n}")
        pos = random_endgame(rng, "oware", rng.randint(3, TOP))
        kind, value, _ = tb.probe(pos.state)
        if kind == "exact":
            side = rng.randrange(2)
            yield pos, side, value if side == pos.turn else -value, rng


def test_keeping_a_value_is_not_enough(tb):
    """The opponent's repetitions refute value-keeping play on some boards
    (the test below would catch the same in play by the ranks)."""
    refuted = sum(not reached(play(pos, side, value_keeping(tb, rng),
                                   repeater(refuter(Limits(depth=2), rng, 0.5))), side, claim)
                  for pos, side, claim, rng in claims(tb, 150, "naive"))
    assert refuted >= 5


def test_play_by_the_ranks_reaches_every_exact_value(tb):
    count = 0
    for pos, side, claim, rng in claims(tb, 150, "naive"):
        opponent = repeater(refuter(Limits(depth=rng.choice([2, 6])), rng, 0.3))
        end = play(pos, side, ranked(tb), opponent)
        assert reached(end, side, claim), (pos.text(), side, claim, end.outcome())
        count += 1
    assert count >= 80


def test_play_by_the_ranks_holds_after_a_history(tb):
    """After random quiet moves the history may hold a board the line could
    meet again: keeping_move then declines; where it gives a move, play by
    the ranks still reaches the bound it claims at that point."""
    kept = declined = 0
    for n in range(300):
        rng = random.Random(f"history:{n}")
        pos = walk(random_endgame(rng, "oware", rng.randint(3, TOP)), rng, rng.randint(1, 8))
        if pos.is_over() or tb.probe(pos.state)[0] != "exact":
            continue
        if tablebase.keeping_move(tb, pos) is None:
            declined += 1
            continue
        kept += 1
        side = pos.turn
        end = play(pos, side, ranked(tb), repeater(refuter(Limits(depth=2), rng, 0.5)))
        assert reached(end, side, tb.probe(pos.state)[1]), (pos.text(), pos.history())
    assert kept >= 50 and declined >= 1


def test_a_history_that_could_repeat_declines(tb):
    """The key check is what protects play after a history: the board two
    plies back on a kept line has a smaller key, the reverse does not."""
    for pos, side, _, _ in claims(tb, 200, "keys"):
        line = [pos]
        rng = random.Random(pos.text())
        while len(line) < 3 and not line[-1].is_over():
            here = line[-1]
            move = (tablebase.keeping_move(tb, here).move if here.turn == side
                    else rng.choice(here.legal_moves()).text)
            line.append(here.play(move))
        if len(line) < 3 or line[-1].is_over() or line[-1].state[1] != pos.state[1]:
            continue
        first, last = (tablebase.progress_key(tb, p.state, side) for p in (line[0], line[2]))
        if first[1] != 0 and first[0] == last[0]:
            assert first < last
            return
    pytest.fail("no quiet kept line of three plies among 200 boards")


def test_the_perfect_bot_plays_by_the_ranks(folder, tb):
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(folder))
    used = 0
    for pos, side, claim, rng in claims(tb, 60, "bot"):
        def perfect(position: Position) -> str:
            nonlocal used
            keeping = tablebase.keeping_move(tb, position)
            best = bot.go(position, Limits(depth=4), lambda info: None, threading.Event()).best
            assert best is not None
            used += keeping is not None and best == keeping.move
            return best

        end = play(pos, side, perfect, repeater(refuter(Limits(depth=2), rng, 0.3)))
        assert reached(end, side, claim), (pos.text(), side, claim)
    assert used >= 100


def test_without_ranks_the_bot_searches(folder, tmp_path):
    for path in folder.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / tablebase.ranks_name(TOP)).unlink()
    tb = tablebase.open_tablebase(tmp_path)
    assert tb.ranks is None
    pos = Position("oware", text="1,0,1,0,1,0/1,0,0,0,0,3 22 19 s")
    assert tablebase.keeping_move(tb, pos) is None
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(tmp_path))
    best = bot.go(pos, Limits(depth=3), lambda info: None, threading.Event()).best
    assert best in {m.text for m in pos.legal_moves()}


def test_a_count_without_ranks_is_rebuilt(folder, tmp_path):
    """A proven folder from before the ranks (or a build stopped between
    files) gets them on the next build."""
    for path in folder.iterdir():
        if int(path.stem[-2:]) <= 5:
            (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / tablebase.ranks_name(4)).unlink()
    assert tablebase.open_tablebase(tmp_path).ranks is None
    tablebase.build(tmp_path, 5)
    again = tablebase.open_tablebase(tmp_path)
    assert again.ranks is not None
    assert again.ranks[4].tobytes() == (folder / tablebase.ranks_name(4)).read_bytes()[64:]


def test_where_only_bounds_are_proven_the_bot_keeps_the_lower_one(folder, tb):
    """benchmarks/claims.py's one refutation (10,000 boards): from
    1,1,0,3,1,2/1,0,1,0,0,2 19 17 n (North +6, exact), after F f North's
    entry has bounds +6..+10 only; the search chose C and North ended +4.
    The bot now searches among the moves that keep +6 (here only A)."""
    start = Position("oware", text="1,1,0,3,1,2/1,0,1,0,0,2 19 17 n")
    pos = start.play("F").play("f")
    assert tb.probe(pos.state) == ("bounds", 6, 10)
    assert [k.move for k in tablebase.keeping_moves(tb, pos)] == ["A"]
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(folder))
    assert bot.go(pos, Limits(depth=8), lambda info: None, threading.Event()).best == "A"

    def perfect(position: Position) -> str:
        best = bot.go(position, Limits(depth=6), lambda info: None, threading.Event()).best
        assert best is not None
        return best

    rng = random.Random(2)
    for _ in range(5):
        end = play(pos, 1, perfect, repeater(refuter(Limits(depth=4), rng, 0.5)))
        assert reached(end, 1, 6), end.outcome()
