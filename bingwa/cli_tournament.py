"""``bingwa tournament``, ``bingwa sprt``, ``bingwa ratings`` and
``bingwa export``: running engines against each other and reading what
they did (bingwa.tournament). The options and the configuration the two
run commands share are in bingwa/cli_run_options.py."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from bingwa.cli_common import fail, variant_option
from bingwa.cli_db import check_anchor_entered, check_anchor_played, check_run
from bingwa.cli_run_options import (
    RunCommand,
    SprtCommand,
    check_resume,
    command_fail,
    db_option,
    limit_options,
    run_config,
    run_options,
    sprt_fail,
    time_control,
)


def _progress(kind: str):
    from rich.console import Console

    from bingwa.tournament.progress import LineProgress, QuietProgress, RichProgress

    console = Console(stderr=False)
    if kind == "auto":
        kind = "live" if console.is_terminal else "lines"
    return {"live": RichProgress, "lines": LineProgress, "none": QuietProgress}[kind](console) \
        if kind != "none" else QuietProgress()


def _setup_log(path: str | None) -> None:
    import logging

    logger = logging.getLogger("bingwa.tournament")
    logger.propagate = False
    try:
        handler: logging.Handler = logging.FileHandler(path) if path else logging.NullHandler()
    except OSError as exc:  # checked at the start; the file system may still say no
        command_fail(f"--log {path}: {exc.strerror}")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _variants(names: tuple[str, ...], all_variants: bool, options: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The variants' specs; ``options`` (``-o NAME=VALUE``) apply to each."""
    from bingwa.engine import BingwaError, find_variant, variant_names

    chosen = tuple(variant_names()) if all_variants else (names or ("oware",))
    try:
        return tuple(find_variant(" ".join((n, *options))).spec() for n in chosen)
    except BingwaError as exc:
        command_fail(str(exc))


def _check_outputs(**paths: str | None) -> None:
    """Every file the command will write, checked before any work."""
    from bingwa.tournament.outputs import OutputPathError, check_writable

    for option, path in paths.items():
        if path:
            try:
                check_writable(path, "--" + option.replace("_", "-"))
            except OutputPathError as exc:
                command_fail(str(exc))


def _check_backend(backend: str) -> None:
    if backend == "ray":
        from bingwa.tournament.ray_backend import RayMissingError, require_ray

        try:
            require_ray()
        except RayMissingError as exc:
            command_fail(str(exc))


def _check_options(specs) -> None:
    """Each engine given option.NAME is started once and asked which
    options it has: one it does not offer is an error now, not a setting
    silently lost in every game."""
    from bingwa.protocol.errors import EngineError
    from bingwa.tournament.engines import missing_options

    for spec in specs:
        if not spec.options:
            continue
        try:
            missing = missing_options(spec)
        except EngineError as exc:
            command_fail(f"engine {spec.name} did not start: {str(exc).splitlines()[0]}")
        if missing:
            command_fail(f"engine {spec.name} has no option {', '.join(missing)}")


def _engine_specs(engines: tuple[str, ...], bots: tuple[str, ...]):
    from bingwa.tournament.model import EngineSpec, EngineSpecError
    from bingwa.tournament.timecontrol import TimeControlError

    specs = []
    try:
        for bot in bots:
            specs.append(EngineSpec.bot(bot))
        for text in engines:
            specs.append(EngineSpec.parse(text))
        for spec in specs:
            spec.check_command()
    except (EngineSpecError, TimeControlError, ValueError) as exc:
        command_fail(str(exc))
    return tuple(specs)


def _play(store, config=None, *, resume: bool = False, run_id: int | None = None,
          concurrency: int | None = None, backend: str = "local", address: str | None = None,
          progress_kind: str = "auto", pgnout: str | None = None):
    """Create or resume a run and play it; the Summary."""
    from bingwa.tournament.openings import OpeningError
    from bingwa.tournament.outputs import RecordsFile
    from bingwa.tournament.runner import Tournament
    from bingwa.tournament.storage import StorageError

    progress = _progress(progress_kind)
    try:
        if resume:
            t = Tournament.resume(store, run_id, progress=progress, concurrency=concurrency)
        else:
            t = Tournament.create(store, config, progress=progress)
    except (StorageError, OpeningError) as exc:
        command_fail(str(exc))
    if pgnout:
        t.listeners = (RecordsFile(pgnout, t.config.tc.describe()),)
    if not resume and not config.openings.file:
        wanted = config.opening_count()
        for variant, lines in t.openings.items():
            if len(lines) < wanted:
                click.echo(f"note: {variant}: {len(lines)} balanced openings of {config.openings.plies} "
                           f"plies, not {wanted}; they are reused, and engines at fixed nodes or depth "
                           f"replay the same games (see --opening-margin, --opening-plies, --openings)",
                           err=True)
    try:
        return t.run(backend=backend, address=address)
    except KeyboardInterrupt:
        click.echo(f"bingwa: interrupted: {store.count_games(t.run_id)} games of run {t.run_id} kept; "
                   f"resume with --resume --run {t.run_id} --db {store.path}", err=True)
        sys.exit(130)


def _print_ratings(store, run_id: int | None, variants, anchor: str | None, bootstrap: int) -> None:
    from rich.console import Console

    from bingwa.tournament.progress import matchups_table, ratings_notes, ratings_table
    from bingwa.tournament.stats import rate

    console = Console(highlight=False)
    for variant in variants:
        games = store.scores(variant, run_id)
        if not games:
            continue
        for table in rate(games, anchor, bootstrap=bootstrap):
            console.print(ratings_table(variant, table))
            console.print(ratings_notes(table), style="dim")
            sub = [g for g in games if g.south in table.ratings]
            console.print(matchups_table(variant, sub, table.ranked()))


def _write_report(store, run_id: int | None, path: str | None, variants=None) -> None:
    if not path:
        return
    from bingwa.tournament.report import build_report

    try:
        Path(path).write_text(build_report(store, run_id, variants), encoding="utf-8")
    except OSError as exc:  # checked at the start, yet the disk may fill: the games are in the database
        command_fail(f"{path}: {exc.strerror}; the games are in {store.path}")
    click.echo(f"report: {path}")


def _open_store(path: str, must_exist: bool = False):
    from bingwa.tournament.storage import StorageError, Store

    if must_exist and not os.path.exists(path):
        command_fail(f"{path}: no such database")
    try:
        return Store(path)
    except StorageError as exc:
        command_fail(str(exc))


@click.command(cls=RunCommand)
@click.option("--engine", "-e", "engines", multiple=True, metavar="SPEC",
              help="An engine: 'name=N cmd=\"COMMAND\" [protocol=uci|auale] [option.NAME=V] [nodes=..]', "
                   "or a built-in bot's name.")
@click.option("--bot", "-b", "bots", multiple=True, metavar="NAME",
              help="A built-in bot, run as 'bingwa engine --bot NAME'.")
@click.option("--variant", "-v", "variant_names_", multiple=True, metavar="SPEC",
              help="A variant to play (repeat for several; default oware).")
@variant_option
@click.option("--all-variants", is_flag=True, help="Play every registered variant.")
@click.option("--gauntlet", default=None, metavar="NAME",
              help="A gauntlet: NAME plays every other engine (default: a round-robin).")
@click.option("--rounds", type=click.IntRange(1), default=10, show_default=True,
              help="Colour-reversed pairs per matchup and variant.")
@click.option("--anchor", default="random", show_default=True, help="The engine rated 0.")
@click.option("--resume", is_flag=True, help="Continue an interrupted run (the latest, or --run).")
@click.option("--run", "run_id", type=int, default=None, help="The run to resume.")
@db_option()
@limit_options
@run_options
@click.pass_context
def tournament(ctx, engines, bots, variant_names_, options, all_variants, gauntlet, rounds, anchor, resume,
               run_id, db_path, tc, st, nodes, depth, concurrency, openings_file, opening_plies,
               opening_margin, opening_depth, seed, adjudicate_margin, adjudicate_plies, move_cap,
               time_margin, timeout, ready_timeout, start_timeout, backend, address, batch_pairs,
               progress_kind, report_path, log_path, pgnout) -> None:
    """Play engines against each other on one variant, several or all
    (round-robin or gauntlet), each opening twice with colours swapped,
    and rate them. Every finished game is stored at once: --resume
    continues an interrupted run."""
    check_resume(ctx, resume)
    _check_outputs(report=report_path, log=log_path, pgnout=pgnout, db=None if resume else db_path)
    _check_backend(backend)
    config = None
    if not resume:
        specs = _engine_specs(engines, bots)
        if ctx.get_parameter_source("anchor") == ParameterSource.COMMANDLINE:
            check_anchor_entered(specs, anchor)
        config = run_config(
            "gauntlet" if gauntlet else "round-robin", specs,
            _variants(variant_names_, all_variants, options), time_control(tc, st, nodes, depth),
            ctx.params, rounds=rounds, gauntlet=gauntlet, anchor=anchor,
        )
        _check_options(specs)
    _setup_log(log_path)
    store = _open_store(db_path, must_exist=resume)
    summary = _play(store, config, resume=resume, run_id=run_id, concurrency=concurrency,
                    backend=backend, address=address, progress_kind=progress_kind, pgnout=pgnout)
    run = store.run(summary.run_id)
    click.echo(f"run {summary.run_id}: {summary.status}, {store.count_games(summary.run_id)} games "
               f"({summary.played} played now) in {db_path}")
    _print_ratings(store, summary.run_id, run.config["variants"], run.config.get("anchor", anchor), 1000)
    _write_report(store, summary.run_id, report_path, run.config["variants"])


def _sprt_engine(text: str, role: str):
    """``--new``/``--base``: an engine spec (with cmd= or bot=), a built-in
    bot's name, or a plain command line (named after its program)."""
    from bingwa.tournament.model import EngineSpec, EngineSpecError

    try:
        words = shlex.split(text)
        if any(w.startswith(("cmd=", "bot=")) for w in words):
            spec = EngineSpec.parse(text)
        elif len(words) == 1 and "/" not in words[0] and " " not in text.strip():
            from bingwa.protocol.bots import bot_names

            spec = (EngineSpec.bot(words[0]) if words[0] in bot_names()
                    else EngineSpec(_program_name(words), tuple(words)))
        else:
            spec = EngineSpec(_program_name(words), tuple(words))
        spec.check_command()
    except (EngineSpecError, ValueError) as exc:
        sprt_fail(f"--{role}: {exc}")
    return spec


def _program_name(words: list[str]) -> str:
    return os.path.basename(words[0]) if words else ""


def _sprt_pair(new, base):
    """New and base as the run names them: their own names, told apart by
    their role when they share one. The same engine twice is refused:
    such a test measures nothing."""
    from dataclasses import replace

    if (new.command, new.protocol, new.options, new.tc) == (base.command, base.protocol, base.options, base.tc):
        sprt_fail(f"--new and --base are the same engine ({shlex.join(new.command)}): nothing to test")
    if new.name == base.name:
        new, base = replace(new, name=f"{new.name}-new"), replace(base, name=f"{base.name}-base")
    return new, base


def _check_resumed_sprt(store, run_id: int | None) -> None:
    from bingwa.tournament.storage import StorageError

    try:
        run = store.run(run_id)
    except StorageError as exc:
        sprt_fail(str(exc))
    if run.kind != "sprt":
        sprt_fail(f"run {run.id} is a {run.kind}, not an SPRT: resume it with bingwa tournament --resume")


@click.command(cls=SprtCommand)
@click.option("--new", "new_cmd", required=False, help="The engine under test (a command, a bot name, or an engine spec).")
@click.option("--base", "base_cmd", required=False, help="The engine it must not be weaker than.")
@click.option("--variant", "-v", "variant_name", default="oware", show_default=True)
@variant_option
@click.option("--elo0", type=float, default=0.0, show_default=True, help="H0: normalised Elo.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="H1: normalised Elo.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True)
@click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True)
@click.option("--model", type=click.Choice(["normalized", "logistic"]), default="normalized", show_default=True)
@click.option("--max-games", type=click.IntRange(2), default=20000, show_default=True,
              help="Stop here, inconclusive (exit 2), if neither bound is reached.")
@click.option("--resume", is_flag=True, help="Continue an interrupted SPRT (the latest run, or --run).")
@click.option("--run", "run_id", type=int, default=None)
@db_option()
@limit_options
@run_options
@click.pass_context
def sprt(ctx, new_cmd, base_cmd, variant_name, options, elo0, elo1, alpha, beta, model, max_games, resume,
         run_id, db_path, tc, st, nodes, depth, concurrency, openings_file, opening_plies, opening_margin,
         opening_depth, seed, adjudicate_margin, adjudicate_plies, move_cap, time_margin, timeout,
         ready_timeout, start_timeout, backend, address, batch_pairs, progress_kind, report_path,
         log_path, pgnout) -> None:
    """Sequential test: is NEW stronger than BASE by ELO1 rather than ELO0?
    Colour-reversed pairs, pentanomial GSPRT on normalised Elo (fishtest,
    fastchess). Exit status: 0 H1 accepted, 1 H0 accepted, 2 inconclusive
    at --max-games, 3 an error. Fixed --nodes make it reproducible."""
    from bingwa.tournament.sprt import Sprt, SprtError

    check_resume(ctx, resume)
    _check_outputs(report=report_path, log=log_path, pgnout=pgnout, db=None if resume else db_path)
    _check_backend(backend)
    config = None
    if not resume:
        if not new_cmd or not base_cmd:
            sprt_fail("give --new and --base (or --resume)")
        try:
            test = Sprt(elo0, elo1, alpha, beta, model)
        except SprtError as exc:
            sprt_fail(str(exc))
        specs = _sprt_pair(_sprt_engine(new_cmd, "new"), _sprt_engine(base_cmd, "base"))
        config = run_config(
            "sprt", specs, _variants((variant_name,), False, options), time_control(tc, st, nodes, depth),
            ctx.params, sprt=test, max_games=max_games, anchor=specs[1].name,
        )
        _check_options(specs)
    _setup_log(log_path)
    store = _open_store(db_path, must_exist=resume)
    if resume:
        _check_resumed_sprt(store, run_id)
    summary = _play(store, config, resume=resume, run_id=run_id, concurrency=concurrency,
                    backend=backend, address=address, progress_kind=progress_kind, pgnout=pgnout)
    st_ = summary.standings
    test = st_.sprt
    assert test is not None
    elo = st_.head_to_head()
    new, base = st_.engines[:2]
    click.echo(f"SPRT run {summary.run_id} {new} vs {base}: {summary.decision or 'unfinished'}  "
               f"LLR {st_.llr():+.2f} [{test.lower:+.2f}, {test.upper:+.2f}]  "
               f"pairs {sum(st_.penta())} penta {st_.penta()}  "
               f"Elo {elo.value:+.1f} [{elo.low:+.1f}, {elo.high:+.1f}]")
    _write_report(store, summary.run_id, report_path)
    sys.exit({"H1": 0, "H0": 1}.get(summary.decision or "", 2))


@click.command()
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--variant", "-v", "variant_name", default=None, help="Only this variant.")
@click.option("--run", "run_id", type=int, default=None, help="Only this run (default: every run).")
@click.option("--anchor", default="random", show_default=True, help="The engine rated 0 (if it played).")
@click.option("--bootstrap", type=click.IntRange(0), default=1000, show_default=True,
              help="Bootstrap resamples for the intervals.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the HTML report.")
@click.pass_context
def ratings(ctx, db, variant_name, run_id, anchor, bootstrap, html_path) -> None:
    """Elo ratings per variant from every game in DB (or one run):
    maximum likelihood with a first-player term, 95% bootstrap intervals
    over game pairs, and W/D/L, pentanomial counts and LOS per pair."""
    from bingwa.engine import BingwaError, find_variant

    _check_outputs(html=html_path)
    store = _open_store(db, must_exist=True)
    check_run(store, run_id)
    if variant_name:
        try:
            variants = [find_variant(variant_name).spec()]
        except BingwaError as exc:
            fail(str(exc))
    else:
        variants = store.variants(run_id)
    if not any(store.scores(v, run_id) for v in variants):
        fail(f"{db}: no games" + (f" of {variants[0]}" if variant_name else "")
             + (f" in run {run_id}" if run_id is not None else ""))
    if ctx.get_parameter_source("anchor") == ParameterSource.COMMANDLINE:
        check_anchor_played(store, run_id, variants, anchor)
    _print_ratings(store, run_id, variants, anchor, bootstrap)
    _write_report(store, run_id, html_path, variants)


@click.command()
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["records", "csv", "json"]), default="records",
              show_default=True, help="Game records (docs/records.md), CSV (a row a game) or JSON.")
@click.option("--run", "run_id", type=int, default=None, help="Only this run.")
@click.option("--variant", "-v", "variant_name", default=None, help="Only this variant.")
@click.option("--output", "-O", type=click.Path(dir_okay=False), default=None,
              help="Write here (default: standard output).")
def export(db, fmt, run_id, variant_name, output) -> None:
    """Write the games stored in DB as game records, CSV or JSON."""
    from bingwa.engine import BingwaError, find_variant
    from bingwa.tournament.export import export_csv, export_json, export_records
    from bingwa.tournament.storage import StorageError

    _check_outputs(output=output)
    store = _open_store(db, must_exist=True)
    check_run(store, run_id)
    try:
        variant = find_variant(variant_name).spec() if variant_name else None
        text = {"records": export_records, "csv": export_csv, "json": export_json}[fmt](store, run_id, variant)
    except (BingwaError, StorageError) as exc:
        fail(str(exc))
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"{output}: {exc.strerror}")
    else:
        click.echo(text, nl=False)
