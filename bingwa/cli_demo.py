"""``bingwa demo``: the README's main job on a fresh machine: perft and a
few games between the alpha-beta engine and the greedy bot on every
variant, colours alternated."""

from __future__ import annotations

import threading
import time

import click

from bingwa.cli import main


def play_game(variant, south, north, depth: int = 4, max_moves: int = 400):
    """A game between two bots at their fastest settings; returns the
    final Position."""
    from bingwa.engine import Position
    from bingwa.engine.limits import Limits

    pos = Position(variant)
    bots = (south, north)
    stop = threading.Event()
    for _ in range(max_moves):
        if pos.is_over():
            break
        result = bots[pos.turn].go(pos, Limits(depth=depth), lambda info: None, stop)
        pos.push(result.best)
    return pos


@main.command()
@click.option("--games", default=4, show_default=True, help="Games per variant.")
@click.option("--depth", default=7, show_default=True, help="perft depth.")
@click.option("--search-depth", default=4, show_default=True, help="Depth of every move's search.")
def demo(games: int, depth: int, search_depth: int) -> None:
    """perft and alpha-beta against greedy on every variant."""
    from bingwa.bots import find_bot
    from bingwa.engine import Position, find_variant, variant_names

    for name in variant_names():
        variant = find_variant(name)
        start = time.perf_counter()
        count = Position(variant).perft(depth)
        elapsed = time.perf_counter() - start
        click.echo(f"{name}: perft({depth}) = {count} in {elapsed:.3f} s")
        wins = {"alphabeta": 0, "greedy": 0, "draw": 0}
        for game in range(games):
            greedy = find_bot("greedy")()
            greedy.set_option("Seed", str(game))
            players = [find_bot("alphabeta")(), greedy]
            if game % 2:
                players.reverse()
            pos = play_game(variant, players[0], players[1], depth=search_depth)
            outcome = pos.outcome()
            result = outcome.result() if outcome else "*"
            winner = outcome.winner if outcome else None
            wins[type(players[winner]).name if winner is not None else "draw"] += 1
            names = " vs ".join(type(b).name for b in players)
            how = outcome.termination.value if outcome else "move cap"
            scores = outcome.scores if outcome else pos.scores()
            click.echo(f"  game {game + 1}: {names}: {result} ({how}, "
                       f"{len(pos.move_stack)} moves, final scores {scores[0]}-{scores[1]})")
        click.echo("  wins: " + ", ".join(f"{k} {v}" for k, v in wins.items()))
