"""``bingwa engine`` with the search's experiment knobs set from the environment.

    bingwa sprt --new "env KNOB_EXT_PCT=150 python benchmarks/knob_engine.py" \\
                --base "bingwa engine" --nodes 20000 --elo0 0 --elo1 10

The SPRTs of docs/strength.md tried settings of the one compiled search
this way before any was made a default: ``KNOB_EXT_PCT`` (the extension
budget, per cent of the depth), ``KNOB_LMR`` (late move reductions, 0..2
plies), ``KNOB_CAPTURE_COST`` (quarter plies an extended capture costs,
0..4), ``KNOB_RFP`` and ``KNOB_FUTILITY`` (pruning margins, centi-seeds per
ply, 0 off) and ``KNOB_CAPTURE_COST_PV`` (the capture cost at
principal-variation nodes, -1 for ``KNOB_CAPTURE_COST``'s, or 0..4), which
override the variant's own (``Searcher.knobs``), and
``KNOB_CAPTURE_EXTENSION`` (0/1) and ``KNOB_TT_MIN_DEPTH`` (``Engine``
attributes). Unset knobs keep the defaults. It plays the ``bingwa`` of the
interpreter that runs it.
"""

from __future__ import annotations

import os
import sys

SEARCHER_KNOBS = ("ext_pct", "lmr", "capture_cost", "rfp", "futility",
                  "capture_cost_pv")  # engine/searcher.py SEARCH_KNOBS
ENGINE_KNOBS = ("capture_extension", "tt_min_depth")


def main() -> int:
    from bingwa.bots import alphabeta
    from bingwa.cli import main as cli

    plain_init = alphabeta.AlphaBetaBot.__init__

    def init_with_knobs(self: alphabeta.AlphaBetaBot) -> None:
        plain_init(self)
        for name in SEARCHER_KNOBS:
            value = os.environ.get("KNOB_" + name.upper())
            if value is not None:
                self.searcher.knobs[name] = int(value)
        for name in ENGINE_KNOBS:
            value = os.environ.get("KNOB_" + name.upper())
            if value is not None:
                setattr(self.searcher.engine, name, int(value))

    alphabeta.AlphaBetaBot.__init__ = init_with_knobs
    return int(cli(["engine"]) or 0)


if __name__ == "__main__":
    sys.exit(main())
