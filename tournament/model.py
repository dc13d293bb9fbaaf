"""The values a tournament is made of: engines as entered, games as
planned, and games as played (what the database stores and the ratings,
reports and records read)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

from .timecontrol import TimeControl

PROTOCOLS = ("uci", "auale")


class EngineSpecError(ValueError):
    """An engine description the runner cannot use."""


@dataclass(frozen=True)
class EngineSpec:
    """An engine as entered in a tournament.

    ``command`` is the argv that starts it; ``protocol`` is ``uci`` (bingwa's
    protocol, UCI-shaped) or ``auale`` (the dialect of Aualé's engine
    Aalina: such engines are never pinged while they search). ``options``
    are sent with ``setoption`` after the handshake; ``tc`` overrides the
    tournament's time control for this engine."""

    name: str
    command: tuple[str, ...]
    protocol: str = "uci"
    options: tuple[tuple[str, str], ...] = ()
    tc: TimeControl | None = None

    def __post_init__(self) -> None:
        if not self.name:
            raise EngineSpecError("an engine needs a name")
        if not self.command:
            raise EngineSpecError(f"engine {self.name}: no command")
        if self.protocol not in PROTOCOLS:
            raise EngineSpecError(
                f"engine {self.name}: protocol is one of {', '.join(PROTOCOLS)}, not {self.protocol!r}"
            )

    @classmethod
    def bot(cls, bot: str, name: str | None = None, **kwargs: Any) -> EngineSpec:
        """A built-in bot run as a protocol engine (``bingwa engine --bot``)."""
        from bingwa.protocol.bots import bot_names

        if bot not in bot_names():
            raise EngineSpecError(f"unknown bot {bot!r} (known: {', '.join(bot_names())})")
        command = (sys.executable, "-m", "bingwa", "engine", "--bot", bot)
        return cls(name or bot, command, **kwargs)

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """``name=N cmd=COMMAND [bot=B] [protocol=uci|auale] [tc=..]
        [nodes=N] [depth=D] [st=S] [option.NAME=VALUE ...]`` (fastchess'
        ``-engine`` syntax; COMMAND is quoted when it has spaces). A lone
        word is a built-in bot's name."""
        words = shlex.split(text)
        if len(words) == 1 and "=" not in words[0]:
            return cls.bot(words[0])
        fields: dict[str, str] = {}
        options: list[tuple[str, str]] = []
        for word in words:
            key, sep, value = word.partition("=")
            if not sep:
                raise EngineSpecError(f"engine field {word!r} must be written key=value")
            if key.startswith("option."):
                options.append((key[len("option."):], value))
            else:
                fields[key.lower()] = value
        unknown = set(fields) - {"name", "cmd", "bot", "protocol", "proto", "tc", "nodes", "depth", "st"}
        if unknown:
            raise EngineSpecError(f"unknown engine field(s): {', '.join(sorted(unknown))}")
        if "cmd" in fields and "bot" in fields:
            raise EngineSpecError("an engine takes cmd= or bot=, not both")
        tc = None
        limit_fields = {k: fields[k] for k in ("tc", "nodes", "depth", "st") if k in fields}
        if limit_fields:
            tc = TimeControl.from_fields(**limit_fields)
        protocol = fields.get("protocol", fields.get("proto", "uci")).lower()
        if "bot" in fields:
            return cls.bot(fields["bot"], fields.get("name"), protocol=protocol, options=tuple(options), tc=tc)
        if "cmd" not in fields:
            raise EngineSpecError(f"engine {text!r}: no cmd= or bot=")
        command = tuple(shlex.split(fields["cmd"]))
        name = fields.get("name") or command[0].rsplit("/", 1)[-1]
        return cls(name, command, protocol, tuple(options), tc)

    def check_command(self) -> None:
        """EngineSpecError when the command's program cannot be found (a
        typo caught before a run forfeits every game to it)."""
        program = self.command[0]
        found = shutil.which(program) if os.sep not in program else (
            program if os.access(program, os.X_OK) else None)
        if found is None:
            raise EngineSpecError(f"engine {self.name}: no program {program!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": list(self.command),
            "protocol": self.protocol,
            "options": [list(o) for o in self.options],
            "tc": self.tc.to_json() if self.tc else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EngineSpec:
        return cls(
            data["name"],
            tuple(data["command"]),
            data.get("protocol", "uci"),
            tuple((str(k), str(v)) for k, v in data.get("options", [])),
            TimeControl.from_json(data["tc"]) if data.get("tc") else None,
        )


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan. ``index`` orders the plan and keys the game in
    the database; the two games of a pair (same opening, colours swapped)
    share ``pair``; ``batch`` groups pairs for remote workers."""

    index: int
    pair: int
    batch: int
    variant: str
    opening: int  # index into the run's openings of this variant
    south: str
    north: str


@dataclass
class PlayedMove:
    """One ply: the move as the referee accepted it, who played it, and
    what the engine said about it (book moves come from the opening)."""

    move: str
    side: int
    time_ms: int | None = None
    score_cp: int | None = None
    score_mate: int | None = None
    depth: int | None = None
    nodes: int | None = None
    book: bool = False


@dataclass
class PlayedGame:
    """A finished game as the referee saw it. ``loser`` names the engine a
    referee termination (crash, stall, ...) was charged to; ``detail`` the
    failure and the protocol lines that led to it."""

    planned: PlannedGame
    result: str  # "1-0" (South won), "0-1" or "1/2-1/2"
    termination: str  # a Termination value
    scores: tuple[int, int]
    moves: list[PlayedMove] = field(default_factory=list)
    start_position: str = ""
    detail: str = ""
    loser: str | None = None
    started: float = 0.0
    finished: float = 0.0

    @property
    def south_points(self) -> float:
        return {"1-0": 1.0, "0-1": 0.0}.get(self.result, 0.5)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["scores"] = list(self.scores)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayedGame:
        return cls(
            planned=PlannedGame(**data["planned"]),
            result=data["result"],
            termination=data["termination"],
            scores=(int(data["scores"][0]), int(data["scores"][1])),
            moves=[PlayedMove(**m) for m in data.get("moves", [])],
            start_position=data.get("start_position", ""),
            detail=data.get("detail", ""),
            loser=data.get("loser"),
            started=data.get("started", 0.0),
            finished=data.get("finished", 0.0),
        )
