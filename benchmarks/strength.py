"""Strength of the alphabeta bot against the baselines on every variant.

    python benchmarks/strength.py [--games 40] [--movetime 100] [--depth 5]
                                  [--variant oware ...] [--jobs 2]

Matches, each on every variant, colours alternated:

- alphabeta at ``--movetime`` ms a move against random and greedy (seeded
  differently in each game), from the start position;
- alphabeta against plain minimax, both to the same fixed ``--depth``
  (``--bao-depth`` for Bao, whose branching is wider); both are
  deterministic, so each pair of games starts from its own opening (a few
  seeded random plies), played once with each colour.

Prints wins, draws and losses of alphabeta, and its score in per cent.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

MAX_PLIES = 600
OPENING_PLIES = (2, 4)


@dataclass(frozen=True)
class Match:
    variant: str
    opponent: str
    games: int
    movetime: int | None  # alphabeta's ms a move, or None for a fixed depth
    depth: int | None


def opening(variant: str, seed: int) -> list[str]:
    """A few seeded random plies that do not end the game (the library's
    random_openings, every opening kept: no balance check)."""
    from bingwa.tournament.openings import random_openings

    rng = random.Random(seed)
    plies = rng.randint(*OPENING_PLIES)
    return random_openings(variant, 1, plies, rng, evaluate=lambda position: 0)[0]


def player(name: str, seed: int, depth: int | None):
    from bingwa.tournament.players import InProcessPlayer

    options: tuple[tuple[str, str], ...] = ()
    if name in ("random", "greedy"):
        options = (("Seed", str(seed)),)
    if name == "minimax" and depth:
        options = (("Depth", str(depth)),)
    return InProcessPlayer(name, name, options)


def play(match: Match, game: int) -> tuple[str, int, float, str]:
    """One game, played by the tournament's referee; returns (match key,
    alphabeta's result: 1, 0 or -1, alphabeta's mean seconds a move, the
    game's record)."""
    from bingwa.tournament.model import PlannedGame
    from bingwa.tournament.referee import Adjudication, Rules, play_game
    from bingwa.tournament.timecontrol import TimeControl

    book = opening(match.variant, 7919 * (game // 2) + 17) if match.opponent == "minimax" else []
    ab_side = (game + len(book)) % 2  # alternate who moves first after the opening
    players = [player(match.opponent, game, match.depth), player("alphabeta", game, None)]
    if ab_side == 0:
        players.reverse()
    fixed_depth = TimeControl(depth=match.depth or 1)
    controls = [fixed_depth, fixed_depth]
    if match.movetime:
        controls[ab_side] = TimeControl(movetime_ms=match.movetime)
    # strength, not time keeping, is measured: a move over its time is no loss
    rules = Rules(margin_ms=10**9, adjudication=Adjudication(move_cap=MAX_PLIES))
    planned = PlannedGame(game, game // 2, 0, match.variant, 0, players[0].name, players[1].name)
    played = play_game(planned, book, (players[0], players[1]), (controls[0], controls[1]), rules)
    winner = {"1-0": 0, "0-1": 1}.get(played.result)
    score = 0 if winner is None else 1 if winner == ab_side else -1
    thinking = [move.time_ms or 0 for move in played.moves if move.side == ab_side and not move.book]
    record = (f"{match.variant} game {game}, alphabeta {'South North'.split()[ab_side]}: "
              f"{played.start_position} moves " + " ".join(move.move for move in played.moves))
    return f"{match.variant} {match.opponent}", score, sum(thinking) / 1000 / max(1, len(thinking)), record


def main(argv: list[str] | None = None) -> int:
    from bingwa.engine import variant_names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per match")
    parser.add_argument("--movetime", type=int, default=100, help="ms a move against random/greedy")
    parser.add_argument("--depth", type=int, default=5, help="depth of both in the minimax match")
    parser.add_argument("--bao-depth", type=int, default=3, help="that depth for the Bao games")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--opponent", action="append", help="only these opponents")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--show-losses", action="store_true", help="print the games alphabeta lost")
    args = parser.parse_args(argv)

    matches = []
    for variant in args.variant or variant_names():
        depth = args.bao_depth if variant in ("bao", "kujifunza") else args.depth
        for opponent in args.opponent or ["random", "greedy", "minimax"]:
            if opponent == "minimax":
                matches.append(Match(variant, opponent, args.games, None, depth))
            else:
                matches.append(Match(variant, opponent, args.games, args.movetime, None))
    jobs = [(m, g) for m in matches for g in range(m.games)]
    tally: dict[str, list[int]] = {}
    times: dict[str, list[float]] = {}
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for key, score, per_move, record in pool.map(play, *zip(*jobs)):
            if score < 0 and args.show_losses:
                print(f"lost: {record}")
            row = tally.setdefault(key, [0, 0, 0])
            row[1 - score] += 1  # wins, draws, losses
            times.setdefault(key, []).append(per_move)
    print(f"{'variant':<10} {'opponent':<8} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
          f"{'score %':>8} {'ms/move':>8}")
    for m in matches:
        key = f"{m.variant} {m.opponent}"
        wins, draws, losses = tally[key]
        games = wins + draws + losses
        pct = 100 * (wins + draws / 2) / games
        ms = 1000 * sum(times[key]) / len(times[key])
        setting = f"{m.movetime} ms" if m.movetime else f"depth {m.depth}"
        print(f"{m.variant:<10} {m.opponent:<8} {games:>5} {wins:>4} {draws:>4} {losses:>4} "
              f"{pct:>7.1f}% {ms:>8.1f}  ({setting})")
    print(f"wall time {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
