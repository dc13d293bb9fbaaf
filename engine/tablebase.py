"""Oware endgame databases: where they live, their files, building them
and reading them (docs/databases.md). The compiled work is in _owaredb.pyx.

    >>> from bingwa.engine.tablebase import build, open_tablebase
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> build(folder, 2)
    [0, 1, 2]
    >>> tb = open_tablebase(folder)
    >>> tb.max_seeds
    2

A file per seed count, ``oware-<rule>-<NN>.bwdb``: a 64-byte header then
one byte per board (``_owaredb`` explains the byte and the index).

(Past 600 lines on purpose: the files, the build and the reading share
the header, the flags and the entry kinds, and a newcomer looks for all
of them here; the exhaustive stage of the small counts is oware_exact.py.)
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .errors import BingwaError, ExtensionMissingError
from .game import Termination
from .kernel import compiled_module
from .oware import GRAND_SLAM_RULES
from .oware_exact import RANK_NONE, ExactMismatch, apply, guess_from, solve_count

MAGIC = b"BWOWDB\x00\x00"
BOUNDS_MAGIC = b"BWOWBD\x00\x00"  # the proven bounds beside each database (--prove)
RANKS_MAGIC = b"BWOWRK\x00\x00"  # the ranks of the proven bounds (--prove; Playing the claims)
FORMAT_VERSION = 1
# Bumped whenever the Oware rules the files encode change (oware.py).
RULES_VERSION = 1
# magic, format, rules, grand slam, seeds, count, crc32, flags
HEADER = struct.Struct("<8sIIIIQQI")
PROVEN = 1  # flags: built with --prove (an entry without CYCLE_FLAG is proven exact)
SEARCHED = 2  # flags: every entry exact, solved over every line (oware_exact.py)
EXACT_SHIFT = 8  # flags >> EXACT_SHIFT: the build's --exact-seeds plus one (0: none)
DEFAULT_EXACT_SEEDS = 8  # what `bingwa solve build` solves over every line in a new folder
HEADER_BYTES = 64
MAX_SEEDS = 48
ENV_DIR = "BINGWA_DATABASES"
BLOCK = 1 << 20  # ranks per work item of a sweep (threads take blocks in turn)
DENSE = 4  # a sweep changing count // DENSE bounds or more: the next one visits every board

# (seeds, sweep, boards changed) after each pass; (seeds, 0, None) when the exhaustive
# search of a count begins (--exact-seeds), then (seeds, 0, boards solved so far) as it
# goes; (seeds, None, None) when a count is done
Progress = Callable[[int, int | None, int | None], None]


class TablebaseError(BingwaError, ValueError):
    """A database folder or file that cannot be used: missing, corrupt,
    built for other rules, or a request out of its range."""


def _db() -> Any:
    module = compiled_module("owaredb")
    if module is None:
        raise ExtensionMissingError(
            "the endgame databases are compiled code (bingwa.engine._owaredb), not built"
        )
    return module


def default_dir() -> Path:
    """$BINGWA_DATABASES, else $XDG_DATA_HOME/bingwa/databases, else
    ~/.local/share/bingwa/databases."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser() / "bingwa" / "databases"


def rule_index(grandslam: str | int) -> int:
    if isinstance(grandslam, int):
        return grandslam
    try:
        return GRAND_SLAM_RULES.index(grandslam)
    except ValueError:
        raise TablebaseError(
            f"unknown grand-slam rule {grandslam!r} (known: {', '.join(GRAND_SLAM_RULES)})"
        ) from None


def file_name(seeds: int, grandslam: int = 0) -> str:
    return f"oware-{GRAND_SLAM_RULES[grandslam]}-{seeds:02d}.bwdb"


def ranks_name(seeds: int, grandslam: int = 0) -> str:
    """The ranks of the proven bounds (4 bytes a board: rank_lo, rank_hi as
    uint16 in the machine's order), written by a --prove build."""
    return f"oware-{GRAND_SLAM_RULES[grandslam]}-{seeds:02d}.bwrk"


def bounds_name(seeds: int, grandslam: int = 0) -> str:
    """The file of the proven bounds (lo, hi: 2 bytes a board) that the
    builder of the larger counts reads; probing never needs it."""
    return f"oware-{GRAND_SLAM_RULES[grandslam]}-{seeds:02d}.bwbd"


def positions(seeds: int) -> int:
    return int(_db().positions(seeds))


# -- files ---------------------------------------------------------------------------
def _header(seeds: int, grandslam: int, data: bytes | bytearray | memoryview,
            magic: bytes, flags: int) -> bytes:
    head = HEADER.pack(magic, FORMAT_VERSION, RULES_VERSION, grandslam, seeds, len(data),
                       zlib.crc32(data), flags)
    return head.ljust(HEADER_BYTES, b"\x00")


def write_level(folder: Path, seeds: int, grandslam: int, data: bytearray,
                bounds: bool = False, proven: bool = False, ranks: bool = False,
                exact_seeds: int = -1) -> Path:
    """Write one database (or with ``bounds`` its proven bounds, with
    ``ranks`` their ranks) atomically: a temporary name, fsync, rename (a
    half-written file never has the final name). ``exact_seeds``: the
    build's, recorded in the header (the count is SEARCHED when within)."""
    name, magic = ((ranks_name, RANKS_MAGIC) if ranks else (bounds_name, BOUNDS_MAGIC) if bounds
                   else (file_name, MAGIC))
    path = folder / name(seeds, grandslam)
    temp = path.with_suffix(".part")
    with open(temp, "wb") as out:
        flags = (PROVEN if proven else 0) | (SEARCHED if seeds <= exact_seeds else 0)
        out.write(_header(seeds, grandslam, data, magic, flags | (exact_seeds + 1) << EXACT_SHIFT))
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)
    return path


def write_values(folder: str | os.PathLike[str], seeds: int, value_of: Callable[[tuple[int, ...]], int],
                 grandslam: str | int = 0) -> Path:
    """Write the database of ``seeds`` seeds into ``folder`` holding
    ``value_of(board)`` for every board (South to move, 12 counts), none
    marked cycle-dependent: a file of values found another way, such as
    the exhaustive solver's, that a larger count then builds over
    (benchmarks/databases.py)."""
    db = _db()
    data = bytearray(db.byte_of(value_of(db.unrank(i, seeds))) for i in range(positions(seeds)))
    return write_level(make_folder(folder), seeds, rule_index(grandslam), data)


@dataclass(frozen=True)
class Level:
    """One file's data, memory-mapped read-only, and whether it was built
    with --prove."""

    data: memoryview
    proven: bool
    #: every entry exact, solved over every line (oware_exact.py)
    searched: bool = False
    #: the --exact-seeds of the build that wrote it (-1: none)
    exact_seeds: int = -1


def read_level(path: Path, seeds: int, grandslam: int, verify: bool = True,
               bounds: bool = False, ranks: bool = False) -> Level:
    """The values of one file (or with ``bounds`` the proven bounds, with
    ``ranks`` their ranks), memory-mapped read-only, after checking its
    header (and checksum when ``verify``)."""
    width = 4 if ranks else 2 if bounds else 1
    kind = "ranks file" if ranks else _kind(bounds)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < HEADER_BYTES:
                raise TablebaseError(f"{path}: not a bingwa {kind} (too short)")
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as exc:
        raise TablebaseError(f"{path}: {exc.strerror or exc}") from None
    magic, fmt, rules, rule, found_seeds, count, crc, flags = HEADER.unpack_from(mapped, 0)
    if magic != (RANKS_MAGIC if ranks else BOUNDS_MAGIC if bounds else MAGIC):
        raise TablebaseError(f"{path}: not a bingwa {kind}")
    if fmt != FORMAT_VERSION:
        raise TablebaseError(f"{path}: format version {fmt}, this bingwa reads {FORMAT_VERSION}; "
                             "rebuild it")
    if rules != RULES_VERSION:
        raise TablebaseError(
            f"{path}: built for Oware rules version {rules}, this bingwa plays {RULES_VERSION}; "
            "rebuild it"
        )
    if rule != grandslam or found_seeds != seeds:
        raise TablebaseError(
            f"{path}: holds grandslam={_rule_name(rule)} with {found_seeds} seeds, "
            f"expected grandslam={GRAND_SLAM_RULES[grandslam]} with {seeds}"
        )
    expected = width * positions(seeds)
    if count != expected or size != HEADER_BYTES + count:
        raise TablebaseError(f"{path}: truncated or padded ({size} bytes, expected "
                             f"{HEADER_BYTES + expected})")
    view = memoryview(mapped)[HEADER_BYTES:]
    if verify and zlib.crc32(view) != crc:
        raise TablebaseError(f"{path}: checksum mismatch (the file is corrupt); rebuild it")
    return Level(view, bool(flags & PROVEN), bool(flags & SEARCHED),
                 (flags >> EXACT_SHIFT & 0xFF) - 1)


def _kind(bounds: bool) -> str:
    return "bounds file" if bounds else "database"


def _rule_name(rule: int) -> str:
    return GRAND_SLAM_RULES[rule] if 0 <= rule < len(GRAND_SLAM_RULES) else str(rule)


def finished_levels(folder: Path, grandslam: int = 0, bounds: bool = False,
                    ranks: bool = False) -> int:
    """The largest n such that the files of 0..n all exist (-1: none);
    with ``bounds``, their proven bounds too (what a build resumes from),
    with ``ranks`` their ranks."""
    n = -1
    while n < MAX_SEEDS and (folder / file_name(n + 1, grandslam)).is_file() and (
            not bounds or (folder / bounds_name(n + 1, grandslam)).is_file()) and (
            not ranks or (folder / ranks_name(n + 1, grandslam)).is_file()):
        n += 1
    return n


def open_tablebase(folder: str | os.PathLike[str] | None = None, grandslam: str | int = 0,
                   max_seeds: int | None = None, verify: bool = True) -> Any:
    """The databases of ``folder`` (default_dir()) for ``grandslam``, every
    seed count from 0 up to the first missing one (or ``max_seeds``)."""
    rule = rule_index(grandslam)
    path = Path(folder).expanduser() if folder is not None else default_dir()
    if not path.is_dir():
        raise TablebaseError(f"{path}: no such database folder")
    top = finished_levels(path, rule)
    if max_seeds is not None:
        top = min(top, max_seeds)
    if top < 0:
        raise TablebaseError(
            f"{path}: no Oware databases for grandslam={GRAND_SLAM_RULES[rule]} "
            "(build them with `bingwa solve build oware`)"
        )
    levels = [read_level(path / file_name(n, rule), n, rule, verify) for n in range(top + 1)]
    proven = all(level.proven for level in levels)
    bounds = None
    if proven and finished_levels(path, rule, bounds=True) >= top:
        # the search cuts off where the proven bounds of an unproven entry decide
        bounds = [read_level(path / bounds_name(n, rule), n, rule, verify, bounds=True).data
                  for n in range(top + 1)]
    tb = _db().Tablebase(rule, [level.data for level in levels], bounds)
    tb.proven = proven
    # the counts 0..searched were solved over every line (ExactPlayer plays them)
    tb.searched = -1
    while proven and tb.searched < top and levels[tb.searched + 1].searched:
        tb.searched += 1
    if bounds is not None and finished_levels(path, rule, bounds=True, ranks=True) >= top:
        # the perfect bot plays the proven entries by them (rank_of)
        tb.ranks = [read_level(path / ranks_name(n, rule), n, rule, verify, ranks=True).data.cast("H")
                    for n in range(top + 1)]
    return tb


# -- building --------------------------------------------------------------------------
def build(folder: str | os.PathLike[str], max_seeds: int, grandslam: str | int = 0,
          jobs: int = 1, progress: Progress | None = None, prove: bool | None = None,
          exact_seeds: int | None = None) -> list[int]:
    """Build every missing database of 0..``max_seeds`` seeds into
    ``folder`` (created), each from the smaller ones; files already there
    are kept (an interrupted build resumes at the first missing count).
    With ``prove`` the files also hold the proven bounds, and an entry is
    marked exact only when they meet (docs/databases.md); None: as the
    files already in the folder were built (else not). The counts up to
    ``exact_seeds`` (a proving build only) are then solved over every line,
    repetitions included, and every entry of theirs is exact
    (oware_exact.py); None: as the folder was built (else none). Returns
    the seed counts available afterwards."""
    rule = rule_index(grandslam)
    if not 0 <= max_seeds <= MAX_SEEDS:
        raise TablebaseError(f"--max-seeds must be in 0..{MAX_SEEDS}, not {max_seeds}")
    if jobs < 1:
        raise TablebaseError(f"jobs must be at least 1, not {jobs}")
    path = make_folder(folder)
    db = _db()
    prove = build_mode(path, rule, prove)
    exact = exact_mode(path, rule, prove, exact_seeds)
    # a proving build needs each count's bounds and ranks too (older folders lack ranks)
    done = min(finished_levels(path, rule, bounds=prove, ranks=prove), max_seeds)
    levels = [read_level(path / file_name(n, rule), n, rule).data for n in range(done + 1)]
    proven = [read_level(path / bounds_name(n, rule), n, rule, bounds=True).data
              for n in range(done + 1)] if prove else None
    sweeps: list[Any] = []  # the guesses of the counts searched (sweep_guesses)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for seeds in range(len(levels), max_seeds + 1):
            smaller = db.Tablebase(rule, levels, proven)
            data, bounds, ranks = build_level(db, pool, seeds, rule, smaller, progress, prove)
            if seeds <= exact and bounds is not None and ranks is not None:
                searched = None
                if progress is not None:
                    progress(seeds, 0, None)  # sweep 0: every line searched
                    searched = partial(progress, seeds, 0)
                guesses = sweep_guesses(db, pool, seeds, rule, sweeps)
                try:
                    values = solve_count(levels, seeds, rule, guesses, jobs, searched)
                except MemoryError:
                    raise TablebaseError(
                        f"{seeds} seeds: out of memory in the search over every line; "
                        f"the databases of 0..{seeds - 1} seeds are kept (a smaller "
                        "--exact-seeds needs less)") from None
                try:
                    apply(seeds, values, data, bounds, ranks)
                except ExactMismatch as exc:
                    raise TablebaseError(str(exc)) from None
            if ranks is not None:
                write_level(path, seeds, rule, ranks, proven=True, ranks=True, exact_seeds=exact)
            if proven is not None and bounds is not None:
                # the bounds first: a database without them is rebuilt on resuming
                write_level(path, seeds, rule, bounds, bounds=True, proven=True,
                            exact_seeds=exact)
                proven.append(read_level(path / bounds_name(seeds, rule), seeds, rule,
                                         verify=False, bounds=True).data)
            write_level(path, seeds, rule, data, proven=prove, exact_seeds=exact)
            levels.append(read_level(path / file_name(seeds, rule), seeds, rule,
                                     verify=False).data)
            if progress is not None:
                progress(seeds, None, None)
    return list(range(len(levels)))


def sweep_guesses(db: Any, pool: ThreadPoolExecutor, seeds: int, rule: int,
                  sweeps: list[Any]) -> Any:
    """The value bytes of ``seeds`` seeds that a build without --prove
    stores, each count over the same build's smaller counts (``sweeps``
    holds them, extended here): the guesses that order the moves of the
    history-aware search of a count (oware_exact.solve_count). Guesses only,
    but they decide its time: on 300 random boards of 8 seeds, ordered by
    the proving build's own bytes (over the exact smaller counts) 10 of the
    first 59 ran past 300,000 nodes, ordered by these all 300 took 1.5 M
    nodes together (docs/databases.md, "Every line searched")."""
    while len(sweeps) <= seeds:
        data, _, _ = build_level(db, pool, len(sweeps), rule, db.Tablebase(rule, sweeps, None),
                                 None, False)
        sweeps.append(data)
    return sweeps[seeds]


_PLAIN: dict[int, list[Any]] = {}  # rule -> the sweeps-only value bytes of 0, 1, ...


def plain_guess(seeds: int, rule: int = 0) -> Callable[[Any], int]:
    """The guess that orders a history-aware search of ``seeds`` seeds
    outside a build (the certificate, the perfect bot): sweep_guesses,
    built once a process (0..8 seeds: about a second) and kept. The stored
    exact values would order it worse: on 300 random boards of 8 seeds,
    ordered by them the sample did not finish in 300 s, ordered by these
    it took 44 s (docs/databases.md, "Every line searched")."""
    return guess_from(plain_guess_data(seeds, rule))


def plain_guesses_made(rule: int = 0) -> int:
    """How many counts (0, 1, ...) of plain_guess this process has made."""
    return len(_PLAIN.get(rule, ()))


def plain_guess_data(seeds: int, rule: int = 0) -> Any:
    """The value bytes of plain_guess (sweep_guesses), one a board of
    ``seeds`` seeds, South to move."""
    sweeps = _PLAIN.setdefault(rule, [])
    if len(sweeps) <= seeds:
        with ThreadPoolExecutor(max_workers=1) as pool:
            sweep_guesses(_db(), pool, seeds, rule, sweeps)
    return sweeps[seeds]


def make_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder`` as a Path, created with its parents; TablebaseError (one
    line) when it cannot be."""
    path = Path(folder).expanduser()
    # a file in the way: say so, not mkdir's "File exists" or "Not a directory"
    for there in (path, *path.parents):
        if there.exists():
            if not there.is_dir():
                what = "it" if there == path else str(there)
                raise TablebaseError(f"{path}: cannot create the folder: {what} is a file, "
                                     "not a folder")
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TablebaseError(f"{path}: cannot create the folder ({exc.strerror or exc})") from None
    return path


def build_mode(folder: Path, grandslam: int, prove: bool | None) -> bool:
    """Whether a build into ``folder`` proves (``prove``; None: as the
    files there were built, else not); TablebaseError if the files there
    were built the other way."""
    first = folder / file_name(0, grandslam)
    if not first.is_file():
        return bool(prove)
    built = read_level(first, 0, grandslam).proven
    if prove is not None and prove != built:
        raise TablebaseError(
            f"{folder} holds databases built {'with' if built else 'without'} --prove; "
            "build the others in another folder"
        )
    return built


def exact_mode(folder: Path, grandslam: int, prove: bool, exact_seeds: int | None) -> int:
    """The counts a build into ``folder`` solves over every line: 0..the
    returned count (-1: none). ``exact_seeds``, None: as the files there
    were built (else none); TablebaseError where the files there were
    built with another, or for a build without --prove."""
    if exact_seeds is not None and exact_seeds > 0 and not prove:
        raise TablebaseError("--exact-seeds needs a proving build (not --no-prove)")
    first = folder / file_name(0, grandslam)
    if not first.is_file():
        return -1 if exact_seeds is None or not prove else exact_seeds
    built = read_level(first, 0, grandslam).exact_seeds
    if exact_seeds is not None and max(exact_seeds, -1) != built:
        had = f"--exact-seeds {built}" if built >= 0 else "no --exact-seeds"
        raise TablebaseError(f"{folder} holds databases built with {had}; "
                             "build the others in another folder")
    return built


def user_modes(folder: Path, grandslam: int, prove: bool | None,
               exact_seeds: int | None) -> tuple[bool, int]:
    """(prove, the last count searched over every line or -1) of what
    ``bingwa solve build`` builds into ``folder`` (made) given its
    ``--prove/--no-prove`` and ``--exact-seeds`` (None: not given): a new
    folder proves, with the counts up to DEFAULT_EXACT_SEEDS searched;
    one with files is built on as they were (TablebaseError where the
    options say otherwise)."""
    new = finished_levels(folder, grandslam) < 0
    if prove is None and new:
        prove = True  # what a user gets by default is what the search can trust
    prove = build_mode(folder, grandslam, prove)
    if exact_seeds is None and prove and new:
        exact_seeds = DEFAULT_EXACT_SEEDS
    return prove, exact_mode(folder, grandslam, prove, exact_seeds)


def build_level(db: Any, pool: ThreadPoolExecutor, seeds: int, rule: int, smaller: Any,
                progress: Progress | None,
                prove: bool) -> tuple[bytearray, bytearray | None, bytearray | None]:
    """The stored bytes of the ``seeds`` database and (``prove``) its
    proven bounds and their ranks: sweeps until no bound moves (then, with
    ``prove``, until no rank falls), the boards cut in blocks that the
    pool's threads take in turn."""
    builder = db.LevelBuilder(seeds, rule, smaller, prove)
    count = int(builder.count)
    blocks = [(start, min(count, start + BLOCK)) for start in range(0, count, BLOCK)]

    def passes(visit: Callable[..., int]) -> Iterator[int]:
        """Passes of ``visit`` (over start, stop, marking) until one
        changes nothing; yields each pass's changes. While a pass changes
        count // DENSE or more, the next visits every board (finding the
        parents would cost more than it saves); then each visits only the
        flagged ones, and their moves flag their parents. After a flagged
        pass changes nothing, a full one: with threads a race may have
        left a flag down (the fixed point is the same whatever the order)."""
        marking = checked = False
        while True:
            changed = sum(pool.map(visit, *zip(*blocks), [marking] * len(blocks)))
            yield changed
            if not changed and (checked or not marking):
                return
            if not changed:
                builder.flag_all()  # the check: every board, still marking
                checked = True
                continue
            checked = False
            if not marking and changed < count // DENSE:
                builder.flag_all()
                marking = True

    for sweep, changed in enumerate(passes(builder.sweep_range), 1):
        if progress is not None:
            progress(seeds, sweep, changed)
    ranks = None
    if prove:
        ranks = bytearray(b"\xff" * (4 * count))
        for _ in passes(partial(builder.rank_range, ranks)):
            pass
    out = bytearray(count)
    bounds = bytearray(2 * count) if prove else None
    list(pool.map(lambda b: builder.finish_range(out, bounds, *b), blocks))
    return out, bounds, ranks


# -- reading -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A database value: the best final margin of the seeds on the board
    for the side to move; ``cycle`` when it depends on how cycles end (in
    files built with --prove, ``proven``: when it is not proven)."""

    value: int
    cycle: bool
    proven: bool = False
    #: solved over every line, repetitions included (oware_exact.py)
    searched: bool = False

    @property
    def kind(self) -> str:
        """What the value is, in words (docs/databases.md)."""
        if self.searched:
            return "exact, every line searched (repetitions included)"
        if self.proven:
            return ("not proven: a cycle decides it; the proven bounds hold" if self.cycle
                    else "exact, proven")
        if self.cycle:
            return "an estimate by the repetition rule (cycle-dependent; built with --no-prove)"
        return "an estimate, settled but not proven (built with --no-prove)"


def board_of(state: Any) -> tuple[int, ...]:
    """The board of an Oware state seen by the side to move."""
    pits, _, turn = state
    return tuple(pits) if turn == 0 else tuple(pits[6:]) + tuple(pits[:6])


def seeds_on_board(state: Any) -> int:
    return sum(state[0])


def in_range(tablebase: Any, state: Any) -> bool:
    return seeds_on_board(state) <= tablebase.max_seeds


def entry(tablebase: Any, state: Any) -> Entry:
    """The database entry of ``state`` (TablebaseError out of range)."""
    if not in_range(tablebase, state):
        raise TablebaseError(
            f"{seeds_on_board(state)} seeds on the board: the databases hold up to "
            f"{tablebase.max_seeds}"
        )
    value, cycle = tablebase.entry(board_of(state))
    return Entry(int(value), bool(cycle), bool(tablebase.proven),
                 seeds_on_board(state) <= getattr(tablebase, "searched", -1))


def total_margin(tablebase: Any, state: Any) -> int:
    """The final margin of the whole game for the side to move: captured
    seeds so far plus the database value of the board."""
    _, scores, turn = state
    return scores[turn] - scores[1 - turn] + entry(tablebase, state).value


@dataclass(frozen=True)
class MoveValue:
    """A legal move and the final margin it leads to for the mover, with
    perfect play after it (``ends``: the game ends with the move, by the
    rules or by a repetition, and the value is that end's margin)."""

    move: str
    value: int
    capture: bool
    ends: bool


def move_values(tablebase: Any, position: Any, plays_on: bool = False) -> list[MoveValue]:
    """Every legal move of ``position`` (Oware, within the databases) with
    its value, as the search sees it: a move that ends the game (more than
    24 captured, an empty row, a repetition of a position of the game) is
    valued by that end; any other by the seeds it captures plus the
    databases' value of the position after it. With ``plays_on``, as the
    databases' game values it, which plays on past "more than 24": a
    capture that ends the game so is valued as any other capture (the
    perfect bot chooses so, and so keeps the databases' claims: see
    ``ends_by_majority``)."""
    if not in_range(tablebase, position.state):
        raise TablebaseError(
            f"{seeds_on_board(position.state)} seeds on the board: the databases hold up to "
            f"{tablebase.max_seeds}"
        )
    mover = position.turn
    out = []
    for move in position.legal_moves():
        child = position.play(move)
        scores = child.state[1]
        capture = scores != position.state[1]
        outcome = child.outcome()
        if outcome is not None and not (plays_on and ends_by_majority(outcome)):
            out.append(MoveValue(move.text, outcome.margin(mover), capture, True))
            continue
        value = scores[mover] - scores[1 - mover] - entry(tablebase, child.state).value
        out.append(MoveValue(move.text, value, capture, False))
    return out


def ends_by_majority(outcome: Any) -> bool:
    """Whether a game ended by "more than 24". The databases' game plays
    on past it, which keeps the result but not the margin, so a claim of
    theirs holds as "the claimed final margin, or the claimed result
    where a majority ends the game first" (playout.margin_reached). A
    player that keeps such a claim must value such a move as the
    databases do: by the real end's margin it could prefer a quiet move
    that ends by repetition below the claimed margin (25-18 by a majority
    against 29-19 by a repetition, where the claim is +12: benchmarks/claims.py
    found five such games of 10,000 boards of 7-8 seeds, 7 December 2026)."""
    return outcome is not None and outcome.termination == Termination.MAJORITY


def exact_move_value(tablebase: Any, position: Any, value: MoveValue) -> bool:
    """Whether ``value`` (of ``move_values``) is exact whatever the game's
    history: the move ends the game, or it captures into an entry proven
    exact (after a capture nothing can repeat what came before). A quiet
    move's value is the databases' for the game started after it with no
    history, which the game's own history can change."""
    if value.ends:
        return True
    if not value.capture or not tablebase.proven:
        return False
    return not entry(tablebase, position.play(value.move).state).cycle


def bounds_of(tablebase: Any, state: Any) -> tuple[int, int] | None:
    """The proven bounds (lo, hi) of the final margin for the side to move
    of the game started at ``state`` with no history; None out of range or
    in a build without --prove (its values are estimates)."""
    found = tablebase.probe(state)
    if found is None or found[0] == "estimate":
        return None
    return found[1], found[2]


def ranks_of(tablebase: Any, state: Any) -> tuple[int, int] | None:
    """The ranks (rank_lo, rank_hi) of the board's proven bounds (_owaredb,
    "Ranks"); None without ranks or where one is unknown."""
    if tablebase.ranks is None or not in_range(tablebase, state):
        return None
    seeds = seeds_on_board(state)
    index = 2 * int(_db().rank(board_of(state)))
    found = tablebase.ranks[seeds][index], tablebase.ranks[seeds][index + 1]
    return None if RANK_NONE in found else found


def progress_key(tablebase: Any, state: Any, side: int) -> tuple[int, int] | None:
    """What ``side`` is sure of at ``state`` and how near it is: (the proven
    lower bound of its final margin, minus the rank of that bound). Along a
    line where ``side`` keeps its bound (``keeping_move``) the key grows at
    every ply, so no position of that line comes twice."""
    bounds, ranks = bounds_of(tablebase, state), ranks_of(tablebase, state)
    if bounds is None or ranks is None:
        return None
    if state[2] == side:
        return bounds[0], -ranks[0]
    return -bounds[1], -ranks[1]


def keeping_move(tablebase: Any, position: Any) -> MoveValue | None:
    """The best of ``keeping_moves`` (None: there is none)."""
    moves = keeping_moves(tablebase, position)
    return moves[0] if moves else None


def keeping_moves(tablebase: Any, position: Any) -> list[MoveValue]:
    """The moves that hold the mover's proven lower bound ``lo`` of the game
    started here against any play, and makes progress: it ends the game
    or captures with ``lo`` sure, or it is a quiet move to a position whose
    proven bound is ``lo`` for the mover at a smaller rank. Played at every
    turn, it reaches ``lo`` or better in finitely many moves and never
    repeats a position (docs/databases.md, "Playing the claims").

    The game's history counts: a position since the last capture that the
    line could meet again could end the game by repetition first. So the
    move is given only when every earlier position since the last capture
    has a smaller key (``progress_key``) than this one, as it has when the
    mover has kept its bound since that capture. None when that does not
    hold, or without the databases' ranks, or out of their range."""
    state = position.state
    mover = state[2]
    if position.is_over() or not in_range(tablebase, state):
        return []
    here = progress_key(tablebase, state, mover)
    if here is None:
        return []
    for before in reversed(position.history()):
        if before[1] != state[1]:
            break  # a capture came between: nothing before it can repeat
        key = progress_key(tablebase, before, mover)
        if key is None or key > here:
            return []
    lo = here[0]
    found: list[tuple[tuple[int, int], MoveValue]] = []
    for move in position.legal_moves():
        child = position.play(move)
        capture = child.state[1] != state[1]
        outcome = child.outcome()
        if outcome is not None and outcome.termination == Termination.REPETITION:
            value, order = outcome.margin(mover), 0
        else:
            # the databases' value, also where the move ends the game: they
            # play on past "more than 24", which keeps the winner but not
            # the margin (docs/databases.md)
            key = progress_key(tablebase, child.state, mover)
            if key is None:
                continue
            value = key[0]
            # a capture starts a fresh history; a quiet move must come nearer
            # (rank 0 here with no capture reaching lo: lo is the trivial
            # bound, all seeds on the board lost, which no play can break)
            order = 0 if capture or value > lo else 1 - key[1]
            if not capture and value == lo and -key[1] >= -here[1] and here[1] != 0:
                continue
        if value < lo:
            continue
        found.append(((-value, order), MoveValue(move.text, value, capture, outcome is not None)))
    return [value for _, value in sorted(found, key=lambda pair: pair[0])]


def best_move(values: list[MoveValue]) -> MoveValue:
    """The best value; among equals a capture first (it makes progress,
    and the position after it starts a fresh history), then the first."""
    return max(values, key=lambda m: (m.value, m.capture))


def check_folder(folder: str | os.PathLike[str]) -> None:
    """TablebaseError unless ``folder`` holds the databases of some rule."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise TablebaseError(f"{path}: no such database folder")
    if all(finished_levels(path, rule) < 0 for rule in range(len(GRAND_SLAM_RULES))):
        raise TablebaseError(
            f"{path}: no Oware databases there (build them with `bingwa solve build oware`)"
        )
