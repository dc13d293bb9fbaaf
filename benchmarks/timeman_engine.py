"""``bingwa engine`` with the time manager's constants set from the environment.

    bingwa sprt --new "env TM_NEXT_ITERATION_SHARE=0.5 python benchmarks/timeman_engine.py" \\
                --base "bingwa engine" --tc 10+0.1 --elo0 0 --elo1 10 -j 1

For SPRTs of the soft and hard limits at a clock (engine/timeman.py,
docs/search.md, Time management): ``TM_NEXT_ITERATION_SHARE`` (no new
iteration once this share of the soft budget is spent, 0.6),
``TM_HARD_PER_SOFT`` (hard = soft x this, 4), ``TM_MAX_STRETCH`` (the most
an unclear position stretches the soft budget, 2.5), ``TM_MAX_CLOCK_SHARE``
(of the clock a hard deadline may take, 0.5), ``TM_INCREMENT_SHARE`` (of
the increment spent on the move, 0.75) and ``TM_MOVES_TO_GO`` (moves still
to play when nothing says, 24). Unset ones keep the defaults; a value that
is not a positive number ends it with one line (exit 2). It plays the
``bingwa`` of the interpreter that runs it.
"""

from __future__ import annotations

import sys


def main() -> int:
    from bingwa.cli import main as cli
    from bingwa.engine import timeman

    try:
        knobs = timeman.read_tunables()
    except ValueError as exc:
        print(f"timeman_engine: {exc}", file=sys.stderr)
        return 2
    for name, value in knobs.items():
        setattr(timeman, name, value)
    return int(cli(["engine"]) or 0)


if __name__ == "__main__":
    sys.exit(main())
