"""``bingwa engine`` with the search's experiment knobs set from the environment.

    bingwa sprt --new "env KNOB_EXT_PCT=150 python benchmarks/knob_engine.py" \\
                --base "bingwa engine" --nodes 20000 --elo0 0 --elo1 10

The SPRTs of docs/strength.md tried settings of the one compiled search
this way before any was made a default: ``KNOB_EXT_PCT`` (the extension
budget, per cent of the depth: ``Searcher.extension_pct``),
``KNOB_CAPTURE_EXTENSION`` (0/1), ``KNOB_LMR`` (late move reductions, 0/1)
and ``KNOB_TT_MIN_DEPTH`` (``Engine`` attributes). Unset knobs keep the
defaults. It plays the ``bingwa`` of the interpreter that runs it.
"""

from __future__ import annotations

import os
import sys

ENGINE_KNOBS = ("capture_extension", "lmr", "tt_min_depth")


def main() -> int:
    from bingwa.bots import alphabeta
    from bingwa.cli import main as cli

    plain_init = alphabeta.AlphaBetaBot.__init__

    def init_with_knobs(self: alphabeta.AlphaBetaBot) -> None:
        plain_init(self)
        budget = os.environ.get("KNOB_EXT_PCT")
        if budget is not None:
            self.searcher.extension_pct = int(budget)
        for name in ENGINE_KNOBS:
            value = os.environ.get("KNOB_" + name.upper())
            if value is not None:
                setattr(self.searcher.engine, name, int(value))

    alphabeta.AlphaBetaBot.__init__ = init_with_knobs
    return int(cli(["engine"]) or 0)


if __name__ == "__main__":
    sys.exit(main())
