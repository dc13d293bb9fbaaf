"""Scale-out on Ray: batches of colour-reversed pairs as Ray tasks.

    bingwa tournament ... --backend ray [--address ray://head:10001]

The driver (this process) keeps the plan, the database and the tallies.
Each batch (``batch_pairs`` consecutive pairs of the plan) is one task: a
Ray worker starts the engines it needs, plays the batch's missing games
and returns them. The driver folds a batch into SQLite in one
transaction keyed by (run, batch): a task that Ray retries, or a result
that arrives twice, is never counted twice. A bounded window of batches
is in flight; once an SPRT decides, the outstanding ones are cancelled
(their workers killed, and with them their engines).

Ray is optional (``pip install bingwa[ray]``); without an address a local
Ray is started with one CPU per concurrent game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from dataclasses import asdict
from itertools import groupby
from typing import Any, Protocol

from .config import RunConfig
from .model import PlannedGame, PlayedGame
from .seat import Seat, process_players

log = logging.getLogger("bingwa.tournament")


class RayMissingError(RuntimeError):
    """--backend ray without Ray installed."""


class Decision(Protocol):
    @property
    def decision(self) -> str | None: ...


class Driver(Protocol):
    """What the Ray backend needs of the runner's Tournament (named here,
    not imported, so that the runner alone imports this module)."""

    config: RunConfig
    openings: dict[str, list[list[str]]]
    stop: threading.Event

    @property
    def standings(self) -> Decision: ...

    def pending(self) -> Iterator[PlannedGame]: ...

    def fold_batch(self, batch: int, records: list[PlayedGame]) -> bool: ...


def require_ray() -> None:
    """RayMissingError unless Ray can be imported (checked before a run is
    created, so that a missing Ray leaves nothing in the database)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayMissingError("the Ray backend needs Ray: pip install 'bingwa[ray]'") from None


def play_batch(config_json: dict[str, Any], openings: dict[str, list[list[str]]],
               games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play planned games on this worker (the body of a Ray task)."""
    config = RunConfig.from_json(config_json)
    seat = Seat(config, openings, process_players(config))
    try:
        return [seat.play(PlannedGame(**g)).to_json() for g in games]
    finally:
        seat.close()


def _batches(t: Driver):
    """(batch, planned games still missing) in plan order."""
    for batch, games in groupby(t.pending(), key=lambda g: g.batch):
        yield batch, list(games)


def run_on_ray(t: Driver, address: str | None = None) -> None:
    require_ray()
    import ray
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else t.config.concurrency,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    task = ray.remote(num_cpus=1, max_retries=3)(play_batch)
    config_json = ray.put(t.config.to_json())
    openings = ray.put(t.openings)
    window = 2 * max(1, t.config.concurrency if not address else int(ray.cluster_resources().get("CPU", 1)))
    batches = _batches(t)
    in_flight: dict[Any, int] = {}
    exhausted = False
    try:
        while True:
            while not exhausted and not t.stop.is_set() and len(in_flight) < window:
                item = next(batches, None)
                if item is None:
                    exhausted = True
                    break
                batch, games = item
                ref = task.remote(config_json, openings, [asdict(g) for g in games])
                in_flight[ref] = batch
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
            for ref in ready:
                batch = in_flight.pop(ref)
                try:
                    records = [PlayedGame.from_json(r) for r in ray.get(ref)]
                except ray.exceptions.RayError as exc:  # retries spent: the games stay missing
                    log.warning("batch %d failed on Ray: %s", batch, exc)
                    continue
                if t.standings.decision is None and t.fold_batch(batch, records):
                    t.stop.set()
            if t.stop.is_set():
                break
    finally:
        for ref in in_flight:  # the SPRT decided, or the driver is stopping
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
