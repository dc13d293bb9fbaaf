"""The mcts bot (bots/mcts.py, bots/_mcts.pyx): deterministic for a seed and a
simulation count, the compiled search and its pure twin build the same
tree, it sees wins, obeys its limits and stops when told."""

from __future__ import annotations

import random
import threading
import time

import pytest

from bingwa.bots import find_bot
from bingwa.bots.mcts import MCTSBot, compiled_module_mcts, make_search
from bingwa.engine import Position, find_variant, variant_names
from bingwa.engine.kernel import compiled_module
from bingwa.engine.limits import Info, Limits


def run(bot: MCTSBot, pos: Position, limits: Limits) -> tuple[str | None, list[Info]]:
    infos: list[Info] = []
    result = bot.go(pos, limits, infos.append, threading.Event())
    return result.best, infos


def mcts(**options: int) -> MCTSBot:
    bot = find_bot("mcts")()
    assert isinstance(bot, MCTSBot)
    for name, value in options.items():
        bot.set_option(name, str(value))
    return bot


def scrambled(spec: str, plies: int, seed: int = 5) -> Position:
    rng = random.Random(seed)
    pos = Position(find_variant(spec))
    for _ in range(plies):
        pos.push(rng.choice(pos.legal_moves()))
    return pos


def needs_compiled(variant) -> None:
    if compiled_module_mcts() is None or compiled_module(variant.kernel_module) is None:
        pytest.skip("compiled kernel or _mcts not built")


def test_options_have_defaults() -> None:
    bot = mcts()
    names = {o.name: o.default for o in bot.options()}
    assert names["Simulations"] > 0 and names["Exploration"] == 141 and names["Seed"] == 0


@pytest.mark.parametrize("spec", variant_names())
def test_same_seed_and_simulations_give_the_same_search(spec: str) -> None:
    pos = scrambled(spec, 4)
    first = run(mcts(Seed=3), pos, Limits(nodes=100))
    second = run(mcts(Seed=3), pos, Limits(nodes=100))
    assert first[0] == second[0]
    assert first[1][-1].pv == second[1][-1].pv
    assert first[1][-1].nodes == 100
    assert first[0] in [m.text for m in pos.legal_moves()]


@pytest.mark.parametrize("spec", variant_names())
def test_compiled_and_pure_searches_build_the_same_tree(spec: str) -> None:
    pos = scrambled(spec, 6)
    needs_compiled(pos.variant)
    trees = []
    for compiled in (True, False):
        search = make_search(pos, [], 99, 1.41, 1 << 20, compiled=compiled)
        assert search.run(200) == 200
        trees.append((search.children(), search.principal_variation(), search.max_depth,
                      search.nodes_used))
    assert trees[0] == trees[1]


def test_the_search_uses_the_compiled_module_when_built(monkeypatch) -> None:
    monkeypatch.delenv("BINGWA_PURE", raising=False)
    pos = Position("oware")
    needs_compiled(pos.variant)
    assert type(make_search(pos, [], 1, 1.4, 1000)).__name__ == "UCTSearch"


def test_takes_the_capture_that_wins_oware() -> None:
    # South has 23; f sows into A making 2: 25 captured, the game is won.
    pos = Position("oware", text="3,0,0,0,0,1/1,5,5,5,3,2 23 0 s")
    best, infos = run(mcts(), pos, Limits(nodes=2000))
    assert best == "f"
    assert infos[-1].score_cp is not None and infos[-1].score_cp > 0


def test_takes_the_extra_turn_that_wins_kalah() -> None:
    # South's f (1 seed) ends in his store and he moves again: e, f win
    # 25-23 with perfect play; e first only draws (solved by hand-checked
    # exhaustive search).
    pos = Position("kalah", text="0,0,0,0,2,1/1,1,1,1,1,1 22 17 s")
    best, _ = run(mcts(), pos, Limits(nodes=3000))
    assert best == "f"


def test_a_single_legal_move_is_played_at_once() -> None:
    pos = Position("oware", text="0,0,0,0,0,1/1,5,5,5,4,4 23 0 s")
    best, infos = run(mcts(), pos, Limits(nodes=10**9))
    assert best == "f" and infos[-1].nodes == 0


def test_searchmoves_restrict_the_root() -> None:
    pos = Position("oware")
    for _ in range(3):
        best, _ = run(mcts(Seed=_), pos, Limits(nodes=300, searchmoves=["a", "b"]))
        assert best in ("a", "b")


def test_finished_game_has_no_best_move() -> None:
    pos = Position("oware", text="0,0,0,0,0,0/0,0,0,0,0,0 25 23 s")
    assert run(mcts(), pos, Limits(nodes=100))[0] is None


def test_movetime_is_kept() -> None:
    start = time.monotonic()
    best, infos = run(mcts(), Position("oware"), Limits(movetime=150))
    elapsed = time.monotonic() - start
    assert best is not None
    assert elapsed < 1.5  # generous: 150 ms asked
    assert infos[-1].nodes and infos[-1].nodes > 10


def test_clock_gives_a_share_of_the_time() -> None:
    start = time.monotonic()
    best, _ = run(mcts(), Position("kalah"), Limits(p1time=3000, p2time=3000))
    assert best is not None and time.monotonic() - start < 1.0  # about 100 ms


def test_negative_clock_is_clamped() -> None:
    best, _ = run(mcts(), Position("oware"), Limits(p1time=-50, p2time=1000))
    assert best is not None


def test_infinite_search_returns_only_after_stop() -> None:
    bot = mcts()
    stop = threading.Event()
    done: list[str | None] = []
    thread = threading.Thread(
        target=lambda: done.append(bot.go(Position("oware"), Limits(infinite=True),
                                          lambda info: None, stop).best)
    )
    thread.start()
    time.sleep(0.3)
    assert not done
    stop.set()
    thread.join(2.0)
    assert not thread.is_alive() and done and done[0] is not None


def test_a_long_search_stops_when_told() -> None:
    bot = mcts()
    stop = threading.Event()
    done: list[str | None] = []
    thread = threading.Thread(
        target=lambda: done.append(bot.go(Position("ayoayo"), Limits(nodes=10**9),
                                          lambda info: None, stop).best)
    )
    thread.start()
    time.sleep(0.2)
    stop.set()
    thread.join(1.0)
    assert not thread.is_alive() and done[0] is not None


def test_the_search_releases_the_gil() -> None:
    pos = Position("oware")
    needs_compiled(pos.variant)
    search = make_search(pos, [], 1, 1.41, 1 << 20, compiled=True)
    thread = threading.Thread(target=search.run, args=(10**9, 0.4))
    counter = 0
    thread.start()
    time.sleep(0.02)
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        counter += 1
    thread.join()
    assert search.simulations > 0
    assert counter > 10_000  # this thread ran while the search did


def test_progress_reports_are_well_formed() -> None:
    _, infos = run(mcts(), Position("oware"), Limits(movetime=600))
    assert len(infos) >= 2  # progress, then the final report
    last = infos[-1]
    assert last.depth >= 1 and isinstance(last.score_cp, int)
    assert last.pv and last.pv[0] in "abcdef"
    assert last.nodes >= infos[0].nodes


@pytest.mark.slow  # only in the pure-Python run (tox -e pure skips slow tests)
def test_the_tree_cap_does_not_stop_the_search() -> None:
    best, infos = run(mcts(MaxNodes=1000), Position("oware"), Limits(nodes=5000))
    assert best is not None and infos[-1].nodes == 5000


@pytest.mark.slow  # only in the pure-Python run
def test_beats_random_play_at_oware() -> None:
    for mcts_side in (0, 1):
        pos = Position("oware")
        players = [mcts(Simulations=1000), find_bot("random")()]
        if mcts_side:
            players.reverse()
        while not pos.is_over() and len(pos.move_stack) < 300:
            best, _ = run(players[pos.turn], pos, Limits())  # type: ignore[arg-type]
            pos.push(best)
        outcome = pos.outcome()
        assert outcome is not None and outcome.winner == mcts_side
