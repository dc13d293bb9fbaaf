"""``bingwa engine`` whose Oware evaluation adds a network file's output.

    bingwa sprt --new "python benchmarks/net_engine.py NET" --base "bingwa engine" \\
        -v oware --nodes 20000 --elo0 0 --elo1 10

NET is a file written by ``python benchmarks/train.py ... --out NET``
(engine/learning.py). The SPRTs of docs/tuning.md ("A learned evaluation")
gate a network this way before it is shipped. A file that cannot be read
or is not a network of this build ends it with one line (exit 2). It
plays the ``bingwa`` of the interpreter that runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python benchmarks/net_engine.py NET", file=sys.stderr)
        return 2
    from bingwa.cli import main as cli
    from bingwa.engine import find_variant
    from bingwa.engine.learning import NetFileError, read_net

    try:
        net = read_net(Path(argv[0]))
    except NetFileError as exc:
        print(f"net_engine: {exc}", file=sys.stderr)
        return 2
    find_variant("oware").kernel.set_net(net)
    return int(cli(["engine"]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
