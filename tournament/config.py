"""A run's configuration: everything that decides which games are played
and how. Stored as JSON with the run, so that ``--resume`` needs nothing
but the database."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from .model import EngineSpec
from .referee import Adjudication, Rules
from .schedule import KINDS, ScheduleError, matchups
from .sprt import Sprt
from .timecontrol import TimeControl

#: random openings a run draws at most per variant (2,000 games' worth a
#: matchup; beyond them the rounds start again from the first)
MAX_OPENINGS = 1000


@dataclass(frozen=True)
class OpeningsConfig:
    """Openings from ``file``, or ``count`` random openings of ``plies``
    plies per variant kept when a search of ``depth`` plies scores them
    within ``margin_cp`` (seeded by ``seed``). ``count`` None is one a
    round (RunConfig.opening_count)."""

    file: str | None = None
    plies: int = 4
    count: int | None = None
    depth: int = 4
    margin_cp: int = 200
    seed: int = 1

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class RunConfig:
    kind: str
    engines: tuple[EngineSpec, ...]
    variants: tuple[str, ...]
    tc: TimeControl
    rounds: int | None = 1  # pairs per matchup per variant (None: until the SPRT stops)
    rules: Rules = Rules()
    openings: OpeningsConfig = OpeningsConfig()
    concurrency: int = field(default_factory=lambda: os.cpu_count() or 1)
    gauntlet: str | None = None
    sprt: Sprt | None = None
    max_games: int | None = None  # cap (SPRT); rounded up to whole pairs
    batch_pairs: int = 2  # pairs in a remote batch
    anchor: str = "random"
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ScheduleError(f"unknown tournament kind {self.kind!r} (known: {', '.join(KINDS)})")
        if not self.variants:
            raise ScheduleError("name at least one variant")
        if self.concurrency < 1:
            raise ScheduleError("concurrency is at least 1")
        if self.rounds is None and self.max_games is None and self.sprt is None:
            raise ScheduleError("an open-ended run needs an SPRT or a game cap")
        if self.rounds is not None and self.rounds < 1:
            raise ScheduleError("rounds is at least 1")
        matchups(self.kind, [e.name for e in self.engines], self.gauntlet)
        for spec in self.engines:
            if spec.protocol == "auale" and any(v != "oware" for v in self.variants):
                raise ScheduleError(f"engine {spec.name} speaks the Aualé dialect: Oware (oware) only")

    def opening_count(self) -> int:
        """How many random openings each variant draws: one a round (a
        round plays every pairing from one opening, both colours; an SPRT
        plays one pair a round) up to MAX_OPENINGS, so that engines which
        play the same game from the same opening (at fixed nodes or depth
        they do) never replay a pair while new openings are there to draw."""
        if self.openings.count is not None:
            wanted = self.openings.count
        elif self.rounds is not None:
            wanted = min(self.rounds, MAX_OPENINGS)
        else:
            wanted = MAX_OPENINGS
            if self.max_games is not None:
                wanted = min(wanted, (self.max_games + 1) // 2)
        return wanted if self.rounds is None else min(wanted, self.rounds)

    def engine(self, name: str) -> EngineSpec:
        for spec in self.engines:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def tc_of(self, name: str) -> TimeControl:
        return self.engine(name).tc or self.tc

    def pairings(self) -> list[tuple[str, str]]:
        return matchups(self.kind, [e.name for e in self.engines], self.gauntlet)

    def planned_games(self) -> int | None:
        """Games in the full plan (None: open-ended)."""
        total = None
        if self.rounds is not None:
            total = 2 * len(self.pairings()) * len(self.variants) * self.rounds
        if self.max_games is not None:
            cap = self.max_games + self.max_games % 2
            total = cap if total is None else min(total, cap)
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "engines": [e.to_json() for e in self.engines],
            "variants": list(self.variants),
            "tc": self.tc.to_json(),
            "rounds": self.rounds,
            "rules": {"margin_ms": self.rules.margin_ms, "timeout_ms": self.rules.timeout_ms,
                      "adjudication": self.rules.adjudication.to_json(),
                      "ready_timeout_ms": self.rules.ready_timeout_ms,
                      "start_timeout_ms": self.rules.start_timeout_ms,
                      "ping_moves": self.rules.ping_moves},
            "openings": self.openings.to_json(),
            "concurrency": self.concurrency,
            "gauntlet": self.gauntlet,
            "sprt": None if self.sprt is None else {
                "elo0": self.sprt.elo0, "elo1": self.sprt.elo1, "alpha": self.sprt.alpha,
                "beta": self.sprt.beta, "model": self.sprt.model,
            },
            "max_games": self.max_games,
            "batch_pairs": self.batch_pairs,
            "anchor": self.anchor,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        rules = data.get("rules", {})
        return cls(
            kind=data["kind"],
            engines=tuple(EngineSpec.from_json(e) for e in data["engines"]),
            variants=tuple(data["variants"]),
            tc=TimeControl.from_json(data.get("tc", {})),
            rounds=data.get("rounds"),
            rules=Rules(rules.get("margin_ms", 100), rules.get("timeout_ms", 60_000),
                        Adjudication(**rules.get("adjudication", {})),
                        rules.get("ready_timeout_ms", 5_000), rules.get("start_timeout_ms", 10_000),
                        rules.get("ping_moves", True)),
            openings=OpeningsConfig(**data.get("openings", {})),
            concurrency=data.get("concurrency", 1),
            gauntlet=data.get("gauntlet"),
            sprt=Sprt(**data["sprt"]) if data.get("sprt") else None,
            max_games=data.get("max_games"),
            batch_pairs=data.get("batch_pairs", 2),
            anchor=data.get("anchor", "random"),
            name=data.get("name", ""),
        )
