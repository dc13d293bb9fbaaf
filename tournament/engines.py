"""ProcessPlayer: an engine process driven by bingwa.protocol.client.

A thin adapter: the client starts the process, does the handshake, sends
positions and ``go``, measures the time and tells the failures apart; its
EngineErrors go to the referee as they are (each with its termination and
the lines that led to it), and an engine that cannot play the variant
becomes an EngineVariantError. This module restarts nothing itself: a
failed player is closed by its Seat and a fresh one started for the next
game. Engines of the Aualé dialect are never pinged while they search.
"""

from __future__ import annotations

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.protocol.errors import EngineError, EngineVariantError

from .model import EngineSpec
from .players import Reply
from .referee import Rules


class ProcessPlayer:
    def __init__(self, spec: EngineSpec, rules: Rules | None = None) -> None:
        self.name = spec.name
        self.spec = spec
        self.rules = rules or Rules()
        self.engine = None
        self.variant: str | None = None
        self.id_name: str | None = None
        self.failed = False

    def _start(self) -> None:
        from bingwa.protocol.client import Engine

        engine = Engine.popen(
            list(self.spec.command),
            dialect=self.spec.protocol,
            ready_timeout=self.rules.ready_timeout_ms / 1000,
            ping_during_search=self.spec.protocol == "uci",
        )
        self.engine = engine
        engine.handshake(timeout=self.rules.start_timeout_ms / 1000)
        for name, value in self.spec.options:
            engine.set_option(name, value)
        self.id_name = engine.id.get("name")

    def new_game(self, variant: str) -> None:
        try:
            if self.engine is None:
                self._start()
            assert self.engine is not None
            if variant != self.variant:
                try:
                    self.engine.set_variant(variant)
                except ValueError as exc:  # no UCI_Variant, or a dialect without the variant
                    raise EngineVariantError(str(exc)) from None
                self.variant = variant
            self.engine.new_game()
        except EngineError:
            self.failed = True
            raise

    def go(self, position: Position, limits: Limits, deadline_ms: int | None) -> Reply:
        assert self.engine is not None
        timeout = None if deadline_ms is None else deadline_ms / 1000
        command = self.engine.position_command(position)
        try:
            if self.rules.ping_moves:  # as fastchess: a dead engine is found before its clock runs
                self.engine.ping()
            result = self.engine.play(position, limits, timeout)
        except EngineError:  # the client tells stall, crash, time-out, bad move apart
            self.failed = True
            raise
        info = result.info
        if info.score_cp is None and info.score_mate is None:
            info = result.infos[-1] if result.infos else None
        return Reply(result.move.text if result.move else None, info,
                     round(result.elapsed * 1000), [command])

    def close(self) -> None:
        if self.engine is not None:
            # a failed engine may be hung: give it no time to say goodbye
            self.engine.quit(timeout=0.2 if self.failed else 2.0)
            self.engine = None


def missing_options(spec: EngineSpec, rules: Rules | None = None) -> list[str]:
    """The ``option.NAME`` of ``spec`` that the engine does not declare
    (started once, asked with ``uci``, and quit): a typo found before the
    run, not a setting silently ignored in every game. EngineError when
    the engine does not start."""
    from bingwa.protocol.client import Engine

    rules = rules or Rules()
    engine = Engine.popen(list(spec.command), dialect=spec.protocol,
                          ready_timeout=rules.ready_timeout_ms / 1000)
    try:
        engine.handshake(timeout=rules.start_timeout_ms / 1000)
        if not engine.dialect.unknown_options_are_errors:
            return []  # Aualé's engines take options they never declare (OwnBook, UseLeaves)
        return [name for name, _ in spec.options if not engine.has_option(name)]
    finally:
        engine.quit(timeout=2.0)
