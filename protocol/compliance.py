"""``bingwa compliance``: check an engine against docs/protocol.md.

Each check prints ``PASS name: detail`` or ``FAIL name: reason``. An engine
that crashes or hangs fails the check it was in and is started afresh for
the next one. The checks use bingwa's rules as the referee: every bestmove
must be legal in the position sent.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bingwa.engine import Position, find_variant, variant_names
from bingwa.engine.limits import Limits

from .client import Engine, EngineError, PlayResult
from .dialects import find_dialect
from .wire import InfoFormatError, parse_info

Echo = Callable[[str], None]


def shallow_limits() -> Limits:
    """A quick search for any bot: depth 1 for searchers, few playouts for
    MCTS (which has no depth)."""
    return Limits(depth=1, nodes=200)


class CheckFailed(Exception):
    """A check found the engine at fault; the message says how."""


class CheckSkipped(Exception):
    """A check found nothing to judge (no pass, no failure); the message says why."""


@dataclass
class CheckResult:
    name: str
    passed: bool
    detail: str
    skipped: bool = False

    @property
    def verdict(self) -> str:
        return "SKIP" if self.skipped else "PASS" if self.passed else "FAIL"


@dataclass
class Report:
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Every check passed or was skipped, and at least one passed."""
        return any(c.passed and not c.skipped for c in self.checks) and all(
            c.passed for c in self.checks)

    def failures(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.passed]


def random_game(variant_spec: str, plies: int, seed: int) -> Position:
    """A position after up to ``plies`` seeded random moves (fewer if the
    game ends first)."""
    rng = random.Random(seed)
    position = Position(find_variant(variant_spec))
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


def finished_game(variant_spec: str, seed: int, cap: int = 3000) -> Position | None:
    """A seeded random game played to its end (None past ``cap`` plies)."""
    position = random_game(variant_spec, cap, seed)
    return position if position.is_over() else None


class Checker:
    """Runs the checks against engines made by ``make_engine``."""

    def __init__(self, make_engine: Callable[[], Engine], *, dialect: str = "uci",
                 timeout: float = 10.0, variants: list[str] | None = None,
                 echo: Echo = print) -> None:
        self.make_engine = make_engine
        self.dialect = find_dialect(dialect)
        self.timeout = timeout
        self.wanted_variants = variants
        self.echo = echo
        self.report = Report()
        self._engine: Engine | None = None
        self.received: list[str] = []  # every line every engine wrote

    # -- the engine under test -----------------------------------------------
    def engine(self) -> Engine:
        if self._engine is None:
            engine = self.make_engine()
            engine.received = self.received
            self._engine = engine
            engine.handshake(self.timeout)
            engine.ping()
        return self._engine

    def drop_engine(self) -> None:
        if self._engine is not None:
            try:
                self._engine.quit(1.0)
            except EngineError:
                pass
            self._engine = None

    def play(self, position: Position, limits: Limits) -> PlayResult:
        return self.engine().play(position, limits, timeout=self.timeout)

    def run_check(self, name: str, check: Callable[[], str]) -> None:
        try:
            detail = check()
            result = CheckResult(name, True, detail)
        except CheckFailed as exc:
            result = CheckResult(name, False, str(exc))
        except CheckSkipped as exc:
            result = CheckResult(name, True, str(exc), skipped=True)
        except EngineError as exc:
            result = CheckResult(name, False, f"{type(exc).__name__}: {exc}"
                                 + (f" (after: {exc.command})" if exc.command else ""))
            self.drop_engine()
        self.report.checks.append(result)
        self.echo(f"{result.verdict} {name}: {result.detail}")

    # -- the checks -------------------------------------------------------
    def run(self) -> Report:
        uci = self.dialect.name == "uci"
        self.run_check("handshake", self.check_handshake)
        if not self.report.checks[-1].passed:
            # no engine to speak of: one clear failure, not one per check
            self.echo("0 of 1 checks passed (the others need a handshake)")
            return self.report
        self.run_check("isready", self.check_isready)
        if uci:
            self.run_check("options", self.check_options)
            self.run_check("setoption", self.check_setoption)
            self.run_check("bad input", self.check_bad_input)
        for spec in self.variants():
            self.run_check(f"positions of {spec}", functools.partial(self.check_positions, spec))
        self.run_check("clock forms", self.check_clocks)
        if uci:
            self.run_check("queries", self.check_queries)
        self.run_check("isready during a search", self.check_isready_during_search)
        self.run_check("stop", self.check_stop)
        if uci:
            self.run_check("ponder", self.check_ponder)
        self.run_check("info lines", self.check_info_lines)
        self.run_check("one bestmove per go", self.check_one_bestmove)
        self.run_check("quit", self.check_quit)
        judged = [c for c in self.report.checks if not c.skipped]
        skipped = len(self.report.checks) - len(judged)
        self.echo(f"{sum(c.passed for c in judged)} of {len(judged)} checks passed"
                  + (f", {skipped} skipped" if skipped else ""))
        return self.report

    def variants(self) -> list[str]:
        if self.dialect.fixed_variant is not None:
            return [self.dialect.fixed_variant]
        if self.wanted_variants:
            return self.wanted_variants
        try:
            engine = self.engine()
        except EngineError:
            return list(variant_names())
        option = engine.options.get("uci variant")
        offered = list(option.vars) if option is not None else ["oware"]
        return [name for name in offered if name in variant_names()] or ["oware"]

    def check_handshake(self) -> str:
        start = time.monotonic()
        engine = self.engine()
        elapsed = time.monotonic() - start
        missing = [key for key in ("name", "author") if not engine.id.get(key)]
        if missing:
            raise CheckFailed(f"no id {' or '.join(missing)} before uciok")
        return f"{engine.id['name']!r} answered uciok in {elapsed * 1000:.0f} ms"

    def check_isready(self) -> str:
        engine = self.engine()
        times = [engine.ping() for _ in range(3)]
        return f"readyok in {max(times) * 1000:.1f} ms at most"

    def check_options(self) -> str:
        engine = self.engine()
        if engine.bad_option_lines:
            raise CheckFailed(f"malformed option line: {engine.bad_option_lines[0]!r}")
        variant = engine.options.get("uci variant")
        if variant is None or variant.type != "combo":
            raise CheckFailed("no UCI_Variant combo option")
        missing = [name for name in ("Hash", "MultiPV", "Move Overhead", "Ponder")
                   if not engine.has_option(name)]
        if missing:
            raise CheckFailed(f"missing option(s): {', '.join(missing)}")
        for option in engine.options.values():
            if option.type == "spin" and not (option.min <= option.default <= option.max):
                raise CheckFailed(f"option {option.name} default {option.default} is outside "
                                  f"{option.min}..{option.max}")
            if option.type == "combo" and option.default not in option.vars:
                raise CheckFailed(f"option {option.name} default {option.default!r} is not "
                                  f"one of its vars")
        return f"{len(engine.options)} options, all well formed"

    def _lines_after(self, line: str) -> list[str]:
        """The info lines the engine writes in answer to ``line`` (up to
        the readyok of a ping sent right after it)."""
        engine = self.engine()
        before = len(engine.messages)
        engine.send(line)
        engine.ping()
        return engine.messages[before:]

    def check_setoption(self) -> str:
        engine = self.engine()
        option = engine.options.get("move overhead")
        if option is not None:
            answer = self._lines_after(f"setoption name mOVE oVERHEAD value {option.default}")
            if answer:
                raise CheckFailed(f"option names must be case-insensitive; got {answer[0]!r}")
        answer = self._lines_after("setoption name No Such Option value 1")
        if len(answer) != 1 or not answer[0].startswith("info string"):
            raise CheckFailed(f"an unknown option needs one info string line, got {answer!r}")
        return "names are case-insensitive; an unknown option gets one info string line"

    def check_bad_input(self) -> str:
        engine = self.engine()
        engine.set_variant("oware")
        engine.send("position startpos moves c")
        engine.ping()
        before = engine.query("legalmoves")
        for line in ("xyzzy", "position", "position fen 1,2,3 0 0 s",
                     "position startpos moves c c", "setoption name Hash value -5",
                     "perft x", "query nothing"):
            answer = self._lines_after(line)
            if len(answer) != 1 or not answer[0].startswith("info string"):
                raise CheckFailed(f"{line!r} needs one info string line, got {answer!r}")
        after = engine.query("legalmoves")
        if after != before:
            raise CheckFailed(f"bad input changed the position: legal moves {before!r} -> {after!r}")
        return "each bad line got one info string line; the position was kept"

    def check_positions(self, spec: str) -> str:
        engine = self.engine()
        variant = engine.set_variant(spec)
        engine.new_game()
        seed = sum(map(ord, spec))
        shallow = shallow_limits()
        self.play(Position(variant), shallow)
        played = random_game(spec, 12, seed)
        self.play(played, shallow)
        root = Position(variant, text=played.text())
        self.play(root.play(root.legal_moves()[0]) if root.legal_moves() else root, shallow)
        checked = "start, moves, fen"
        done = finished_game(spec, seed)
        if done is not None:
            result = self.play(done, shallow)
            if result.move is not None:
                raise CheckFailed("a move at a finished game")
            checked += ", finished game"
        return f"legal moves from {checked}"

    def check_clocks(self) -> str:
        engine = self.engine()
        spec = self.variants()[0]
        engine.set_variant(spec)
        position = random_game(spec, 6, 7)
        forms = [
            Limits(p1time=300, p2time=300, p1inc=10, p2inc=10),
            Limits(p1time=300, p2time=300, movestogo=1),
            Limits(p1time=0, p2time=0),
            Limits(p1time=-100, p2time=-100),
            Limits(movetime=50),
            Limits(depth=1),
            Limits(nodes=100),
        ]
        words = []
        for limits in forms:
            self.play(position, limits)
            words.append(" ".join(_go_words(limits)))
        if self.dialect.name == "uci":
            engine.clock_names = "ugi"
            try:
                self.play(position, Limits(p1time=300, p2time=300, p1inc=10, p2inc=10))
            finally:
                engine.clock_names = "uci"
            words.append("p1time/p2time")
        return "legal moves for " + "; ".join(words)

    def check_queries(self) -> str:
        engine = self.engine()
        engine.set_variant("oware")
        position = random_game("oware", 7, 3)
        engine.send(engine.position_command(position))
        expected = {
            "gameover": "true" if position.is_over() else "false",
            "p1turn": "true" if position.turn == 0 else "false",
            "result": "none",
            "legalmoves": " ".join(m.text for m in position.legal_moves()),
        }
        for what, want in expected.items():
            got = engine.query(what)
            if got != want:
                raise CheckFailed(f"query {what}: {got!r}, expected {want!r}")
        done = finished_game("oware", 5)
        if done is not None:
            engine.send(engine.position_command(done))
            outcome = done.outcome()
            assert outcome is not None
            want = {0: "p1win", 1: "p2win", None: "draw"}[outcome.winner]
            if engine.query("gameover") != "true" or engine.query("result") != want:
                raise CheckFailed("query gameover/result wrong at a finished game")
        return "gameover, p1turn, result and legalmoves agree with the rules"

    def check_isready_during_search(self) -> str:
        engine = self.engine()
        spec = self.variants()[0]
        engine.set_variant(spec)
        search = engine.go(Position(spec), Limits(infinite=True))
        time.sleep(0.2)
        if self.dialect.name != "uci":
            search.stop()
            search.wait(self.timeout)
            return "skipped pings (the dialect does not answer isready while searching)"
        times = []
        for _ in range(5):
            times.append(engine.ping())
            time.sleep(0.02)
        if search.done:
            raise CheckFailed("bestmove before stop in go infinite")
        search.stop()
        search.wait(self.timeout)
        times.sort()
        return (f"readyok during go infinite: median {times[2] * 1000:.1f} ms, "
                f"max {times[-1] * 1000:.1f} ms")

    def check_stop(self) -> str:
        engine = self.engine()
        spec = self.variants()[0]
        engine.set_variant(spec)
        position = Position(spec)
        search = engine.go(position, Limits(infinite=True))
        time.sleep(0.2)
        search.stop()
        result = search.wait(self.timeout)
        assert search.received_at is not None and search.stopped_at is not None
        latency = search.received_at - search.stopped_at
        if result.move is None:
            raise CheckFailed("no move after stop")
        engine.send("stop")  # stop with nothing to stop: no answer
        engine.ping()
        return f"bestmove {latency * 1000:.1f} ms after stop"

    def check_ponder(self) -> str:
        engine = self.engine()
        spec = self.variants()[0]
        engine.set_variant(spec)
        position = random_game(spec, 2, 11)
        search = engine.go(position, Limits(ponder=True, p1time=1000, p2time=1000))
        time.sleep(0.1)
        engine.ping()
        if search.done:
            raise CheckFailed("bestmove before ponderhit in go ponder")
        search.ponderhit()
        result = search.wait(self.timeout)
        if result.move is None:
            raise CheckFailed("no move after ponderhit")
        return f"bestmove {result.move.text} after ponderhit, none before"

    def check_info_lines(self) -> str:
        lines = [line for line in self.received if line.split()[:1] == ["info"]]
        for line in lines:
            try:
                parse_info(line, strict=True)
            except InfoFormatError as exc:
                raise CheckFailed(str(exc)) from None
        reports = [line for line in lines if line.split()[1:2] != ["string"]]
        if not reports:  # nothing checked is no pass (UCI does not demand info lines)
            raise CheckSkipped("no info line with search figures (depth, score, pv) "
                               "in any search: nothing to check")
        return f"{len(reports)} search info lines in all checks, integers only"

    def check_one_bestmove(self) -> str:
        engine = self.engine()
        position = Position(self.variants()[0])
        for _ in range(3):
            self.play(position, shallow_limits())
        time.sleep(0.1)
        engine.ping()
        if engine.stray:
            raise CheckFailed(f"bestmove with no go waiting: {engine.stray[0]!r}")
        return "no extra bestmove in any check"

    def check_quit(self) -> str:
        engine = self.engine()
        start = time.monotonic()
        status = engine.quit(self.timeout)
        self._engine = None
        elapsed = time.monotonic() - start
        if status is None:
            raise CheckFailed("the engine did not exit after quit")
        if status != 0:
            raise CheckFailed(f"exit status {status} after quit")
        return f"exited with status 0 in {elapsed * 1000:.0f} ms"


def _go_words(limits: Limits) -> list[str]:
    from .wire import format_go

    return format_go(limits).split()[1:]


def run_compliance(
    command: list[str] | None = None,
    *,
    make_engine: Callable[[], Engine] | None = None,
    dialect: str = "uci",
    timeout: float = 10.0,
    variants: list[str] | None = None,
    echo: Echo = print,
) -> Report:
    """Check the engine started by ``command`` (or made by ``make_engine``)
    and print each check; the Report says which passed."""
    if make_engine is None:
        if not command:
            raise ValueError("run_compliance needs a command or make_engine")

        def make_engine() -> Engine:
            return Engine.popen(command, dialect=dialect, ready_timeout=min(timeout, 5.0))

    checker = Checker(make_engine, dialect=dialect, timeout=timeout, variants=variants, echo=echo)
    try:
        return checker.run()
    finally:
        checker.drop_engine()
