"""One game owned by the server: its variant and start, the line of moves
played (undone moves stay in the line until a new move replaces them), the
cursor (how many of them stand on the board), who plays each side, and
what the engines said about each ply. A page shows a snapshot; a reload
asks for the same game by its id and gets it back.

Everything here is plain and synchronous: the server (server.py) runs the
engines and calls these methods between their searches.
"""

from __future__ import annotations

import secrets
from typing import Any

from bingwa.engine import BingwaError, Move, Position, find_variant
from bingwa.engine.limits import Info
from bingwa.engine.ogn import dumps_ogn, ogn_refusal, parse_ogn
from bingwa.engine.records import Annotation, GameRecord, parse_record

from .board import board_view, outcome_view
from .messages import MessageError, Player

SIDE_KEYS = ("south", "north")


def new_game_id() -> str:
    return secrets.token_hex(8)


def score_text(info: Info) -> str:
    """A score for people: seeds ahead, or a proven end."""
    if info.score_mate is not None:
        plies = abs(info.score_mate)
        return f"wins in {plies}" if info.score_mate > 0 else f"loses in {plies}"
    if info.score_draw is not None:
        return f"draw in {info.score_draw}"
    if info.score_cp is not None:
        return f"{info.score_cp / 100:+.2f}"
    return ""


class GameSession:
    def __init__(self, variant: str = "oware", players: tuple[Player, Player] | None = None,
                 game_id: str | None = None) -> None:
        self.id = game_id or new_game_id()
        self.players: tuple[Player, Player] = players or (Player(), Player("engine"))
        self.version = 0  # bumped by every change: a search started before one is stale
        self.paused = False
        self.reset(variant)

    # -- setting up ----------------------------------------------------------
    def reset(self, variant: str, start: str | None = None) -> None:
        """A new game of ``variant`` (a spec) from its start (or ``start``)."""
        try:
            var = find_variant(variant)
            root = Position(var, text=start) if start else Position(var)
        except BingwaError as exc:
            raise MessageError(str(exc)) from None
        self.root = root
        self.line: list[str] = []
        self.notes: list[Annotation | None] = []
        self.cursor = 0
        self.pos = root.copy()
        self.paused = False
        self.sides: list[int] = []  # who played each ply: turns need not alternate
        self.changed()

    def set_players(self, south: Player, north: Player) -> None:
        self.players = (south, north)
        self.changed()

    def changed(self) -> None:
        self.version += 1

    # -- moves ---------------------------------------------------------------
    def play(self, text: str, note: Annotation | None = None) -> Move:
        """Play ``text`` at the cursor (IllegalMoveError, MoveError): the
        moves after the cursor are dropped, as in any GUI."""
        move = self.pos.parse_move(text)
        side = self.pos.turn
        self.pos.push(move)
        self.truncate()
        self.line.append(move.text)
        self.sides.append(side)
        self.notes.append(note)
        self.cursor += 1
        self.changed()
        return move

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise MessageError(f"goto: ply must be in 0..{len(self.line)}, not {ply}")
        pos = self.root.copy()
        for text in self.line[:ply]:
            pos.push(text)
        self.pos = pos
        self.cursor = ply
        self.changed()

    def undo(self) -> None:
        """Back one ply; with one human player, back to his last turn, so
        that the engine does not answer at once with the same move."""
        if self.cursor == 0:
            raise MessageError("nothing to undo")
        humans = [side for side in (0, 1) if not self.players[side].is_engine]
        target = self.cursor - 1
        if len(humans) == 1:
            pos = self.position_at(target)
            while target > 0 and pos.turn != humans[0]:
                target -= 1
                pos = self.position_at(target)
            if pos.turn != humans[0]:
                raise MessageError("nothing to undo: the engine's move opened the game")
        self.goto(target)

    def redo(self) -> None:
        if self.cursor >= len(self.line):
            raise MessageError("nothing to redo")
        self.goto(self.cursor + 1)

    def position_at(self, ply: int) -> Position:
        pos = self.root.copy()
        for text in self.line[:ply]:
            pos.push(text)
        return pos

    def truncate(self) -> None:
        """Drop the moves after the cursor (engines play on from here)."""
        del self.line[self.cursor:]
        del self.sides[self.cursor:]
        del self.notes[self.cursor:]
        self.changed()

    # -- who moves -------------------------------------------------------------
    def player_to_move(self) -> Player:
        return self.players[self.pos.turn]

    def engine_should_move(self) -> bool:
        """An engine plays now: its turn, at the end of the line, not paused."""
        return (self.player_to_move().is_engine and not self.pos.is_over()
                and not self.paused and self.cursor == len(self.line))

    # -- records -------------------------------------------------------------
    def record(self) -> GameRecord:
        """The whole line as a record (also the undone moves after the cursor)."""
        pos = self.position_at(len(self.line))
        names = [p.engine or "engine" if p.is_engine else "human" for p in self.players]
        return GameRecord.from_position(pos, south=names[0], north=names[1],
                                        annotations=self.notes,
                                        tags={"Site": "bingwa serve"})

    def save(self, fmt: str = "record") -> tuple[str, str]:
        """(text, file name) of the game in bingwa's record format or OGN."""
        record = self.record()
        if fmt == "ogn":
            try:
                return dumps_ogn(record), "game.ogn"
            except BingwaError as exc:
                raise MessageError(str(exc)) from None
        if fmt != "record":
            raise MessageError(f"save: format must be record or ogn, not {fmt!r}")
        return record.dumps(), "game.bgn"

    def load(self, text: str, fmt: str = "auto") -> None:
        """Replace the game by the record ``text`` (bingwa's format or OGN;
        ``auto`` tries both). Nothing changes when it does not read."""
        if fmt not in ("auto", "record", "ogn"):
            raise MessageError(f"load: format must be auto, record or ogn, not {fmt!r}")
        try:
            if fmt == "ogn" or (fmt == "auto" and _looks_like_ogn(text)):
                records = parse_ogn(text)
                if not records:
                    raise MessageError("load: the file holds no game")
                record = records[0]
            else:
                record = parse_record(text)
        except BingwaError as exc:
            raise MessageError(f"load: {exc}") from None
        self.root = record.start_position()
        self.line = [m.text for m in record.moves]
        self.notes = [m.annotation for m in record.moves]
        pos = self.root.copy()
        self.sides = []
        for text in self.line:
            self.sides.append(pos.turn)
            pos.push(text)
        self.goto(len(self.line))
        self.paused = any(p.is_engine for p in self.players)

    # -- what the page shows ---------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        previous = last = None
        if self.cursor:
            previous = self.pos.copy()
            last = previous.pop()
        view = board_view(self.pos, previous, last)
        return {
            "type": "state",
            "game": self.id,
            "variant": self.pos.variant.spec(),
            "variant_name": self.pos.variant.name,
            "players": {key: p.as_dict() for key, p in zip(SIDE_KEYS, self.players)},
            "line": self._line_view(),
            "cursor": self.cursor,
            "board": view,
            "outcome": outcome_view(self.pos),
            "paused": self.paused,
            "engine_to_move": self.player_to_move().is_engine and not self.pos.is_over(),
            "position": self.pos.text(),
            "formats": self.save_formats(),
        }

    def save_formats(self) -> list[str]:
        """What ``save`` can write this game as: a record always, OGN for
        Oware Abapa from the initial position."""
        set_up = self.root.state != Position(self.root.variant).state
        return ["record"] + (["ogn"] if ogn_refusal(self.root.variant, set_up) is None else [])

    def _line_view(self) -> list[dict[str, Any]]:
        return [{"ply": i + 1, "move": text, "side": side,
                 "note": note.format() if note is not None else ""}
                for i, (text, side, note) in enumerate(zip(self.line, self.sides, self.notes))]


def _looks_like_ogn(text: str) -> bool:
    """OGN names its variant Abapa; bingwa's records name a bingwa spec."""
    for line in text.splitlines():
        stripped = line.strip().lower()
        if stripped.startswith("[variant"):
            return "abapa" in stripped
    return False
