"""Every board of the small counts exact, repetitions included
(engine/oware_exact.py, ``bingwa solve build --exact-seeds``): the build's
values against a plain proving build and the exhaustive solver, the
certificate of the larger counts over them, the ranks kept only where
they still rank their bound, the history-aware move values against a
brute force over the game's own repetition rule, and play-outs of the
perfect bot against an opponent that tries to refute them."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from support.perfect import perfect

from bingwa.cli import main as cli
from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.oware_certify import BIAS, Certificate, boards, rank
from bingwa.engine.oware_exact_player import ExactPlayer
from bingwa.engine.oware_exhaustive import NaiveSolver
from bingwa.engine.playout import margin_reached, random_endgame, refuter, repeater, walk
from bingwa.engine.tablebase import TablebaseError

db = pytest.importorskip("bingwa.engine._owaredb")

EXACT = 6  # seeds solved over every line: about 4 s
TOP = 8


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("exact")
    tablebase.build(path, TOP, jobs=2, prove=True, exact_seeds=EXACT)
    return path


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("plain")
    tablebase.build(path, TOP, jobs=2, prove=True)
    return path


def entries(folder, seeds: int) -> list[tuple[int, bool]]:
    tb = tablebase.open_tablebase(folder)
    return [tb.entry(pits) for pits in boards(seeds)]


def test_every_board_of_the_searched_counts_is_exact(exact, plain):
    tb = tablebase.open_tablebase(exact)
    assert tb.searched == EXACT
    for seeds in range(EXACT + 1):
        assert all(not cycle for _, cycle in entries(exact, seeds)), seeds
    # the plain build leaves cycles open there: the search closed them
    assert sum(cycle for _, cycle in entries(plain, 4)) > 0
    found = tablebase.entry(tb, ((0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), (24, 22), 0))
    assert found.searched and "every line searched" in found.kind
    assert tablebase.entry(tb, ((0,) * 11 + (EXACT + 1,), (0, 0), 0)).searched is False


def test_the_two_seed_chase_is_worth_nothing(exact, plain):
    """The issue's smallest case: the seeds chase each other round the
    board, never capture, and the repetition gives each side one seed."""
    chase = (0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    assert tablebase.open_tablebase(exact).entry(chase) == (0, False)
    assert tablebase.open_tablebase(plain).entry(chase) == (2, True)


def test_the_searched_values_are_the_naive_negamax(exact):
    """The negamax over every line, without table or bounds (slow: 0..3)."""
    naive = NaiveSolver()
    naive.solve(3)
    tb = tablebase.open_tablebase(exact)
    for seeds in range(4):
        for pits in boards(seeds):
            assert tb.entry(pits)[0] == naive.values[(pits, (0, 0), 0)], pits


def test_the_sweeps_proven_entries_stay_and_more_are_proven_above(exact, plain):
    for seeds in range(TOP + 1):
        mine, theirs = entries(exact, seeds), entries(plain, seeds)
        for (value, cycle), (old, old_cycle) in zip(mine, theirs):
            if not old_cycle:
                assert (value, cycle) == (old, False)
        if seeds > EXACT:  # a capture into a smaller count now leans on an exact value
            assert sum(not c for _, c in mine) > sum(not c for _, c in theirs), seeds


def test_a_rank_stays_only_with_the_bound_it_ranks(exact):
    """Where the search moved a bound its rank is gone; every rank kept
    still meets its condition (the perfect bot may play it)."""
    cert = Certificate(exact, max_seeds=EXACT)
    kept = dropped = 0
    for seeds in (4, EXACT):
        for pits in boards(seeds):
            lo, hi, rl, rh = cert.claim(pits)
            assert lo == hi
            kids = cert.children(pits)
            for which, ranked in ((0, rl), (1, rh)):
                if ranked == tablebase.RANK_NONE:
                    dropped += 1
                    continue
                kept += 1
                why = (cert.lower_fails if which == 0 else cert.upper_fails)(pits, kids)
                assert why is None, (pits, why)
    assert kept and dropped


def test_the_certificate_solves_the_small_counts_again_and_checks_the_rest(exact, tmp_path):
    reports = Certificate(exact).check_counts()
    assert sum(r.failures for r in reports) == 0
    assert [r.searched == r.boards for r in reports] == [n <= EXACT for n in range(TOP + 1)]
    # a searched value forged (bounds and value together, headers valid) is found
    forged = tmp_path / "forged"
    forged.mkdir()
    for path in exact.iterdir():
        (forged / path.name).write_bytes(path.read_bytes())
    pits = (0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)
    i = rank(pits)
    data = bytearray((forged / tablebase.file_name(2)).read_bytes()[tablebase.HEADER_BYTES:])
    bounds = bytearray((forged / tablebase.bounds_name(2)).read_bytes()[tablebase.HEADER_BYTES:])
    data[i] = 2 + BIAS
    bounds[2 * i] = bounds[2 * i + 1] = 2 + BIAS
    tablebase.write_level(forged, 2, 0, data, proven=True, exact_seeds=EXACT)
    tablebase.write_level(forged, 2, 0, bounds, bounds=True, proven=True, exact_seeds=EXACT)
    report = Certificate(forged, max_seeds=2).check_count(2)
    assert report.failures == 1
    assert "exhaustive search finds +0" in report.examples[0]


def test_a_build_resumes_with_its_own_exact_seeds_and_refuses_another(tmp_path):
    folder = tmp_path / "db"
    tablebase.build(folder, 3, prove=True, exact_seeds=4)
    tablebase.build(folder, 5, prove=True)  # None: as built
    tb = tablebase.open_tablebase(folder)
    assert tb.searched == 4
    assert tablebase.read_level(folder / tablebase.file_name(5), 5, 0).exact_seeds == 4
    with pytest.raises(TablebaseError, match="exact-seeds 4"):
        tablebase.build(folder, 6, prove=True, exact_seeds=2)
    with pytest.raises(TablebaseError, match="proving build"):
        tablebase.build(tmp_path / "other", 3, prove=False, exact_seeds=3)


def test_the_command_line_says_it_in_one_line(tmp_path):
    runner = CliRunner()
    for args in (["--exact-seeds", "9"], ["--no-prove", "--exact-seeds", "3"]):
        result = runner.invoke(cli, ["solve", "build", "--max-seeds", "3", "--dir",
                                     str(tmp_path / "x"), *args])
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) <= 3
    folder = tmp_path / "db"
    result = runner.invoke(cli, ["solve", "build", "--max-seeds", "3", "--exact-seeds", "3",
                                 "--dir", str(folder)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["solve", "query", "-p", "0,1,0,0,0,1/0,0,0,0,0,0 24 22 s",
                                 "-m", "f", "--dir", str(folder)])
    assert result.exit_code == 0, result.output
    assert "board +0, exact, every line searched" in result.output
    assert "with this game's history" in result.output


def brute(position: Position, tb, memo: dict | None = None) -> int:
    """The final margin for the side to move of ``position`` with perfect
    play, its history counted by Position's own repetition rule: every
    line, a capture into the databases' exact smaller count. What follows
    depends only on the position and the set of positions since the last
    capture (``memo``)."""
    memo = {} if memo is None else memo
    since = frozenset(s for s in position.history() if s[1] == position.state[1])
    key = (position.state, since)
    if key in memo:
        return memo[key]
    mover = position.turn
    best = -99
    for move in position.legal_moves():
        child = position.play(move)
        outcome = child.outcome()
        scores = child.state[1]
        if outcome is not None:
            value = outcome.margin(mover)
        elif scores != position.state[1]:
            value = scores[mover] - scores[1 - mover] - tablebase.entry(tb, child.state).value
        else:
            value = -brute(child, tb, memo)
        best = max(best, value)
    memo[key] = best
    return best


def test_move_values_with_a_history_are_the_brute_force(exact):
    """Positions of 2 seeds after random quiet moves (a history that can
    repeat; the brute force cannot do 3): every move's value is the brute
    force's, and some differ from the game started there with no history."""
    tb = tablebase.open_tablebase(exact)
    player = ExactPlayer(tb)
    rng = random.Random(5)
    differ = 0
    for _ in range(200):
        game = walk(random_endgame(rng, "oware", 2), rng, rng.randrange(1, 12))
        if game.is_over():
            continue
        for value in player.move_values(game):
            child = game.play(value.move)
            outcome = child.outcome()
            if outcome is not None:
                truth = outcome.margin(game.turn)
            elif child.state[1] != game.state[1]:
                truth = value.value  # a capture: the smaller count's entry, both ways
            else:
                truth = -brute(child, tb)
            assert value.value == truth, (game.text(), value)
        board = tablebase.total_margin(tb, game.state)
        differ += max(v.value for v in player.move_values(game)) != board
    assert differ > 0  # the history does change values: the test can tell


@pytest.mark.parametrize("seed", [0, 1])
def test_the_perfect_bot_keeps_every_value_against_refutation(exact, seed):
    """From boards of 4..6 seeds after random quiet moves, the perfect bot
    keeps the value the history-aware search gives, on each side, against
    an opponent that searches, deviates at random and ends the game by a
    repetition whenever that is best for it."""
    tb = tablebase.open_tablebase(exact)
    player = ExactPlayer(tb)
    bot = perfect(exact)
    rng = random.Random(seed)
    played = 0
    while played < 6:
        game = walk(random_endgame(rng, "oware", rng.randrange(4, EXACT + 1)), rng, 4)
        if game.is_over():
            continue
        value = max(v.value for v in player.move_values(game, best_only=True))
        side = played % 2
        claim = value if game.turn == side else None
        opponent = repeater(refuter(Limits(depth=5), rng, 0.3, tb))
        if claim is None:  # the opponent moves first: the bot holds the rest
            game.push(opponent(game))
            if game.is_over():
                continue
            claim = max(v.value for v in player.move_values(game, best_only=True))
        while not game.is_over():
            game.push(bot(game) if game.turn == side else opponent(game))
        assert margin_reached(game.outcome(), side, claim), game.text()
        played += 1


def test_two_processes_write_the_same_files(tmp_path, monkeypatch):
    """The pool of ``-j`` (8 seeds and more, here from 4) against one process."""
    from bingwa.engine import oware_exact

    monkeypatch.setattr(oware_exact, "POOL_FROM", 4)
    tablebase.build(tmp_path / "two", 5, jobs=2, prove=True, exact_seeds=5)
    tablebase.build(tmp_path / "one", 5, jobs=1, prove=True, exact_seeds=5)
    for path in (tmp_path / "one").iterdir():
        assert (tmp_path / "two" / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_search_says_how_many_boards_it_solved(tmp_path, monkeypatch, jobs):
    """A long search (8 seeds: 12 minutes) shows its progress: the boards
    solved so far, rising to every board of the count, before the count
    is done (what the bar of ``solve build`` draws)."""
    from bingwa.engine import oware_exact

    monkeypatch.setattr(oware_exact, "POOL_FROM", 4)
    monkeypatch.setattr(oware_exact, "CHUNK", 100)
    calls = []
    tablebase.build(tmp_path, 5, jobs=jobs, prove=True, exact_seeds=5,
                    progress=lambda *call: calls.append(call))
    for seeds in range(6):
        mine = [c for c in calls if c[0] == seeds and c[1] in (0, None)]
        assert mine[0] == (seeds, 0, None) and mine[-1] == (seeds, None, None)
        counts = [c[2] for c in mine[1:-1]]
        assert counts == sorted(counts) and counts[-1] == tablebase.positions(seeds)
        if seeds == 5:  # 4,368 boards: a call per chunk of 100
            assert len(counts) == -(-tablebase.positions(5) // 100)


def test_a_search_that_contradicts_a_proof_stops_the_build(tmp_path, monkeypatch):
    """The two methods must agree: a value outside a proven bound is one
    clear error naming the board, and the count is not written."""
    from bingwa.engine import oware_exact

    real = oware_exact.solve_count

    def wrong(levels, seeds, rule, data, jobs=1, searched=None):
        values = real(levels, seeds, rule, data, jobs, searched)
        return [values[0] + (10 if seeds == 3 else 0)] + values[1:]

    monkeypatch.setattr(tablebase, "solve_count", wrong)
    with pytest.raises(TablebaseError, match="3 seeds, board .*outside the proven bounds"):
        tablebase.build(tmp_path, 4, prove=True, exact_seeds=4)
    assert tablebase.finished_levels(tmp_path, 0) == 2


def test_the_search_is_guided_by_the_sweeps_of_a_plain_build(tmp_path, monkeypatch):
    """The history-aware search of a count orders its moves by the values a
    build without --prove stores (over its own smaller counts, not over the
    exact ones): what made 8 seeds take 12 minutes instead of many hours."""
    from concurrent.futures import ThreadPoolExecutor

    tablebase.build(tmp_path / "plain", 5, prove=False)
    sweeps: list = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for seeds in range(6):
            stored = tablebase.read_level(tmp_path / "plain" / tablebase.file_name(seeds),
                                          seeds, 0).data
            assert bytes(tablebase.sweep_guesses(db, pool, seeds, 0, sweeps)) == bytes(stored)
    seen = []
    real = tablebase.solve_count

    def spy(levels, seeds, rule, data, jobs=1, searched=None):
        seen.append((seeds, bytes(data)))
        return real(levels, seeds, rule, data, jobs, searched)

    monkeypatch.setattr(tablebase, "solve_count", spy)
    tablebase.build(tmp_path / "exact", 5, prove=True, exact_seeds=5)
    assert [s for s, _ in seen] == list(range(6))
    assert [data for _, data in seen] == [bytes(level) for level in sweeps]


def test_the_certificate_and_the_perfect_bot_order_their_search_by_a_plain_build(exact,
                                                                                   tmp_path):
    """Outside the build too, the history-aware search is ordered by the
    values of a build without --prove (tablebase.plain_guess), not by the
    stored exact ones, which order it far worse (8 seeds: hours)."""
    tablebase.build(tmp_path, 5, prove=False)
    plain = tablebase.open_tablebase(tmp_path)
    cert = Certificate(exact)
    player = ExactPlayer(tablebase.open_tablebase(exact))
    guess = tablebase.plain_guess(5)
    differ = 0
    for pits in boards(5):
        for state in ((pits, (0, 0), 0), (pits[6:] + pits[:6], (0, 0), 1)):
            want = tablebase.entry(plain, state).value
            assert guess(state) == cert.solver(5).guess(state) == want
            assert player.solver(5).guess(state) == want
        differ += tablebase.entry(plain, (pits, (0, 0), 0)).value != cert.stored(pits)
    assert differ  # the stored exact values would have been other guesses


def test_the_perfect_bot_opens_a_counts_search_only_where_the_clock_allows(exact):
    """Opening the exact search of a count costs up to about a second (8
    seeds) once a process: on a clock the bot pays it only within an
    eighth of its time left, else it still moves at once (the ranks or
    the search), and a later move with the time opens it."""
    import threading

    from bingwa.bots import find_bot

    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(exact))
    rng = random.Random(5)
    game = walk(random_endgame(rng, "oware", EXACT), rng, 3)
    while game.is_over() or sum(game.state[0]) != EXACT:
        game = walk(random_endgame(rng, "oware", EXACT), rng, 3)
    tb = bot.tablebase(game, lambda info: None)
    player = bot.exact_player(tb)
    cost = player.opening_ms(EXACT)
    assert cost > 0
    clock = {"p1time": 1, "p2time": 1}  # 1 ms: no time to open it
    short = bot.go(game, Limits(**clock), lambda info: None, threading.Event())
    assert short.best in {m.text for m in game.legal_moves()}
    assert player.opening_ms(EXACT) == cost  # not opened
    side = "p1time" if game.turn == 0 else "p2time"
    long = bot.go(game, Limits(**{side: int(8 * cost) + 1}), lambda info: None, threading.Event())
    assert player.opening_ms(EXACT) == 0  # opened, and kept for the moves after
    values = ExactPlayer(tb).move_values(game, best_only=True)
    assert long.best in {v.move for v in values if v.value == max(w.value for w in values)}
    assert bot.may_open(Limits(movetime=2 * int(cost) + 2), 0, cost)
    assert not bot.may_open(Limits(movetime=int(cost)), 0, cost)
    assert bot.may_open(Limits(depth=3), 1, cost) and bot.may_open(Limits(infinite=True), 1, cost)


# A game of benchmarks/claims.py (7 December 2026, 10,000 boards of 7-8
# seeds): the databases claim +12 for North; North, the perfect bot, played
# on to a repetition at +10 where a capture had won 25-18 at once.
MAJORITY_GAME = ("1,0,0,0,2,0/0,1,1,0,1,1 18 23 n", (
    "B a E b C c E e A d B f A e D f F a C c B d A b E e D d C c B f A e B d D f A e C f E b "
    "B c A d D e C f B a E b A c D d C e B f F b A a E c D e C d B b E c D e C d E f A e B f "
    "F c D a E b A d C c B d D e C f F b A a E c D b C c B d C e E f F a D a B b A e C c B f "
    "A d B f A e C f E a D b").split())


@pytest.fixture(scope="module")
def seven(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("seven")
    tablebase.build(path, 7, jobs=2, prove=True, exact_seeds=7)  # about 6 s
    return path


def test_the_perfect_bot_takes_the_majority_that_keeps_the_claim(seven):
    """The databases' game plays on past "more than 24", so their claim is
    the final margin or, where a majority ends the game first, the result
    (playout.margin_reached). Where a capture that wins at once is worth
    more to them than the best margin of the real game, the bot takes it."""
    import threading

    from bingwa.bots import find_bot

    start, moves = MAJORITY_GAME
    game = Position.from_text("oware", start)
    tb = tablebase.open_tablebase(seven)
    claim = tablebase.total_margin(tb, game.state)
    assert claim == 12  # for North, to move
    for move in moves:
        game.push(game.parse_move(move))
    assert game.text() == "0,0,1,0,0,0/1,1,0,0,1,3 18 23 n"
    values = {v.move: v for v in ExactPlayer(tb).move_values(game)}
    assert values["B"].value == 10 and not values["B"].ends  # the real game's best
    assert values["F"].value == 7 and values["F"].ends  # 25-18
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(seven))
    best = bot.go(game, Limits(depth=4), lambda info: None, threading.Event()).best
    assert best == "F"
    game.push(game.parse_move(best))
    assert margin_reached(game.outcome(), 1, claim)
    # B would not: along this game's history South holds North to +10 there
    after_b = game.copy()
    after_b.pop()
    after_b.push(after_b.parse_move("B"))
    assert max(v.value for v in ExactPlayer(tb).move_values(after_b, best_only=True)) == -10


def test_stop_ends_the_perfect_bots_exact_search_at_once(exact):
    """Without a clock an exact value may take up to ``exact_nodes`` nodes
    (tens of seconds); ``stop`` ends it within a few hundredths of a second
    and the bot still answers with a legal move."""
    import threading
    import time

    from bingwa.bots import find_bot

    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(exact))
    # a 6-seed board whose best move needs more than 2 M nodes of the search
    game = Position.from_text("oware", "0,0,0,3,0,1/0,0,1,0,1,0 22 20 n")
    tb = bot.tablebase(game, lambda info: None)
    bot.exact_player(tb).compiled(6)  # opened before the clock starts
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    began = time.monotonic()
    result = bot.go(game, Limits(infinite=True), lambda info: None, stop)
    assert time.monotonic() - began < 5
    assert result.best in {m.text for m in game.legal_moves()}
    assert bot.exact_budget(Limits(depth=3), 1, True) == bot.exact_nodes
    assert bot.exact_budget(Limits(movetime=1000), 1, True) == 200_000
    assert bot.exact_budget(Limits(p1time=20_000, p2time=40), 0, True) == 400_000
    assert bot.exact_budget(Limits(p1time=20_000, p2time=40), 1, True) == 1_000


def test_ctrl_c_stops_a_long_exact_search_at_once(exact):
    """The compiled search runs on a thread of its own with a deep stack;
    Ctrl-C in the caller stops it at once (it used to end only with the
    null window in progress, a minute later on 8 seeds)."""
    import signal
    import subprocess
    import sys
    import time

    # every move's value of a 6-seed board: more than 10 M nodes
    script = (
        "from bingwa.engine import Position, tablebase\n"
        "from bingwa.engine.oware_exact_player import ExactPlayer\n"
        f"tb = tablebase.open_tablebase({str(exact)!r})\n"
        "player = ExactPlayer(tb, node_limit=10**9)\n"
        "player.compiled(6)\n"
        "print('searching', flush=True)\n"
        "try:\n"
        "    player.move_values(Position.from_text('oware', '1,1,0,1,0,0/1,1,0,0,1,0 22 20 n'))\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    raise SystemExit(130)\n"
        "print('finished', flush=True)\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdout.readline().strip() == "searching"
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    began = time.monotonic()
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - began < 3, "Ctrl-C took too long"
    assert (process.returncode, out.strip()) == (130, "interrupted"), err
