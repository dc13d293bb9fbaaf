"""Who plays whom, with which opening and colours: the plan of a run.

The plan is a pure function of the run's configuration, so a resumed run
recomputes it and skips the games already stored. Each opening is played
twice with colours swapped: games ``2k`` and ``2k + 1`` form pair ``k``.
Pairs are ordered opening by opening (every matchup plays opening 0, then
every matchup plays opening 1, ...), so a run stopped part-way is still
balanced. Batches (for remote workers) are runs of consecutive pairs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, count

from .model import PlannedGame

KINDS = ("round-robin", "gauntlet", "sprt")


class ScheduleError(ValueError):
    """A plan that cannot be made (too few engines, no openings)."""


def matchups(kind: str, engines: Sequence[str], gauntlet: str | None = None) -> list[tuple[str, str]]:
    """The engine pairs that meet: every two (round-robin), the first (or
    ``gauntlet``) against each of the others (gauntlet), new against base
    (sprt: exactly two engines)."""
    if len(engines) < 2:
        raise ScheduleError("a tournament needs at least two engines")
    if len(set(engines)) != len(engines):
        raise ScheduleError("engine names must differ")
    if kind == "round-robin":
        return list(combinations(engines, 2))
    if kind == "gauntlet":
        hero = gauntlet or engines[0]
        if hero not in engines:
            raise ScheduleError(f"gauntlet engine {hero!r} is not entered")
        return [(hero, other) for other in engines if other != hero]
    if kind == "sprt":
        if len(engines) != 2:
            raise ScheduleError("an SPRT plays exactly two engines")
        return [(engines[0], engines[1])]
    raise ScheduleError(f"unknown tournament kind {kind!r} (known: {', '.join(KINDS)})")


def plan(
    pairings: Sequence[tuple[str, str]],
    variants: Sequence[str],
    openings: dict[str, int],
    rounds: int | None,
    batch_pairs: int = 1,
) -> Iterator[PlannedGame]:
    """The games of a run in order. ``openings[v]`` is how many openings
    variant ``v`` has; round ``r`` plays opening ``r mod that``. ``rounds``
    None goes on for ever (an SPRT stops it)."""
    if batch_pairs < 1:
        raise ScheduleError("a batch holds at least one pair")
    for v in variants:
        if openings.get(v, 0) < 1:
            raise ScheduleError(f"no opening for {v}")
    pair = 0
    rounds_iter = range(rounds) if rounds is not None else count()
    for r in rounds_iter:
        for variant in variants:
            opening = r % openings[variant]
            for first, second in pairings:
                batch = pair // batch_pairs
                yield PlannedGame(2 * pair, pair, batch, variant, opening, first, second)
                yield PlannedGame(2 * pair + 1, pair, batch, variant, opening, second, first)
                pair += 1


def planned_count(pairings: Sequence[tuple[str, str]], variants: Sequence[str], rounds: int) -> int:
    return 2 * len(pairings) * len(variants) * rounds
