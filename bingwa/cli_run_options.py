"""What ``bingwa tournament`` and ``bingwa sprt`` share: their command
classes (Ctrl-C as one line; every error of an SPRT exits 3), the options
of a run (the database, the limits, openings, adjudication, timeouts, the
backend and outputs), and the RunConfig of a new run made from them.

An error is one line with the exit status of the command running
(``command_fail``): ``bingwa sprt``'s is 3, as its 2 means "inconclusive".
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any, NoReturn

import click
from click.core import ParameterSource

from bingwa.cli_common import fail
from bingwa.cli_spelling import UNTIL

DEFAULT_DB = "bingwa-tournaments.sqlite"

# on --resume a run plays on with the settings it was created with; only
# these say how (not what) it plays
RESUME_OPTIONS = frozenset({"resume", "run_id", "db_path", "concurrency", "backend", "address",
                            "progress_kind", "report_path", "log_path", "pgnout"})


def command_fail(message: str) -> NoReturn:
    """One error line; the exit status of an error of the command running
    (``bingwa sprt``: 3, as 2 means "inconclusive"; else 2)."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.command.name == "sprt":
        sprt_fail(message)
    fail(message)


class RunCommand(click.Command):
    """``tournament`` and ``sprt``: Ctrl-C anywhere is one line and exit
    status 130 (a run in progress says how to resume it)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("bingwa: interrupted", err=True)
            sys.exit(130)


class SprtCommand(RunCommand):
    """``sprt``: every error exits 3, a bad option as well as a failure
    found later, as documented (0, 1 and 2 are the test's verdicts)."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            exc.exit_code = 3  # type: ignore[misc]  # click types it a ClassVar: this one error exits 3
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - an SPRT's caller reads the status: 3, never 1
            sprt_fail(f"{type(exc).__name__}: {exc}")


def db_option(default: bool = True):
    return click.option(
        "--db", "db_path", type=click.Path(dir_okay=False), default=DEFAULT_DB if default else None,
        show_default=default, help="The SQLite database the games go to.",
    )


def limit_options(f):
    for option in reversed((
        click.option("--tc", default=None, help="Clock: moves/time+inc in seconds, e.g. 40/60+0.6 or 10+0.1."),
        click.option("--st", type=float, default=None, help="A fixed time per ply, seconds."),
        click.option("--nodes", type=click.IntRange(1), default=None, help="A fixed node count per move."),
        click.option("--depth", type=click.IntRange(1), default=None, help="A fixed depth per move."),
    )):
        f = option(f)
    return f


def _seconds(ctx: click.Context, param: click.Parameter, text: str) -> float:
    """A timeout in seconds: a finite number more than 0, else one error
    line (and ``bingwa sprt``'s exit status for an error, 3)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        command_fail(f"{param.opts[0]} takes a number of seconds more than 0, not {text.strip() or repr(text)}")
    return value


def run_options(f):
    for option in reversed((
        click.option("--jobs", "-j", "--concurrency", "concurrency", type=click.IntRange(1), default=None,
                     help="Games played at once (default: the number of cores). --concurrency is "
                          f"its old spelling, still read until {UNTIL}."),
        click.option("--openings", "openings_file", type=click.Path(exists=True, dir_okay=False),
                     default=None, help="Openings file: one opening a line, moves from the start or a position string."),
        click.option("--opening-plies", type=click.IntRange(0), default=4, show_default=True,
                     help="Plies of a random opening (without --openings)."),
        click.option("--opening-margin", type=click.IntRange(0), default=200, show_default=True,
                     help="A random opening is kept when a short search scores it within this many centi-seeds."),
        click.option("--opening-depth", type=click.IntRange(1, 30), default=4, show_default=True,
                     help="Plies of that search (deeper: openings balanced beyond the first tactics)."),
        click.option("--seed", type=int, default=1, show_default=True, help="Seed of the random openings."),
        click.option("--adjudicate", "adjudicate_margin", type=click.IntRange(1), default=None,
                     help="Adjudicate a win when one side leads by this many seeds ..."),
        click.option("--adjudicate-plies", type=click.IntRange(1), default=10, show_default=True,
                     help="... for this many consecutive plies."),
        click.option("--move-cap", type=click.IntRange(1), default=None,
                     help="A game still going after this many plies is a draw."),
        click.option("--time-margin", type=click.IntRange(0), default=100, show_default=True,
                     help="Milliseconds an engine may overrun its clock before it loses on time."),
        click.option("--timeout", type=click.FloatRange(0.1), default=60.0, show_default=True,
                     help="Seconds a move may take when there is no clock (fixed nodes or depth)."),
        click.option("--ready-timeout", default="5", show_default=True, callback=_seconds,
                     metavar="SECONDS",
                     help="Seconds an engine may take to answer isready with readyok (before every "
                          "move, and when pinged after a second of silence in a search); later is a stall."),
        click.option("--start-timeout", default="10", show_default=True, callback=_seconds,
                     metavar="SECONDS",
                     help="Seconds a starting engine may take to answer uci with uciok; later is a stall."),
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                     help="local worker threads, or batches of game pairs as Ray tasks."),
        click.option("--address", default=None, help="The Ray cluster to join (default: a local Ray)."),
        click.option("--batch-pairs", type=click.IntRange(1), default=2, show_default=True,
                     help="Colour-reversed pairs in one Ray task."),
        click.option("--progress", "progress_kind", type=click.Choice(["auto", "live", "lines", "none"]),
                     default="auto", show_default=True, help="How the run shows itself as it goes."),
        click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
                     help="Write the HTML report here at the end."),
        click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
                     help="Log engine failures with the lines that led to them to this file."),
        click.option("--pgnout", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                     help="Append each finished game's record (docs/records.md) to FILE as it ends."),
    )):
        f = option(f)
    return f


def time_control(tc: str | None, st: float | None, nodes: int | None, depth: int | None):
    from bingwa.tournament.timecontrol import TimeControl, TimeControlError

    try:
        control = TimeControl.from_fields(tc, st, nodes, depth)
    except TimeControlError as exc:
        command_fail(str(exc))
    if not control.is_bounded():
        command_fail("give a time control: --tc, --st, --nodes or --depth")
    return control


def check_resume(ctx: click.Context, resume: bool) -> None:
    """--resume plays a run on with its own settings: an option that
    would change them is refused, not silently ignored."""
    if not resume:
        return
    given = [p for p in ctx.command.params
             if p.name not in RESUME_OPTIONS and ctx.get_parameter_source(p.name or "") == ParameterSource.COMMANDLINE]
    if given:
        names = ", ".join(p.opts[0] for p in given)
        command_fail(f"--resume plays the run on with the settings it was started with; leave out {names}")


def _ms(seconds: float) -> int:
    """Seconds as whole milliseconds, at least 1 (0.0004 s is not 0)."""
    return max(1, round(seconds * 1000))


def run_config(kind, specs, variants, control, given: dict[str, Any], *, rounds: int | None = None,
            gauntlet: str | None = None, sprt: Any = None, max_games: int | None = None,
            anchor: str = "random"):
    """The RunConfig of a new run: ``given`` is the command's parameters
    (ctx.params), of which the options tournament and sprt share
    (run_options) are read; the arguments say what the kind of run adds."""
    from bingwa.tournament.config import OpeningsConfig, RunConfig
    from bingwa.tournament.referee import Adjudication, Rules
    from bingwa.tournament.schedule import ScheduleError

    rules = Rules(given["time_margin"], round(given["timeout"] * 1000),
                  Adjudication(given["adjudicate_margin"], given["adjudicate_plies"], given["move_cap"]),
                  ready_timeout_ms=_ms(given["ready_timeout"]),
                  start_timeout_ms=_ms(given["start_timeout"]))
    openings = OpeningsConfig(file=given["openings_file"], plies=given["opening_plies"],
                              margin_cp=given["opening_margin"], depth=given["opening_depth"],
                              seed=given["seed"])
    if given["openings_file"]:
        _check_openings(given["openings_file"], variants)
    try:
        return RunConfig(
            kind=kind, engines=specs, variants=variants, tc=control, rounds=rounds,
            rules=rules, openings=openings, concurrency=given["concurrency"] or os.cpu_count() or 1,
            gauntlet=gauntlet, sprt=sprt, max_games=max_games,
            batch_pairs=given["batch_pairs"], anchor=anchor,
        )
    except ScheduleError as exc:
        command_fail(str(exc))


def _check_openings(path: str, variants: tuple[str, ...]) -> None:
    """The openings file read for every variant before anything is stored."""
    from bingwa.tournament.openings import OpeningError, read_openings

    for variant in variants:
        try:
            read_openings(path, variant)
        except OpeningError as exc:
            command_fail(str(exc))


def sprt_fail(message: str) -> NoReturn:
    click.echo(f"bingwa: error: {message}", err=True)
    sys.exit(3)
