"""Figures of the Oware endgame databases (docs/databases.md).

    python benchmarks/databases.py build --max-seeds 14 --dir DIR [-j 2] [--no-prove]
    python benchmarks/databases.py compare --max-seeds 5

``build`` builds every missing count into DIR, what ``bingwa solve build``
builds there (a new folder: proving, 0..8 searched over every line;
``--no-prove``: the settled estimates), and prints, per seed count, the
boards, the bytes of its files, the sweeps and the seconds, with the load
average of the machine (timings on a shared machine are noisy).

``compare`` builds the databases of 0..N seeds both ways (settled, and
with --prove) in a temporary folder, solves every position of 0..N seeds
with the exhaustive, history-aware solver of engine/oware_exhaustive.py
(written apart from the databases: the game started at the position,
bingwa's repetition rule) and prints, per seed count as it is solved, the
entries that disagree with it: proven exact, settled (not cycle-dependent)
and cycle-dependent apart. Ctrl-C stops it; the counts printed stay.

It also builds each count over files of the smaller counts that hold the
solver's values (``tablebase.write_values``), so that every capture is
taken at its exact value, and counts the settled entries of that build
that are still wrong: 0 means every wrong settled entry comes from a
capture into a smaller entry that is wrong (cycle-dependent), none from
the count's own cycles. Each wrong settled entry the exact smaller values
do not put right is printed.

The last two columns are of what ``bingwa solve build`` gives a user (a
proving build, the counts up to ``tablebase.DEFAULT_EXACT_SEEDS`` searched
over every line): its entries marked exact, and its wrong ones (an exact
entry that is not the value, or proven bounds that do not hold it; each
is printed).

    python benchmarks/databases.py compare --max-seeds 8 -j 2

solves the largest count in two processes, each handed chunks of 500
boards (each process solves the smaller counts once for itself; the
row's seconds are the wall clock until the last chunk is in).

    python benchmarks/databases.py compare --max-seeds 8 --sample 200 --node-cap 2000000

solves the counts below N in full and, of N seeds, only ``--sample``
boards drawn at random (``--seed``), each within ``--node-cap`` nodes of
the exhaustive search: the row counts the boards solved, and says how many
the cap stopped (those are the hardest, so the sample solved leans to the
easier boards).

    python benchmarks/databases.py judge 2,0,0,0,1,0/3,1,1,2,0,0 [--side n] [--node-cap N] [--dir DIR]
    python benchmarks/databases.py judge --disputed FILE [--node-cap N] [--dir DIR] [--first T]

``judge`` decides single boards (10..12 seeds and beyond) by the proof
search of engine/oware_judge.py, written apart from the databases, over
what each board reaches: per board the value (or the bounds proven when
``--node-cap`` stopped it), the proofs, nodes and seconds. With ``--dir``
(databases built there, e.g. ``bingwa solve build oware --max-seeds 12
--prove --dir DIR``) their values order the moves and give the first
threshold, and are printed beside the judgement; they are never taken as
an answer. ``--first T`` proves ``>= T`` first instead. ``--disputed``
reads boards from a file of lines ``seeds board other bingwa`` (another
solver's value and the databases'; ``#`` comments) and says which of the
two the judgement bears out. One judge keeps what it proved from board to
board.

    python benchmarks/databases.py certify --disputed FILE --dir DIR

``certify`` checks, for each board of the file, the part of a proving
build's certificate its two bounds lean on (engine/oware_certify.py, as
``bingwa solve verify -p``): the board's certified value (or bounds),
the bounds checked and the seconds, beside the two claimed values.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from bingwa.engine import tablebase


def build(folder: Path, max_seeds: int, jobs: int, prove: bool | None) -> None:
    sweeps: dict[int, int] = {}
    started = [time.monotonic()]
    tablebase.make_folder(folder)
    prove, exact_seeds = tablebase.user_modes(folder, 0, prove, None)

    def progress(seeds: int, sweep: int | None, changed: int | None) -> None:
        if sweep is not None:
            sweeps[seeds] = max(sweep, sweeps.get(seeds, 0))  # 0: the exhaustive search
            return
        now = time.monotonic()
        count = tablebase.positions(seeds)
        size = sum(p.stat().st_size for p in folder.glob(f"*-{seeds:02d}.bw??"))
        load = os.getloadavg()[0]
        print(f"| {seeds:2d} | {count:>11,} | {size:>13,} "
              f"| {sweeps.get(seeds, 0):3d} | {now - started[0]:8.2f} | {load:5.1f} |", flush=True)
        started[0] = now

    how = (f"proving, 0..{min(exact_seeds, max_seeds)} searched over every line"
           if prove and exact_seeds >= 0
           else "proving" if prove else "settled (--no-prove)")
    print(f"-j {jobs}, {os.cpu_count()} cores, {how}")
    print("| seeds | boards | bytes | sweeps | seconds | load |")
    print("|------:|-------:|------:|-------:|--------:|-----:|")
    tablebase.build(folder, max_seeds, jobs=jobs, progress=progress, prove=prove,
                    exact_seeds=exact_seeds)


_worker: dict = {}  # a worker's solver, kept between the chunks it solves (compare -j)


def solve_chunk(settled_dir: Path, seeds: int, chunk: list) -> tuple[dict, int]:
    """The history-free values of the boards ``chunk`` of ``seeds`` seeds,
    South to move, and the nodes spent on them (a worker of ``compare
    -j``: its own solver, the smaller counts solved once per worker, its
    table kept from chunk to chunk)."""
    from bingwa.engine.oware_exhaustive import ExhaustiveSolver

    solver = _worker.get("solver")
    if solver is None:
        settled = tablebase.open_tablebase(settled_dir)
        solver = ExhaustiveSolver(guess=lambda s: tablebase.entry(settled, s).value)
        for smaller in range(seeds):
            solver.solve_level(smaller)
        solver.open_level(seeds)
        _worker["solver"] = solver
    before = solver.nodes
    for board in chunk:
        solver.top((board, (0, 0), 0))
    return {board: solver.values[(board, (0, 0), 0)] for board in chunk}, solver.nodes - before


def kept_values(path: Path) -> dict[tuple[int, ...], int]:
    """The boards a ``--keep`` file holds, with their values (a line cut
    short by a crash is left out: its chunk is solved again)."""
    values: dict[tuple[int, ...], int] = {}
    if path.exists():
        text = path.read_text()
        whole = text[:text.rfind("\n") + 1]  # a last line with no end was cut short
        if whole != text:
            path.write_text(whole)
        for line in whole.splitlines():
            fields = line.split()
            try:
                board, value = tuple(int(x) for x in fields[0].split(",")), int(fields[1])
            except (IndexError, ValueError):
                continue
            if len(board) == 12 and len(fields) == 2:
                values[board] = value
    return values


def compare(max_seeds: int, sample: int | None = None, node_cap: int | None = None,
            seed: int = 1, jobs: int = 1, keep: Path | None = None) -> None:
    import multiprocessing
    import random

    from bingwa.engine.oware_exhaustive import ExhaustiveSolver, NodeLimit, boards

    folder = Path(tempfile.mkdtemp())
    tablebase.build(folder / "settled", max_seeds, jobs=2)
    tablebase.build(folder / "proven", max_seeds, jobs=2, prove=True)
    # what `bingwa solve build` gives a user: proven, the small counts searched over every line
    tablebase.build(folder / "default", max_seeds, jobs=2, prove=True,
                    exact_seeds=min(max_seeds, tablebase.DEFAULT_EXACT_SEEDS))
    chunks = None
    kept: dict[tuple[int, ...], int] = {}
    if keep is not None and sample is None:
        keep.mkdir(parents=True, exist_ok=True)
        keep = keep / f"compare-{max_seeds}.txt"
        kept = kept_values(keep)
    if (jobs > 1 or keep is not None) and sample is None:
        # the largest count in chunks, beside the smaller ones; the workers
        # leave Ctrl-C to this process, which ends them
        pool = multiprocessing.get_context("spawn").Pool(
            jobs, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
        pending = [b for b in boards(max_seeds) if b not in kept]
        size = 500
        chunks = pool.imap_unordered(
            partial(solve_chunk, folder / "settled", max_seeds),
            [pending[i:i + size] for i in range(0, len(pending), size)])
    settled = tablebase.open_tablebase(folder / "settled")
    proven = tablebase.open_tablebase(folder / "proven")
    default = tablebase.open_tablebase(folder / "default")
    exact = folder / "exact"  # each count built over the smaller counts' true values
    begun = [time.monotonic()]

    def progress(seeds: int, done: int, total: int) -> None:
        if done % 10000 == 0:  # a line every 10,000 positions
            spent = time.monotonic() - begun[0]
            print(f"{seeds} seeds: {done:,} of {total:,} positions, {spent:.0f} s, "
                  f"{solver.nodes:,} nodes so far", file=sys.stderr, flush=True)

    solver = ExhaustiveSolver(guess=lambda s: tablebase.entry(settled, s).value,
                              progress=progress)
    print("| seeds | boards | cycle-dependent | not proven | wrong proven | wrong settled "
          "| wrong cycle-dependent | wrong settled, smaller counts exact | default: exact "
          "| default: wrong | seconds | nodes |")
    print("|------:|-------:|----------------:|-----------:|-------------:|--------------:"
          "|----------------------:|------------------------------------:|---------------:"
          "|---------------:|--------:|------:|")
    for seeds in range(max_seeds + 1):
        started, nodes = time.monotonic(), solver.nodes
        begun[0] = started
        todo = list(boards(seeds))
        capped = 0
        if chunks is not None and seeds == max_seeds:
            solver.values.update(((b, (0, 0), 0), v) for b, v in kept.items())
            if kept:
                print(f"{seeds} seeds: {len(kept):,} boards kept in {keep}, "
                      f"{len(pending):,} to solve", file=sys.stderr, flush=True)
            done = 0
            for part, spent in chunks:
                solver.values.update(((b, (0, 0), 0), v) for b, v in part.items())
                solver.nodes += spent
                done += len(part)
                if keep is not None:  # each chunk kept as soon as it is in
                    with open(keep, "a") as out:
                        out.writelines(f"{','.join(map(str, b))} {v}\n" for b, v in part.items())
                        out.flush()
                        os.fsync(out.fileno())
                if done % 5000 < len(part):
                    print(f"{seeds} seeds: {done:,} of {len(pending):,} boards, "
                          f"{time.monotonic() - started:.0f} s, {solver.nodes - nodes:,} nodes",
                          file=sys.stderr, flush=True)
            pool.close()
        elif sample is None or seeds < max_seeds:
            solver.solve_level(seeds)
        else:  # a sample of the largest count, each board within the cap
            solver.open_level(seeds)
            todo = random.Random(seed).sample(todo, min(sample, len(todo)))
            spent, stopped = [], []
            for done, board in enumerate(todo, 1):
                if done % 500 == 0:
                    print(f"{seeds} seeds: {done:,} of {len(todo):,} sampled boards, "
                          f"{time.monotonic() - started:.0f} s, {capped} stopped at the cap",
                          file=sys.stderr, flush=True)
                before = solver.nodes
                solver.node_limit = None if node_cap is None else before + node_cap
                try:
                    solver.top((board, (0, 0), 0))
                    spent.append(solver.nodes - before)
                except NodeLimit:
                    capped += 1
                    stopped.append(board)
            solver.node_limit = None
            todo = [b for b in todo if (b, (0, 0), 0) in solver.values]
            cap = "no cap" if node_cap is None else f"{node_cap:,} nodes"
            spent.sort()
            print(f"{seeds} seeds: {len(todo)} of {len(todo) + capped} sampled boards solved, "
                  f"{capped} stopped at the cap ({cap}); nodes of those solved: median "
                  f"{spent[len(spent) // 2] if spent else 0:,}, 90th percentile "
                  f"{spent[9 * len(spent) // 10] if spent else 0:,}", flush=True)
            if stopped:  # what the database says of the boards the cap stopped
                kinds = [(tablebase.entry(settled, (b, (0, 0), 0)).cycle,
                          tablebase.entry(proven, (b, (0, 0), 0)).cycle) for b in stopped]
                print(f"stopped at the cap: {sum(c for c, _ in kinds)} cycle-dependent, "
                      f"{sum(not c and u for c, u in kinds)} settled not proven, "
                      f"{sum(not u for _, u in kinds)} proven", flush=True)
        tablebase.build(exact, seeds, jobs=2)
        over = tablebase.open_tablebase(exact)
        count = cycle = unproven = wrong_proven = wrong_settled = wrong_cycle = wrong_over = 0
        default_exact = default_wrong = 0
        for board in todo:
            state = (board, (0, 0), 0)
            truth = solver.values[state]
            # the default build: an exact entry must be the value, bounds must hold it
            kind, lower, upper = default.probe(state)
            default_exact += kind == "exact"
            if (kind == "exact" and lower != truth) or not lower <= truth <= upper:
                default_wrong += 1
                print(f"default build wrong: {board} {kind} {lower}..{upper} vs {truth}")
            found = tablebase.entry(settled, state)
            sure = tablebase.entry(proven, state)
            fixed = tablebase.entry(over, state)
            if not fixed.cycle and fixed.value != truth:
                wrong_over += 1
            if not found.cycle and found.value != truth and fixed.value != truth:
                print(f"settled entry wrong with the smaller counts exact too: {board} "
                      f"{found.value}, over exact smaller counts {fixed.value}"
                      f"{' (cycle-dependent)' if fixed.cycle else ''}, vs {truth}")
            count += 1
            cycle += found.cycle
            unproven += sure.cycle
            if not sure.cycle and sure.value != truth:
                wrong_proven += 1
                print(f"proven entry differs: {board} {sure.value} vs {truth}")
            if found.value != truth:
                if found.cycle:
                    wrong_cycle += 1
                else:
                    wrong_settled += 1
        if len(todo) == tablebase.positions(seeds):  # solved in full: the next count builds over it
            tablebase.write_values(exact, seeds, lambda b: solver.values[(b, (0, 0), 0)])
        print(f"| {seeds} | {count:,} | {cycle:,} | {unproven:,} | {wrong_proven} "
              f"| {wrong_settled} | {wrong_cycle} | {wrong_over} | {default_exact:,} | {default_wrong} "
              f"| {time.monotonic() - started:.1f} "
              f"| {solver.nodes - nodes:,} |", flush=True)


class BadBoard(ValueError):
    """A board on the command line or in a file that is not 12 counts."""


def parse_board(text: str) -> tuple[int, ...]:
    """``a,b,c,d,e,f/A,B,C,D,E,F`` (South's row, then North's) as 12 pits."""
    rows = text.split("/")
    if len(rows) != 2:
        raise BadBoard(f"a board is two rows of 6 pits separated by '/', not {text!r}")
    pits: list[int] = []
    for name, row in zip(("South", "North"), rows):
        counts = row.split(",")
        if len(counts) != 6 or not all(c.strip().isdigit() for c in counts):
            raise BadBoard(f"{name}'s row must be 6 counts of seeds separated by ',': {row!r} "
                           f"in {text!r}")
        pits += [int(c) for c in counts]
    return tuple(pits)


def disputed_boards(path: Path) -> list[tuple[tuple[int, ...], int, int]]:
    """(board, the other solver's value, bingwa's) of each line of ``path``."""
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise BadBoard(f"{path}: {exc.strerror or exc}") from None
    out = []
    for number, line in enumerate(lines, 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        try:
            if len(fields) != 4:
                raise BadBoard(f"4 fields (seeds, board, other, bingwa), not {len(fields)}")
            board = parse_board(fields[1])
            seeds, other, mine = int(fields[0]), int(fields[2]), int(fields[3])
        except (BadBoard, ValueError) as exc:
            raise BadBoard(f"{path}:{number}: {exc}") from None
        if sum(board) != seeds:
            raise BadBoard(f"{path}:{number}: the board holds {sum(board)} seeds, not {seeds}")
        out.append((board, other, mine))
    return out


def judge(boards_: list[tuple[int, ...]], side: int, node_cap: int | None,
          folder: Path | None, claims: list[tuple[int, int]] | None = None,
          first: int | None = None) -> None:
    """Judge each board (``side`` to move, no history) and print a row per
    board; ``claims``: the other solver's and bingwa's value of each."""
    from bingwa.engine.oware_judge import BoardJudge

    tb = tablebase.open_tablebase(folder) if folder is not None else None
    guess = None if tb is None else (lambda s: tablebase.entry(tb, s).value)
    judge_ = BoardJudge(guess=guess)
    head = "| board | side | seeds | judged | database |"
    rule = "|---|---|------:|-------:|---|"
    if claims is not None:
        head += " other | bingwa | right |"
        rule += "------:|-------:|---|"
    print(head + " proofs | nodes | seconds |")
    print(rule + "-------:|------:|--------:|", flush=True)
    for number, board in enumerate(boards_):
        state = (board, (0, 0), side)
        found = judge_.judge(board, side, node_cap, first)
        if found.value is not None:
            judged = f"{found.value:+d}"
        else:
            judged = f"[{found.lower:+d}, {found.upper:+d}] (cap)"
        known = "-"
        if tb is not None and tablebase.in_range(tb, state):
            entry = tablebase.entry(tb, state)
            known = f"{entry.value:+d} ({entry.kind})"
        row = (f"| {','.join(map(str, board[:6]))}/{','.join(map(str, board[6:]))} "
               f"| {'sn'[side]} | {sum(board)} | {judged} | {known} |")
        if claims is not None:
            other, mine = claims[number]
            row += f" {other:+d} | {mine:+d} | {verdict(found, other, mine)} |"
        print(row + f" {found.proofs} | {found.nodes:,} | {found.seconds:.1f} |", flush=True)


def certify(boards_: list[tuple[int, ...]], folder: Path,
            claims: list[tuple[int, int]]) -> None:
    """A row per board: what the certificate of ``folder`` proves of it."""
    from bingwa.engine.oware_certify import Certificate, CertificateError, show

    cert = Certificate(folder)
    print("| board (South to move) | seeds | other | bingwa | certified | right | bounds checked "
          "| seconds |")
    print("|---|---:|---:|---:|---|---|---:|---:|", flush=True)
    for board, (other, mine) in zip(boards_, claims):
        start = time.perf_counter()
        try:
            lo, hi, checked = cert.check_position(board)
        except CertificateError as exc:
            print(f"| {show(board)} | {sum(board)} | {other:+d} | {mine:+d} | NOT PROVEN: {exc} "
                  "| - | - | - |", flush=True)
            continue
        seconds = time.perf_counter() - start
        got = f"{lo:+d}" if lo == hi else f"[{lo:+d}, {hi:+d}]"
        right = ("bingwa" if lo <= mine <= hi else "neither") if lo == hi else "undecided"
        if lo == hi == other:
            right = "other"
        print(f"| {show(board)} | {sum(board)} | {other:+d} | {mine:+d} | {got} | {right} "
              f"| {checked:,} | {seconds:.1f} |", flush=True)


def verdict(found, other: int, mine: int) -> str:
    """Which of two claimed values the judgement (a value or bounds) bears out."""
    fits = [name for name, value in (("other", other), ("bingwa", mine))
            if found.lower <= value <= found.upper]
    if found.value is not None:
        return fits[0] if fits else "neither"
    return ("undecided" if len(fits) != 1 else f"{fits[0]} (bounds)") if fits else "neither"


def positive(text: str) -> int:
    """An argparse type: a whole number above 0 (one error line otherwise)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--max-seeds", type=int, required=True)
    b.add_argument("--dir", type=Path, required=True)
    b.add_argument("-j", "--jobs", type=int, default=1)
    b.add_argument("--no-prove", dest="prove", action="store_false", default=None,
                   help="the settled estimates (default: what `bingwa solve build` builds)")
    c = sub.add_parser("compare")
    c.add_argument("--max-seeds", type=int, default=4)
    c.add_argument("--sample", type=positive, default=None,
                   help="of the largest count, only this many random boards")
    c.add_argument("--node-cap", type=positive, default=None,
                   help="nodes each sampled board may take (with --sample)")
    c.add_argument("--seed", type=int, default=1, help="seed of the sample")
    c.add_argument("-j", "--jobs", type=positive, default=1,
                   help="processes solving the largest count in full, each a share")
    c.add_argument("--keep", type=Path, default=None,
                   help="a folder that keeps the largest count's values as they are "
                        "solved: a run stopped and started again goes on from them")
    j = sub.add_parser("judge")
    j.add_argument("boards", nargs="*", metavar="BOARD",
                   help="a board, South's row then North's: 2,0,0,0,1,0/3,1,1,2,0,0")
    j.add_argument("--side", choices=("s", "n"), default="s", help="the side to move")
    j.add_argument("--disputed", type=Path, default=None,
                   help="a file of lines: seeds board other-value bingwa-value")
    j.add_argument("--node-cap", type=positive, default=None,
                   help="nodes each board may take (then its bounds proven so far)")
    j.add_argument("--dir", type=Path, default=None,
                   help="databases whose values order the moves (guesses only)")
    j.add_argument("--first", type=int, default=None,
                   help="the first threshold proven (default: the database's value, else 0)")
    v = sub.add_parser("certify")
    v.add_argument("--disputed", type=Path, required=True,
                   help="a file of lines: seeds board other-value bingwa-value")
    v.add_argument("--dir", type=Path, required=True, help="a proving build of 0..12 seeds or more")
    args = parser.parse_args()
    if args.command == "certify":
        try:
            disputed = disputed_boards(args.disputed)
            from bingwa.engine.oware_certify import Certificate

            Certificate(args.dir)
        except (BadBoard, tablebase.TablebaseError) as exc:
            parser.exit(2, f"certify: {exc}\n")
    if args.command == "compare" and args.keep is not None and args.sample is not None:
        parser.error("--keep keeps a count solved in full: not with --sample")
    if args.command == "judge":
        if not args.boards and args.disputed is None:
            parser.error("judge: give boards or --disputed FILE")
        try:
            given = [parse_board(text) for text in args.boards]
            claims = None
            if args.disputed is not None:
                disputed = disputed_boards(args.disputed)
                if given:
                    parser.error("judge: boards or --disputed, not both")
                given = [board for board, _, _ in disputed]
                claims = [(other, mine) for _, other, mine in disputed]
            if args.dir is not None:
                tablebase.open_tablebase(args.dir)
        except (BadBoard, tablebase.TablebaseError) as exc:
            parser.exit(2, f"judge: {exc}\n")

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if args.command == "build" and not (0 <= args.max_seeds <= tablebase.MAX_SEEDS
                                        and args.jobs >= 1):
        sys.exit(f"build: --max-seeds must be in 0..{tablebase.MAX_SEEDS} and -j at least 1")
    signal.signal(signal.SIGTERM, stop)  # like Ctrl-C: the workers are ended too
    try:
        if args.command == "build":
            build(args.dir, args.max_seeds, args.jobs, args.prove)
        elif args.command == "certify":
            certify([b for b, _, _ in disputed], args.dir, [(o, m) for _, o, m in disputed])
        elif args.command == "judge":
            judge(given, "sn".index(args.side), args.node_cap, args.dir, claims, args.first)
        else:
            compare(args.max_seeds, args.sample, args.node_cap, args.seed, args.jobs, args.keep)
    except KeyboardInterrupt:
        sys.exit("interrupted")
    except tablebase.TablebaseError as exc:
        sys.exit(f"{args.command}: {exc}")


if __name__ == "__main__":
    main()
