"""The ``alphabeta`` bot: bingwa's search engine (engine/searcher.py).

Options:

- ``Hash``: transposition table size in MiB; ``Clear Hash`` empties it.
- ``Threads``: search threads sharing the table (Lazy SMP), 1 up to the
  machine's cores; 1 is deterministic. A node limit (``go nodes``, a
  ``Skill Level`` below 20) searches on one thread whatever it says.
- ``MultiPV``: how many best moves to report, each with its score and line
  (every root move when set to the number of legal moves: hints in a GUI).
- ``Skill Level``: 0..20. Below 20 it caps depth and nodes a move (casual
  play); 20 is full strength.
- ``Depth``: a depth cap of its own (0: none), on top of the limits of ``go``.
- ``TablebasePath``: a folder of Oware endgame databases (``bingwa solve
  build``) probed at every node within their range (empty: none).
- ``Kalah Endgames``: MiB for the Kalah solver's databases (every
  position of up to so many seeds in the pits, exact: engine/solvers.py;
  default 16: 0..14 seeds), built in memory in order on the clock, half
  of each move once a game comes within reach of them, a level cut short
  going on at the next move, on a game clock only what fits in a quarter
  of the time left (about 2 s in all for 16 MiB on this 2-core machine;
  at once with no clock) and probed at
  every node; a move first asks the solver for the root's exact value (a
  tenth of its time) and then plays or searches only moves that keep it;
  0: none.
- ``EvalFile``: the networks added to the evaluations of Oware and
  Kalah(6,4) (engine/net.py): ``default`` those shipped in the package,
  ``none`` the hand-made evaluations alone, or a network file's path
  (benchmarks/train.py), then played in both. The process has one a
  variant: it applies to every search it runs.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.net import DEFAULT
from bingwa.engine.searcher import DEFAULT_HASH_MB, Searcher

from .base import Bot, BotOption, BotOptionError, Emit

MAX_SKILL = 20
# Kalah Endgames' default: 0..14 seeds in 12 MiB, the root solves' table in
# 4 (docs/solving.md, "Kalah in play": its SPRT at 10+0.1)
KALAH_ENDGAMES_MB = 16
# Skill level -> (depth cap, node cap) below MAX_SKILL: level 0 looks one
# ply ahead within 100 nodes, level 19 ten plies within 52 M nodes.
SKILL_CAPS = [(1 + level // 2, 100 * 2**level) for level in range(MAX_SKILL)]


def cores() -> int:
    """The cores this process may run on (the ``Threads`` maximum)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def skill_caps(level: int) -> tuple[int | None, int | None]:
    """(depth cap, node cap) of a skill level; None for no cap."""
    if level >= MAX_SKILL:
        return None, None
    depth, nodes = SKILL_CAPS[max(0, level)]
    return depth, nodes


class AlphaBetaBot(Bot):
    name = "alphabeta"
    summary = "alpha-beta search with a transposition table (the bingwa engine)"

    def options(self) -> list[BotOption]:
        return [
            BotOption("Hash", "spin", DEFAULT_HASH_MB, 1, 4096, help="table size in MiB"),
            BotOption("Clear Hash", "button", help="empty the transposition table"),
            BotOption("Threads", "spin", 1, 1, cores(),
                      help="search threads sharing the table (1: deterministic)"),
            BotOption("MultiPV", "spin", 1, 1, 256, help="best moves reported"),
            BotOption("Skill Level", "spin", MAX_SKILL, 0, MAX_SKILL,
                      help="below 20: depth and node caps for casual play"),
            BotOption("Depth", "spin", 0, 0, 200, help="depth cap (0: none)"),
            BotOption("TablebasePath", "string", "",
                      help="Oware endgame database folder (empty: none)"),
            BotOption("Kalah Endgames", "spin", KALAH_ENDGAMES_MB, 0, 4096,
                      help="MiB of Kalah endgame databases built in memory (0: none)"),
            BotOption("EvalFile", "string", DEFAULT,
                      help="the networks of Oware and Kalah(6,4): default, none, or a file"),
        ]

    def __init__(self) -> None:
        super().__init__()
        self.searcher = Searcher(self.option("Hash"))
        self._tablebases: dict[int, Any] = {}  # grand-slam rule -> databases (None: none)
        self._kalah: dict[str, Any] = {}  # Kalah board spec -> its solver's databases

    def tablebase_dir(self) -> Path | None:
        """The database folder in use (None: none)."""
        text = self.option("TablebasePath").strip()
        return Path(text).expanduser() if text and text != "<empty>" else None

    def tablebase(self, position: Position, emit: Emit) -> Any:
        """The databases of ``position``'s rules (opened once), or None.
        A folder that cannot be read is reported and the search goes on
        without it."""
        from bingwa.engine.tablebase import TablebaseError, open_tablebase

        folder = self.tablebase_dir()
        variant = position.variant
        if folder is None or variant.name != "oware":
            return None
        rule = variant.grandslam
        if rule not in self._tablebases:
            try:
                self._tablebases[rule] = open_tablebase(folder, rule)
            except TablebaseError as exc:
                emit(Info(string=f"error: {exc}; searching without databases"))
                self._tablebases[rule] = None
        return self._tablebases[rule]

    def kalah_endgames(self, position: Position) -> Any:
        """The Kalah solver for ``position``'s board within the ``Kalah
        Endgames`` budget (built once), or None: databases in three
        quarters of it, the table of its root solves in the rest."""
        from bingwa.engine.solvers import endgame_solver

        budget = self.option("Kalah Endgames")
        variant = position.variant
        if not budget or variant.name != "kalah" or int(variant.options["pits"]) > 6:
            return None
        spec = variant.spec()
        if spec not in self._kalah:
            self._kalah = {spec: endgame_solver(variant, budget)}
        return self._kalah[spec]

    def set_option(self, name: str, value: str | None) -> None:
        previous = self.values.get("evalfile", DEFAULT)
        super().set_option(name, value)
        key = name.strip().lower()
        if key == "hash":
            self.searcher.resize(self.option("Hash"))
        elif key == "threads":
            self.searcher.set_threads(self.option("Threads"))
        elif key == "clear hash":
            self.searcher.new_game()
        elif key == "kalah endgames":
            self._kalah = {}
        elif key == "tablebasepath":
            self._tablebases = {}
            self._check_tablebase_dir()
        elif key == "evalfile":
            self._set_eval_file(previous)

    def _set_eval_file(self, previous: str) -> None:
        from bingwa.engine import find_variant
        from bingwa.engine.net import NetFileError, eval_file_nets
        from bingwa.engine.searcher import search_kernel

        try:
            # every network read before any kernel's changes
            nets = eval_file_nets(self.option("EvalFile"))
            for name, net in nets.items():
                search_kernel(find_variant(name)).set_net(net)  # the compiled one: the search's
        except (NetFileError, ValueError) as exc:
            # refused before the kernel's network changed: the one before stays
            self.values["evalfile"] = previous
            raise BotOptionError(str(exc)) from None

    def _check_tablebase_dir(self) -> None:
        from bingwa.engine.tablebase import TablebaseError, check_folder

        folder = self.tablebase_dir()
        if folder is not None:
            try:
                check_folder(folder)
            except TablebaseError as exc:
                self.values["tablebasepath"] = ""
                raise BotOptionError(str(exc)) from None

    def new_game(self) -> None:
        self.searcher.new_game()

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        depth_cap, node_cap = skill_caps(self.option("Skill Level"))
        if self.option("Depth"):
            depth_cap = min(depth_cap or self.option("Depth"), self.option("Depth"))
        self.searcher.set_tablebase(self.tablebase(position, emit))
        self.searcher.set_kalah_endgames(self.kalah_endgames(position))
        return self.searcher.search(
            position,
            limits,
            emit,
            stop,
            multipv=self.option("MultiPV"),
            max_depth=depth_cap,
            max_nodes=node_cap,
        )
