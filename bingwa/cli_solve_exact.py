"""``bingwa solve kalah`` and ``bingwa solve kujifunza``: the exact solvers
of engine/solvers.py at the command line (docs/solving.md)."""

from __future__ import annotations

import click

from bingwa.cli_common import fail, load_position, load_variant, variant_option
from bingwa.cli_solve import solve


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
