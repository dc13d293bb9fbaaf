"""The tournament runner: plans a run, plays it with workers, folds every
finished game into the database and the tallies, and stops an SPRT once
it decides.

    store = Store("games.sqlite")
    t = Tournament.create(store, config)       # or Tournament.resume(store, run_id)
    summary = t.run()                          # local workers (threads)

Each worker (a Seat) owns one process per engine it plays and reuses it
from game to game (``ucinewgame``); an engine that crashed, stalled, timed
out or played an illegal move is closed (killed if need be) and started
afresh for its next game, and the run goes on. The driver thread is the
only writer of the database.
"""

from __future__ import annotations

import logging
import queue
import random
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .config import RunConfig
from .model import PlannedGame, PlayedGame
from .openings import random_openings, read_openings, search_evaluator
from .referee import Aborted
from .schedule import plan
from .seat import PlayerFactory, Seat, process_players
from .standings import Standings
from .storage import Store

log = logging.getLogger("bingwa.tournament")

__all__ = ["GameListener", "Seat", "Summary", "Tournament", "make_openings", "process_players"]

# called with the run's id and each game as it is stored (``--pgnout``)
GameListener = Callable[[int, PlayedGame], None]


def make_openings(config: RunConfig, evaluator=None, progress=None) -> dict[str, list[list[str]]]:
    """The openings of every variant of a run (file or balanced random),
    each variant's draw shown by ``progress`` (``drawing``, then ``drawn``)."""
    oc = config.openings
    out = {}
    for variant in config.variants:
        if oc.file:
            out[variant] = read_openings(oc.file, variant)
            continue
        wanted = config.opening_count()
        rng = random.Random(f"{oc.seed}:{variant}")
        evaluate = evaluator or search_evaluator(oc.depth)
        shown = None if progress is None else (
            lambda kept, scored, v=variant, n=wanted: progress.drawing(v, kept, n, scored))
        try:
            out[variant] = random_openings(variant, wanted, oc.plies, rng, evaluate, oc.margin_cp,
                                           on_scored=shown)
        finally:
            if progress is not None:
                progress.drawn()
    return out


def _keep_ctrl_c_from_engines() -> None:
    """Block SIGINT in this worker thread, and so in the engines it starts
    (a child keeps the signal mask of the thread that started it). A
    terminal's Ctrl-C goes to the whole process group: it should reach the
    driver, which stops the run and quits the engines in order, not the
    engines, which would die mid-game and be charged with crashes."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


@dataclass
class Summary:
    run_id: int
    status: str  # finished or stopped (resumable)
    decision: str | None  # SPRT: H0, H1 or inconclusive
    played: int  # games played by this call
    standings: Standings


class Tournament:
    def __init__(self, store: Store, run_id: int, config: RunConfig,
                 openings: dict[str, list[list[str]]], factory: PlayerFactory | None = None,
                 progress=None, listeners: tuple[GameListener, ...] = ()) -> None:
        self.store = store
        self.listeners = listeners
        self.run_id = run_id
        self.config = config
        self.openings = openings
        self.factory = factory or process_players(config)
        self.progress = progress
        self.stop = threading.Event()
        self.standings = Standings([e.name for e in config.engines], list(config.variants),
                                   config.anchor, config.sprt)
        self.played = 0
        for record in store.games(run_id, moves=False):
            self.standings.add(record)

    # -- making and finding runs ------------------------------------------------
    @classmethod
    def create(cls, store: Store, config: RunConfig, factory: PlayerFactory | None = None,
               progress=None, evaluator=None, listeners: tuple[GameListener, ...] = ()) -> Tournament:
        openings = make_openings(config, evaluator, progress)
        run_id = store.create_run(config.kind, config.to_json(), config.engines, openings,
                                  config.planned_games())
        return cls(store, run_id, config, openings, factory, progress, listeners)

    @classmethod
    def resume(cls, store: Store, run_id: int | None = None, factory: PlayerFactory | None = None,
               progress=None, concurrency: int | None = None,
               listeners: tuple[GameListener, ...] = ()) -> Tournament:
        run = store.run(run_id)
        data = dict(run.config)
        if concurrency:
            data["concurrency"] = concurrency
        config = RunConfig.from_json(data)
        return cls(store, run.id, config, store.openings(run.id), factory, progress, listeners)

    # -- the plan -------------------------------------------------------------
    def plan(self) -> Iterator[PlannedGame]:
        counts = {v: len(self.openings[v]) for v in self.config.variants}
        total = self.config.planned_games()
        for planned in plan(self.config.pairings(), list(self.config.variants), counts,
                            self.config.rounds, self.config.batch_pairs):
            if total is not None and planned.index >= total:
                return
            yield planned

    def pending(self) -> Iterator[PlannedGame]:
        done = self.store.done_indices(self.run_id)
        return (p for p in self.plan() if p.index not in done)

    # -- folding results ----------------------------------------------------------
    def fold(self, record: PlayedGame) -> bool:
        """Store a finished game and count it (once). True when the SPRT
        has decided."""
        if self.store.record_game(self.run_id, record):
            self._count(record)
        return self.standings.check_sprt() is not None

    def fold_batch(self, batch: int, records: list[PlayedGame]) -> bool:
        done = self.store.done_indices(self.run_id)
        if self.store.record_batch(self.run_id, batch, records):
            for record in records:
                if record.planned.index not in done:
                    self._count(record)
        return self.standings.check_sprt() is not None

    def _count(self, record: PlayedGame) -> None:
        self.standings.add(record)
        self.played += 1
        for listener in self.listeners:
            listener(self.run_id, record)
        if self.progress is not None:
            self.progress.update(self, record)

    # -- running ---------------------------------------------------------------------
    def run(self, backend: str = "local", address: str | None = None) -> Summary:
        if self.standings.check_sprt() is None and self.store.run(self.run_id).status != "finished":
            if self.progress is not None:
                self.progress.start(self)
            try:
                if backend == "ray":
                    from .ray_backend import run_on_ray

                    run_on_ray(self, address)
                else:
                    self._run_local()
            except KeyboardInterrupt:
                self.stop.set()
                self.store.finish_run(self.run_id, "stopped")
                raise
            finally:
                if self.progress is not None:
                    self.progress.finish(self)
        return self._close()

    def _close(self) -> Summary:
        decision = self.standings.check_sprt()
        complete = not any(True for _ in self.pending())
        if decision is None and self.config.sprt is not None and complete:
            decision = "inconclusive"
        status = "finished" if decision is not None or complete else "stopped"
        self.store.finish_run(self.run_id, status, decision)
        return Summary(self.run_id, status, decision, self.played, self.standings)

    def _run_local(self) -> None:
        jobs = self.pending()
        lock = threading.Lock()
        results: queue.Queue[object] = queue.Queue()
        finished = object()

        def next_job() -> PlannedGame | None:
            with lock:
                if self.stop.is_set():
                    return None
                return next(jobs, None)

        def work() -> None:
            _keep_ctrl_c_from_engines()
            seat = Seat(self.config, self.openings, self.factory, self.stop)
            try:
                while (job := next_job()) is not None:
                    try:
                        results.put(seat.play(job))
                    except Aborted:
                        break
            except BaseException as exc:  # handed to the driver, which re-raises it
                results.put(exc)
            finally:
                seat.close()
                results.put(finished)

        workers = [threading.Thread(target=work, name=f"seat-{i}", daemon=True)
                   for i in range(self.config.concurrency)]
        for w in workers:
            w.start()
        alive = len(workers)
        error: BaseException | None = None
        # Ctrl-C as a flag, not an exception: a KeyboardInterrupt raised
        # inside the queue's lock can surface as "release unlocked lock"
        interrupted = threading.Event()
        previous = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):
            previous = signal.signal(signal.SIGINT, lambda _signum, _frame: interrupted.set())
        try:
            while alive and not interrupted.is_set():
                try:
                    item = results.get(timeout=0.1)
                except queue.Empty:
                    continue
                if item is finished:
                    alive -= 1
                elif isinstance(item, BaseException):
                    error = error or item
                    self.stop.set()
                elif isinstance(item, PlayedGame) and self.standings.decision is None:
                    # after an SPRT decides, games still finishing are not counted:
                    # the stored games are exactly those the decision was made on
                    if self.fold(item):
                        self.stop.set()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
            self.stop.set()
            for w in workers:
                w.join(timeout=30)
            self._fold_finished(results)
        if interrupted.is_set():
            raise KeyboardInterrupt
        if error is not None:
            raise error

    def _fold_finished(self, results: queue.Queue[object]) -> None:
        """Store the games workers finished while the driver was stopping
        (a Ctrl-C, an error): every finished game is kept. A game an
        engine lost by failing now is not: a terminal's Ctrl-C reaches the
        engines too, and their deaths are the stop's doing."""
        while True:
            try:
                item = results.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, PlayedGame) and item.loser is None and self.standings.decision is None:
                self.fold(item)
