"""The tournament's parts without engine processes: plan, time controls,
storage, openings, the referee (with scripted players), export, report."""

from __future__ import annotations

import json
import random
import shlex
import sqlite3
from collections import Counter

import pytest

from bingwa.engine import Position, Termination
from bingwa.engine.limits import Info
from bingwa.protocol.errors import EngineCrash, EngineStall
from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec, EngineSpecError, PlannedGame, PlayedGame, PlayedMove
from bingwa.tournament.openings import OpeningError, negamax_margin, random_openings, read_openings
from bingwa.tournament.players import InProcessPlayer, Reply
from bingwa.tournament.referee import Aborted, Adjudication, Rules, play_game
from bingwa.tournament.runner import Tournament
from bingwa.tournament.schedule import ScheduleError, matchups, plan
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import StorageError, Store
from bingwa.tournament.timecontrol import Clock, TimeControl, TimeControlError, limits_for


# -- plan -------------------------------------------------------------------------
def test_round_robin_and_gauntlet_matchups():
    assert matchups("round-robin", ["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert matchups("gauntlet", ["a", "b", "c"], "b") == [("b", "a"), ("b", "c")]
    with pytest.raises(ScheduleError):
        matchups("sprt", ["a", "b", "c"])
    with pytest.raises(ScheduleError):
        matchups("round-robin", ["a", "a"])


def test_plan_plays_each_opening_twice_with_colours_swapped():
    games = list(plan([("a", "b"), ("a", "c")], ["oware", "kalah"], {"oware": 3, "kalah": 1}, 2, batch_pairs=3))
    assert len(games) == 2 * 2 * 2 * 2
    assert [g.index for g in games] == list(range(len(games)))
    for first, second in zip(games[::2], games[1::2]):
        assert first.pair == second.pair
        assert (first.south, first.north) == (second.north, second.south)
        assert (first.variant, first.opening) == (second.variant, second.opening)
    # round r uses opening r mod count, for every matchup before the next round
    assert [g.opening for g in games if g.variant == "oware"] == [0] * 4 + [1] * 4
    assert {g.batch for g in games} == {0, 1, 2}
    assert Counter(g.batch for g in games)[0] == 6


def test_open_ended_plan_goes_on():
    games = plan([("new", "base")], ["oware"], {"oware": 2}, None)
    first = [next(games) for _ in range(10)]
    assert [g.opening for g in first[::2]] == [0, 1, 0, 1, 0]


# -- time controls ----------------------------------------------------------------
def test_time_control_parsing_and_description():
    tc = TimeControl.parse_clock("40/60+0.6")
    assert (tc.moves, tc.base_ms, tc.inc_ms) == (40, 60_000, 600)
    assert TimeControl.parse_clock("1:30").base_ms == 90_000
    assert TimeControl.from_fields("10+0.1", nodes=500).describe() == "10+0.1 nodes=500"
    assert TimeControl.from_fields(st=0.25).describe() == "st=0.25"
    for bad in ("abc", "40/", "10+x"):
        with pytest.raises(TimeControlError):
            TimeControl.parse_clock(bad)
    with pytest.raises(TimeControlError):
        TimeControl(nodes=0)


def test_clock_adds_increment_and_a_new_period():
    clock = Clock(TimeControl(base_ms=1000, inc_ms=100, moves=2))
    assert clock.spend(300, 0)
    assert clock.remaining_ms == 800 and clock.moves_left == 1
    assert clock.spend(300, 0)  # the period ends: 1000 ms more
    assert clock.remaining_ms == 600 + 1000 and clock.moves_left == 2
    assert not clock.spend(2000, 50)


def test_fixed_move_time_forfeits_beyond_the_margin():
    clock = Clock(TimeControl(movetime_ms=100))
    assert clock.spend(150, 50)
    assert not clock.spend(151, 50)
    assert clock.deadline_ms(50) == 150


def test_limits_carry_both_clocks_and_the_movers_fixed_limits():
    clocks = (Clock(TimeControl(base_ms=5000, inc_ms=50)), Clock(TimeControl(base_ms=4000, inc_ms=50, nodes=99)))
    limits = limits_for(1, clocks)
    assert (limits.p1time, limits.p2time, limits.p1inc, limits.p2inc, limits.nodes) == (5000, 4000, 50, 50, 99)
    assert limits_for(0, clocks).nodes is None


# -- engines as entered -------------------------------------------------------------
def test_engine_spec_parsing():
    spec = EngineSpec.parse("name=ab cmd='bingwa engine --bot alphabeta' option.Hash=8 nodes=500 protocol=uci")
    assert spec.command == ("bingwa", "engine", "--bot", "alphabeta")
    assert spec.options == (("Hash", "8"),)
    assert spec.tc == TimeControl(nodes=500)
    assert EngineSpec.parse("greedy").command[-2:] == ("--bot", "greedy")
    assert EngineSpec.from_json(spec.to_json()) == spec
    for bad in ("name=x", "name=x cmd=y colour=red", "cmd=y protocol=xboard", "name=x cmd=a bot=b"):
        with pytest.raises(EngineSpecError):
            EngineSpec.parse(bad)


def test_run_config_round_trips_through_json():
    config = RunConfig("sprt", (EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                       ("kalah pits=4",), TimeControl(nodes=100), rounds=None,
                       rules=Rules(50, 2000, Adjudication(10, 4, 200)), sprt=Sprt(0, 5),
                       max_games=101, concurrency=2)
    again = RunConfig.from_json(json.loads(json.dumps(config.to_json())))
    assert again == config
    assert config.planned_games() == 102  # whole pairs
    with pytest.raises(ScheduleError, match="Aualé"):
        RunConfig("round-robin", (EngineSpec("a", ("x",), "auale"), EngineSpec.bot("random")),
                  ("kalah",), TimeControl(depth=1))


# -- storage ------------------------------------------------------------------------------
def played(index: int, south="a", north="b", result="1-0", pair=None) -> PlayedGame:
    planned = PlannedGame(index, index // 2 if pair is None else pair, index // 4, "oware", 0, south, north)
    moves = [PlayedMove("c", 0, book=True), PlayedMove("A", 1, 12, 50, None, 3, 400)]
    return PlayedGame(planned, result, "majority", (25, 10), moves, "start", "", None, 1.0, 2.0)


def make_store(tmp_path, name="t.sqlite") -> tuple[Store, int]:
    store = Store(tmp_path / name)
    run = store.create_run("round-robin", {"kind": "round-robin"},
                           [EngineSpec("a", ("x",)), EngineSpec("b", ("y",), options=(("Hash", "4"),))],
                           {"oware": [["c", "A"], []]}, 8)
    return store, run


def test_games_are_stored_once_with_their_moves(tmp_path):
    store, run = make_store(tmp_path)
    assert store.record_game(run, played(0))
    assert not store.record_game(run, played(0, result="0-1"))  # a second write is a no-op
    assert store.record_game(run, played(1, "b", "a"))
    assert store.done_indices(run) == {0, 1}
    (first, second) = store.games(run)
    assert first.result == "1-0" and first.moves[1] == PlayedMove("A", 1, 12, 50, None, 3, 400)
    assert first.moves[0].book
    scores = store.scores("oware")
    assert [(s.south, s.north, s.points, s.pair) for s in scores] == [("a", "b", 1.0, (run, 0)), ("b", "a", 1.0, (run, 0))]
    assert store.openings(run) == {"oware": [["c", "A"], []]}
    assert store.engines(run)[1]["options"] == [["Hash", "4"]]


def test_a_batch_is_folded_once(tmp_path):
    store, run = make_store(tmp_path)
    batch = [played(0), played(1, "b", "a"), played(2), played(3, "b", "a")]
    assert store.record_batch(run, 0, batch)
    assert not store.record_batch(run, 0, batch)  # Ray retried the task
    assert store.count_games(run) == 4


def test_games_survive_reopening_and_foreign_files_are_refused(tmp_path):
    store, run = make_store(tmp_path)
    store.record_game(run, played(0))
    store.close()
    again = Store(tmp_path / "t.sqlite")
    assert again.count_games(run) == 1
    assert again.run().id == run
    with pytest.raises(StorageError):
        again.run(99)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError):
        Store(junk)
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    other.execute("INSERT INTO meta VALUES ('schema', '999')")
    other.commit()
    other.close()
    with pytest.raises(StorageError, match="schema"):
        Store(tmp_path / "other.sqlite")


# -- openings ------------------------------------------------------------------------------
def test_openings_file_with_variant_prefixes(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text("# a comment\nd A\nkalah: c a\n\noware: f B  # trailing comment\n")
    assert read_openings(path, "oware") == [["d", "A"], ["f", "B"]]
    assert read_openings(path, "kalah") == [["d", "A"], ["c", "a"]]  # c: an extra turn
    # a line every variant reads must be legal in each
    path.write_text("d A\nkalah: a\nc c\n")
    with pytest.raises(OpeningError, match=":3: c"):
        read_openings(path, "oware")


def test_openings_file_of_position_strings_and_move_lists_is_read_line_by_line(tmp_path):
    from bingwa.engine import Position

    after_d = Position("oware")
    after_d.push("d")
    bao = Position("bao")
    bao.push(bao.legal_moves()[0])
    path = tmp_path / "book.txt"
    path.write_text(f"oware: {after_d.text()}\noware: d A\nbao: {bao.text()}  # a Bao position: spaces inside\n")
    assert read_openings(path, "oware") == [[f"position:{after_d.text()}"], ["d", "A"]]
    assert read_openings(path, "bao") == [[f"position:{bao.text()}"]]
    path.write_text("d A\n1,2,3 zz\n")
    with pytest.raises(OpeningError, match=r":2: neither a position \(.*\) nor moves \(.*\)"):
        read_openings(path, "oware")


def test_a_run_from_position_openings_starts_there_and_records_it(tmp_path):
    from bingwa.engine import Position
    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_records

    start = Position("oware")
    for move in ("c", "D", "e"):
        start.push(move)
    book = tmp_path / "book.txt"
    book.write_text(start.text() + "\n")
    store = Store(tmp_path / "pos.sqlite")
    config = small_config(variants=("oware",), rounds=1, openings=OpeningsConfig(file=str(book)))
    Tournament.create(store, config, factory=in_process).run()
    again = Store(tmp_path / "pos.sqlite")  # the opening survives the database
    assert again.openings(1) == {"oware": [[f"position:{start.text()}"]]}
    games = again.games()
    assert len(games) == 2 and {g.start_position for g in games} == {start.text()}
    assert all(not any(m.book for m in g.moves) for g in games)
    for record in parse_records(export_records(again)):
        assert record.tags["Position"] == start.text()


def test_random_openings_are_distinct_balanced_and_seeded():
    def evaluate(position):
        return negamax_margin(position, 2)

    first = random_openings("oware", 6, 4, random.Random(5), evaluate, margin_cp=100)
    again = random_openings("oware", 6, 4, random.Random(5), evaluate, margin_cp=100)
    assert first == again
    keys = set()
    for moves in first:
        position = Position("oware")
        position.push_all(moves)
        assert len(moves) == 4 and not position.is_over()
        assert abs(evaluate(position)) <= 100
        keys.add(position.key)
    assert len(keys) == 6


def test_a_run_draws_one_opening_a_round_and_an_sprt_one_a_pair():
    """Engines at fixed nodes play the same game from the same opening:
    a run that cycled a few openings would replay its pairs, and an SPRT
    would count each one many times."""
    from bingwa.tournament.config import MAX_OPENINGS

    def config(**kw):
        base = dict(kind="round-robin", engines=(EngineSpec.bot("random"), EngineSpec.bot("greedy")),
                    variants=("oware",), tc=TimeControl(nodes=100), rounds=200)
        base.update(kw)
        return RunConfig(**base)

    assert config().opening_count() == 200
    sprt = dict(kind="sprt", rounds=None, sprt=Sprt(0, 10))
    assert config(**sprt, max_games=600).opening_count() == 300
    assert config(**sprt, max_games=601).opening_count() == 301
    assert config(**sprt, max_games=20000).opening_count() == MAX_OPENINGS
    assert config(rounds=5000).opening_count() == MAX_OPENINGS
    assert config(openings=OpeningsConfig(count=5)).opening_count() == 5
    assert config(rounds=3, openings=OpeningsConfig(count=5)).opening_count() == 3
    store_config = config(rounds=120, openings=OpeningsConfig(plies=4, depth=1))
    drawn = Tournament.create(Store(":memory:"), store_config, factory=in_process).openings["oware"]
    assert len(drawn) == 120 and len({tuple(line) for line in drawn}) == 120


def test_random_openings_fail_when_none_is_balanced():
    with pytest.raises(OpeningError, match="balanced"):
        random_openings("oware", 2, 2, random.Random(1), lambda p: 5000)


# -- the referee ------------------------------------------------------------------------------
class Scripted:
    """A player that answers from a function of the position and records
    the side to move at every go."""

    def __init__(self, name, choose, elapsed_ms=1):
        self.name = name
        self.choose = choose
        self.elapsed_ms = elapsed_ms
        self.turns: list[int] = []
        self.games = 0

    def new_game(self, variant):
        self.games += 1

    def go(self, position, limits, deadline_ms):
        self.turns.append(position.turn)
        move = self.choose(position)
        if isinstance(move, Exception):
            raise move
        return Reply(move, Info(depth=1, score_cp=7, nodes=10), self.elapsed_ms, [f"go for {position.text()}"])

    def close(self):
        pass


def first_legal(position):
    return position.legal_moves()[0].text


def planned_game(variant="oware") -> PlannedGame:
    return PlannedGame(0, 0, 0, variant, 0, "south", "north")


def referee(players, variant="oware", opening=(), tc=None, rules=None, stop=None):
    tc = tc or TimeControl(depth=1)
    return play_game(planned_game(variant), list(opening), players, (tc, tc), rules or Rules(), stop)


def test_a_game_ends_by_the_rules_with_final_scores():
    south, north = Scripted("south", first_legal), Scripted("north", first_legal)
    game = referee((south, north))
    position = Position("oware")
    position.push_all(m.move for m in game.moves)
    outcome = position.outcome()
    assert outcome is not None
    assert game.termination == outcome.termination.value
    assert game.scores == outcome.scores and game.result == outcome.result()
    assert game.loser is None
    assert all(m.score_cp == 7 and m.time_ms == 1 for m in game.moves)


def test_kalah_extra_turn_gives_the_same_engine_two_go_in_a_row():
    # South's c sows d, e, f and the store: South moves again.
    south, north = Scripted("south", lambda p: "c" if not p.move_stack else first_legal(p)), Scripted("north", first_legal)
    game = referee((south, north), "kalah")
    assert [m.side for m in game.moves[:2]] == [0, 0]
    assert south.turns[:2] == [0, 0]
    assert all(t == 1 for t in north.turns)


def test_opening_moves_are_book_moves_and_not_asked_of_engines():
    south, north = Scripted("south", first_legal), Scripted("north", first_legal)
    game = referee((south, north), opening=["c", "A"])
    assert [m.book for m in game.moves[:3]] == [True, True, False]
    assert game.moves[0].move == "c" and game.moves[1].side == 1


@pytest.mark.parametrize("answer", ["z", "@@", None])
def test_an_illegal_or_unreadable_move_loses(answer):
    south = Scripted("south", first_legal)
    north = Scripted("north", lambda p: answer)
    game = referee((south, north))
    assert game.termination == Termination.ILLEGAL_MOVE.value
    assert game.result == "1-0" and game.loser == "north"
    assert "go for" in game.detail  # the lines that led to it


def test_a_move_of_an_empty_pit_is_illegal():
    # after c, South's pit c is empty
    south = Scripted("south", lambda p: "c")
    game = referee((south, Scripted("north", first_legal)))
    assert game.termination == Termination.ILLEGAL_MOVE.value and game.loser == "south"
    assert [m.move for m in game.moves] == ["c", game.moves[1].move]


@pytest.mark.parametrize("failure, termination", [
    (EngineCrash("the engine ended with status 3", transcript=["> go nodes 10"]), Termination.CRASH),
    (EngineStall("no readyok within 1 s"), Termination.STALL),
])
def test_engine_failures_lose_with_their_termination(failure, termination):
    south = Scripted("south", lambda p: failure if len(p.move_stack) > 3 else first_legal(p))
    game = referee((south, Scripted("north", first_legal)))
    assert game.termination == termination.value
    assert game.result == "0-1" and game.loser == "south"
    assert str(failure) in game.detail


def test_a_players_failure_is_detailed_with_its_command_and_last_lines():
    stall = EngineStall("no readyok within 1.000 s", command="go depth 1",
                        transcript=["> go depth 1", "> isready"])
    south = Scripted("south", lambda p: stall if p.move_stack else first_legal(p))
    game = referee((south, Scripted("north", first_legal)))
    assert game.detail == ("south (south): stall: no readyok within 1.000 s\n"
                           "after: go depth 1\n"
                           "last lines:\n  > go depth 1\n  > isready")


def test_the_referees_verdict_is_detailed_with_the_commands_that_asked_for_the_move():
    slow = Scripted("north", first_legal, elapsed_ms=700)
    tc = TimeControl(base_ms=1000)
    game = referee((Scripted("south", first_legal), slow), tc=tc, rules=Rules(margin_ms=50))
    position = Position("oware")
    position.push_all(m.move for m in game.moves)  # where North overran
    assert game.detail == ("north (north): time forfeit: 700 ms used, the clock allowed 300 ms\n"
                           f"go for {position.text()}")
    illegal = referee((Scripted("south", lambda p: "z"), Scripted("north", first_legal)))
    assert illegal.detail == ("south (south): illegal move: illegal move 'z': 'z' is not a pit "
                              "letter (South a-f, North A-F)\n"
                              f"go for {Position('oware').text()}")


def test_a_reply_timed_before_its_go_counts_as_no_time_not_negative_time():
    # the client stamps bestmove on its reader thread: it can come out a hair
    # before the time go was sent
    game = referee((Scripted("s", first_legal, elapsed_ms=-1), Scripted("n", first_legal, elapsed_ms=-3)),
                   tc=TimeControl(base_ms=1000))
    times = [m.time_ms for m in game.moves if not m.book]
    assert times and set(times) == {0}


def test_overrunning_the_clock_is_a_time_forfeit():
    slow = Scripted("north", first_legal, elapsed_ms=700)
    tc = TimeControl(base_ms=1000)
    game = referee((Scripted("south", first_legal), slow), tc=tc, rules=Rules(margin_ms=50))
    # North has 1000 ms: the first move leaves 300, the second overruns
    assert game.termination == Termination.TIME_FORFEIT.value
    assert game.loser == "north" and game.result == "1-0"
    assert sum(1 for m in game.moves if m.side == 1) == 1


def test_adjudication_on_a_held_margin_and_the_move_cap():
    greedy = InProcessPlayer("south", "greedy")
    rand = InProcessPlayer("north", "random")
    rules = Rules(adjudication=Adjudication(margin=6, plies=3))
    game = referee((greedy, rand), rules=rules)
    assert game.termination == Termination.ADJUDICATION.value
    south, north = game.scores
    winner_margin = south - north if game.result == "1-0" else north - south
    assert winner_margin >= 6
    capped = referee((Scripted("s", first_legal), Scripted("n", first_legal)),
                     rules=Rules(adjudication=Adjudication(move_cap=9)))
    assert capped.termination == Termination.MOVE_CAP.value
    assert capped.result == "1/2-1/2" and len(capped.moves) == 9


def test_a_stop_aborts_the_game_in_progress():
    import threading

    stop = threading.Event()
    stop.set()
    with pytest.raises(Aborted):
        referee((Scripted("s", first_legal), Scripted("n", first_legal)), stop=stop)


# -- a whole run in one process ---------------------------------------------------------------
def in_process(spec):
    return InProcessPlayer(spec.name, spec.command[-1], spec.options)


def small_config(**kw):
    base = dict(kind="round-robin", engines=(EngineSpec.bot("random"), EngineSpec.bot("greedy")),
                variants=("oware", "kalah"), tc=TimeControl(depth=1), rounds=3, concurrency=2,
                openings=OpeningsConfig(plies=2, count=5, depth=1))
    base.update(kw)
    return RunConfig(**base)


def test_a_run_plays_its_plan_and_resume_adds_nothing(tmp_path):
    store = Store(tmp_path / "run.sqlite")
    t = Tournament.create(store, small_config(), factory=in_process)
    summary = t.run()
    assert summary.status == "finished" and summary.played == 12
    assert store.done_indices(summary.run_id) == set(range(12))
    again = Tournament.resume(store, summary.run_id, factory=in_process).run()
    assert again.played == 0 and store.count_games() == 12


def test_sprt_run_stops_once_decided(tmp_path):
    store = Store(tmp_path / "sprt.sqlite")
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                          variants=("kalah",), rounds=None, sprt=Sprt(0, 50), max_games=400, anchor="base")
    summary = Tournament.create(store, config, factory=in_process).run()
    assert summary.decision == "H1"
    assert summary.standings.llr() >= Sprt(0, 50).upper
    assert store.count_games() < 400
    # the stored games are exactly those the decision was made on: the
    # bound was crossed by the last game folded in, not before
    from bingwa.tournament.stats import matchup

    scores = store.scores("kalah")
    llrs = [Sprt(0, 50).llr(matchup(scores[:n], "new", "base").penta) for n in range(1, len(scores) + 1)]
    assert llrs[-1] >= Sprt(0, 50).upper > max(llrs[:-1])


def test_live_progress_shows_standings_and_the_sprt(tmp_path):
    import io

    from rich.console import Console

    from bingwa.tournament.progress import RichProgress

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                          variants=("kalah",), rounds=None, sprt=Sprt(0, 50), max_games=400, anchor="base")
    Tournament.create(Store(tmp_path / "live.sqlite"), config, factory=in_process,
                      progress=RichProgress(console)).run()
    text = out.getvalue()
    final = text[text.rindex("/400"):]  # the last frame, from its progress bar on
    for word in ("engine", "W", "D", "L", "Elo (95%)", "new", "base", "LLR", "[-2.94, +2.94]", "-> H1", "penta"):
        assert word in final, word


def test_drawing_openings_shows_how_many_are_found_and_the_bar_goes_on_ctrl_c():
    """Balanced openings can take minutes to find (8 plies of Kujifunza):
    the run says how many it has, in lines or a live bar, and a Ctrl-C
    while it draws leaves no bar behind."""
    import io

    from rich.console import Console

    from bingwa.tournament.progress import LineProgress, RichProgress
    from bingwa.tournament.runner import make_openings

    calls = []
    random_openings("oware", 20, 4, random.Random(5), lambda p: negamax_margin(p, 1), margin_cp=100,
                    on_scored=lambda kept, scored: calls.append((kept, scored)))
    assert [scored for _, scored in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][0] == 20 and all(a[0] <= b[0] <= a[0] + 1 for a, b in zip(calls, calls[1:]))

    out = io.StringIO()
    config = small_config(variants=("oware",), rounds=20, openings=OpeningsConfig(plies=4, depth=1))
    Tournament.create(Store(":memory:"), config, factory=in_process,
                      progress=LineProgress(Console(file=out, width=200)))
    assert "openings" not in out.getvalue()  # drawn in well under a second: no line
    lines = LineProgress(Console(file=out, width=200))
    lines.gap = 0.0
    Tournament.create(Store(":memory:"), config, factory=in_process, progress=lines)
    kept = [int(line.split(": ")[1].split(" of ")[0]) for line in out.getvalue().splitlines()
            if line.startswith("openings oware: ")]
    assert set(range(2, 21, 2)) <= set(kept) and kept[-1] == 20 and len(kept) <= 12

    out = io.StringIO()
    live = RichProgress(Console(file=out, force_terminal=True, width=120, color_system=None))
    Tournament.create(Store(":memory:"), config, factory=in_process, progress=live)
    assert live.openings is None and "openings oware" in out.getvalue()

    def interrupted(position):
        if len(seen) == 3:
            raise KeyboardInterrupt
        seen.append(position)
        return 0

    seen: list = []
    live = RichProgress(Console(file=io.StringIO(), force_terminal=True, width=120))
    with pytest.raises(KeyboardInterrupt):
        make_openings(config, interrupted, live)
    assert live.openings is None and len(seen) == 3


# -- export and report ----------------------------------------------------------------------
def test_export_round_trips_through_records_csv_and_json(tmp_path):
    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_csv, export_json, export_records

    store = Store(tmp_path / "x.sqlite")
    summary = Tournament.create(store, small_config(rounds=1), factory=in_process).run()
    games = store.games(summary.run_id)
    records = parse_records(export_records(store))
    assert len(records) == len(games) == 4
    for record, game in zip(records, games):
        assert [m.text for m in record.moves] == [m.move for m in game.moves]
        assert record.result == game.result
        assert record.tags["South"] == game.planned.south
        assert record.termination.value == game.termination
    lines = export_csv(store).splitlines()
    assert lines[0].startswith("run,game,pair,variant") and len(lines) == 5
    data = json.loads(export_json(store))
    assert len(data["games"]) == 4 and data["games"][0]["moves"][0]["book"] is True


def test_exported_times_are_iso_8601_and_move_times_never_negative(tmp_path):
    import csv
    import datetime
    import io

    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_csv, export_json, export_records

    store, run = make_store(tmp_path)
    game = played(0)
    game.started, game.finished = 1764583277.25, 1764583280.5
    game.start_position = ""
    game.moves = [PlayedMove("a", 0, time_ms=-2, score_cp=10, depth=1), PlayedMove("A", 1, time_ms=-1)]
    store.record_game(run, game)
    row = next(csv.DictReader(io.StringIO(export_csv(store))))
    data = json.loads(export_json(store))["games"][0]
    assert row["started"] == data["started"] == "2025-12-01T10:01:17.250Z"
    assert row["finished"] == data["finished"] == "2025-12-01T10:01:20.500Z"
    assert datetime.datetime.fromisoformat(row["finished"]).timestamp() == game.finished
    text = export_records(store)
    assert "{+0.10/1 0.000s}" in text and "{0.000s}" in text and "-0." not in text
    assert len(parse_records(text)) == 1


def test_html_report_is_self_contained(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "r.sqlite")
    Tournament.create(store, small_config(rounds=4), factory=in_process).run()
    page = build_report(store, bootstrap=50)
    assert page.count("<svg") == 2 * 2 + 0  # error bars and history, per variant
    assert "Crosstable" in page and "greedy" in page and "first-player advantage" in page.lower()
    without_svg_namespace = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in without_svg_namespace and "<script" not in page


def test_html_report_names_the_time_control_commands_and_date_in_the_terminals_variant_order(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "r.sqlite")
    summary = Tournament.create(store, small_config(variants=("oware", "kalah"), rounds=1),
                                factory=in_process).run()
    page = build_report(store, summary.run_id, bootstrap=10)
    assert page.index("<h2>oware</h2>") < page.index("<h2>kalah</h2>")  # as run, not alphabetical
    assert "time control <code>depth=1</code>" in page
    assert f"Started {store.run(summary.run_id).created}" in page
    assert "<code>" + shlex.join(EngineSpec.bot("greedy").command) + "</code>" in page


def test_sprt_report_shows_the_llr_bounds_decision_and_engine_names(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "s.sqlite")
    test = Sprt(0, 50)
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy"), EngineSpec.bot("random")),
                          variants=("kalah",), rounds=None, sprt=test, max_games=400, anchor="random")
    summary = Tournament.create(store, config, factory=in_process).run()
    assert summary.decision == "H1"
    page = build_report(store, summary.run_id, bootstrap=10)
    assert "SPRT (run 1): greedy against random" in page
    assert "H1 accepted: greedy is stronger than random by 50 rather than 0" in page
    assert f"<td>{summary.standings.llr():+.2f}</td>" in page
    assert f"[{test.lower:+.2f}, {test.upper:+.2f}]" in page
    assert "new" not in page.replace("<th>new</th>", "")


def test_a_batch_folded_twice_counts_once(tmp_path):
    # what the Ray driver does with a task that Ray ran twice
    from bingwa.tournament.runner import Seat

    store = Store(tmp_path / "fold.sqlite")
    t = Tournament.create(store, small_config(batch_pairs=2), factory=in_process)
    seat = Seat(t.config, t.openings, in_process)
    batch = [seat.play(g) for g in t.pending() if g.batch == 0]
    assert len(batch) == 4
    t.fold_batch(0, batch)
    t.fold_batch(0, batch)
    assert t.standings.done == 4 == store.count_games()
    assert sorted(g.planned.index for g in store.games()) == [0, 1, 2, 3]


@pytest.mark.parametrize("args, message, status", [
    (["tournament", "--bot", "random", "--bot", "nosuchbot", "--depth", "1"], "unknown bot 'nosuchbot'", 2),
    (["tournament", "-e", "name=x cmd=no-such-program", "--bot", "random", "--depth", "1"], "no program", 2),
    (["tournament", "--bot", "random", "--bot", "greedy"], "give a time control", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--tc", "40/"], "moves/time+inc", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--depth", "1", "-v", "chess"], "unknown variant", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--depth", "1", "--gauntlet", "zz"], "gauntlet engine", 2),
    (["tournament", "--resume"], "no such database", 2),
    (["sprt", "--new", "random", "--depth", "1"], "give --new and --base", 3),
    (["sprt", "--new", "random", "--base", "greedy", "--elo0", "5", "--elo1", "0", "--depth", "1"], "elo0 must be below", 3),
])
def test_command_line_refuses_bad_input_in_one_line(tmp_path, args, message, status):
    from click.testing import CliRunner

    from bingwa.cli import main

    db = ["--db", str(tmp_path / "cli.sqlite")]
    result = CliRunner().invoke(main, args + db)
    assert result.exit_code == status, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_ratings_over_all_runs_tell_apart_engines_that_share_a_name(tmp_path):
    store = Store(tmp_path / "names.sqlite")
    for command in (("bingwa", "--bot", "random"), ("bingwa", "--bot", "greedy"), ("bingwa", "--bot", "greedy")):
        run = store.create_run("round-robin", {"kind": "round-robin"},
                               [EngineSpec("x", command), EngineSpec("b", ("y",))], {"oware": [[]]}, 2)
        store.record_game(run, played(0, "x", "b"))
    # runs 2 and 3 entered the same x: one engine; run 1's x is another
    assert sorted({g.south for g in store.scores("oware")}) == ["x (run 1)", "x (run 2)"]
    assert {g.north for g in store.scores("oware")} == {"b"}
    assert {g.south for g in store.scores("oware", run_id=1)} == {"x"}  # within a run: its own names
    assert {g.planned.south for g in store.games()} == {"x (run 1)", "x (run 2)"}
