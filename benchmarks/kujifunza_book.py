"""Write the ``proof`` bot's book (bots/kujifunza_book.py): South's proven
winning move at every South turn of the first plies of Bao la Kujifunza's
proof, against every North reply.

    python benchmarks/kujifunza_book.py [--plies 6] [--hash 256] [--out bots/kujifunza_book.py]

From the start, South's node gets the move the proof search gives
(solvers.WinFinder: the fastest forced win's length, then the first move of
the kernel's order that wins within it), North's node every legal move, down
to ``--plies`` plies. The proof of the start is the costly part (the 21-ply
proof of ``bingwa solve kujifunza``, about 7.4 M nodes); every later
position reuses its table. The same command writes the same file: the
moves do not depend on the table's size, only the cost does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bingwa.engine import Position
from bingwa.engine.solvers import WinFinder

MAX_PLIES = 40
OUT = Path(__file__).resolve().parent.parent / "bots" / "kujifunza_book.py"

HEADER = '''"""The ``proof`` bot's book: South's proven winning move in Bao la
Kujifunza at each South turn of the first {plies} plies of the proof, against
every North reply (position text -> (move, plies of the fastest forced win)).

Written by ``python benchmarks/kujifunza_book.py --plies {plies}`` from the proof
search (engine/_proof.pyx, solvers.WinFinder); do not edit by hand.
tests/bots/test_bots_proof.py proves its moves again.
"""

BOOK_PLIES = {plies}

BOOK: dict[str, tuple[str, int]] = {{
'''


def walk(finder: WinFinder, pos: Position, plies: int, book: dict[str, tuple[str, int]],
         report) -> None:
    """Fill ``book`` with South's proof moves below ``pos``, to ``plies`` plies."""
    if pos.is_over() or len(pos.move_stack) >= plies:
        return
    if pos.turn == 0:
        text = pos.text()
        if text not in book:
            start = time.perf_counter()
            found = finder.find(pos, MAX_PLIES)
            if found is None:
                raise SystemExit(f"no proven win for South at {text}: not the proof's line")
            book[text] = (found.move, found.plies)
            report(f"ply {len(pos.move_stack):>2}: {found.move} wins in {found.plies} "
                   f"({found.nodes:,} nodes, {time.perf_counter() - start:.1f} s)")
        walk(finder, pos.play(book[text][0]), plies, book, report)
        return
    for move in pos.legal_moves():
        walk(finder, pos.play(move), plies, book, report)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=6, help="plies of the proof the book covers")
    parser.add_argument("--hash", type=int, default=256, help="proof table, MiB")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if not 1 <= args.plies <= 21 or not 1 <= args.hash <= 65536:
        parser.error("--plies takes 1..21, --hash 1..65536")
    start = Position("kujifunza")
    finder = WinFinder(start.variant, args.hash)
    book: dict[str, tuple[str, int]] = {}
    began = time.perf_counter()
    walk(finder, start, args.plies, book, lambda line: print(line, file=sys.stderr, flush=True))
    lines = [HEADER.format(plies=args.plies)]
    lines += [f"    {text!r}: ({move!r}, {plies}),\n" for text, (move, plies) in book.items()]
    lines.append("}\n")
    args.out.write_text("".join(lines))
    print(f"{len(book)} positions, {finder.nodes:,} proof nodes, "
          f"{time.perf_counter() - began:.1f} s -> {args.out}")


if __name__ == "__main__":
    main()
