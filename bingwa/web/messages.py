"""The messages a page may send, checked before anything acts on them.

A message is one JSON object of at most MAX_MESSAGE bytes with a ``type``
from MESSAGE_FIELDS and only that type's fields, each of its kind. Anything
else is a MessageError whose text goes back to the page as one error line;
nothing a page sends can raise anything else out of ``parse_message``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bingwa.engine import BingwaError

MAX_MESSAGE = 256 * 1024  # bytes: a saved record of a long game fits
MAX_TEXT = 200  # characters of a short field (a move, a variant spec, a name)
THINK_CHOICES = ("movetime", "depth", "nodes")
THINK_RANGES = {"movetime": (10, 60_000), "depth": (1, 64), "nodes": (1, 100_000_000)}
PLAYER_KINDS = ("human", "engine")


class MessageError(BingwaError, ValueError):
    """A page's message that is not one the server understands."""


@dataclass(frozen=True)
class Player:
    """Who plays one side: a person at the page, or an engine with its
    strength (Skill Level, None for the engine's default) and budget."""

    kind: str = "human"
    engine: str = ""
    skill: int | None = None
    think: str = "movetime"
    amount: int = 1000

    @property
    def is_engine(self) -> bool:
        return self.kind == "engine"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "engine": self.engine, "skill": self.skill,
                "think": self.think, "amount": self.amount}


# type -> {field: (kind, required)}; kinds: str, int, bool, player, text, any
MESSAGE_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "join": {"game": ("str", False)},
    "new": {"variant": ("str", True), "south": ("player", True), "north": ("player", True)},
    "players": {"south": ("player", True), "north": ("player", True)},
    "move": {"move": ("str", True)},
    "undo": {},
    "redo": {},
    "goto": {"ply": ("int", True)},
    "pause": {},
    "resume": {},
    "hint": {},
    "stop": {},
    "save": {"format": ("str", False)},
    "load": {"text": ("text", True), "format": ("str", False)},
}


def parse_message(raw: str | bytes, known: dict[str, dict[str, tuple[str, bool]]] | None = None,
                  limit: int = MAX_MESSAGE) -> tuple[str, dict[str, Any]]:
    """(type, checked fields) of one message from a page (MessageError);
    ``known`` and ``limit`` for another socket's messages (rooms.py)."""
    if len(raw) > limit:
        raise MessageError(f"message too long ({len(raw)} bytes, at most {limit})")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise MessageError("a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise MessageError("a message must be one JSON object")
    kind = data.get("type")
    known = MESSAGE_FIELDS if known is None else known
    if not isinstance(kind, str) or kind not in known:
        names = ", ".join(known)
        raise MessageError(f"unknown message type {str(kind)[:MAX_TEXT]!r} (known: {names})")
    fields = known[kind]
    extra = sorted(set(data) - set(fields) - {"type"})
    if extra:
        raise MessageError(f"{kind}: unknown field {extra[0][:MAX_TEXT]!r}")
    checked: dict[str, Any] = {}
    for name, (field_kind, required) in fields.items():
        if data.get(name) is None:  # null is absent, as JSON writers often send it
            if required:
                raise MessageError(f"{kind}: the field {name!r} is missing")
            continue
        checked[name] = _check(kind, name, field_kind, data[name])
    return kind, checked


def _check(kind: str, name: str, field_kind: str, value: Any) -> Any:
    where = f"{kind}: {name}"
    if field_kind in ("str", "text"):
        limit = MAX_MESSAGE if field_kind == "text" else MAX_TEXT
        if not isinstance(value, str):
            raise MessageError(f"{where} must be text")
        if len(value) > limit:
            raise MessageError(f"{where} is too long ({len(value)} characters, at most {limit})")
        return value
    if field_kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise MessageError(f"{where} must be a whole number")
        return value
    if field_kind == "bool":
        if not isinstance(value, bool):
            raise MessageError(f"{where} must be true or false")
        return value
    if field_kind == "any":  # checked by the receiver (a room's clock)
        return value
    return parse_player(value, where)


def parse_player(value: Any, where: str = "player") -> Player:
    """A Player from ``{"kind": "human"}`` or ``{"kind": "engine", "engine":
    NAME, "skill": 0..20, "think": "movetime"|"depth"|"nodes", "amount": N}``."""
    if not isinstance(value, dict):
        raise MessageError(f"{where} must be an object such as {{\"kind\": \"human\"}}")
    unknown = sorted(set(value) - {"kind", "engine", "skill", "think", "amount"})
    if unknown:
        raise MessageError(f"{where}: unknown field {unknown[0][:MAX_TEXT]!r}")
    kind = value.get("kind")
    if kind not in PLAYER_KINDS:
        raise MessageError(f"{where}: kind must be human or engine")
    if kind == "human":
        return Player()
    engine = value.get("engine", "")
    if not isinstance(engine, str) or len(engine) > MAX_TEXT:
        raise MessageError(f"{where}: engine must be an engine's name")
    skill = value.get("skill")
    if skill is not None and (not isinstance(skill, int) or isinstance(skill, bool)
                              or not 0 <= skill <= 20):
        raise MessageError(f"{where}: skill must be a whole number in 0..20")
    think = value.get("think", "movetime")
    if think not in THINK_CHOICES:
        raise MessageError(f"{where}: think must be one of {', '.join(THINK_CHOICES)}")
    amount = value.get("amount", 1000)
    low, high = THINK_RANGES[think]
    if not isinstance(amount, int) or isinstance(amount, bool) or not low <= amount <= high:
        raise MessageError(f"{where}: amount for {think} must be a whole number in {low}..{high}")
    return Player("engine", engine, skill, think, amount)
