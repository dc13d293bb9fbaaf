"""``bingwa solve``: exact values. ``build`` makes the Oware endgame
databases (docs/databases.md), ``query`` reads them, ``verify`` checks
their proofs; ``kalah`` and
``kujifunza`` run the exact solvers of engine/solvers.py (docs/solving.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from bingwa.cli_common import fail, load_position, load_variant, variant_option
from bingwa.cli_spelling import old_spelling_note, pick_variant, variant_choice


@click.group()
def solve() -> None:
    """Exact values: endgame databases and solvers."""


def oware_variant(variant: str, options: tuple[str, ...]):
    var = load_variant(variant, options)
    if var.name != "oware":
        fail(f"endgame databases exist for oware only, not {var.name}")
    return var


def database_dir(folder: str | None) -> Path:
    from bingwa.engine.tablebase import default_dir

    return Path(folder).expanduser() if folder else default_dir()


dir_option = click.option(
    "--dir",
    "folder",
    metavar="DIR",
    help="Database folder (default: $BINGWA_DATABASES, else the XDG data dir).",
)


@solve.command(epilog=old_spelling_note(
    "the variant as the first argument (bingwa solve build oware)", "-v/--variant"))
@variant_choice()
@click.option("--max-seeds", type=int, required=True, help="Build every count 0..N of seeds.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Threads.")
@click.option("--prove/--no-prove", default=None,
              help="Prove the values: an entry is marked exact only when bounds "
                   "proven from the smaller counts' proven bounds meet, and the others "
                   "keep their proven bounds (about 3 times slower than --no-prove, whose "
                   "values the search takes as estimates only; 3 bytes a board on disk). "
                   "Default: as the folder was built; a new folder proves.")
@click.option("--exact-seeds", type=click.IntRange(-1, 8), default=None, metavar="N",
              help="Solve every board of 0..N seeds over every line, repetitions included, "
                   "so that each of their entries is exact (a proving build; -1: none; 8 "
                   "takes about 2 minutes with -j 2). Default: as the folder was built; "
                   "a new folder 8.")
@dir_option
@variant_option
def build(old_variant: tuple[str, ...], variant: str | None, max_seeds: int, jobs: int,
          prove: bool | None, exact_seeds: int | None, folder: str | None,
          options: tuple[str, ...]) -> None:
    """Build the endgame databases of Oware by retrograde analysis:
    one file per seed count, each from the smaller ones. Counts already
    built are kept: an interrupted build resumes where it stopped."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from bingwa.engine import tablebase
    from bingwa.engine.tablebase import TablebaseError

    var = oware_variant(pick_variant(variant, old_variant), options)
    path = database_dir(folder)
    rule = var.grandslam
    if not 0 <= max_seeds <= tablebase.MAX_SEEDS:
        fail(f"--max-seeds must be in 0..{tablebase.MAX_SEEDS}, not {max_seeds}")
    try:  # before the bar is drawn: a bad folder is one line, nothing else
        tablebase.make_folder(path)
        prove, exact_seeds = tablebase.user_modes(path, rule, prove, exact_seeds)
    except TablebaseError as exc:
        fail(str(exc))
    start = tablebase.finished_levels(path, rule, bounds=prove) + 1
    # a count's cost grows with its boards and (about linearly) its sweeps
    weight = {n: tablebase.positions(n) * max(n, 1) for n in range(start, max_seeds + 1)}
    started = {"at": time.monotonic()}
    timings: list[tuple[int, float]] = []
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(f"oware grandslam={var.options['grandslam']}",
                            total=sum(weight.values()) or 1)

        searching: dict[int, Any] = {}  # a count's own bar while every line is searched

        def progress(seeds: int, sweep: int | None, changed: int | None) -> None:
            if sweep is None:
                now = time.monotonic()
                timings.append((seeds, now - started["at"]))
                started["at"] = now
                if seeds in searching:
                    bar.remove_task(searching.pop(seeds))
                bar.update(task, advance=weight[seeds], description=f"{seeds} seeds done")
            elif sweep == 0 and changed is None:
                bar.update(task, description=f"{seeds} seeds: every line searched")
                searching[seeds] = bar.add_task(f"{seeds} seeds: boards searched",
                                                total=tablebase.positions(seeds))
            elif sweep == 0:
                bar.update(searching[seeds], completed=changed)
            else:
                bar.update(task, description=f"{seeds} seeds: sweep {sweep}, {changed} changed")

        try:
            tablebase.build(path, max_seeds, rule, jobs, progress, prove, exact_seeds)
        except TablebaseError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            bar.stop()
            done = tablebase.finished_levels(path, rule, bounds=prove)
            fail(f"interrupted; the databases of 0..{done} seeds are kept in {path}")
    for seeds, seconds in timings:
        size = tablebase.positions(seeds) + tablebase.HEADER_BYTES
        extra = (f" (and {2 * tablebase.positions(seeds) + tablebase.HEADER_BYTES} of proven "
                 "bounds)") if prove else ""
        click.echo(f"{seeds:2d} seeds: {tablebase.positions(seeds)} boards, "
                   f"{size} bytes{extra}, {seconds:.2f} s")
    click.echo(f"databases of 0..{max_seeds} seeds in {path}")


@solve.command(epilog=old_spelling_note(
    "the variant and the position as arguments (bingwa solve query oware POSITION)",
    "-v/--variant and -p/--position (bingwa solve query -p POSITION)"))
@click.argument("words", nargs=-1, metavar="[VARIANT] [POSITION]")
@click.option("--variant", "-v", "variant", metavar="NAME", default=None,
              help="The variant (default oware).")
@click.option("--position", "-p", "position_text", metavar="TEXT", default=None,
              help="The position string whose value is wanted.")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@dir_option
@variant_option
def query(words: tuple[str, ...], variant: str | None, position_text: str | None, moves: str,
          folder: str | None, options: tuple[str, ...]) -> None:
    """Print the database value of a position (-p, a position string) and
    of every legal move, best first."""
    from bingwa.engine import tablebase
    from bingwa.engine.tablebase import TablebaseError

    # the old spelling: [VARIANT] POSITION, each one not given as an option
    missing = [name for name, given in (("variant", variant), ("position", position_text))
               if given is None]
    if len(words) > len(missing):
        raise click.UsageError(f"too many arguments: {' '.join(words)}")
    old = dict(zip(missing[len(missing) - len(words):], words))
    position = position_text or old.get("position")
    if position is None:
        raise click.UsageError("give the position: -p TEXT")
    var = oware_variant(pick_variant(variant, tuple(filter(None, [old.get("variant")]))), options)
    pos = load_position(var, position, moves.split())
    if pos.is_over():
        fail("the game is over in this position")
    try:
        tb = tablebase.open_tablebase(database_dir(folder), var.grandslam)
        found = tablebase.entry(tb, pos.state)
        values = tablebase.move_values(tb, pos)
        history = None
        if found.searched and pos.history():
            from bingwa.engine.oware_exact_player import ExactPlayer

            # the moves by this game's history since the last capture (--moves)
            values = ExactPlayer(tb, node_limit=10**9).move_values(pos)
            history = max(v.value for v in values)
    except TablebaseError as exc:
        fail(str(exc))
    total = tablebase.total_margin(tb, pos.state)
    click.echo(f"value {total:+d} for {pos.turn_name} (board {found.value:+d}, {found.kind})")
    if history is not None:
        click.echo(f"value {history:+d} for {pos.turn_name} with this game's history since the "
                   "last capture (the moves below count it)")
    best = max(v.value for v in values)
    click.echo("best moves: " + " ".join(v.move for v in values if v.value == best))
    for v in sorted(values, key=lambda m: -m.value):
        notes = [note for note, on in (("capture", v.capture), ("game over", v.ends)) if on]
        click.echo(f"  {v.move} {v.value:+d}" + (f" ({', '.join(notes)})" if notes else ""))


@solve.command()
@click.option("--position", "-p", "positions", metavar="TEXT", multiple=True,
              help="Check only what this position's bounds lean on (repeatable).")
@click.option("--max-seeds", type=click.IntRange(0, 48), default=None,
              help="Check the counts 0..N (default: every count of the folder).")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes.")
@dir_option
@variant_option
def verify(positions: tuple[str, ...], max_seeds: int | None, jobs: int, folder: str | None,
           options: tuple[str, ...]) -> None:
    """Check the certificate of a proving build: every bound the databases
    prove, the exact entries included, move by move with the pure-Python
    rules and the ranks, and the counts solved over every line
    (--exact-seeds) solved again (docs/databases.md, "The certificate"). Exit 0 when
    every one holds, 1 when one does not."""
    from bingwa.engine.oware_certify import Certificate, CertificateError, show
    from bingwa.engine.tablebase import TablebaseError

    var = oware_variant("oware", options)
    try:
        cert = Certificate(database_dir(folder), var.grandslam, max_seeds)
    except TablebaseError as exc:
        fail(str(exc))
    if positions:
        states = [load_position(var, text).state for text in positions]
        for text, (pits, _, side) in zip(positions, states):
            board = tuple(pits[6:] + pits[:6]) if side else tuple(pits)
            if sum(board) > cert.max_seeds:
                fail(f"{text}: {sum(board)} seeds on the board, the folder's proofs hold "
                     f"0..{cert.max_seeds}")
            try:
                lo, hi, checked = cert.check_position(board)
            except CertificateError as exc:
                click.echo(f"{text}: NOT PROVEN: {exc}")
                raise SystemExit(1) from None
            what = f"value {lo:+d}" if lo == hi else f"bounds [{lo:+d}, {hi:+d}]"
            click.echo(f"{show(board)} (the mover's): {what}, certified "
                       f"({checked:,} bounds checked)")
        return

    def done(report) -> None:
        how = (f"{report.searched:,} exact entries solved again over every line"
               if report.searched else f"{report.exact:,} exact and {report.bounded:,} bounded "
               "entries certified")
        click.echo(f"{report.seeds:2d} seeds: {report.boards:,} boards, {how}, "
                   f"{report.failures} failing ({report.seconds:.1f} s)")
        for example in report.examples:
            click.echo(f"    {example}")

    try:
        reports = cert.check_counts(jobs, done)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    failing = sum(r.failures for r in reports)
    if failing:
        click.echo(f"{failing} bounds of 0..{cert.max_seeds} seeds are NOT proven by the "
                   "certificate")
        raise SystemExit(1)
    click.echo(f"every proven bound of 0..{cert.max_seeds} seeds holds: "
               f"{sum(r.exact for r in reports):,} exact entries")


# -- the exact solvers ---------------------------------------------------
def print_line(text: str) -> None:
    click.echo(text, err=True)


def echo_kalah_value(pos) -> None:
    """``analyse --solve``: the exact value after the search's ranking."""
    from bingwa.engine import BingwaError
    from bingwa.engine.solvers import solve_kalah as run

    try:
        found = run(pos)
    except BingwaError as exc:
        fail(str(exc))
    click.echo(f"Solved: {found.value:+d} for {pos.turn_name} with perfect play (the largest "
               f"final margin, not the fastest win's), best moves {' '.join(found.best_moves)}, "
               f"{found.seconds:.1f} s")


@solve.command("kalah")
@click.option("--position", "-p", "position_text", help="Solve this position (default: the start).")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@click.option("--db-seeds", type=click.IntRange(0, 40), default=None,
              help="Databases up to this many seeds in the pits (default: half the seeds, "
                   "at most 100 M positions).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 16384), default=256, show_default=True,
              help="Table size in MiB above the databases.")
@click.option("--guess", type=click.IntRange(-240, 240), default=0, show_default=True,
              help="Where the search starts (MTD(f)'s first guess of the value): a guess "
                   "near the value saves steps; the value is exact whatever the guess.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@variant_option
def solve_kalah(position_text: str | None, moves: str, db_seeds: int | None, hash_mb: int,
                guess: int, quiet: bool, options: tuple[str, ...]) -> None:
    """The game-theoretic value of a Kalah position: the final margin of the
    side to move with perfect play by both sides (the largest margin, not
    the fastest win), the moves that keep it, nodes and time."""
    from bingwa.engine import BingwaError
    from bingwa.engine.solvers import solve_kalah as run

    var = load_variant("kalah", options)
    pos = load_position(var, position_text, moves.split())
    try:
        found = run(pos, db_seeds, hash_mb, None if quiet else print_line, guess)
    except BingwaError as exc:
        fail(str(exc))
    click.echo(f"position: {var.spec()} {pos.text()}")
    click.echo(f"value: {found.value:+d} for {pos.turn_name} "
               f"({'win' if found.value > 0 else 'loss' if found.value < 0 else 'draw'})")
    click.echo(f"best moves: {' '.join(found.best_moves)}")
    click.echo(f"databases: 0..{found.db_seeds} seeds, {found.db_positions:,} positions, "
               f"{found.db_seconds:.1f} s")
    click.echo(f"nodes: {found.nodes}")
    click.echo(f"time: {found.seconds:.1f} s")


@solve.command("kujifunza")
@click.option("--position", "-p", "position_text", help="Prove this position (default: the start).")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@click.option("--max-plies", type=click.IntRange(1, 120), default=40, show_default=True,
              help="Look for a forced win this long at most.")
@click.option("--nodes", "node_limit", type=click.IntRange(0, None), default=0,
              help="Stop after this many nodes (0: no limit).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 16384), default=256, show_default=True,
              help="Table of proven facts, MiB.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def solve_kujifunza(position_text: str | None, moves: str, max_plies: int, node_limit: int,
                    hash_mb: int, quiet: bool) -> None:
    """Prove that the side to move of a Bao la Kujifunza position forces a
    win, by a search in which only game ends count; prints the fastest
    win's length, the proof's first move, its size and time."""
    from bingwa.engine import BingwaError
    from bingwa.engine.solvers import prove_win

    var = load_variant("kujifunza")
    pos = load_position(var, position_text, moves.split())
    try:
        proof = prove_win(pos, max_plies, hash_mb, node_limit, None if quiet else print_line)
    except BingwaError as exc:
        fail(str(exc))
    click.echo(f"position: {pos.text()}")
    if proof.plies is None:
        click.echo(f"result: no forced win for {pos.turn_name} within {max_plies} plies "
                   "(proven; a longer one may exist)")
    else:
        click.echo(f"result: {pos.turn_name} wins, proven, the fastest forced win takes "
                   f"{proof.plies} plies")
        click.echo(f"proof move: {proof.move}")
        click.echo(f"proof tree: {proof.tree_nodes:,} nodes, {proof.tree_states:,} distinct "
                   "positions")
    click.echo(f"nodes: {proof.nodes}")
    click.echo(f"time: {proof.seconds:.1f} s")
