"""``bingwa bench`` and ``bingwa analyse``: the search at the command line.

``bench`` runs the bench of bingwa.engine.bench (fixed positions of every
registered variant, fixed depths and table size) and prints its node
count, the search's signature, and its speed.
"""

from __future__ import annotations

import threading
from typing import Any

import click

from bingwa.cli_common import (
    Interrupted,
    fail,
    load_position,
    load_variant,
    run_stoppable,
    variant_option,
)
from bingwa.cli_spelling import old_spelling_note, pick_variant, variant_choice


@click.command()
@click.option("--depth", type=click.IntRange(1, 64), default=None,
              help="One depth for every variant (default: the bench's own).")
# the bench's BENCH_HASH_MB, written out so that the engine is not imported
# to print a help page (tests/cli/test_cli_core.py checks that they agree)
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=16,
              show_default=True, help="Table size in MiB.")
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME",
              help="Only this variant (repeatable).")
@variant_option
@click.option("--verbose", is_flag=True, help="One line per position.")
def bench(depth: int | None, hash_mb: int, variants: tuple[str, ...], options: tuple[str, ...],
          verbose: bool) -> None:
    """Search fixed positions of every variant to a fixed depth and print
    the node count (the search's signature) and the speed. With -o the
    variants are played with those options (each must take them); the
    signature is the count without options."""
    from bingwa.engine import BingwaError, variant_names
    from bingwa.engine.bench import bench_run

    names = list(variants) or variant_names()
    chosen = [load_variant(name, options) for name in names]
    try:
        nodes, seconds, rows = run_stoppable(lambda stop: bench_run(
            depth, hash_mb, chosen, click.echo if verbose else None, stop))
    except BingwaError as exc:
        fail(str(exc))
    for name, n, s in rows:
        click.echo(f"{name:<12} {n:>11} nodes {s:8.3f} s {int(n / s) if s else 0:>10} nodes/s")
    click.echo("=" * 56)
    click.echo(f"Total time (ms): {int(seconds * 1000)}")
    click.echo(f"Nodes searched: {nodes}")
    click.echo(f"Nodes/second: {int(nodes / seconds) if seconds else 0}")


def format_score(info) -> str:
    """A score for people: seeds ahead, or the proven end."""
    if info.score_draw is not None:
        return f"draw in {info.score_draw}"
    if info.score_mate is not None:
        # proven: the result and its distance; the margin is only that of
        # the line shown (the search ranks by distance: docs/search.md)
        margin = (info.score_cp or 0) / 100
        what = "win" if info.score_mate > 0 else "loss"
        return f"{what} in {abs(info.score_mate)} (line ends {margin:+.0f})"
    bound = {"lowerbound": ">=", "upperbound": "<="}.get(info.bound or "", "")
    return f"{bound}{(info.score_cp or 0) / 100:+.2f}"


def format_info(info) -> str:
    """One progress line, protocol style."""
    parts = [f"depth {info.depth}", f"seldepth {info.seldepth}"]
    if info.multipv:
        parts.append(f"multipv {info.multipv}")
    if info.score_mate is not None:
        parts.append(f"score mate {info.score_mate} cp {info.score_cp}")
    elif info.score_draw is not None:
        parts.append(f"score cp {info.score_cp} draw {info.score_draw}")
    else:
        parts.append(f"score cp {info.score_cp}")
    if info.bound:
        parts.append(info.bound)
    parts += [f"nodes {info.nodes}", f"nps {info.nps}", f"time {info.time}",
              f"hashfull {info.hashfull}"]
    if info.tbhits is not None:
        parts.append(f"tbhits {info.tbhits}")
    parts.append("pv " + " ".join(info.pv))
    return "info " + " ".join(parts)


@click.command(epilog=old_spelling_note("the variant as the first argument (bingwa analyse oware)",
                                      "-v/--variant (bingwa analyse -v oware)"))
@variant_choice()
@click.option("--position", "-p", "position_text", help="Start from this position string.")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@click.option("--depth", "-d", type=click.IntRange(1, 200), default=None, help="Search depth.")
@click.option("--time", "-t", "seconds", type=click.FloatRange(0.001, None), default=None,
              help="Seconds to think (default 1 when no depth is given).")
@click.option("--multipv", "-k", type=click.IntRange(1, 256), default=1, show_default=True,
              help="How many best moves to rank (the number of legal moves: all).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Table size in MiB.")
@click.option("--tablebase", "tablebase_dir", metavar="DIR", default=None,
              help="Probe the Oware endgame databases of DIR (bingwa solve build).")
@click.option("--solve", "solve_exact", is_flag=True,
              help="Kalah: then solve the position, its game-theoretic margin (docs/search.md).")
@variant_option
def analyse(
    old_variant: tuple[str, ...],
    variant: str | None,
    position_text: str | None,
    moves: str,
    depth: int | None,
    seconds: float | None,
    multipv: int,
    hash_mb: int,
    tablebase_dir: str | None,
    solve_exact: bool,
    options: tuple[str, ...],
) -> None:
    """Search a position: progress lines, then the ranked moves with their
    scores (seeds ahead for the side to move, or a proven end) and lines;
    with --solve, the exact value with perfect play."""
    from bingwa.engine import BingwaError
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    if depth is not None and seconds is not None:
        fail("give --depth or --time, not both")
    var = load_variant(pick_variant(variant, old_variant), options)
    if solve_exact and var.name != "kalah":
        fail("--solve takes Kalah positions (Bao la Kujifunza: bingwa solve kujifunza)")
    pos = load_position(var, position_text, moves.split())
    click.echo(pos.draw())
    outcome = pos.outcome()
    if outcome is not None:
        click.echo(f"the game is over: {outcome.result()} ({outcome.termination.value}, "
                   f"scores {outcome.scores[0]}-{outcome.scores[1]})")
        return
    limits = Limits(depth=depth) if depth else Limits(movetime=int(1000 * (seconds or 1.0)))
    try:
        searcher = Searcher(hash_mb)
        if tablebase_dir is not None:
            from bingwa.engine.tablebase import open_tablebase

            searcher.set_tablebase(open_tablebase(tablebase_dir, getattr(var, "grandslam", 0)))
    except BingwaError as exc:
        fail(str(exc))

    def search(stop: threading.Event) -> Any:
        return searcher.search(pos, limits, lambda info: click.echo(format_info(info)), stop,
                               multipv=multipv)

    try:
        run_stoppable(search)
    except BingwaError as exc:
        fail(str(exc))
    except Interrupted:
        if searcher.lines:  # the best line found so far, then exit 130
            show_ranked_lines(pos, searcher)
        raise
    show_ranked_lines(pos, searcher)
    if solve_exact:
        from bingwa.cli_solve import echo_kalah_value

        echo_kalah_value(pos)


def show_ranked_lines(pos: Any, searcher: Any) -> None:
    best = searcher.lines[0]
    ponder = f" ponder {best.pv[1]}" if len(best.pv) > 1 else ""
    click.echo(f"bestmove {best.move}{ponder}")
    click.echo(f"Ranked moves ({pos.turn_name} to move, depth {best.info.depth}):")
    for rank, line in enumerate(searcher.lines, 1):
        click.echo(f"{rank:>3}. {line.move:<8} {format_score(line.info):>14}   {' '.join(line.pv)}")
