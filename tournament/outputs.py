"""The files a run writes besides its database: the HTML report, the
failure log and the game records of ``--pgnout``.

Every such path is checked before the first game starts (a report that
cannot be written must not be found out after hours of games), and the
records file gets each game as it ends, appended and closed (so flushed),
as cutechess and fastchess write ``-pgnout``."""

from __future__ import annotations

import os
from pathlib import Path

from bingwa.engine.records import write_records

from .export import to_record
from .model import PlayedGame


class OutputPathError(ValueError):
    """An output file that cannot be written."""


def check_writable(path: str | Path, what: str) -> None:
    """OutputPathError unless ``path`` can be created or appended to; the
    file itself is not touched."""
    target = Path(path)
    if target.is_dir():
        raise OutputPathError(f"{what} {path}: is a directory")
    parent = target.parent
    if not parent.is_dir():
        raise OutputPathError(f"{what} {path}: no such directory {parent}")
    writable = os.access(target, os.W_OK) if target.exists() else os.access(parent, os.W_OK | os.X_OK)
    if not writable:
        raise OutputPathError(f"{what} {path}: permission denied")


class RecordsFile:
    """``--pgnout FILE``: each finished game's record appended as it ends."""

    def __init__(self, path: str | Path, time_control: str | None = None) -> None:
        self.path = Path(path)
        self.time_control = time_control

    def __call__(self, run_id: int, game: PlayedGame) -> None:
        write_records(self.path, [to_record(game, run_id, self.time_control)], append=True)
