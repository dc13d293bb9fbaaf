"""Rooms: two people at two screens play one game through a link.

A room is made by its host, who picks the variant, a side (South, North or
random), a clock (minutes and an increment per move, or none) and whether
an engine may be asked for hints. The host's link carries the room id and
the host's seat token; the room id alone is the invitation: the first page
to open it without a token takes the other seat (and gets its own token),
every later one watches. A token is 128 random bits (``secrets``); the
store keeps only its SHA-256, so a copied database gives nobody a seat.

The seats are the host and the guest; the sides they play are South and
North of the current game, swapped by each rematch. The rules' end of a
game comes from the Position; a referee's end (a resignation, a draw
agreed, a flag fallen) is the room's ``result``.

Clocks: each side has its remaining time; the side to move spends it, and
each move it makes adds the increment (turns need not alternate: a Kalah
extra turn keeps the same clock running). The remaining time after every
move is stored with the move. The time the server is down is not counted:
a room read back after a restart starts its running clock then.

Everything here is plain and synchronous (``now`` is passed in, in
seconds of a monotonic clock); room_server.py runs the sockets and timers.
RoomStore keeps rooms, games and moves in SQLite, one transaction per
change, so stopping the server loses nothing a page was shown.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bingwa.engine import BingwaError, Termination, find_variant
from bingwa.engine.records import GameRecord

from .board import outcome_view
from .messages import MessageError, Player
from .session import GameSession

SIDES = ("South", "North")
SIDE_KEYS = ("south", "north")
SEATS = ("host", "guest")
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT_SECONDS = 60
SCHEMA_VERSION = 1


class RoomError(MessageError):
    """A room request that cannot be met: one line for the page."""


def new_token() -> str:
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class ClockSetting:
    """The host's clock: ``base_ms`` each, ``increment_ms`` per move."""

    base_ms: int
    increment_ms: int

    def text(self) -> str:
        """The record's TimeControl: seconds, '+' increment (as PGN writes it)."""
        return f"{self.base_ms // 1000}+{self.increment_ms // 1000}"


def parse_clock(value: Any) -> ClockSetting | None:
    """None for no clock, else ``{"minutes": M, "increment": S}`` checked."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"minutes", "increment"}:
        raise RoomError('clock must be {"minutes": M, "increment": S} or null')
    minutes, increment = value.get("minutes", 0), value.get("increment", 0)
    for name, number, high in (("minutes", minutes, MAX_CLOCK_MINUTES),
                               ("increment", increment, MAX_INCREMENT_SECONDS)):
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= high:
            raise RoomError(f"clock: {name} must be a whole number in 0..{high}")
    if minutes == 0:
        raise RoomError("clock: minutes must be at least 1")
    return ClockSetting(int(minutes) * 60_000, int(increment) * 1000)


@dataclass
class PendingMove:
    """A checked move not yet applied: written to the store first."""

    text: str
    side: int
    clock_ms: int | None  # the mover's time left after it, increment added


class Room:
    """One room: its seats, its settings and its current game."""

    def __init__(self, room_id: str, host_hash: str, variant: str, host_side: int,
                 help_allowed: bool = False, clock: ClockSetting | None = None,
                 guest_hash: str | None = None, now: float = 0.0) -> None:
        self.id = room_id
        self.seat_hashes: list[str | None] = [host_hash, guest_hash]
        self.help = help_allowed
        self.clock = clock
        self.offer: tuple[str, int] | None = None  # (draw or rematch, side that offers)
        self.number = 0
        self.new_game(variant, host_side, now)

    # -- games -------------------------------------------------------------------
    def new_game(self, variant: str, host_side: int, now: float) -> None:
        self.number += 1
        self.host_side = host_side
        self.session = GameSession(variant, (Player(), Player()), game_id=f"{self.id}-{self.number}")
        self.result: dict[str, Any] | None = None  # a referee's end
        self.remaining = [self.clock.base_ms] * 2 if self.clock else [0, 0]
        self.turn_started = now
        self.offer = None

    @property
    def variant(self) -> str:
        return self.session.pos.variant.spec()

    def is_over(self) -> bool:
        return self.result is not None or self.session.pos.is_over()

    def outcome(self) -> dict[str, Any] | None:
        """The end, the room's own (resignation, agreement, time) or the rules'."""
        if self.result is not None:
            return self.result
        return outcome_view(self.session.pos)

    # -- seats -------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """0 (host), 1 (guest) or None for a token that holds no seat."""
        if not token:
            return None
        digest = token_hash(token)
        for seat, known in enumerate(self.seat_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                return seat
        return None

    def side_of(self, seat: int) -> int:
        return self.host_side if seat == 0 else 1 - self.host_side

    def seat_at(self, side: int) -> int:
        return 0 if side == self.host_side else 1

    def guest_free(self) -> bool:
        return self.seat_hashes[1] is None

    # -- clocks ------------------------------------------------------------------
    def clock_running(self) -> int | None:
        """The side whose clock runs: the side to move, once both seats are
        taken and while the game goes on."""
        if self.clock is None or self.guest_free() or self.is_over():
            return None
        return self.session.pos.turn

    def time_left(self, side: int, now: float) -> int:
        left = self.remaining[side]
        if self.clock_running() == side:
            left -= round((now - self.turn_started) * 1000)
        return max(0, left)

    def flag(self, now: float) -> bool:
        """End the game if the side to move ran out of time (True if so)."""
        side = self.clock_running()
        if side is None or self.time_left(side, now) > 0:
            return False
        self.remaining[side] = 0
        self.end(1 - side, Termination.TIME_FORFEIT, f"{SIDES[side]}'s time ran out")
        return True

    # -- moves -------------------------------------------------------------------
    def check_move(self, side: int | None, text: str, now: float) -> PendingMove:
        """A move by ``side`` (None: a watcher), checked against the seat and
        the rules (RoomError, IllegalMoveError); nothing changes yet. (Call
        ``flag`` first: a move after the flag fell is too late.)"""
        if side is None:
            raise RoomError("you are watching this room: only its two players move")
        if self.is_over():
            raise RoomError("the game is over")
        turn = self.session.pos.turn
        if side != turn:
            raise RoomError(f"it is {SIDES[turn]}'s turn: you play {SIDES[side]}")
        move = self.session.pos.parse_move(text)
        clock_ms = None
        if self.clock is not None:
            clock_ms = self.time_left(side, now) + self.clock.increment_ms
        return PendingMove(move.text, side, clock_ms)

    def apply(self, pending: PendingMove, now: float) -> None:
        self.session.play(pending.text)
        if pending.clock_ms is not None:
            self.remaining[pending.side] = pending.clock_ms
        self.turn_started = now
        if self.offer and self.offer[0] == "draw":
            self.offer = None  # a move answers a draw offer

    # -- the referee ---------------------------------------------------------------
    def end(self, winner: int | None, termination: Termination | str, why: str) -> None:
        south, north = self.session.pos.scores()
        if winner is None:
            headline, result = f"Draw, {south}-{north}", "1/2-1/2"
        else:
            headline, result = f"{SIDES[winner]} wins, {south}-{north}", ("1-0", "0-1")[winner]
        value = termination.value if isinstance(termination, Termination) else termination
        self.result = {"winner": winner, "scores": [south, north], "termination": value,
                       "result": result, "text": f"{headline}: {why}"}
        self.offer = None

    def resign(self, side: int | None) -> None:
        mover = self._player(side, "resign")
        if self.is_over():
            raise RoomError("the game is over")
        self.end(1 - mover, Termination.RESIGNATION, f"{SIDES[mover]} resigned")

    def make_offer(self, side: int | None, what: str) -> None:
        seat_side = self._player(side, "offer")
        if what not in ("draw", "rematch"):
            raise RoomError(f"offer: what must be draw or rematch, not {what[:40]!r}")
        if what == "draw" and self.is_over():
            raise RoomError("the game is over: offer a rematch instead")
        if what == "rematch" and not self.is_over():
            raise RoomError("a rematch is offered when the game is over")
        if self.guest_free():
            raise RoomError("nobody has taken the other seat yet")
        if self.offer is not None:
            by = SIDES[self.offer[1]]
            raise RoomError(f"{by}'s {self.offer[0]} offer is waiting for an answer")
        self.offer = (what, seat_side)

    def answer(self, side: int | None, accept: bool, now: float) -> str | None:
        """Accept or decline the other player's offer; the offer's kind when
        it was accepted (a rematch: the new game has begun)."""
        seat_side = self._player(side, "accept" if accept else "decline")
        if self.offer is None:
            raise RoomError("there is no offer to answer")
        what, by = self.offer
        if by == seat_side:
            raise RoomError(f"the {what} offer is yours: the other player answers it")
        self.offer = None
        if not accept:
            return None
        if what == "draw":
            if self.is_over():
                raise RoomError("the game is over")
            self.end(None, "agreement", "a draw was agreed")
        else:
            self.new_game(self.variant, 1 - self.host_side, now)
        return what

    def _player(self, side: int | None, action: str) -> int:
        if side is None:
            raise RoomError(f"{action}: you are watching this room")
        return side

    # -- records -------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The current game as a record, the referee's end in its tags."""
        pos = self.session.position_at(len(self.session.line))
        names = ["host" if self.seat_at(side) == 0 else "guest" for side in (0, 1)]
        tags = {"Site": "bingwa serve", "Event": f"room {self.id} game {self.number}"}
        result = termination = None
        if self.result is not None:
            result, termination = self.result["result"], self.result["termination"]
        return GameRecord.from_position(pos, south=names[0], north=names[1], result=result,
                                        termination=termination,
                                        time_control=self.clock.text() if self.clock else None,
                                        tags=tags)


# -- the store ---------------------------------------------------------------------
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id         TEXT PRIMARY KEY,
    created    TEXT NOT NULL,
    host_seat  TEXT NOT NULL,             -- SHA-256 of the host's token
    guest_seat TEXT,                      -- SHA-256 of the guest's, once taken
    help       INTEGER NOT NULL,          -- 1: an engine may give hints
    clock_ms   INTEGER,                   -- each side's time, NULL: no clock
    increment_ms INTEGER
);
CREATE TABLE IF NOT EXISTS room_games (
    room        TEXT NOT NULL REFERENCES rooms(id),
    number      INTEGER NOT NULL,         -- 1, then each rematch
    variant     TEXT NOT NULL,            -- a variant spec
    host_side   INTEGER NOT NULL,         -- 0 South, 1 North
    started     TEXT NOT NULL,
    result      TEXT,                     -- a referee's end: JSON, NULL otherwise
    PRIMARY KEY (room, number)
);
CREATE TABLE IF NOT EXISTS room_moves (
    room     TEXT NOT NULL,
    number   INTEGER NOT NULL,
    ply      INTEGER NOT NULL,            -- 1, 2, ...
    move     TEXT NOT NULL,               -- canonical text
    side     INTEGER NOT NULL,            -- who played it: turns need not alternate
    clock_ms INTEGER,                     -- the mover's time left after it
    played   TEXT NOT NULL,
    PRIMARY KEY (room, number, ply),
    FOREIGN KEY (room, number) REFERENCES room_games(room, number)
);
"""


def default_path() -> Path:
    """Where ``bingwa serve`` keeps rooms when no --db names a file."""
    return Path("bingwa-rooms.sqlite")


def _stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


class RoomStore:
    """The rooms of a server in SQLite (``:memory:`` for a store that goes
    with the process). Every write is its own committed transaction, in WAL
    mode as the tournament database is."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None,
                                      check_same_thread=False)
            if self.path != ":memory:":
                self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise RoomError(f"{self.path}: not a rooms database ({exc})") from None
        if row is not None and row[0] != str(SCHEMA_VERSION):
            raise RoomError(f"{self.path}: rooms schema {row[0]}, this bingwa reads "
                            f"{SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self.db.execute(sql, args)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise RoomError(f"the rooms database refused the change ({exc})") from None

    def count(self) -> int:
        try:
            return int(self.db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0])
        except sqlite3.Error as exc:
            raise RoomError(f"the rooms database cannot be read ({exc})") from None

    def add_room(self, room: Room) -> None:
        clock = room.clock
        self._write(
            ("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?)",
             (room.id, _stamp(), room.seat_hashes[0], room.seat_hashes[1], int(room.help),
              clock.base_ms if clock else None, clock.increment_ms if clock else None)),
            self._game_row(room))

    def _game_row(self, room: Room) -> tuple[str, tuple[Any, ...]]:
        return ("INSERT INTO room_games VALUES (?, ?, ?, ?, ?, NULL)",
                (room.id, room.number, room.variant, room.host_side, _stamp()))

    def set_guest(self, room: Room) -> None:
        self._write(("UPDATE rooms SET guest_seat=? WHERE id=?", (room.seat_hashes[1], room.id)))

    def add_move(self, room: Room, pending: PendingMove) -> None:
        ply = len(room.session.line) + 1
        self._write(("INSERT INTO room_moves VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (room.id, room.number, ply, pending.text, pending.side, pending.clock_ms,
                      _stamp())))

    def add_game(self, room: Room) -> None:
        self._write(self._game_row(room))

    def set_result(self, room: Room) -> None:
        import json

        self._write(("UPDATE room_games SET result=? WHERE room=? AND number=?",
                     (json.dumps(room.result), room.id, room.number)))

    def load(self, room_id: str, now: float) -> Room | None:
        """The room ``room_id`` with its latest game replayed from its moves
        (None when there is none; RoomError when its moves do not replay or
        the file cannot be read)."""
        try:
            return self._load(room_id, now)
        except (sqlite3.Error, TypeError, ValueError) as exc:  # a damaged file
            raise RoomError(f"room {room_id}: the rooms database cannot give it back ({exc})"
                            ) from None

    def _load(self, room_id: str, now: float) -> Room | None:
        import json

        row = self.db.execute("SELECT host_seat, guest_seat, help, clock_ms, increment_ms "
                              "FROM rooms WHERE id=?", (room_id,)).fetchone()
        if row is None:
            return None
        host, guest, help_allowed, clock_ms, increment_ms = row
        game = self.db.execute("SELECT number, variant, host_side, result FROM room_games "
                               "WHERE room=? ORDER BY number DESC LIMIT 1", (room_id,)).fetchone()
        number, variant, host_side, result = game
        clock = ClockSetting(clock_ms, increment_ms or 0) if clock_ms else None
        room = Room(room_id, host, variant, host_side, bool(help_allowed), clock, guest, now)
        room.number = number
        room.session.id = f"{room_id}-{number}"
        moves = self.db.execute("SELECT move, side, clock_ms FROM room_moves WHERE room=? AND "
                                "number=? ORDER BY ply", (room_id, number)).fetchall()
        try:
            for text, side, left in moves:
                room.session.play(text)
                if left is not None:
                    room.remaining[side] = left
        except BingwaError as exc:
            raise RoomError(f"room {room_id}: its stored moves do not replay ({exc})") from None
        room.result = json.loads(result) if result else None
        room.turn_started = now
        return room


def make_room(variant: str, side: str, help_allowed: bool, clock: ClockSetting | None,
              now: float) -> tuple[Room, str]:
    """A new room (its host playing ``side``: south, north or random) and
    the host's seat token (RoomError for a bad variant or side)."""
    if side not in ("south", "north", "random"):
        raise RoomError(f"side must be south, north or random, not {side[:40]!r}")
    try:
        find_variant(variant)
    except BingwaError as exc:
        raise RoomError(str(exc)) from None
    host_side = secrets.randbelow(2) if side == "random" else SIDE_KEYS.index(side)
    token = new_token()
    room = Room(secrets.token_urlsafe(12), token_hash(token), variant, host_side,
                help_allowed, clock, now=now)
    return room, token
