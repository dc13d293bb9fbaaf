"""One spelling for the same thing in every command (README, "Command-line
conventions"): the variant is ``-v/--variant NAME``, a position
``-p/--position TEXT``, threads ``-j/--jobs N``.

``play``, ``analyse``, ``perft`` and ``solve build``/``query`` took the
variant (and ``solve query`` the position) as positional arguments, and
``tournament``/``sprt`` called their threads ``--concurrency``. Those old
spellings are still read until bingwa 0.2 (one release), each command's
help saying so; giving the same thing both ways is one error line (a
click.UsageError, which the command group prints as one line, exit 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

DEFAULT_VARIANT = "oware"  # as engine, tournament and sprt default
UNTIL = "bingwa 0.2"


def old_spelling_note(example: str, new: str) -> str:
    """The help's epilog for a command that still reads an old spelling."""
    return f"Deprecated (still read until {UNTIL}): {example}, the old spelling of {new}."


def variant_choice(default: str = DEFAULT_VARIANT) -> Callable[[Any], Any]:
    """``-v/--variant NAME`` and the old positional ``[VARIANT]`` before
    it, both read into ``variant`` and ``old_variant`` (``pick_variant``
    makes them one). ``nargs=-1`` lets a required argument follow it
    (``perft [VARIANT] DEPTH``), as click reads ``cp SRC... DST``."""

    def decorate(f: Any) -> Any:
        f = click.option("--variant", "-v", "variant", metavar="NAME", default=None,
                         help=f"The variant (default {default}); see bingwa variants.")(f)
        return click.argument("old_variant", nargs=-1, metavar="[VARIANT]")(f)

    return decorate


def pick_variant(option: str | None, positional: tuple[str, ...],
                 default: str = DEFAULT_VARIANT) -> str:
    """The variant given as ``-v`` or in the old positional spelling (not
    both), else ``default``."""
    if len(positional) > 1:
        raise click.UsageError(f"too many arguments: {' '.join(positional)}")
    old = positional[0] if positional else None
    if option is not None and old is not None:
        raise click.UsageError(f"the variant is given twice, as {old!r} and as -v {option}: "
                               "give -v NAME only")
    return option or old or default
