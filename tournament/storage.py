"""The tournament database (SQLite).

One file holds any number of runs. A run is one ``bingwa tournament`` or
``bingwa sprt``: its configuration (enough to resume it), its engines with
their commands and options, its openings, and every finished game with its
moves, result, termination, final scores and, per move, the time spent and
the engine's score.

Games are written one transaction each, as they finish, keyed by (run,
game index in the plan): writing a game twice is a no-op, so a resumed run
or a retried remote batch never counts a game twice. Remote batches are
also keyed by (run, batch) and folded in one transaction. WAL journaling
keeps every committed game through a crash (SIGKILL) of the writer.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import EngineSpec, PlannedGame, PlayedGame, PlayedMove
from .stats import GameScore

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,              -- round-robin, gauntlet or sprt
    created  TEXT NOT NULL,
    status   TEXT NOT NULL,              -- running, finished or stopped
    planned  INTEGER,                    -- games planned (the cap for sprt)
    decision TEXT,                       -- sprt: H0, H1 or inconclusive
    config   TEXT NOT NULL               -- JSON: everything --resume needs
);
CREATE TABLE IF NOT EXISTS engines (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs(id),
    name     TEXT NOT NULL,
    command  TEXT NOT NULL,              -- JSON argv
    protocol TEXT NOT NULL,
    options  TEXT NOT NULL,              -- JSON [[name, value], ...]
    id_name  TEXT,                       -- what the engine calls itself
    UNIQUE (run_id, name)
);
CREATE TABLE IF NOT EXISTS openings (
    run_id  INTEGER NOT NULL REFERENCES runs(id),
    variant TEXT NOT NULL,
    idx     INTEGER NOT NULL,
    moves   TEXT NOT NULL,               -- space-separated, from the start
    PRIMARY KEY (run_id, variant, idx)
);
CREATE TABLE IF NOT EXISTS batches (
    run_id  INTEGER NOT NULL REFERENCES runs(id),
    batch   INTEGER NOT NULL,
    games   INTEGER NOT NULL,
    folded  TEXT NOT NULL,
    PRIMARY KEY (run_id, batch)
);
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    game_index  INTEGER NOT NULL,        -- place in the run's plan
    pair        INTEGER NOT NULL,        -- the colour-swapped pair it belongs to
    batch       INTEGER NOT NULL,
    variant     TEXT NOT NULL,
    opening     INTEGER NOT NULL,
    south       INTEGER NOT NULL REFERENCES engines(id),
    north       INTEGER NOT NULL REFERENCES engines(id),
    result      TEXT NOT NULL,           -- 1-0, 0-1 or 1/2-1/2
    termination TEXT NOT NULL,
    south_score INTEGER NOT NULL,
    north_score INTEGER NOT NULL,
    plies       INTEGER NOT NULL,
    start_position TEXT NOT NULL,
    loser       TEXT,                    -- the engine a failure was charged to
    detail      TEXT NOT NULL,           -- the failure and the lines that led to it
    started     REAL NOT NULL,
    finished    REAL NOT NULL,
    UNIQUE (run_id, game_index)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    side       INTEGER NOT NULL,         -- 0 South, 1 North
    move       TEXT NOT NULL,
    book       INTEGER NOT NULL,         -- 1: from the opening, not an engine
    time_ms    INTEGER,
    score_cp   INTEGER,
    score_mate INTEGER,
    depth      INTEGER,
    nodes      INTEGER,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_variant ON games (variant);
"""


class StorageError(RuntimeError):
    """A database that is not ours, or a run that is not in it."""


@dataclass
class Run:
    id: int
    kind: str
    created: str
    status: str
    planned: int | None
    decision: str | None
    config: dict[str, Any]


def default_path() -> Path:
    """Where runs go when no database is named: ./bingwa-tournaments.sqlite."""
    return Path("bingwa-tournaments.sqlite")


class Store:
    """An open tournament database. One writer (the runner's driver
    thread); readers may come and go."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: not a tournament database ({exc})") from None
        self._init_schema()

    def _init_schema(self) -> None:
        try:
            with self.transaction():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif int(row[0]) != SCHEMA_VERSION:
                    raise StorageError(
                        f"{self.path}: schema version {row[0]}, this bingwa reads {SCHEMA_VERSION}"
                    )
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{self.path}: not a tournament database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ---------------------------------------------------------
    class _Transaction:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: object, *rest: object) -> None:
            self.db.execute("ROLLBACK" if kind else "COMMIT")

    def transaction(self) -> Store._Transaction:
        return Store._Transaction(self.db)

    # -- runs -------------------------------------------------------------------
    def create_run(
        self,
        kind: str,
        config: dict[str, Any],
        engines: Iterable[EngineSpec],
        openings: dict[str, list[list[str]]],
        planned: int | None,
    ) -> int:
        created = time.strftime("%Y-%m-%d %H:%M:%S")
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO runs (kind, created, status, planned, config) VALUES (?, ?, 'running', ?, ?)",
                (kind, created, planned, json.dumps(config, sort_keys=True)),
            )
            run_id = int(cur.lastrowid or 0)
            for spec in engines:
                self.db.execute(
                    "INSERT INTO engines (run_id, name, command, protocol, options) VALUES (?, ?, ?, ?, ?)",
                    (run_id, spec.name, json.dumps(list(spec.command)), spec.protocol,
                     json.dumps([list(o) for o in spec.options])),
                )
            for variant, lines in openings.items():
                self.db.executemany(
                    "INSERT INTO openings (run_id, variant, idx, moves) VALUES (?, ?, ?, ?)",
                    [(run_id, variant, i, _opening_text(moves)) for i, moves in enumerate(lines)],
                )
        return run_id

    def run(self, run_id: int | None = None) -> Run:
        """The run ``run_id``, or the latest one."""
        if run_id is None:
            row = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StorageError(f"{self.path}: no run {run_id}" if run_id else f"{self.path}: no run yet")
        return Run(row["id"], row["kind"], row["created"], row["status"], row["planned"],
                   row["decision"], json.loads(row["config"]))

    def runs(self) -> list[Run]:
        ids = [r[0] for r in self.db.execute("SELECT id FROM runs ORDER BY id")]
        return [self.run(i) for i in ids]

    def finish_run(self, run_id: int, status: str, decision: str | None = None) -> None:
        with self.transaction():
            self.db.execute("UPDATE runs SET status = ?, decision = ? WHERE id = ?", (status, decision, run_id))

    def set_engine_id_name(self, run_id: int, name: str, id_name: str) -> None:
        with self.transaction():
            self.db.execute("UPDATE engines SET id_name = ? WHERE run_id = ? AND name = ?", (id_name, run_id, name))

    def engine_ids(self, run_id: int) -> dict[str, int]:
        rows = self.db.execute("SELECT id, name FROM engines WHERE run_id = ?", (run_id,))
        return {r["name"]: r["id"] for r in rows}

    def engines(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM engines WHERE run_id = ? ORDER BY id", (run_id,))
        return [
            {"name": r["name"], "command": json.loads(r["command"]), "protocol": r["protocol"],
             "options": json.loads(r["options"]), "id_name": r["id_name"]}
            for r in rows
        ]

    def openings(self, run_id: int) -> dict[str, list[list[str]]]:
        out: dict[str, list[list[str]]] = {}
        rows = self.db.execute("SELECT variant, moves FROM openings WHERE run_id = ? ORDER BY variant, idx", (run_id,))
        for r in rows:
            out.setdefault(r["variant"], []).append(_opening_moves(r["moves"]))
        return out

    # -- games ---------------------------------------------------------------
    def _insert_game(self, run_id: int, ids: dict[str, int], game: PlayedGame) -> bool:
        p = game.planned
        cur = self.db.execute(
            """INSERT OR IGNORE INTO games (run_id, game_index, pair, batch, variant, opening,
               south, north, result, termination, south_score, north_score, plies,
               start_position, loser, detail, started, finished)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (run_id, p.index, p.pair, p.batch, p.variant, p.opening, ids[p.south], ids[p.north],
             game.result, game.termination, game.scores[0], game.scores[1], len(game.moves),
             game.start_position, game.loser, game.detail, game.started, game.finished),
        )
        if cur.rowcount == 0:
            return False
        game_id = cur.lastrowid
        self.db.executemany(
            "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, ply, m.side, m.move, int(m.book), m.time_ms, m.score_cp, m.score_mate,
              m.depth, m.nodes) for ply, m in enumerate(game.moves)],
        )
        return True

    def record_game(self, run_id: int, game: PlayedGame) -> bool:
        """Store a finished game; False when it was stored already."""
        ids = self.engine_ids(run_id)
        with self.transaction():
            return self._insert_game(run_id, ids, game)

    def record_batch(self, run_id: int, batch: int, games: list[PlayedGame]) -> bool:
        """Fold a remote batch in one transaction; False (and nothing
        written) when this batch was folded before."""
        ids = self.engine_ids(run_id)
        with self.transaction():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO batches VALUES (?, ?, ?, ?)",
                (run_id, batch, len(games), time.strftime("%Y-%m-%d %H:%M:%S")),
            )
            if cur.rowcount == 0:
                return False
            for game in games:
                self._insert_game(run_id, ids, game)
        return True

    def done_indices(self, run_id: int) -> set[int]:
        rows = self.db.execute("SELECT game_index FROM games WHERE run_id = ?", (run_id,))
        return {r[0] for r in rows}

    def count_games(self, run_id: int | None = None) -> int:
        if run_id is None:
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        return int(self.db.execute("SELECT COUNT(*) FROM games WHERE run_id = ?", (run_id,)).fetchone()[0])

    def variants(self, run_id: int | None = None) -> list[str]:
        if run_id is None:
            rows = self.db.execute("SELECT DISTINCT variant FROM games ORDER BY variant")
        else:
            rows = self.db.execute("SELECT DISTINCT variant FROM games WHERE run_id = ? ORDER BY variant", (run_id,))
        return [r[0] for r in rows]

    def engine_labels(self) -> dict[int, str]:
        """Every engine's name across runs (engine id -> name). The same
        name with another command, protocol or options in another run is
        another engine: each such name is told apart by the first run it
        played in (``alphabeta (run 3)``), so that ratings over all runs
        never merge two engines that share a name."""
        kinds: dict[str, dict[tuple[str, str, str], list[int]]] = {}  # name -> identity -> ids
        first_run: dict[tuple[str, tuple[str, str, str]], int] = {}
        for r in self.db.execute("SELECT id, run_id, name, command, protocol, options FROM engines ORDER BY id"):
            identity = (r["command"], r["protocol"], r["options"])
            kinds.setdefault(r["name"], {}).setdefault(identity, []).append(r["id"])
            first_run.setdefault((r["name"], identity), r["run_id"])
        labels = {}
        for name, identities in kinds.items():
            for identity, ids in identities.items():
                label = name if len(identities) == 1 else f"{name} (run {first_run[name, identity]})"
                labels.update(dict.fromkeys(ids, label))
        return labels

    def _game_rows(self, run_id: int | None, variant: str | None) -> Iterator[dict[str, Any]]:
        """Games with their engines' names: as the run named them, or, over
        every run, as engine_labels tells them apart."""
        labels = self.engine_labels() if run_id is None else None
        for row in self._joined_rows(run_id, variant):
            out = dict(row)
            if labels is not None:
                out["south_name"], out["north_name"] = labels[row["south"]], labels[row["north"]]
            yield out

    def _joined_rows(self, run_id: int | None, variant: str | None) -> Iterator[sqlite3.Row]:
        query = """SELECT g.*, s.name AS south_name, n.name AS north_name
                   FROM games g JOIN engines s ON s.id = g.south JOIN engines n ON n.id = g.north"""
        where: list[str] = []
        args: list[object] = []
        if run_id is not None:
            where.append("g.run_id = ?")
            args.append(run_id)
        if variant is not None:
            where.append("g.variant = ?")
            args.append(variant)
        if where:
            query += " WHERE " + " AND ".join(where)
        query += " ORDER BY g.run_id, g.finished, g.game_index"
        yield from self.db.execute(query, args)

    def scores(self, variant: str, run_id: int | None = None) -> list[GameScore]:
        """Every game of ``variant`` as the ratings see it, in the order the
        games finished; over every run, engines are known by name unless two
        that differ share one (engine_labels)."""
        out = []
        for r in self._game_rows(run_id, variant):
            points = {"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5)
            out.append(GameScore(r["south_name"], r["north_name"], points, (r["run_id"], r["pair"])))
        return out

    def games(self, run_id: int | None = None, variant: str | None = None, moves: bool = True) -> list[PlayedGame]:
        """Stored games as GameRecords (with their moves unless told not)."""
        out = []
        for r in self._game_rows(run_id, variant):
            planned = PlannedGame(r["game_index"], r["pair"], r["batch"], r["variant"], r["opening"],
                                  r["south_name"], r["north_name"])
            played = []
            if moves:
                for m in self.db.execute("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (r["id"],)):
                    played.append(PlayedMove(m["move"], m["side"], m["time_ms"], m["score_cp"],
                                             m["score_mate"], m["depth"], m["nodes"], bool(m["book"])))
            out.append(PlayedGame(planned, r["result"], r["termination"],
                                  (r["south_score"], r["north_score"]), played, r["start_position"],
                                  r["detail"], r["loser"], r["started"], r["finished"]))
        return out

    def game_run_ids(self) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT run_id FROM games ORDER BY run_id")]


def _opening_text(moves: list[str]) -> str:
    """An opening as stored: its moves space-separated, or as JSON when an
    item has spaces of its own (a position string, Bao's)."""
    return json.dumps(moves) if any(any(c.isspace() for c in m) for m in moves) else " ".join(moves)


def _opening_moves(text: str) -> list[str]:
    return json.loads(text) if text.startswith("[") else text.split()
