"""The words of the protocol, shared by the server and the client
(docs/protocol.md): reading and writing ``go``, ``info``, ``option``,
``setoption`` and ``position`` lines.

Everything here is pure text work: no threads, no positions. Moves stay in
the wire's words; a Dialect (dialect.py) turns them into bingwa's notation.
Parsers of what a GUI sends are lenient where the protocol says so (clocks
may be negative: clamp) and strict where a wrong guess would do harm.
"""

from __future__ import annotations

from dataclasses import dataclass

from bingwa.bots.base import BotOption
from bingwa.engine.limits import Info, Limits


class CommandError(ValueError):
    """A command line the server cannot act on; the message is the text of
    its one ``info string error: ...`` line."""


class InfoFormatError(ValueError):
    """An ``info`` line that breaks the specification (strict reading)."""


# -- names ---------------------------------------------------------------------
def normalise_name(name: str) -> str:
    """Option names compare case-insensitively, with ``_``, ``-`` and runs
    of spaces all equal: ``Move Overhead`` = ``move_overhead``."""
    return " ".join(name.replace("_", " ").replace("-", " ").lower().split())


def clipped(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, saying how much went
    (an error message may quote what was sent, and that can be huge)."""
    if len(text) <= limit:
        return text
    tail = f" ... ({len(text)} characters in all)"
    return text[: max(0, limit - len(tail))] + tail


def strip_comment(line: str) -> str:
    """The line without its comment: ``#`` at the start of the line or after
    a space starts one."""
    if line.startswith("#"):
        return ""
    cut = line.find(" #")
    tab = line.find("\t#")
    cuts = [c for c in (cut, tab) if c >= 0]
    return line[: min(cuts)] if cuts else line


# -- go ------------------------------------------------------------------------
# The largest values taken as they are; larger ones are clamped (a huge
# number from a GUI must not overflow a C integer or a timer).
MAX_TIME_MS = 10**9  # about 11.5 days
MAX_DEPTH = 1000
MAX_NODES = 2**62
MAX_MOVESTOGO = 10**6

# wire keyword -> Limits field
CLOCK_WORDS = {
    "wtime": "p1time",
    "btime": "p2time",
    "winc": "p1inc",
    "binc": "p2inc",
    "p1time": "p1time",
    "p2time": "p2time",
    "p1inc": "p1inc",
    "p2inc": "p2inc",
    "movetime": "movetime",
}
COUNT_WORDS = {"depth": MAX_DEPTH, "nodes": MAX_NODES, "movestogo": MAX_MOVESTOGO}
FLAG_WORDS = ("infinite", "ponder")
GO_WORDS = frozenset((*CLOCK_WORDS, *COUNT_WORDS, *FLAG_WORDS, "searchmoves"))


def parse_int(text: str) -> int | None:
    """A whole number written in ASCII digits with an optional sign."""
    body = text[1:] if text[:1] in "+-" else text
    if not body.isascii() or not body.isdigit() or len(body) > 40:
        return None
    return int(text)


def parse_go(words: list[str]) -> tuple[Limits, list[str]]:
    """The limits of a ``go`` line (its words after ``go``) and the problems
    found. A bad parameter is reported and left out; the rest still counts,
    so that every ``go`` gets its ``bestmove``. Clocks and ``movetime`` below
    zero count as zero; ``depth``, ``nodes`` and ``movestogo`` must be at
    least 1. ``searchmoves`` takes the words up to the next keyword."""
    limits = Limits()
    problems: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word in FLAG_WORDS:
            setattr(limits, word, True)
        elif word == "searchmoves":
            start = i
            while i < len(words) and words[i] not in GO_WORDS:
                i += 1
            if i == start:
                problems.append("searchmoves names no move")
            limits.searchmoves.extend(words[start:i])
        elif word in CLOCK_WORDS or word in COUNT_WORDS:
            if i >= len(words) or words[i] in GO_WORDS:
                problems.append(f"{word} needs a number")
                continue
            value = parse_int(words[i])
            if value is None:
                problems.append(f"{word} takes a whole number, not {words[i]!r}")
                i += 1
                continue
            i += 1
            if word in CLOCK_WORDS:
                setattr(limits, CLOCK_WORDS[word], min(max(value, 0), MAX_TIME_MS))
            elif value < 1:
                problems.append(f"{word} must be at least 1, not {value}")
            else:
                setattr(limits, word, min(value, COUNT_WORDS[word]))
        else:
            problems.append(f"unknown go parameter {word!r}")
    return limits, problems


def format_go(limits: Limits, clock_names: str = "uci", moves: list[str] | None = None) -> str:
    """The ``go`` line of ``limits``; ``clock_names`` is ``uci``
    (wtime/btime/winc/binc) or ``ugi`` (p1time/p2time/p1inc/p2inc).
    ``moves`` replaces ``limits.searchmoves`` (already in the wire's words)."""
    names = ("wtime", "btime", "winc", "binc") if clock_names == "uci" else (
        "p1time", "p2time", "p1inc", "p2inc")
    parts = ["go"]
    if limits.ponder:
        parts.append("ponder")
    for name, value in zip(names, (limits.p1time, limits.p2time, limits.p1inc, limits.p2inc)):
        if value is not None and (value or name.endswith("time")):
            parts += [name, str(int(value))]
    for name in ("movestogo", "movetime", "depth", "nodes"):
        value = getattr(limits, name)
        if value is not None:
            parts += [name, str(int(value))]
    if limits.infinite:
        parts.append("infinite")
    searchmoves = limits.searchmoves if moves is None else moves
    if searchmoves:
        parts += ["searchmoves", *searchmoves]
    return " ".join(parts)


# -- info ----------------------------------------------------------------------
INFO_INT_FIELDS = ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits")
# UCI info words bingwa does not produce but a reader accepts: word -> how
# many values follow (None: the rest of the line, -1: moves up to a keyword).
INFO_OTHER_WORDS = {
    "currmove": 1,
    "currmovenumber": 1,
    "sbhits": 1,
    "cpuload": 1,
    "refutation": -1,
    "currline": -1,
}
INFO_WORDS = frozenset((*INFO_INT_FIELDS, *INFO_OTHER_WORDS, "score", "draw", "pv", "string"))


def format_info(info: Info, pv: list[str] | None = None, score: tuple[str, int] | None = None) -> str:
    """The ``info`` line of ``info`` with integers only. ``pv`` and ``score``
    (kind, value) replace the Info's own when a dialect rewrote them.
    A proven draw is ``score cp 0 draw <plies>`` (bingwa's extension: UCI
    readers skip a word they do not know), unless a dialect wrote the score.
    ``string`` comes last (it takes the rest of the line)."""
    parts = ["info"]
    for name in ("depth", "seldepth", "multipv"):
        value = _as_int(getattr(info, name))
        if value is not None:
            parts += [name, str(value)]
    draw = None
    if score is None:
        draw = _as_int(info.score_draw)
        if info.score_mate is not None and _as_int(info.score_mate) is not None:
            score = ("mate", _as_int(info.score_mate))  # type: ignore[assignment]
        elif info.score_cp is not None and _as_int(info.score_cp) is not None:
            score = ("cp", _as_int(info.score_cp))  # type: ignore[assignment]
    if score is not None:
        parts += ["score", score[0], str(score[1])]
        if info.bound in ("lowerbound", "upperbound"):
            parts.append(info.bound)
        elif draw is not None and score == ("cp", 0):
            parts += ["draw", str(draw)]
    for name in ("nodes", "nps", "time", "hashfull", "tbhits"):
        value = _as_int(getattr(info, name))
        if value is not None:
            parts += [name, str(value)]
    moves = info.pv if pv is None else pv
    if moves:
        parts += ["pv", *moves]
    if info.string:
        parts += ["string", " ".join(str(info.string).split())]
    return " ".join(parts)


def _as_int(value: object) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return None


def parse_info(line: str, strict: bool = False) -> Info:
    """The Info of an ``info`` line. Lenient by default (a bad field is
    skipped); ``strict`` raises InfoFormatError naming the first problem:
    a non-integer value, an unknown word, a score without cp or mate.
    ``draw <plies>`` (a proven draw) sets ``score_draw``."""
    words = line.split()
    if not words or words[0] != "info":
        raise InfoFormatError(f"not an info line: {line!r}")
    info = Info()
    i = 1

    def fail(message: str) -> None:
        if strict:
            raise InfoFormatError(f"{message} in {line!r}")

    while i < len(words):
        word = words[i]
        i += 1
        if word == "string":
            at = _word_offset(line, i - 1)
            info.string = line[at + len("string"):].strip()
            break
        if word in INFO_INT_FIELDS:
            value = parse_int(words[i]) if i < len(words) else None
            if value is None or value < 0:
                fail(f"{word} takes a whole number that is not negative")
            else:
                setattr(info, word, value)
            i += 1
        elif word == "score":
            kind = words[i] if i < len(words) else ""
            value = parse_int(words[i + 1]) if i + 1 < len(words) else None
            if kind not in ("cp", "mate") or value is None:
                fail("score takes cp <int> or mate <int>")
                i += 1
                continue
            i += 2
            if kind == "cp":
                info.score_cp = value
            else:
                info.score_mate = value
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                info.bound = words[i]
                i += 1
        elif word == "draw":
            value = parse_int(words[i]) if i < len(words) else None
            if value is None or value < 0:
                fail("draw takes a whole number of plies that is not negative")
            else:
                info.score_draw = value
            i += 1
        elif word == "pv":
            start = i
            while i < len(words) and words[i] not in INFO_WORDS:
                i += 1
            if i == start:
                fail("pv names no move")
            info.pv = words[start:i]
        elif word in INFO_OTHER_WORDS:
            count = INFO_OTHER_WORDS[word]
            if count == 1:
                i += 1
            else:
                while i < len(words) and words[i] not in INFO_WORDS:
                    i += 1
        else:
            fail(f"unknown info word {word!r}")
    return info


def _word_offset(line: str, index: int) -> int:
    """Character offset of word ``index`` (0-based) in ``line``."""
    at = 0
    for n in range(index + 1):
        while line[at].isspace():
            at += 1
        if n == index:
            return at
        while at < len(line) and not line[at].isspace():
            at += 1
    return at


# -- option --------------------------------------------------------------------
OPTION_TYPES = ("check", "spin", "combo", "button", "string")
OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


def parse_option(line: str) -> BotOption:
    """The option declared by an ``option name N type T ...`` line (names,
    defaults and vars may hold spaces). Raises CommandError."""
    words = line.split()
    if not words or words[0] != "option":
        raise CommandError(f"not an option line: {line!r}")
    sections: list[tuple[str, list[str]]] = []
    for word in words[1:]:
        if word in OPTION_WORDS:
            sections.append((word, []))
        elif sections:
            sections[-1][1].append(word)
        else:
            raise CommandError(f"option line has {word!r} before its name: {line!r}")
    fields = {key: " ".join(value) for key, value in sections if key != "var"}
    vars_ = tuple(" ".join(value) for key, value in sections if key == "var")
    name, kind = fields.get("name", ""), fields.get("type", "")
    if not name:
        raise CommandError(f"option line without a name: {line!r}")
    if kind not in OPTION_TYPES:
        raise CommandError(
            f"option {name!r} has type {kind!r}, not one of {', '.join(OPTION_TYPES)}"
        )
    default_text = fields.get("default")
    option = BotOption(name, kind, default_text, vars=vars_)
    if kind == "spin":
        for bound in ("min", "max"):
            value = parse_int(fields.get(bound, ""))
            if value is None:
                raise CommandError(f"spin option {name!r} needs an integer {bound}")
            setattr(option, bound, value)
        default = parse_int(default_text or "")
        if default is None:
            raise CommandError(f"spin option {name!r} needs an integer default")
        option.default = default
    elif kind == "check":
        if default_text not in ("true", "false"):
            raise CommandError(f"check option {name!r} needs default true or false")
        option.default = default_text == "true"
    elif kind == "combo" and not vars_:
        raise CommandError(f"combo option {name!r} lists no var")
    elif kind == "string" and default_text == "<empty>":
        option.default = ""
    return option


@dataclass(frozen=True)
class SetOption:
    name: str
    value: str | None


def parse_setoption(line: str) -> SetOption:
    """``setoption name N [value V]``: N and V may hold spaces; V keeps its
    case. Raises CommandError."""
    words = line.split()
    if len(words) < 3 or words[1] != "name":
        raise CommandError("setoption takes: setoption name <name> [value <value>]")
    rest = words[2:]
    if "value" in rest:
        cut = rest.index("value")
        name_words, value_words = rest[:cut], rest[cut + 1:]
        value: str | None = " ".join(value_words)
    else:
        name_words, value = rest, None
    if not name_words:
        raise CommandError("setoption names no option")
    return SetOption(" ".join(name_words), value)


# -- position --------------------------------------------------------------------
@dataclass(frozen=True)
class PositionCommand:
    """``position startpos|fen <text> [moves m1 m2 ...]``; ``text`` is None
    for startpos; moves are the wire's words."""

    text: str | None
    moves: tuple[str, ...]


def parse_position(words: list[str]) -> PositionCommand:
    """Read a ``position`` line (its words). Raises CommandError."""
    if len(words) < 2:
        raise CommandError("position takes: position startpos|fen <position> [moves <m1> <m2> ...]")
    rest = words[1:]
    if "moves" in rest:
        cut = rest.index("moves")
        head, moves = rest[:cut], rest[cut + 1:]
    else:
        head, moves = rest, []
    if head[:1] == ["startpos"]:
        if len(head) > 1:
            raise CommandError(f"unexpected words after startpos: {' '.join(head[1:])!r}")
        return PositionCommand(None, tuple(moves))
    if head[:1] == ["fen"]:
        if len(head) < 2:
            raise CommandError("position fen needs a position string")
        return PositionCommand(" ".join(head[1:]), tuple(moves))
    raise CommandError(f"position takes startpos or fen, not {head[0] if head else 'moves'!r}")
