"""``bingwa engine`` with the search's experiment knobs set from the environment.

    bingwa sprt --new "env KNOB_EXT_PCT=150 python benchmarks/knob_engine.py" \\
                --base "bingwa engine" --nodes 20000 --elo0 0 --elo1 10

The SPRTs of docs/strength.md tried settings of the one compiled search
this way before any was made a default: ``KNOB_EXT_PCT`` (the extension
budget, per cent of the depth), ``KNOB_LMR`` (late move reductions, 0..2
plies), ``KNOB_CAPTURE_COST`` (quarter plies an extended capture costs,
0..4), ``KNOB_RFP`` (the reverse futility margin, centi-seeds per ply, 0
off; ``KNOB_FUTILITY`` is gone with its knob, issue 28) and
``KNOB_CAPTURE_COST_PV`` (the capture cost at
principal-variation nodes, -1 for ``KNOB_CAPTURE_COST``'s, or 0..4), which
override the variant's own (``Searcher.knobs``), and
``KNOB_CAPTURE_EXTENSION`` (0/1) and ``KNOB_TT_MIN_DEPTH`` (``Engine``
attributes); every knob of ``SEARCH_KNOBS`` can be set so. Unset knobs keep
the defaults; a value that is not a whole number or out of the knob's
range ends it with one line (exit 2). It plays the ``bingwa`` of the
interpreter that runs it.
"""

from __future__ import annotations

import os
import sys

ENGINE_KNOBS = ("capture_extension", "tt_min_depth")


def read_knobs() -> tuple[dict[str, int], dict[str, int]]:
    """(facade knobs, Engine attributes) set in the environment, each
    checked by setting it on a throwaway Engine (ValueError: its message)."""
    from bingwa.engine.searcher import SEARCH_KNOBS, Searcher

    check = Searcher(1).engine
    chosen: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for names, out in ((tuple(SEARCH_KNOBS), chosen[0]), (ENGINE_KNOBS, chosen[1])):
        for name in names:
            text = os.environ.get("KNOB_" + name.upper())
            if text is None:
                continue
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"KNOB_{name.upper()}={text!r} is not a whole number") from None
            setattr(check, name, value)
            out[name] = value
    return chosen


def main() -> int:
    from bingwa.bots import alphabeta
    from bingwa.cli import main as cli

    try:
        searcher_knobs, engine_knobs = read_knobs()
    except ValueError as exc:
        print(f"knob_engine: {exc}", file=sys.stderr)
        return 2
    plain_init = alphabeta.AlphaBetaBot.__init__

    def init_with_knobs(self: alphabeta.AlphaBetaBot) -> None:
        plain_init(self)
        self.searcher.knobs.update(searcher_knobs)
        for name, value in engine_knobs.items():
            setattr(self.searcher.engine, name, value)

    alphabeta.AlphaBetaBot.__init__ = init_with_knobs
    return int(cli(["engine"]) or 0)


if __name__ == "__main__":
    sys.exit(main())
