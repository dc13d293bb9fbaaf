"""Oware records in OGN ("Oware Game Notation"), the match files of Aualé,
the Oware GUI (docs/records.md, section OGN, says what is known and what is
assumed).

What Aualé's own material says: its match files (``*.ogn``, MIME type
``text/x-oware-ogn``) are plain text in a format "which resembles the popular
Portable Game Notation", holding the match tags Event, Site, Date, Round,
South, North, Result, Variant and Description; moves are pit letters, South
``A``-``F`` and North ``a``-``f`` (the case of bingwa's letters swapped, as in
Aualé's engine dialect, protocol/auale.py). Aualé plays Oware Abapa, which
is bingwa's ``oware`` with the default grand-slam rule.

Assumed (as PGN does it; not confirmed by a specification): tags are
``[Name "value"]`` lines with ``\\"`` escapes; moves are numbered ``1. C c``;
results are ``1-0`` (South won), ``0-1``, ``1/2-1/2`` or ``*``; comments are
in braces after a move; variations are in parentheses; the Variant tag reads
``Abapa``; dates are ``YYYY.MM.DD``. A game always starts from the initial
position.

The reader is lenient where that is safe: move numbers optional, unknown
tags kept, variations skipped (bingwa records hold the main line only), any
Variant naming Oware or Abapa accepted. It is strict where a wrong game
would follow: an illegal move or a result the rules contradict is a
RecordError with its line, never replayed past.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .errors import BingwaError, MoveError
from .records import GameRecord, RecordError, _GameReader, _Scanner, _wrap
from .variant import Variant, find_variant

OGN_TAGS = ("Event", "Site", "Date", "Round", "South", "North", "Result", "Variant",
            "Description")
OGN_VARIANT = "Abapa"
VARIANT_WORDS = ("abapa", "oware", "awale", "awari", "owari")
SOUTH_LETTERS = "ABCDEF"
NORTH_LETTERS = "abcdef"


class OGNError(BingwaError, ValueError):
    """A record OGN cannot hold (another variant, a set-up start)."""


def ogn_letter(text: str) -> str:
    """The OGN letter of bingwa's move text (``a`` -> ``A``, ``A`` -> ``a``)."""
    if len(text) == 1 and (text in SOUTH_LETTERS or text in NORTH_LETTERS):
        return text.swapcase()
    raise OGNError(f"{text!r} is not an Oware move")


def bingwa_move(letter: str) -> str:
    """bingwa's move text of an OGN pit letter (MoveError if none)."""
    if len(letter) == 1 and (letter in SOUTH_LETTERS or letter in NORTH_LETTERS):
        return letter.swapcase()
    raise MoveError(f"{letter!r} is not an OGN move (South A-F, North a-f)")


def _abapa(tags: dict[str, str], lines: dict[str, int], first_line: int
           ) -> tuple[Variant, str | None]:
    name = tags.get("Variant", OGN_VARIANT)
    if not any(word in name.lower() for word in VARIANT_WORDS):
        raise RecordError(lines.get("Variant", first_line),
                          f"OGN records hold Oware Abapa games, not {name!r}")
    return find_variant("oware"), None


def iter_ogn(text: str) -> Iterator[GameRecord]:
    """The games of an OGN text as bingwa records (variant ``oware``)."""
    scanner = _Scanner(text)
    while True:
        scanner.skip_space()
        if not scanner.peek():
            return
        record = _GameReader(scanner, variant_of=_abapa, move_of=bingwa_move,
                             variations=True).read()
        record.tags["Variant"] = record.variant.spec()
        yield record


def parse_ogn(text: str) -> list[GameRecord]:
    return list(iter_ogn(text))


def read_ogn(path: str | Path) -> list[GameRecord]:
    return parse_ogn(Path(path).read_text(encoding="utf-8"))


def ogn_refusal(variant: Variant, set_up: bool) -> str | None:
    """Why OGN cannot hold a game of ``variant`` (from a set-up position
    when ``set_up``), or None when it can."""
    if variant != find_variant("oware"):
        return f"OGN holds Oware Abapa games only, not {variant.spec()!r}"
    if set_up:
        return "OGN games start from the initial position; this one is set up"
    return None


def dumps_ogn(record: GameRecord) -> str:
    """``record`` as an OGN match (OGNError if OGN cannot hold it)."""
    refusal = ogn_refusal(record.variant, record.start is not None)
    if refusal is not None:
        raise OGNError(refusal)
    tags = {name: record.tags.get(name, "?") for name in OGN_TAGS[:7]}
    tags["Result"] = record.result
    tags["Variant"] = OGN_VARIANT
    description = record.tags.get("Description") or record.comment
    if description:
        tags["Description"] = description
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    tokens = []
    for ply, move in enumerate(record.moves):
        letter = ogn_letter(move.text)
        # Oware turns alternate from South: South's plies are the even ones
        tokens.append(f"{ply // 2 + 1}. {letter}" if ply % 2 == 0 else letter)
        if move.annotation is not None:
            text = move.annotation.format()
            if text:
                tokens.append("{" + " ".join(text.replace("{", "(").replace("}", ")").split())
                              + "}")
    tokens.append(record.result)
    return "\n".join([*lines, "", *_wrap(tokens)]) + "\n"


def write_ogn(path: str | Path, record: GameRecord) -> None:
    Path(path).write_text(dumps_ogn(record), encoding="utf-8")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
