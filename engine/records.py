"""Game records: a PGN-like text format for every variant (docs/records.md).

    [Date "2024.05.01"]
    [South "human"]
    [North "bingwa mcts"]
    [Result "0-1"]
    [Variant "oware grandslam=capture"]
    [Termination "majority"]

    1. c {+0.50/8 0.120s} F 2. d A ... 0-1

A record is read by replaying its moves: a move that does not parse or that
the rules forbid stops the reader with a RecordError naming the line and the
reason, and nothing after it is replayed. Move numbers, Bao's record
decorations and a comment before the first move are accepted; variations
are not part of the format.

Turns do not always alternate (Kalah's extra turns, Bao), so the writer
numbers *rounds*: a number stands before each South ply that follows a North
ply (or opens the game), ``N...`` before a game that North opens. Readers
ignore the numbers.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BingwaError
from .game import SOUTH, Outcome, Termination
from .position import Position
from .variant import Variant, find_variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# Tags written first, in this order; any others follow in insertion order.
TAG_ORDER = (
    "Event", "Site", "Date", "Round", "South", "North", "Result",
    "Variant", "Position", "TimeControl", "Termination",
)
REQUIRED_TAGS = ("Variant",)
LINE_WIDTH = 79


class RecordError(BingwaError, ValueError):
    """A record that cannot be read: ``line`` (1-based) and ``reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


# -- annotations ----------------------------------------------------------
_ANNOTATION = re.compile(
    r"^(?P<score>[+-]?\d+(?:\.\d+)?|[+-]M\d+)/(?P<depth>\d+)"
    r"(?:\s+(?P<time>\d+(?:\.\d+)?)s)?(?:\s+(?P<rest>.*))?$",
    re.DOTALL,
)


@dataclass
class Annotation:
    """What a player said about its move: score (centi-seeds, or plies to a
    proven end), depth, thinking time in ms, and any free text."""

    score_cp: int | None = None
    score_mate: int | None = None
    depth: int | None = None
    time_ms: int | None = None
    text: str = ""

    def has_score(self) -> bool:
        return self.score_cp is not None or self.score_mate is not None

    def format(self) -> str:
        """The comment's content: ``+1.25/12 0.340s text``."""
        parts = []
        if self.has_score():
            if self.score_mate is not None:
                sign = "-" if self.score_mate < 0 else "+"
                score = f"{sign}M{abs(self.score_mate)}"
            else:
                assert self.score_cp is not None
                score = f"{self.score_cp / 100:+.2f}"
            parts.append(f"{score}/{self.depth or 0}")
            if self.time_ms is not None:
                parts.append(f"{self.time_ms / 1000:.3f}s")
        if self.text:
            parts.append(self.text)
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Annotation:
        """Read a comment's content; text that is not ``score/depth [time]``
        is kept as free text."""
        text = " ".join(text.split())
        match = _ANNOTATION.match(text)
        if not match:
            return cls(text=text)
        score = match["score"]
        note = cls(depth=int(match["depth"]), text=match["rest"] or "")
        if "M" in score:
            plies = int(score[2:])
            note.score_mate = -plies if score[0] == "-" else plies
        else:
            note.score_cp = round(float(score) * 100)
        if match["time"] is not None:
            note.time_ms = round(float(match["time"]) * 1000)
        return note

    def merge(self, other: Annotation) -> None:
        """Add a second comment on the same move."""
        if other.has_score() and not self.has_score():
            self.score_cp, self.score_mate = other.score_cp, other.score_mate
            self.depth, self.time_ms = other.depth, other.time_ms
        if other.text:
            self.text = f"{self.text} {other.text}".strip()


@dataclass
class RecordedMove:
    """One ply of a record: its canonical text, an optional annotation, and
    the line it was read from (0 for a record built in memory)."""

    text: str
    annotation: Annotation | None = None
    line: int = 0


# -- the record -----------------------------------------------------------
@dataclass
class GameRecord:
    """A game: its tags, its variant and start, and its moves (all legal:
    the constructors check them)."""

    variant: Variant
    tags: dict[str, str] = field(default_factory=dict)
    start: str | None = None  # position string when not the variant's start
    moves: list[RecordedMove] = field(default_factory=list)
    comment: str = ""  # a comment before the first move

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    @property
    def termination(self) -> Termination | None:
        """The Termination tag as a value (None when absent or unknown)."""
        text = self.tags.get("Termination", "").strip().lower()
        for term in Termination:
            if term.value == text:
                return term
        return None

    def start_position(self) -> Position:
        if self.start is None:
            return Position(self.variant)
        return Position(self.variant, text=self.start)

    def position(self, ply: int | None = None) -> Position:
        """The position after the first ``ply`` moves (all of them if None)."""
        pos = self.start_position()
        for move in self.moves[: len(self.moves) if ply is None else ply]:
            pos.push(move.text)
        return pos

    @classmethod
    def from_position(
        cls,
        pos: Position,
        *,
        south: str = "?",
        north: str = "?",
        date: datetime.date | str | None = None,
        result: str | None = None,
        termination: Termination | str | None = None,
        time_control: str | None = None,
        annotations: Iterable[Annotation | None] = (),
        tags: dict[str, str] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``pos`` (from its root).

        ``result`` and ``termination`` default to the rules' verdict when the
        game is over, else ``*``; pass them for a referee's decision (a
        resignation, a time forfeit). ``annotations`` go with the moves in
        order."""
        start = Position(pos.variant, pos.root)
        initial = Position(pos.variant)
        start_text = None if start.state == initial.state else start.text()
        outcome = pos.outcome()
        if result is None:
            result = outcome.result() if outcome else "*"
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        if termination is None and outcome is not None:
            termination = outcome.termination
        if isinstance(date, datetime.date):
            date = date.strftime("%Y.%m.%d")
        record_tags: dict[str, str] = {
            "Date": date or datetime.date.today().strftime("%Y.%m.%d"),
            "South": south,
            "North": north,
            "Result": result,
            "Variant": pos.variant.spec(),
        }
        if start_text is not None:
            record_tags["Position"] = start_text
        if time_control:
            record_tags["TimeControl"] = time_control
        if termination is not None:
            record_tags["Termination"] = (
                termination.value if isinstance(termination, Termination) else termination
            )
        record_tags.update(tags or {})
        notes = list(annotations)
        moves = [
            RecordedMove(move.text, notes[i] if i < len(notes) else None)
            for i, move in enumerate(pos.move_stack)
        ]
        return cls(pos.variant, record_tags, start_text, moves)

    # -- writing ----------------------------------------------------------
    def dumps(self) -> str:
        """The record as text (ends with a newline)."""
        tags = dict(self.tags)
        tags["Variant"] = self.variant.spec()
        if self.start is not None:
            tags["Position"] = self.start
        else:
            tags.pop("Position", None)
        tags.setdefault("Result", "*")
        ordered = [t for t in TAG_ORDER if t in tags] + [t for t in tags if t not in TAG_ORDER]
        lines = [f'[{name} "{_escape(tags[name])}"]' for name in ordered]
        lines.append("")
        lines.extend(_wrap(self._movetext_tokens(tags["Result"])))
        return "\n".join(lines) + "\n"

    def _movetext_tokens(self, result: str) -> list[str]:
        tokens: list[str] = []
        if self.comment:
            tokens.append("{" + _comment_text(self.comment) + "}")
        pos = self.start_position()
        number = 0
        last_side: int | None = None
        for move in self.moves:
            side = pos.turn
            if side == SOUTH and last_side != SOUTH:
                number += 1
                tokens.append(f"{number}. {move.text}")
            elif last_side is None:
                number += 1
                tokens.append(f"{number}... {move.text}")
            else:
                tokens.append(move.text)
            if move.annotation is not None:
                text = move.annotation.format()
                if text:
                    tokens.append("{" + _comment_text(text) + "}")
            pos.push(move.text)
            last_side = side
        tokens.append(result)
        return tokens


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_text(text: str) -> str:
    """Braces cannot nest in a comment: turn them into parentheses."""
    return " ".join(text.replace("{", "(").replace("}", ")").split())


def _wrap(tokens: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > LINE_WIDTH:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    if current:
        lines.append(current)
    return lines


# -- reading --------------------------------------------------------------
_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_NUMBER = re.compile(r"^(\d+)(\.+)(.*)$")


class _Scanner:
    """Characters of a record file with the line number of each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line = 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def advance(self) -> str:
        ch = self.text[self.i]
        self.i += 1
        if ch == "\n":
            self.line += 1
        return ch

    def at_line_start(self) -> bool:
        j = self.text.rfind("\n", 0, self.i)
        return not self.text[j + 1 : self.i].strip()

    def skip_space(self) -> None:
        while self.peek() and self.peek().isspace():
            self.advance()

    def rest_of_line(self) -> str:
        j = self.text.find("\n", self.i)
        j = len(self.text) if j < 0 else j
        chunk = self.text[self.i : j]
        self.i = j
        return chunk


def _parse_tag(scanner: _Scanner) -> tuple[str, str, int]:
    line = scanner.line
    text = scanner.rest_of_line().strip()
    match = _TAG.match(text)
    if not match:
        raise RecordError(line, f'malformed tag {text!r} (write [Name "value"])')
    value = re.sub(r"\\(.)", r"\1", match[2])
    return match[1], value, line


def _bingwa_variant(tags: dict[str, str], lines: dict[str, int], first_line: int
                    ) -> tuple[Variant, str | None]:
    """The variant and start position a bingwa record's tags name."""
    if "Variant" not in tags:
        raise RecordError(first_line, 'the record has no Variant tag (e.g. [Variant "oware"])')
    try:
        variant = find_variant(tags["Variant"])
    except BingwaError as exc:
        raise RecordError(lines["Variant"], str(exc)) from None
    return variant, tags.get("Position") or None


class _GameReader:
    """Reads one game: its tags, then its movetext up to the result token,
    the next tag section or the end of the text.

    Other formats of the same shape (engine/ogn.py) pass ``variant_of``
    (tags -> variant and start), ``move_of`` (a record's move word -> the
    variant's move text) and ``variations=True`` to skip parenthesised
    variations instead of rejecting them."""

    def __init__(
        self,
        scanner: _Scanner,
        variant_of: Callable[[dict[str, str], dict[str, int], int], tuple[Variant, str | None]]
        = _bingwa_variant,
        move_of: Callable[[str], str] | None = None,
        variations: bool = False,
    ) -> None:
        self.s = scanner
        self.variant_of = variant_of
        self.move_of = move_of
        self.variations = variations

    def read(self) -> GameRecord:
        tags: dict[str, str] = {}
        lines: dict[str, int] = {}
        s = self.s
        first_line = s.line
        while True:
            s.skip_space()
            if s.peek() != "[":
                break
            name, value, line = _parse_tag(s)
            if name in tags:
                raise RecordError(line, f"tag {name} given twice")
            tags[name] = value
            lines[name] = line
        variant, start = self.variant_of(tags, lines, first_line)
        try:
            pos = Position(variant, text=start) if start else Position(variant)
        except BingwaError as exc:
            line = lines.get("Position", first_line)
            raise RecordError(line, f"bad Position tag: {exc}") from None
        if "Result" in tags and tags["Result"] not in RESULTS:
            raise RecordError(
                lines["Result"],
                f"Result must be one of {', '.join(RESULTS)}, not {tags['Result']!r}",
            )
        record = GameRecord(variant, tags, start or None)
        end_token, end_line = self._movetext(record, pos)
        result = tags.get("Result")
        if end_token is not None and result is not None and end_token != result:
            raise RecordError(end_line, f"the game ends {end_token} but its Result tag says {result}")
        if result is None:
            tags["Result"] = end_token or "*"
        self._check_outcome(record, pos, lines.get("Result", end_line))
        return record

    def _movetext(self, record: GameRecord, pos: Position) -> tuple[str | None, int]:
        s = self.s
        while True:
            s.skip_space()
            ch = s.peek()
            line = s.line
            if not ch:
                return None, line
            if ch == "[":
                if s.at_line_start():
                    return None, line  # the next game's tags
                raise RecordError(line, "a tag ('[') must start its own line")
            if ch == "{":
                self._comment(record)
                continue
            if ch == ";":
                s.rest_of_line()
                continue
            if ch == "%" and s.at_line_start():
                s.rest_of_line()
                continue
            if ch == "(" and self.variations:
                self._skip_variation()
                continue
            if ch in "()":
                raise RecordError(line, "variations (in parentheses) are not part of a bingwa record")
            if ch in "}]":
                raise RecordError(line, f"unexpected {ch!r}")
            word = self._word()
            if word in RESULTS:
                return word, line
            number = _NUMBER.match(word)
            if number:
                word = number[3]
                if not word:
                    continue
            self._move(record, pos, word, line)

    def _word(self) -> str:
        s = self.s
        chars = []
        while s.peek() and not s.peek().isspace() and s.peek() not in "{}();[]":
            chars.append(s.advance())
        return "".join(chars)

    def _comment(self, record: GameRecord) -> None:
        s = self.s
        line = s.line
        s.advance()  # {
        chars = []
        while True:
            ch = s.peek()
            if not ch:
                raise RecordError(line, "comment opened with '{' is never closed")
            s.advance()
            if ch == "}":
                break
            chars.append(ch)
        note = Annotation.parse("".join(chars))
        if not record.moves:
            record.comment = f"{record.comment} {note.format()}".strip()
        elif record.moves[-1].annotation is None:
            record.moves[-1].annotation = note
        else:
            record.moves[-1].annotation.merge(note)

    def _skip_variation(self) -> None:
        """Skip ``( ... )``, nested ones and comments inside included."""
        s = self.s
        line = s.line
        depth = 0
        while True:
            ch = s.peek()
            if not ch:
                raise RecordError(line, "variation opened with '(' is never closed")
            s.advance()
            if ch == "{":
                while s.peek() and s.peek() != "}":
                    s.advance()
                if not s.peek():
                    raise RecordError(line, "comment opened with '{' is never closed")
                s.advance()
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return

    def _move(self, record: GameRecord, pos: Position, word: str, line: int) -> None:
        ply = len(record.moves) + 1
        try:
            if self.move_of is not None:
                word = self.move_of(word)
            move = pos.push(word)  # Bao's lenient record forms included
        except BingwaError as exc:
            raise RecordError(line, f"ply {ply} ({pos.turn_name} to move): {exc}") from None
        record.moves.append(RecordedMove(move.text, None, line))

    @staticmethod
    def _check_outcome(record: GameRecord, pos: Position, line: int) -> None:
        """A game the rules ended must carry the rules' result."""
        outcome: Outcome | None = pos.outcome()
        if outcome is None or record.result == "*":
            return
        if outcome.result() != record.result:
            raise RecordError(
                line,
                f"the moves end the game {outcome.result()} ({outcome.termination.value}, "
                f"{outcome.scores[0]}-{outcome.scores[1]}) but the record says {record.result}",
            )


def iter_records(text: str) -> Iterator[GameRecord]:
    """Every game of a record text, in order (RecordError at the first
    problem; the games before it have been yielded)."""
    scanner = _Scanner(text)
    while True:
        scanner.skip_space()
        if not scanner.peek():
            return
        yield _GameReader(scanner).read()


def parse_records(text: str) -> list[GameRecord]:
    return list(iter_records(text))


def parse_record(text: str) -> GameRecord:
    """The one game of ``text`` (RecordError when there is none or more)."""
    games = parse_records(text)
    if len(games) != 1:
        raise RecordError(1, f"expected one game, found {len(games)}")
    return games[0]


def read_records(path: str | Path) -> list[GameRecord]:
    return parse_records(Path(path).read_text(encoding="utf-8"))


def read_record(path: str | Path) -> GameRecord:
    return parse_record(Path(path).read_text(encoding="utf-8"))


def dumps_records(records: Iterable[GameRecord]) -> str:
    """Games separated by a blank line."""
    return "\n".join(record.dumps() for record in records)


def write_records(path: str | Path, records: Iterable[GameRecord], append: bool = False) -> None:
    """Write (or append) games to ``path``."""
    path = Path(path)
    text = dumps_records(records)
    if append and path.exists() and path.stat().st_size:
        text = "\n" + text
    with path.open("a" if append else "w", encoding="utf-8") as out:
        out.write(text)


def write_record(path: str | Path, record: GameRecord) -> None:
    write_records(path, [record])
