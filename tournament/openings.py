"""Openings: from a file, or random openings kept only when balanced.

An openings file has one opening a line: either the moves from the start,
in the variant's notation, separated by spaces, or a position string
(docs/notation.md) to start from, told apart line by line. ``#`` starts
a comment. A line may begin with ``VARIANT:`` (a variant spec such as
``oware`` or ``kalah pits=4``) to apply to that variant only; other lines
apply to every variant of the run. Every line is checked with the rules:
a move the rules forbid, or a line that is neither, is an error naming
the line.

An opening is kept as a list of move texts; one that starts from a
position is the single item ``position:TEXT`` (``opening_start`` reads
both).

Random openings play ``plies`` uniformly random legal moves (seeded) and
keep the result only when a short search scores it within ``margin_cp``
of even for the side to move, when the game is not over, and when no
earlier opening reached the same position. When a variant has fewer such
openings than asked for (short openings of a small game), those found are
used in turn.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from pathlib import Path

from bingwa.engine import BingwaError, Position, find_variant
from bingwa.engine.limits import Info, Limits

log = logging.getLogger("bingwa.tournament")

Evaluator = Callable[[Position], int | None]


POSITION_PREFIX = "position:"


class OpeningError(ValueError):
    """An openings file that cannot be used, or too few balanced openings."""


def opening_start(variant: str, opening: list[str]) -> tuple[Position, list[str]]:
    """The position an opening starts from and the moves it plays from there."""
    if opening and opening[0].startswith(POSITION_PREFIX):
        return Position(variant, text=opening[0][len(POSITION_PREFIX):]), list(opening[1:])
    return Position(variant), list(opening)


def _read_line(wanted, line: str) -> list[str]:
    """One opening of the file: a position string, or moves from the start."""
    try:
        position = Position(wanted, text=line)
    except BingwaError as as_position:
        position = Position(wanted)
        for i, move in enumerate(line.split()):
            try:
                position.push(move)
            except BingwaError as exc:
                if i == 0:  # neither: say both
                    raise BingwaError(f"neither a position ({as_position}) nor moves ({exc})") from None
                raise
        if position.is_over():
            raise BingwaError("the game is over after this opening") from None
        return [m.text for m in position.move_stack]
    if position.is_over():
        raise BingwaError("the game is over in this position")
    return [POSITION_PREFIX + position.text()]


def read_openings(path: str | Path, variant: str) -> list[list[str]]:
    """The openings of ``variant`` in the file ``path``."""
    wanted = find_variant(variant)
    out: list[list[str]] = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise OpeningError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise OpeningError(f"{path}: not a text file (byte {exc.start} is not UTF-8)") from None
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        if sep:
            try:
                if find_variant(head) != wanted:
                    continue
            except BingwaError as exc:
                raise OpeningError(f"{path}:{number}: {exc}") from None
            line = rest.strip()
        try:
            out.append(_read_line(wanted, line))
        except BingwaError as exc:
            raise OpeningError(f"{path}:{number}: {exc}") from None
    if not out:
        raise OpeningError(f"{path}: no opening for {wanted.spec()}")
    return out


def negamax_margin(position: Position, depth: int) -> int:
    """Seed margin for the side to move after a full-width search of
    ``depth`` plies, in centi-seeds (the fallback evaluator)."""
    outcome = position.outcome()
    side = position.turn
    if outcome is not None:
        return 100 * outcome.margin(side)
    if depth == 0:
        south, north = position.scores()
        return 100 * (south - north if side == 0 else north - south)
    best = None
    for move in position.legal_moves():
        child = position.play(move)
        value = negamax_margin(child, depth - 1)
        if child.turn != side:  # turns do not always alternate
            value = -value
        best = value if best is None else max(best, value)
    return best if best is not None else 0


def search_evaluator(depth: int = 4) -> Evaluator:
    """Score positions with bingwa's alpha-beta bot at ``depth`` when it is
    there, else with a plain negamax on the seed margin. None means a
    proven result (never balanced)."""
    from bingwa.bots import find_bot

    try:
        bot = find_bot("alphabeta")()
    except ValueError:
        return lambda position: negamax_margin(position, min(depth, 4))

    def evaluate(position: Position) -> int | None:
        last: list[Info] = []
        bot.new_game()
        result = bot.go(position, Limits(depth=depth), last.append, threading.Event())
        info = result.info or (last[-1] if last else None)
        if info is None or info.score_mate is not None:
            return None
        return info.score_cp

    return evaluate


def random_openings(
    variant: str,
    count: int,
    plies: int,
    rng: random.Random,
    evaluate: Evaluator | None = None,
    margin_cp: int = 200,
    max_tries: int | None = None,
    on_scored: Callable[[int, int], None] | None = None,
) -> list[list[str]]:
    """``count`` distinct balanced openings of ``plies`` random moves;
    ``on_scored(kept, scored)`` after each one the search scored (the slow
    step: a progress display)."""
    if count < 1:
        raise OpeningError("ask for at least one opening")
    evaluate = evaluate or search_evaluator()
    if plies == 0:
        return [[]]
    tries = max_tries or 200 * count
    seen: set[int] = set()
    out: list[list[str]] = []
    misses = scored = 0
    for _ in range(tries):
        position = Position(variant)
        for _ply in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        if position.is_over() or position.key in seen:
            misses += 1
            if misses > min(50 * count, 20000):  # the short openings are all found
                break
            continue
        misses = 0
        seen.add(position.key)
        score = evaluate(position)
        scored += 1
        if score is not None and abs(score) <= margin_cp:
            out.append([m.text for m in position.move_stack])
        if on_scored is not None:
            on_scored(len(out), scored)
        if len(out) == count:
            return out
    if not out:
        raise OpeningError(
            f"{variant}: no balanced opening of {plies} plies within {margin_cp} cp "
            f"(widen the margin or shorten the openings)"
        )
    log.warning("%s: %d balanced openings of %d plies, not %d: they are reused",
                variant, len(out), plies, count)
    return out
