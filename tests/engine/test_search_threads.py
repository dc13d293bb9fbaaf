"""Threads (Lazy SMP, docs/search.md): helpers share the main engine's
table, the search stays exact and stoppable on two threads, Threads 1 and
node-limited searches stay deterministic, and the option reaches the
search through the protocol."""

from __future__ import annotations

import random
import threading
import time

import pytest
from support.testbots import ServerSession

from bingwa.bots import find_bot
from bingwa.bots.alphabeta import cores
from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher, helper_skips

search = pytest.importorskip("bingwa.engine.search")


def test_threads_one_searches_as_before_and_back_from_two():
    pos = Position("oware").play("c").play("F")
    alone = Searcher(2)
    alone.search(pos, Limits(depth=9))
    switched = Searcher(2, threads=2)
    switched.search(pos, Limits(depth=9))
    switched.set_threads(1)
    switched.new_game()
    result = switched.search(pos, Limits(depth=9))
    assert switched.threads == 1
    assert switched.nodes == alone.nodes
    assert result.info.pv == alone.lines[0].pv


def test_a_node_limit_searches_on_one_thread_and_stays_deterministic():
    pos = Position("kalah").play("c")
    one, two = Searcher(2), Searcher(2, threads=2)
    first = one.search(pos, Limits(nodes=40_000))
    second = two.search(pos, Limits(nodes=40_000))
    assert two.nodes == one.nodes == 40_000
    assert second.best == first.best and second.info.pv == first.info.pv


def test_helpers_search_the_shared_table_and_their_nodes_are_counted():
    searcher = Searcher(4, threads=2)
    result = searcher.search(Position("oware"), Limits(depth=12))
    assert result.info.depth == 12
    main = int(searcher.engine.nodes)
    assert searcher.nodes > main > 0  # the helper searched too
    assert result.info.nodes == searcher.nodes
    assert searcher.engine.table_entries() > 0
    searcher.new_game()
    assert searcher.engine.table_entries() == 0


def test_a_shared_table_is_the_owners_alone_to_resize_and_clear():
    owner, helper = search.Engine(2), search.Engine(1)
    with pytest.raises(ValueError):
        owner.share_table(owner)
    helper.share_table(owner)
    assert helper.table_bytes == owner.table_bytes
    with pytest.raises(ValueError):
        helper.resize(4)
    with pytest.raises(ValueError):
        search.Engine(1).share_table(helper)  # a sharer's table is not its own
    owner.resize(4)
    assert helper.table_bytes == owner.table_bytes == 4 << 20


@pytest.mark.parametrize("helper, depths", [(1, [2, 4, 6, 8]), (2, [1, 3, 5, 7]),
                                            (3, [1, 4, 5, 8])])
def test_helpers_iterate_at_staggered_depths(helper, depths):
    assert [d for d in range(1, 9) if not helper_skips(helper, d)] == depths


def test_forced_wins_keep_their_distance_on_two_threads():
    """The feeding trap of test_search.py: South wins in 5 plies, only by b."""
    searcher = Searcher(4, threads=2)
    for _ in range(3):
        searcher.new_game()
        pos = Position("oware", text="0,1,0,1,1,0/0,0,0,0,1,0 21 23 s")
        result = searcher.search(pos, Limits(depth=12))
        assert result.best == "b"
        assert (result.info.score_mate, result.info.score_cp) == (5, 200)
        loser = searcher.search(pos.play("b"), Limits(depth=12))
        assert (loser.info.score_mate, loser.info.score_cp) == (-4, -200)


def test_an_infinite_search_on_two_threads_stops_when_asked():
    searcher = Searcher(4, threads=2)
    stop = threading.Event()
    answer = []
    worker = threading.Thread(
        target=lambda: answer.append(searcher.search(Position("oware"), Limits(infinite=True),
                                                     stop_event=stop)))
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    stop.set()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert answer[0].best in [m.text for m in Position("oware").legal_moves()]
    assert all(not t.name.startswith("bingwa-helper") for t in threading.enumerate())


@pytest.mark.parametrize("name", ["oware", "kalah", "ayoayo", "bao", "kujifunza"])
def test_never_an_illegal_move_on_two_threads(name):
    rng = random.Random(7)
    searcher = Searcher(2, threads=2)
    pos = Position(name)
    for _ in range(16):
        if pos.is_over():
            break
        result = searcher.search(pos, Limits(movetime=15))
        legal = [m.text for m in pos.legal_moves()]
        assert result.best in legal
        pos = pos.play(rng.choice(legal) if rng.random() < 0.5 else result.best)


def test_the_threads_option_reaches_the_search_and_refuses_bad_values():
    session = ServerSession(find_bot("alphabeta")())
    top = cores()
    session.send("uci")
    assert f"option name Threads type spin default 1 min 1 max {top}" in session.sync()
    session.send(f"setoption name Threads value {top}", "setoption name Threads value 0",
                 f"setoption name Threads value {top + 1}")
    assert session.sync() == [
        f"info string error: option Threads must be in 1..{top}, not 0",
        f"info string error: option Threads must be in 1..{top}, not {top + 1}",
    ]
    assert session.server.bot.searcher.threads == top
    session.send("position startpos", "go movetime 200")
    assert session.wait_for("bestmove").split()[1] in [m.text for m in Position("oware").legal_moves()]
    session.close()
