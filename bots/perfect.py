"""The ``perfect`` bot: Oware from the endgame databases.

A database value is the game started at the board with no history, so a
move's value is known exactly only when the move ends the game or
captures into an entry proven exact (the capture leaves nothing that can
repeat: docs/databases.md). Within the databases' range, where every
legal move's value is known so, the bot plays the best (among equals a
capture first). Within the counts the build solved over every line
(``--exact-seeds``) it plays the best move by the game's own history
since the last capture (``oware_exact_player.ExactPlayer``: a move that repeats
is worth the repetition, any other the exhaustive solver's value along
that path), so it keeps every value there against any play. Opening that
search for a count costs up to about a second once a process (8 seeds);
on a clock a move opens it only within an eighth of the time left
(``may_open``), else the ranks or the search play that move. Elsewhere,
where the databases have their ranks it keeps the
position's proven lower bound (``tablebase.keeping_moves``: moves that
keep it and come nearer to it, which reach it against any play without a
repetition, if the history since the last capture allows, as it does
when the bot kept the bound since): where the entry is proven exact it
plays the best of them, where it has proven bounds only the search picks
among them. Elsewhere it is the
alpha-beta search reading the databases right after every capture, as
above their range. Other variants: the alpha-beta search.

``TablebasePath`` empty means the default folder (tablebase.default_dir).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.oware_exact import compiled_search
from bingwa.engine.oware_exact_player import ExactPlayer, NodeLimit
from bingwa.engine.tablebase import MoveValue

from .alphabeta import AlphaBetaBot
from .base import Emit


class PerfectBot(AlphaBetaBot):
    name = "perfect"
    summary = "perfect Oware endgames from the databases, the search with them above"

    #: the exhaustive solver's budget for one value where no clock bounds the
    #: move (past it: the ranks, or the search)
    exact_nodes = 20_000_000
    #: nodes a second foreseen for the exhaustive search on a clock (the
    #: compiled one does about 0.6 M; the pure-Python one about 0.1 M)
    exact_nps = (400_000, 50_000)

    def exact_player(self, tb: object) -> ExactPlayer:
        """The player of the counts ``tb`` solved over every line, kept
        while the same databases are loaded (its solvers are costly to open)."""
        player = getattr(self, "_exact", None)
        if player is None or player.tablebase is not tb:
            player = self._exact = ExactPlayer(tb, self.exact_nodes)
        return player

    def exact_budget(self, limits: Limits, side: int, compiled: bool) -> int:
        """The nodes one exact value may take this move: ``exact_nodes``
        without a clock (``stop`` ends it), else what the search does in
        half a ``movetime`` or a twentieth of the time left."""
        if limits.movetime is not None:
            ms: float | None = limits.movetime / 2
        else:
            left, _ = limits.clock(side)
            ms = None if left is None else max(left, 0) / 20
        if ms is None or limits.infinite or limits.ponder:
            return self.exact_nodes
        rate = self.exact_nps[0 if compiled else 1]
        return max(1_000, min(self.exact_nodes, int(ms * rate / 1000)))

    @staticmethod
    def may_open(limits: Limits, side: int, cost_ms: float) -> bool:
        """Whether this move may open the exact search of a count, foreseen
        to cost ``cost_ms`` (once a process: ExactPlayer.opening_ms): on a
        clock, within an eighth of the time left (half a ``movetime``), so
        that it never costs the game on time; else the ranks or the search
        play this move, and a later one with more time opens it."""
        if cost_ms <= 0 or limits.infinite or limits.ponder:
            return True
        if limits.movetime is not None:
            return cost_ms <= limits.movetime / 2
        left, _ = limits.clock(side)
        return left is None or cost_ms <= max(left, 0) / 8

    @staticmethod
    def keeping_the_claim(tb: object, position: Position, wanted: list[MoveValue],
                          best: MoveValue) -> MoveValue:
        """``best`` (the best final margin of the real game), unless a
        capture that ends the game by "more than 24" is worth more in the
        databases' game, which plays on past it (tablebase.ends_by_majority):
        then the best such capture. So the bot keeps what the databases
        claim (the final margin, or the result where a majority ends the
        game first) as well as the best margin the real game allows: from
        1,0,0,0,2,0/1,1,0,0,1,3 18 23 n, North's F wins 25-18 at once and
        is worth +12 to the databases, B ends by a repetition at +10; +12
        is what they claim, and only F keeps it."""
        from bingwa.engine import tablebase

        allowed = {v.move for v in wanted}
        majority = [v for v in tablebase.move_values(tb, position, plays_on=True)
                    if v.move in allowed and v.capture and not v.ends
                    and tablebase.ends_by_majority(position.play(v.move).outcome())]
        if not majority:
            return best
        real = {v.move: v for v in wanted}
        top = max(majority, key=lambda v: (v.value, real[v.move].value))
        return real[top.move] if top.value > best.value else best

    @staticmethod
    def _stop_on(stop: threading.Event, done: threading.Event, exact: ExactPlayer) -> None:
        """Stop ``exact``'s search when ``stop`` is set (``stop`` on the
        protocol), until ``done`` (which ends the wait at once: a move
        costs no more than its search)."""
        while not done.wait(0.01):
            if stop.is_set():
                exact.stop()

    def tablebase_dir(self) -> Path | None:
        from bingwa.engine.tablebase import default_dir

        return super().tablebase_dir() or default_dir()

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        from bingwa.engine import tablebase

        tb = self.tablebase(position, emit)
        if tb is None or position.is_over() or not tablebase.in_range(tb, position.state):
            return super().go(position, limits, emit, stop)
        values = tablebase.move_values(tb, position)
        wanted = [v for v in values if v.move in limits.searchmoves] or values
        known = all(tablebase.exact_move_value(tb, position, v) for v in wanted)
        exact = self.exact_player(tb)
        if (not known and exact.covers(position.state)
                and self.may_open(limits, position.turn,
                                  exact.opening_ms(sum(position.state[0])))):
            exact.node_limit = self.exact_budget(limits, position.turn,
                                                 compiled_search() is not None)
            done = threading.Event()
            watcher = threading.Thread(target=self._stop_on, args=(stop, done, exact),
                                       daemon=True)
            watcher.start()
            try:
                allowed = {v.move for v in wanted}
                wanted = exact.move_values(position, best_only=True, allowed=allowed)
                known = True
            except NodeLimit:
                pass  # the ranks, or the search, below
            finally:
                done.set()
                watcher.join()
        if known:
            best = self.keeping_the_claim(tb, position, wanted, tablebase.best_move(wanted))
        else:
            allowed = {v.move for v in wanted}
            keeping = [k for k in tablebase.keeping_moves(tb, position) if k.move in allowed]
            if not keeping:
                return super().go(position, limits, emit, stop)
            if tb.probe(position.state)[0] != "exact":
                # proven bounds only: the search picks among the moves that hold the lower one
                return super().go(position, replace(limits, searchmoves=[k.move for k in keeping]),
                                  emit, stop)
            best = keeping[0]
        info = Info(depth=1, seldepth=1, score_cp=100 * best.value, nodes=len(wanted),
                    time=0, tbhits=len(wanted), pv=[best.move])
        emit(info)
        if limits.infinite or limits.ponder:
            stop.wait()  # no bestmove before ``stop`` (the protocol's rule)
        return SearchResult(best.move, None, info)
