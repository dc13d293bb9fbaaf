"""Every dialect by name: the one place that knows them all (dialect.py
holds the base and bingwa's own words, auale.py Aualé's, and neither
imports this module)."""

from __future__ import annotations

from bingwa.engine.errors import VariantError

from .auale import AUALE
from .dialect import UCI, Dialect

DIALECT_NAMES = ("uci", "auale")

# every name a dialect answers to (lower case, é written e)
_BY_NAME: dict[str, Dialect] = {
    "uci": UCI, "ugi": UCI, "bingwa": UCI,
    "auale": AUALE, "aalina": AUALE,
}


def find_dialect(name: str) -> Dialect:
    """The dialect named ``name`` (``uci`` or ``auale``; VariantError when
    unknown, with the known names)."""
    dialect = _BY_NAME.get(name.strip().lower().replace("é", "e"))
    if dialect is None:
        raise VariantError(f"unknown dialect {name!r} (known: {', '.join(DIALECT_NAMES)})")
    return dialect
