"""tournament/referee.py: one game by the rules, with scripted players."""

from __future__ import annotations

import pytest

from bingwa.engine import Position, Termination
from bingwa.engine.limits import Info
from bingwa.protocol.errors import EngineCrash, EngineStall
from bingwa.tournament.model import PlannedGame
from bingwa.tournament.players import InProcessPlayer, Reply
from bingwa.tournament.referee import Aborted, Adjudication, Rules, play_game
from bingwa.tournament.timecontrol import TimeControl


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
