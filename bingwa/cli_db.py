"""The tournament database at the command line: ``--run`` and ``--anchor``
checked against what a database (or a run being entered) holds, so that
a run that does not exist or an anchor that never played is one line
naming what there is, not "no games" or an anchor silently ignored."""

from __future__ import annotations

from typing import Any

from bingwa.cli_common import fail


def check_run(store: Any, run_id: int | None) -> None:
    """``--run N`` names a run of ``store``."""
    if run_id is None:
        return
    ids = [run.id for run in store.runs()]
    if run_id not in ids:
        fail(f"{store.path}: no run {run_id} ({describe_runs(ids)})")


def describe_runs(ids: list[int]) -> str:
    if not ids:
        return "no run yet"
    if len(ids) == 1:
        return f"run {ids[0]} only"
    if ids == list(range(ids[0], ids[-1] + 1)):
        return f"runs {ids[0]}-{ids[-1]}"
    return "runs " + ", ".join(map(str, ids))


def check_anchor_played(store: Any, run_id: int | None, variants: list[str], anchor: str) -> None:
    """``ratings --anchor NAME``: NAME played in the games rated."""
    names = sorted({name for variant in variants for game in store.scores(variant, run_id)
                    for name in (game.south, game.north)})
    if anchor not in names:
        fail(f"--anchor {anchor}: no engine of that name played (engines: {', '.join(names)})")


def check_anchor_entered(specs: Any, anchor: str) -> None:
    """``tournament --anchor NAME``: NAME is one of the engines entered."""
    names = [spec.name for spec in specs]
    if anchor not in names:
        fail(f"--anchor {anchor}: no engine of that name is entered (engines: {', '.join(names)})")
