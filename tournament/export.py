"""Stored games out of the database: game records (docs/records.md), CSV
(one row per game) and JSON (every game with its moves)."""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Iterable

from bingwa.engine import Position, find_variant

from .model import PlayedGame
from .storage import Store

CSV_FIELDS = ("run", "game", "pair", "variant", "opening", "south", "north", "result",
              "termination", "south_score", "north_score", "plies", "loser", "started",
              "finished", "moves")


def to_record(game: PlayedGame, run: int | None = None, time_control: str | None = None):
    """The game as a bingwa.engine.records.GameRecord, every engine move
    annotated with its score, depth and time; book moves say so."""
    from bingwa.engine.records import Annotation, GameRecord

    p = game.planned
    variant = find_variant(p.variant)
    position = Position(variant, text=game.start_position) if game.start_position else Position(variant)
    notes: list[Annotation | None] = []
    for m in game.moves:
        position.push(m.move)
        if m.book:
            notes.append(Annotation(text="book"))
        elif m.score_cp is not None or m.score_mate is not None:
            notes.append(Annotation(m.score_cp, m.score_mate, m.depth, _no_negative(m.time_ms)))
        elif m.time_ms is not None:
            notes.append(Annotation(text=f"{max(0, m.time_ms) / 1000:.3f}s"))
        else:
            notes.append(None)
    tags = {"Event": f"bingwa run {run}" if run is not None else "bingwa tournament",
            "Round": str(p.index + 1)}
    if game.detail:
        tags["Referee"] = game.detail.splitlines()[0]
    date = datetime.date.fromtimestamp(game.finished) if game.finished else None
    return GameRecord.from_position(
        position, south=p.south, north=p.north, date=date, result=game.result,
        termination=game.termination, time_control=time_control, annotations=notes, tags=tags,
    )


def _no_negative(ms: int | None) -> int | None:
    """Move times of games stored before the referee clamped them."""
    return None if ms is None else max(0, ms)


def export_records(store: Store, run_id: int | None = None, variant: str | None = None) -> str:
    from bingwa.engine.records import dumps_records

    tcs = {}
    for run in store.runs():
        tc = run.config.get("tc", {})
        from .timecontrol import TimeControl

        tcs[run.id] = TimeControl.from_json(tc).describe()
    records = []
    for run in ([store.run(run_id)] if run_id is not None else store.runs()):
        for game in store.games(run.id, variant):
            records.append(to_record(game, run.id, tcs.get(run.id)))
    return dumps_records(records)


def _rows(store: Store, run_id: int | None, variant: str | None) -> Iterable[dict]:
    runs = [store.run(run_id)] if run_id is not None else store.runs()
    for run in runs:
        for g in store.games(run.id, variant):
            p = g.planned
            yield {
                "run": run.id, "game": p.index, "pair": p.pair, "variant": p.variant,
                "opening": p.opening, "south": p.south, "north": p.north, "result": g.result,
                "termination": g.termination, "south_score": g.scores[0], "north_score": g.scores[1],
                "plies": len(g.moves), "loser": g.loser or "", "started": iso_time(g.started),
                "finished": iso_time(g.finished), "moves": " ".join(m.move for m in g.moves),
                "detail": g.detail,
                "move_list": [
                    {k: v for k, v in m.__dict__.items() if v is not None} for m in g.moves
                ],
            }


def iso_time(timestamp: float) -> str:
    """A stored time (seconds since the epoch) in ISO 8601, UTC, to the
    millisecond: ``2026-12-01T10:01:17.123Z`` ("" when not known)."""
    if not timestamp:
        return ""
    moment = datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def export_csv(store: Store, run_id: int | None = None, variant: str | None = None) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in _rows(store, run_id, variant):
        writer.writerow(row)
    return out.getvalue()


def export_json(store: Store, run_id: int | None = None, variant: str | None = None) -> str:
    games = []
    for row in _rows(store, run_id, variant):
        row["moves"] = row.pop("move_list")
        games.append(row)
    return json.dumps({"games": games}, indent=1) + "\n"
