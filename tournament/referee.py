"""The referee: plays one game between two Players and decides it.

The referee keeps the game with bingwa's rules and believes no engine: the
side to move is read from the position after every move (Kalah's extra
turns and Bao's turns give one engine several ``go`` in a row), every
``bestmove`` is parsed and checked against the legal moves, and the end of
the game is the rules' own. A game ends

- by the rules: the outcome's termination and final scores;
- on time: an engine overran its clock or its fixed time by more than the
  margin (or gave no ``bestmove`` before that deadline);
- by a crash, a stall (no ``readyok``) or an illegal or unreadable move;
  the failing engine loses, and the lines that led to it are kept. Every
  failure is one of the protocol's EngineError types (its ``termination``
  says how the game ends): the client's, describing themselves with the
  command and the last lines, or the referee's own verdict on a reply,
  with the commands that asked for it;
- by adjudication: one side led by at least ``margin`` seeds (captured, or
  in store) for ``plies`` consecutive plies and is declared the winner
  (the board margin is a rules fact: no engine's claimed score is used);
- at the move cap: a draw, as fastchess and cutechess score it.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from bingwa.engine import BingwaError, Position, Termination
from bingwa.protocol.errors import EngineError, EngineMoveError, EngineTimeout

from .model import PlannedGame, PlayedGame, PlayedMove
from .openings import opening_start
from .players import Player
from .timecontrol import Clock, TimeControl, limits_for

log = logging.getLogger("bingwa.tournament")

SIDES = ("South", "North")


@dataclass(frozen=True)
class Adjudication:
    """``margin`` seeds held for ``plies`` consecutive plies wins; the
    game is a draw after ``move_cap`` plies (both optional)."""

    margin: int | None = None
    plies: int = 10
    move_cap: int | None = None

    def to_json(self) -> dict[str, int | None]:
        return {"margin": self.margin, "plies": self.plies, "move_cap": self.move_cap}


@dataclass(frozen=True)
class Rules:
    """How the referee judges: time margin, the limit on a ``go`` that has
    no clock (a hung engine under fixed nodes or depth), adjudication, and
    how long an engine may take to answer ``isready`` and ``uci``."""

    margin_ms: int = 100
    timeout_ms: int = 60_000
    adjudication: Adjudication = Adjudication()
    ready_timeout_ms: int = 5_000  # isready -> readyok, else a stall
    start_timeout_ms: int = 10_000  # uci -> uciok
    ping_moves: bool = True  # isready before every go (a missing readyok is a stall)


class Aborted(Exception):
    """The run is stopping: the game in progress is dropped, not recorded."""


def _result_for_winner(winner: int | None) -> str:
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]


def play_game(
    planned: PlannedGame,
    opening: list[str],
    players: tuple[Player, Player],
    tcs: tuple[TimeControl, TimeControl],
    rules: Rules,
    stop: threading.Event | None = None,
) -> PlayedGame:
    """Play ``planned`` from ``opening`` between players[0] (South) and
    players[1] (North). Raises Aborted when ``stop`` is set mid-game."""
    started = time.time()
    position, book = opening_start(planned.variant, opening)
    start_text = position.text()
    moves: list[PlayedMove] = []
    for text in book:
        mover = position.turn
        move = position.push(text)  # openings were checked when the run was made
        moves.append(PlayedMove(move.text, mover, book=True))
    clocks = (Clock(tcs[0]), Clock(tcs[1]))
    adjudication = rules.adjudication
    streak_side: int | None = None
    streak = 0

    def finish(result: str, termination: Termination, detail: str = "", loser: str | None = None) -> PlayedGame:
        outcome = position.outcome()
        scores = outcome.scores if outcome else position.scores()
        return PlayedGame(planned, result, termination.value, scores, moves, start_text,
                          detail, loser, started, time.time())

    for side in (0, 1):
        try:
            players[side].new_game(planned.variant)
        except EngineError as failure:
            return _forfeit(finish, planned, players, side, failure, failure.describe(), position)

    while True:
        outcome = position.outcome()
        if outcome is not None:
            return finish(outcome.result(), outcome.termination)
        if adjudication.move_cap is not None and len(moves) >= adjudication.move_cap:
            return finish("1/2-1/2", Termination.MOVE_CAP, f"move cap of {adjudication.move_cap} plies")
        if stop is not None and stop.is_set():
            raise Aborted
        side = position.turn
        player = players[side]
        deadline = clocks[side].deadline_ms(rules.margin_ms) or rules.timeout_ms
        limits = limits_for(side, clocks)
        try:
            reply = player.go(position, limits, deadline)
        except EngineError as failure:
            return _forfeit(finish, planned, players, side, failure, failure.describe(), position)
        # a reply stamped a hair before its go was (threads, clocks) took no time, not less
        elapsed_ms = max(0, reply.elapsed_ms)
        if not clocks[side].spend(elapsed_ms, rules.margin_ms):
            overrun = EngineTimeout(f"{elapsed_ms} ms used, the clock allowed "
                                    f"{deadline - rules.margin_ms} ms", transcript=reply.transcript)
            return _forfeit(finish, planned, players, side, overrun, _verdict(overrun), position)
        try:  # the engine's word is checked against the rules, whatever the client said
            if reply.move is None:
                raise BingwaError("no move (bestmove (none)) but the game is not over")
            move = position.parse_move(reply.move)
        except BingwaError as exc:
            illegal = EngineMoveError(f"illegal move {reply.move!r}: {exc}", transcript=reply.transcript)
            return _forfeit(finish, planned, players, side, illegal, _verdict(illegal), position)
        info = reply.info
        moves.append(PlayedMove(
            move.text, side, elapsed_ms,
            info.score_cp if info else None, info.score_mate if info else None,
            info.depth if info else None, info.nodes if info else None,
        ))
        position.push(move)
        if adjudication.margin is not None and not position.is_over():
            south, north = position.scores()
            leader = 0 if south - north >= adjudication.margin else 1 if north - south >= adjudication.margin else None
            streak = streak + 1 if leader is not None and leader == streak_side else (1 if leader is not None else 0)
            streak_side = leader
            if leader is not None and streak >= adjudication.plies:
                return finish(_result_for_winner(leader), Termination.ADJUDICATION,
                              f"{SIDES[leader]} led by {adjudication.margin}+ seeds for {streak} plies")


def _verdict(failure: EngineError) -> str:
    """A failure the referee found in a reply: its message, then the
    commands that asked for the reply, as they were sent."""
    return "\n".join([str(failure), *failure.transcript])


def _forfeit(finish, planned: PlannedGame, players, side: int, failure: EngineError, text: str,
             position: Position) -> PlayedGame:
    """``failure`` loses the game for ``side``; ``text`` (its message and
    the lines that led to it) is the game's detail and goes to the log."""
    name = players[side].name
    term = failure.termination
    detail = f"{name} ({SIDES[side].lower()}): {term.value}: {text}"
    log.warning("game %d %s: %s\n  position: %s", planned.index, planned.variant, detail, position.text())
    return finish(_result_for_winner(1 - side), term, detail, loser=name)
