"""What every socket of ``bingwa serve`` shares, a game's (server.py) and a
room's (room_server.py): the engine pool's key, the first message, the
origin check."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bingwa import __version__
from bingwa.engine.variant import REGISTRY, variant_names

from .engines import EnginePool
from .messages import THINK_RANGES

POOL_KEY = web.AppKey("pool", EnginePool)

TITLES = {"oware": "Oware (Abapa)", "ayoayo": "Ayoayo", "kalah": "Kalah",
          "bao": "Bao la Kiswahili", "kujifunza": "Bao la Kujifunza"}


def variants_view() -> list[dict[str, Any]]:
    """The variants and their options, for the page's new-game form."""
    out = []
    for name in variant_names():
        cls = REGISTRY[name]
        options = [{"name": o.name, "kind": o.kind, "default": o.default,
                    "choices": list(o.choices), "low": o.low, "high": o.high, "help": o.help}
                   for o in cls.option_specs]
        title = TITLES.get(name, name.capitalize())
        out.append({"name": name, "title": title, "options": options})
    return out


def hello_message(pool: EnginePool) -> dict[str, Any]:
    """The first message of every socket, a game's or a room's: the
    version, the variants, the engines and the thinking ranges."""
    return {"type": "hello", "version": __version__, "variants": variants_view(),
            "engines": pool.names, "think": {k: list(v) for k, v in THINK_RANGES.items()}}


def same_origin(request: web.Request) -> bool:
    """A browser names the page that opens a socket: only our own page may
    (another site open in the same browser must not drive the engines)."""
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host
