"""What the tournament tests share: played and stored games, and a small
run of built-in bots in this process."""

from __future__ import annotations

from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec, PlannedGame, PlayedGame, PlayedMove
from bingwa.tournament.players import InProcessPlayer
from bingwa.tournament.storage import Store
from bingwa.tournament.timecontrol import TimeControl


def played(index: int, south="a", north="b", result="1-0", pair=None) -> PlayedGame:
    planned = PlannedGame(index, index // 2 if pair is None else pair, index // 4, "oware", 0, south, north)
    moves = [PlayedMove("c", 0, book=True), PlayedMove("A", 1, 12, 50, None, 3, 400)]
    return PlayedGame(planned, result, "majority", (25, 10), moves, "start", "", None, 1.0, 2.0)


def make_store(tmp_path, name="t.sqlite") -> tuple[Store, int]:
    store = Store(tmp_path / name)
    run = store.create_run("round-robin", {"kind": "round-robin"},
                           [EngineSpec("a", ("x",)), EngineSpec("b", ("y",), options=(("Hash", "4"),))],
                           {"oware": [["c", "A"], []]}, 8)
    return store, run


def in_process(spec):
    return InProcessPlayer(spec.name, spec.command[-1], spec.options)


def small_config(**kw):
    base = dict(kind="round-robin", engines=(EngineSpec.bot("random"), EngineSpec.bot("greedy")),
                variants=("oware", "kalah"), tc=TimeControl(depth=1), rounds=3, concurrency=2,
                openings=OpeningsConfig(plies=2, count=5, depth=1))
    base.update(kw)
    return RunConfig(**base)
