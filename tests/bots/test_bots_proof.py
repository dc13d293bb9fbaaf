"""The ``proof`` bot (bots/proof.py): Bao la Kujifunza's proven South win
played from the start against every North, its book proved again, and the
alpha-beta search wherever no proof covers the position."""

from __future__ import annotations

import random
import threading

import pytest

from bingwa.bots import find_bot
from bingwa.bots.kujifunza_book import BOOK, BOOK_PLIES
from bingwa.bots.proof import ProofBot
from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits
from bingwa.engine.solvers import SolveInterrupted, WinFinder

pytest.importorskip("bingwa.engine._proof")
pytest.importorskip("bingwa.engine.search")

from support.testbots import ServerSession


def go(bot, pos: Position, limits: Limits) -> tuple[str, list[Info]]:
    infos: list[Info] = []
    result = bot.go(pos.copy(), limits, infos.append, threading.Event())
    return result.best, infos


def south_wins_within(finder: WinFinder, pos: Position, plies: int) -> bool:
    """Whether South, to move or not, wins within ``plies`` whatever North
    does: North's nodes are expanded here, South's proved by the finder."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.winner == 0
    if plies <= 0:
        return False
    if pos.turn == 0:
        found = finder.find(pos, plies)
        return found is not None and found.plies <= plies
    return all(south_wins_within(finder, pos.play(m), plies - 1) for m in pos.legal_moves())


@pytest.fixture(scope="module")
def south() -> ProofBot:
    """One bot for every game: its proof table and answers carry over, as
    in a tournament."""
    bot = ProofBot()
    bot.set_option("Hash", "4")
    return bot


def test_every_book_move_is_proved_again_a_south_win_in_its_plies():
    finder = WinFinder(Position("kujifunza").variant, 64)
    assert len(BOOK) > 1 and Position("kujifunza").text() in BOOK
    for text, (move, plies) in BOOK.items():
        pos = Position("kujifunza", text=text)
        assert pos.turn == 0 and len(pos.move_stack) == 0
        assert move in [m.text for m in pos.legal_moves()], text
        assert south_wins_within(finder, pos.play(move), plies - 1), text


def test_the_book_holds_south_every_north_reply_of_its_plies():
    """Following the book, every North reply up to BOOK_PLIES lands on a
    book position (or ends the game)."""
    frontier = [Position("kujifunza")]
    for _ in range(BOOK_PLIES):
        nxt = []
        for pos in frontier:
            if pos.is_over():
                continue
            if pos.turn == 0:
                assert pos.text() in BOOK
                nxt.append(pos.play(BOOK[pos.text()][0]))
            else:
                nxt += [pos.play(m) for m in pos.legal_moves()]
        frontier = nxt


def play_out(south: ProofBot, north, north_limits: Limits, rng: random.Random | None = None):
    """A game from the start; South plays the proof bot at a small fixed
    depth (what it would search with off the proof)."""
    pos = Position("kujifunza")
    while not pos.is_over():
        if pos.turn == 0:
            best, infos = go(south, pos, Limits(depth=2))
            # every South move comes from a proof, never from the search
            assert infos and infos[-1].score_mate is not None and infos[-1].score_mate > 0, pos.text()
            assert infos[-1].score_mate <= 21 - len(pos.move_stack)
        elif north is None:
            best = rng.choice(pos.legal_moves()).text
        else:
            best, _ = go(north, pos, north_limits)
        pos.push(best)
        assert len(pos.move_stack) <= 21
    return pos


def test_south_wins_against_every_north_line():
    """The whole game tree of the bot's South against every North move at
    every North turn: every line ends in a South win within 21 plies."""
    bot = ProofBot()
    lines = south_turns = 0

    def walk(pos: Position) -> None:
        nonlocal lines, south_turns
        outcome = pos.outcome()
        if outcome is not None:
            assert outcome.winner == 0 and len(pos.move_stack) <= 21, pos.text()
            lines += 1
            return
        if pos.turn == 0:
            found = bot.proof_move(pos, Limits(depth=1), threading.Event())
            assert found is not None and found[1] <= 21 - len(pos.move_stack), pos.text()
            south_turns += 1
            walk(pos.play(found[0]))
            return
        for move in pos.legal_moves():
            walk(pos.play(move))

    walk(Position("kujifunza"))
    assert lines > 100 and south_turns > lines  # hundreds of North lines, all lost


@pytest.mark.parametrize("limits", [Limits(depth=1), Limits(depth=4), Limits(nodes=3000),
                                    Limits(nodes=30_000)],
                         ids=["depth1", "depth4", "nodes3000", "nodes30000"])
def test_south_wins_every_game_against_the_engine_as_north(south, limits):
    north = find_bot("alphabeta")()
    north.set_option("Hash", "4")
    pos = play_out(south, north, limits)
    assert pos.outcome().winner == 0


@pytest.mark.parametrize("seed", range(8))
def test_south_wins_every_game_against_random_north_moves(south, seed):
    pos = play_out(south, None, Limits(), random.Random(seed))
    assert pos.outcome().winner == 0


def test_the_same_game_gets_the_same_moves_from_a_fresh_bot(south):
    rng = random.Random(3)
    first = play_out(south, None, Limits(), rng)
    again = play_out(ProofBot(), None, Limits(), random.Random(3))
    assert [m.text for m in first.move_stack] == [m.text for m in again.move_stack]


def plain_search(pos: Position, limits: Limits) -> tuple[str, list[Info]]:
    bot = find_bot("alphabeta")()
    bot.set_option("Hash", "4")
    return go(bot, pos, limits)


def same_as_search(pos: Position, bot: ProofBot | None = None) -> None:
    if bot is None:
        bot = ProofBot()
    bot.set_option("Hash", "4")
    limits = Limits(depth=4)
    best, infos = go(bot, pos, limits)
    want, want_infos = plain_search(pos, limits)
    assert best == want
    assert [(i.depth, i.nodes, i.score_cp, i.pv) for i in infos] == [
        (i.depth, i.nodes, i.score_cp, i.pv) for i in want_infos]


def test_as_north_it_is_the_search():
    pos = Position("kujifunza")
    pos.push("A3>")
    same_as_search(pos)


@pytest.mark.parametrize("variant", ["oware", "kalah", "bao"])
def test_in_other_variants_it_is_the_search(variant):
    same_as_search(Position(variant))


def off_the_proof() -> Position:
    """South to move, four plies into a game whose South did not play the
    proof (the first legal move each ply)."""
    pos = Position("kujifunza")
    for _ in range(4):
        pos.push(pos.legal_moves()[0])
    assert pos.turn == 0 and pos.text() not in BOOK and not pos.is_over()
    return pos


def test_off_the_proof_without_a_proof_in_budget_it_is_the_search_and_remembers():
    """South to move after a start that is not the proof's, with too few
    proof nodes to find anything: the search plays, and the position is
    not proved again."""
    pos = off_the_proof()
    bot = ProofBot()
    bot.set_option("ProofNodes", "50")
    same_as_search(pos, bot)
    assert bot.proven == {pos.text(): None}


def test_a_stopped_go_off_the_book_plays_the_search_at_once():
    pos = off_the_proof()
    stop = threading.Event()
    stop.set()
    infos: list[Info] = []
    bot = ProofBot()
    result = bot.go(pos, Limits(movetime=1000), infos.append, stop)
    assert result.best in [m.text for m in pos.legal_moves()]
    assert all(i.score_mate is None for i in infos)  # no proof was claimed
    assert pos.text() not in bot.proven  # nor given up: the next go tries again


def test_a_proof_cut_by_the_clock_leaves_the_search_the_rest_and_is_tried_again():
    pos = off_the_proof()  # no win proven there within millions of nodes
    bot = ProofBot()
    bot.set_option("Hash", "4")
    infos: list[Info] = []
    result = bot.go(pos, Limits(movetime=60), infos.append, threading.Event())
    assert result.best in [m.text for m in pos.legal_moves()]
    assert infos and all(i.score_mate is None for i in infos)  # the search's reports
    assert pos.text() not in bot.proven


def test_the_finder_gives_up_when_asked_and_claims_nothing():
    finder = WinFinder(Position("kujifunza").variant, 4)
    with pytest.raises(SolveInterrupted):
        finder.find(Position("kujifunza"), 30, poll=lambda: True)
    with pytest.raises(SolveInterrupted):
        finder.find(Position("kujifunza"), 30, node_limit=1000)


def test_over_the_protocol_it_answers_the_proof_move():
    session = ServerSession(ProofBot())
    session.send("setoption name UCI_Variant value kujifunza", "position startpos",
                 "go movetime 200")
    assert session.wait_for("bestmove", timeout=10) == "bestmove A3>"
    session.send("position startpos moves A3>", "go depth 2")
    best = session.wait_for("bestmove", timeout=10).split()[1]
    session.close()
    pos = Position("kujifunza")
    pos.push("A3>")
    assert best in [m.text for m in pos.legal_moves()]


def test_time_spent_on_a_proof_comes_off_the_search_that_follows():
    from bingwa.bots.proof import less_time

    limits = Limits(movetime=500, p1time=3000, p2time=4000, move_overhead=10)
    assert less_time(limits, 0, 0.2) == Limits(movetime=300, p1time=2800, p2time=4000,
                                               move_overhead=10)
    assert less_time(limits, 1, 0.2).p2time == 3800
    assert less_time(limits, 0, 0.6).movetime == 1
    assert less_time(Limits(depth=3), 0, 5.0) == Limits(depth=3)
