"""Try to refute the search's exact claims by play (engine/playout.py).

    python benchmarks/claims.py --boards 10000 --seeds 4-14 -j 2
    python benchmarks/claims.py --boards 2000 --tablebase DIR   # with databases

Draws Oware endgames at random (``--seed``), keeps those where the engine
(``--depth``, with the databases of ``--tablebase`` if given) claims a
proven result (after up to ``--walk`` random quiet moves, so that the
history since the last capture decides what repeats), and plays each out: the claimed winner (for a draw, a side
drawn at random) by the engine as it analysed, the other side by a
refuter searching ``--refuter-depth`` plies with other settings that
deviates at random (``--deviate``). Prints how many boards were drawn,
claims made and refuted, with every refutation (exit 1 when any), and how
many claimed wins the engine reached later than claimed. With
``--tablebase`` it also plays out the databases' own claims: boards with
no history whose entry is proven exact, the ``perfect`` bot on the side
they say wins. A
figure, not a test; Ctrl-C stops it with what it has.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import signal
import sys
import threading
import time

from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.playout import (
    claim_of,
    margin_reached,
    play_out,
    random_endgame,
    refuter,
    repeater,
    search_player,
    walk,
)
from bingwa.engine.searcher import Searcher

CHUNK = 100  # boards a task (about; each task takes every tasks-th board)


def seed_range(text: str) -> tuple[int, int]:
    try:
        lo, _, hi = text.partition("-")
        low, high = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed range: {text!r} (e.g. 4-14)") from None
    if not 1 <= low <= high <= 47:
        raise argparse.ArgumentTypeError(f"seeds must be within 1..47: {text!r}")
    return low, high


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


@functools.cache
def databases(folder: str | None):
    """The databases of ``folder`` (None: none), read once a process: a
    worker runs many tasks."""
    return tablebase.open_tablebase(folder) if folder else None


@functools.cache
def perfect_bot(folder: str):
    """The ``perfect`` bot reading ``folder``, made once a process: its
    exact player's move graphs (seconds each at 7-8 seeds) are kept
    across tasks."""
    from bingwa.bots import find_bot

    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", folder)
    return bot


def run_share(args: argparse.Namespace, share: int, shares: int) -> dict:
    """Boards share, share + shares, ... of the run (each with its own
    generator, so the result does not depend on -j)."""
    tb = databases(args.tablebase)
    out = {"boards": 0, "claims": 0, "wins": 0, "draws": 0, "plies": 0, "slow": 0, "refuted": []}
    for board in range(share, args.boards, shares):
        rng = random.Random(f"{args.seed}:{board}")
        pos = walk(random_endgame(rng, "oware", rng.randint(*args.seeds)), rng,
                   rng.randint(0, args.walk))
        engine = Searcher()
        engine.set_tablebase(tb)
        limits = Limits(depth=args.depth)
        claim = claim_of(engine, pos, limits)
        out["boards"] += 1
        if claim is None:
            continue
        out["claims"] += 1
        out["wins" if claim.winner is not None else "draws"] += 1
        game = play_out(pos, claim, search_player(engine, limits),
                        refuter(Limits(depth=args.refuter_depth), rng, args.deviate, tb), rng)
        out["plies"] += len(game.moves)
        out["slow"] += game.slow
        if game.refuted:
            history = " ".join(m.text for m in pos.move_stack)
            start = Position("oware", pos.root).text()
            out["refuted"].append(f"{start} moves {history}: {claim.describe()}: "
                                  f"{game.refuted}: {' '.join(game.moves)}")
    return out


def database_claims(args: argparse.Namespace, share: int, shares: int) -> dict:
    """The databases' own claims: boards with no history whose entry is
    proven exact, the perfect bot playing a side drawn at random against
    the refuter (on every other board one that ends the game by repetition
    whenever it can); refuted when the bot's side ends below the claimed
    final margin (engine/playout.py, margin_reached)."""
    tb = databases(args.tablebase)
    bot = perfect_bot(args.tablebase)
    out = {"boards": 0, "claims": 0, "wins": 0, "draws": 0, "plies": 0, "slow": 0, "refuted": [],
           "kept": 0, "moves": 0}
    for board in range(share, args.boards, shares):
        rng = random.Random(f"{args.seed}:db:{board}")
        pos = random_endgame(rng, "oware", rng.randint(args.seeds[0],
                                                        min(args.seeds[1], tb.max_seeds)))
        out["boards"] += 1
        if tablebase.entry(tb, pos.state).cycle:
            continue
        side = rng.randrange(2)
        claim = tablebase.total_margin(tb, pos.state) * (1 if side == pos.turn else -1)
        out["claims"] += 1
        out["wins" if claim else "draws"] += 1
        other = refuter(Limits(depth=args.refuter_depth), rng, args.deviate)
        if board % 2:
            other = repeater(other)
        game = pos.copy()
        moves: list[str] = []
        while not game.is_over() and len(moves) < 2000:
            if game.turn == side:
                keeping = tablebase.keeping_move(tb, game)
                move = bot.go(game, Limits(depth=args.depth), lambda info: None,
                              threading.Event()).best
                assert move is not None
                out["moves"] += 1
                out["kept"] += keeping is not None and keeping.move == move
            else:
                move = other(game)
            game.push(move)
            moves.append(move)
        out["plies"] += len(moves)
        outcome = game.outcome()
        if outcome is None or not margin_reached(outcome, side, claim):
            got = "no end" if outcome is None else f"{outcome.margin(side):+d}"
            out["refuted"].append(f"{pos.text()}: the databases' {claim:+d} for "
                                  f"{('South', 'North')[side]}: {got}: {' '.join(moves)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=positive, default=200)
    parser.add_argument("--seeds", type=seed_range, default=(4, 14))
    parser.add_argument("--depth", type=positive, default=12)
    parser.add_argument("--refuter-depth", type=positive, default=14)
    parser.add_argument("--deviate", type=float, default=0.1)
    parser.add_argument("--walk", type=int, default=8,
                        help="up to this many random quiet moves before the claim (a history)")
    parser.add_argument("--tablebase", default=None, help="a folder of databases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=positive, default=1)
    args = parser.parse_args(argv)
    if args.walk < 0:
        parser.error(f"--walk must be at least 0: {args.walk}")
    if not 0 <= args.deviate <= 1:
        parser.error(f"--deviate must be within 0..1: {args.deviate}")
    if args.tablebase:
        try:
            tablebase.open_tablebase(args.tablebase)
        except tablebase.TablebaseError as exc:
            parser.error(str(exc))
    start = time.monotonic()
    total = {"boards": 0, "claims": 0, "wins": 0, "draws": 0, "plies": 0, "slow": 0, "refuted": []}
    tb_total = dict.fromkeys(total, 0) | {"refuted": [], "kept": 0, "moves": 0}
    # small tasks (each its share of the boards; every board has its own
    # generator, so the split changes nothing), so that Ctrl-C keeps what is done
    tasks = max(args.jobs, args.boards // CHUNK)
    pool = multiprocessing.get_context("spawn").Pool(
        args.jobs, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
    interrupted = False
    try:
        parts = [(run_share, total)] + [(database_claims, tb_total)] * bool(args.tablebase)
        for work, into in parts:
            for part in pool.imap_unordered(functools.partial(work, args, shares=tasks), range(tasks)):
                for key, value in part.items():
                    into[key] += value
    except KeyboardInterrupt:
        interrupted = True
        # a second Ctrl-C (or `timeout`, which signals the process and then
        # its group) must not break off the clean-up: the pool would hang
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        pool.terminate()
        print("claims: interrupted; what was finished:", file=sys.stderr)
    else:
        pool.close()
    finally:
        pool.join()
    for line in total["refuted"]:
        print(f"refuted: {line}")
    if args.tablebase:
        for line in tb_total["refuted"]:
            print(f"refuted: {line}")
        print(f"databases: boards {tb_total['boards']}, exact claims {tb_total['claims']} "
              f"({tb_total['wins']} wins, {tb_total['draws']} draws, {tb_total['plies']} plies "
              f"played; the bot's moves {tb_total['moves']}, by the ranks {tb_total['kept']}), "
              f"refuted {len(tb_total['refuted'])}")
    print(f"boards {total['boards']}, claims {total['claims']} ({total['wins']} wins, "
          f"{total['draws']} draws, {total['plies']} plies played), refuted "
          f"{len(total['refuted'])}, wins reached later than claimed {total['slow']}, "
          f"{time.monotonic() - start:.0f} s")
    if interrupted:
        return 130
    return 1 if total["refuted"] or (args.tablebase and tb_total["refuted"]) else 0


if __name__ == "__main__":
    sys.exit(main())
