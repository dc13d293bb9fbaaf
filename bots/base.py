"""The interface every bot implements; the protocol server drives bots
only through it.

A bot is told about options, new games and ``go``; it reports progress by
calling ``emit(Info)`` and returns a SearchResult. ``go`` runs on the
server's search thread and must return soon after ``stop`` is set (the
server answers ``isready`` meanwhile).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult

Emit = Callable[[Info], None]


class BotOptionError(ValueError):
    """An unknown option name or a value the option does not take."""


@dataclass
class BotOption:
    """A UCI option: type is check, spin, combo, button or string."""

    name: str
    type: str
    default: Any = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()
    help: str = ""

    def parse(self, value: str | None) -> Any:
        if self.type == "button":
            return True
        if value is None:
            raise BotOptionError(f"option {self.name} needs a value")
        if self.type == "check":
            low = value.strip().lower()
            if low not in ("true", "false"):
                raise BotOptionError(f"option {self.name} takes true or false, not {value!r}")
            return low == "true"
        if self.type == "spin":
            try:
                number = int(value.strip())
            except ValueError:
                raise BotOptionError(f"option {self.name} takes a whole number, not {value!r}") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise BotOptionError(
                    f"option {self.name} must be in {self.min}..{self.max}, not {number}"
                )
            return number
        if self.type == "combo":
            for var in self.vars:
                if var.lower() == value.strip().lower():
                    return var
            raise BotOptionError(
                f"option {self.name} takes one of {', '.join(self.vars)}, not {value!r}"
            )
        return value

    def uci(self) -> str:
        """The ``option name ... type ...`` line of the handshake."""
        line = f"option name {self.name} type {self.type}"
        if self.type == "button":
            return line
        default = self.default
        if isinstance(default, bool):
            default = "true" if default else "false"
        line += f" default {'<empty>' if default in (None, '') else default}"
        if self.type == "spin":
            line += f" min {self.min} max {self.max}"
        for var in self.vars:
            line += f" var {var}"
        return line


class Bot:
    """Base class: option bookkeeping; subclasses implement ``go``."""

    name: ClassVar[str] = "bot"
    summary: ClassVar[str] = ""
    author: ClassVar[str] = "the bingwa developers"

    def __init__(self) -> None:
        self.values: dict[str, Any] = {o.name.lower(): o.default for o in self.options()}

    def options(self) -> list[BotOption]:
        """The bot's own options (the server adds the variant options)."""
        return []

    def find_option(self, name: str) -> BotOption:
        for option in self.options():
            if option.name.lower() == name.strip().lower():
                return option
        raise BotOptionError(f"unknown option {name!r}")

    def set_option(self, name: str, value: str | None) -> None:
        option = self.find_option(name)
        self.values[option.name.lower()] = option.parse(value)

    def option(self, name: str) -> Any:
        return self.values[name.lower()]

    def new_game(self) -> None:
        """Forget everything learnt about the last game."""

    def go(
        self, position: Position, limits: Limits, emit: Emit, stop: threading.Event
    ) -> SearchResult:
        raise NotImplementedError

    def candidate_moves(self, position: Position, limits: Limits) -> list[Any]:
        """Legal moves restricted to ``searchmoves`` when given."""
        moves = position.legal_moves()
        if limits.searchmoves:
            wanted = set(limits.searchmoves)
            moves = [m for m in moves if m.text in wanted] or moves
        return moves
