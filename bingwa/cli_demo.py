"""``bingwa demo``: the README's main job on a fresh machine. For every
variant, one small table: perft from the start (at a depth that takes a
measurable time, so its leaves per second mean something) and a few games of
the alpha-beta engine against the greedy bot, colours alternated, with their
plies and results. A rich table on a terminal, aligned plain text otherwise
(logs, pipes)."""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from bingwa.cli_common import Interrupted, load_variant, run_stoppable

# perft goes one ply deeper until a depth takes this long: each ply costs
# ~2-6 times the one before, so the shown depth takes ~0.1-0.5 s on any
# machine, compiled or pure Python
PERFT_TARGET_SECONDS = 0.1
PERFT_MAX_DEPTH = 11  # kujifunza(11) takes ~8 s here: deeper never ends in a demo
SEARCH_MAX_DEPTH = 8
# and every search stops here whatever its depth: a Bao middle game at
# depth 5 can take 7 s a move, which a demo must not
SEARCH_NODE_CAP = 250_000
MAX_PLIES = 400  # a game still going then is shown as "ply cap"
ENGINE, OPPONENT = "alphabeta", "greedy"


@dataclass
class PerftRun:
    depth: int
    leaves: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.leaves / self.seconds if self.seconds > 0 else 0.0


@dataclass
class GameRun:
    south: str
    north: str
    result: str  # 1-0, 0-1, 1/2-1/2, or * (ply cap)
    plies: int
    end: str
    scores: tuple[int, int]
    winner: str | None  # a bot's name, None for a draw or an unfinished game


@dataclass
class Table:
    """What one variant shows: a title, columns, rows and a summary line."""

    title: str
    headers: Sequence[str]
    rows: list[Sequence[str]] = field(default_factory=list)
    caption: str = ""


def timed_perft(count: Callable[[int], int], depth: int | None,
                clock: Callable[[], float] = time.perf_counter) -> PerftRun:
    """perft at ``depth``, or the first depth taking PERFT_TARGET_SECONDS."""
    depths = [depth] if depth is not None else range(1, PERFT_MAX_DEPTH + 1)
    run = PerftRun(0, 1, 0.0)
    for d in depths:
        start = clock()
        leaves = count(d)
        run = PerftRun(d, leaves, clock() - start)
        if run.seconds >= PERFT_TARGET_SECONDS:
            break
    return run


def start_perft(variant: Any, depth: int | None, stop: threading.Event) -> PerftRun:
    """timed_perft from the start (perft runs to its end: Ctrl-C waits)."""
    from bingwa.engine import Position

    return timed_perft(Position(variant).perft, depth)


def play_game(variant: Any, players: list[Any], depth: int, stop: threading.Event,
              max_plies: int = MAX_PLIES) -> Any:
    """A game between two InProcessPlayers (South first) searching to
    ``depth``, played by the tournament's referee; returns its PlayedGame
    (a draw by the move cap after ``max_plies``). Raises the referee's
    Aborted when ``stop`` is set."""
    from bingwa.tournament.model import PlannedGame
    from bingwa.tournament.referee import Adjudication, Rules
    from bingwa.tournament.referee import play_game as referee_game
    from bingwa.tournament.timecontrol import TimeControl

    for player in players:
        player.stop = stop  # Ctrl-C stops the search under way, not only the game
    control = TimeControl(depth=depth, nodes=SEARCH_NODE_CAP)
    rules = Rules(adjudication=Adjudication(move_cap=max_plies))
    planned = PlannedGame(0, 0, 0, variant.spec(), 0, players[0].name, players[1].name)
    return referee_game(planned, [], (players[0], players[1]), (control, control), rules, stop)


def demo_game(variant: Any, number: int, depth: int, stop: threading.Event) -> GameRun:
    """Game ``number`` (from 0): the engine is South in even games."""
    from bingwa.engine import Termination
    from bingwa.tournament.players import InProcessPlayer
    from bingwa.tournament.referee import Aborted

    players = [InProcessPlayer(ENGINE, ENGINE),
               InProcessPlayer(OPPONENT, OPPONENT, (("Seed", str(number)),))]
    if number % 2:
        players.reverse()
    names = [player.name for player in players]
    try:
        game = play_game(variant, players, depth, stop)
    except Aborted:  # Ctrl-C: run_stoppable's stop is set
        raise Interrupted() from None
    if game.termination == Termination.MOVE_CAP.value:
        return GameRun(names[0], names[1], "*", len(game.moves), "ply cap", game.scores, None)
    winner = {"1-0": names[0], "0-1": names[1]}.get(game.result)
    return GameRun(names[0], names[1], game.result, len(game.moves), game.termination,
                   game.scores, winner)


def variant_table(name: str, perft: PerftRun, games: list[GameRun], search_depth: int) -> Table:
    title = (f"{name}: perft({perft.depth}) = {perft.leaves:,} leaves in {perft.seconds:.2f} s, "
             f"{perft.rate / 1e6:.2f} M leaves/s")
    table = Table(title, ("game", "South", "North", "result", "plies", "end", "scores"))
    for i, game in enumerate(games, 1):
        table.rows.append((str(i), game.south, game.north, game.result, str(game.plies),
                           game.end, f"{game.scores[0]}-{game.scores[1]}"))
    if games:
        wins = [game.winner for game in games]
        table.caption = (f"{ENGINE} (depth {search_depth}) {wins.count(ENGINE)} wins, "
                         f"{OPPONENT} {wins.count(OPPONENT)}, draws or unfinished "
                         f"{wins.count(None)}")
    return table


def plain_lines(table: Table) -> list[str]:
    """The table as aligned text: numbers right, words left."""
    lines = [table.title]
    if table.rows:
        grid = [list(table.headers), *map(list, table.rows)]
        numeric = [all(row[c].replace("-", "").replace("/", "").replace("*", "").isdigit()
                       for row in grid[1:]) for c in range(len(table.headers))]
        widths = [max(len(row[c]) for row in grid) for c in range(len(table.headers))]
        for row in grid:
            cells = [cell.rjust(w) if right else cell.ljust(w)
                     for cell, w, right in zip(row, widths, numeric)]
            lines.append("  " + "  ".join(cells).rstrip())
    if table.caption:
        lines.append("  " + table.caption)
    return lines


def show_table(table: Table, rich_console: Any | None) -> None:
    """A rich table on ``rich_console``, else plain lines on stdout."""
    if rich_console is None:
        for line in plain_lines(table):
            click.echo(line)
        return
    from rich.table import Table as RichTable

    shown = RichTable(title=table.title, caption=table.caption, title_justify="left",
                      caption_justify="left")
    for header in table.headers:
        shown.add_column(header, justify="right" if header in ("game", "plies") else "left")
    for row in table.rows:
        shown.add_row(*row)
    rich_console.print(shown)


def terminal_console() -> Any | None:
    """A rich console when stdout is a terminal, else None (plain text)."""
    if not sys.stdout.isatty():
        return None
    from rich.console import Console

    return Console()


@click.command()
@click.option("--games", type=click.IntRange(0, 100), default=4, show_default=True,
              help="Games per variant (0: perft only).")
@click.option("--depth", type=click.IntRange(1, PERFT_MAX_DEPTH), default=None,
              help="perft depth (default: the first that takes 0.1 s).")
@click.option("--search-depth", type=click.IntRange(1, SEARCH_MAX_DEPTH), default=4,
              show_default=True, help=f"Depth of every move's search in the games (at most {SEARCH_NODE_CAP:,} nodes).")
@click.option("--variant", "-v", "variants", multiple=True, metavar="NAME",
              help="Only this variant (repeatable; default: every variant).")
def demo(games: int, depth: int | None, search_depth: int, variants: tuple[str, ...]) -> None:
    """perft and alpha-beta against greedy on every variant."""
    from bingwa.engine import variant_names

    console = terminal_console()
    start = time.perf_counter()
    for name in variants or variant_names():
        variant = load_variant(name)
        perft = run_stoppable(functools.partial(start_perft, variant, depth))
        runs = [run_stoppable(functools.partial(demo_game, variant, number, search_depth))
                for number in range(games)]
        show_table(variant_table(variant.spec(), perft, runs, search_depth), console)
        click.echo("")
    click.echo(f"demo done in {time.perf_counter() - start:.1f} s")
