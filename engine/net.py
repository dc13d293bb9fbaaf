"""The learned evaluation's network (docs/tuning.md, "A learned
evaluation"): its inputs, its integer weights, the file the engine loads
(``engine/net_<variant>.txt``, written by benchmarks/train.py) and the
loading; the standard library only (the fit is engine/learning.py's).

The network (two-row boards of six pits a side: Oware, Kalah(6,4), Ayoayo):

* inputs, from the side to move: each of the 12 pits (its own row first)
  one-hot by its seed count (0 .. BUCKETS - 1, the last bucket "that many
  or more"), and each side's captured seeds one-hot (0 .. SCORE_BUCKETS -
  1): 12 x 16 + 2 x 26 = 244 inputs, of which exactly 14 are 1;
* one hidden layer of HIDDEN clipped-linear units (0 .. 1);
* one output, in centi-seeds, **added to the hand-made evaluation**: the
  network learns what the fitted features miss, so an all-zero network
  is the hand evaluation itself.

Integer inference (the kernel's ``evaluate`` while a network is loaded,
``net_c.pxd``): the first layer's weights and biases are scaled by
ACT_ONE (an input's row is added to the hidden sums, in 16 bits; a hidden
unit is its sum clipped to 0 .. ACT_ONE), the output weights are
centi-seeds per OUT_SCALE-th of a unit, and the output is (bias + sum of
weight x unit) // (ACT_ONE x OUT_SCALE), in 32 bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# the networks the package may ship, a variant each (Kalah's evaluates
# Kalah(6,4) only); a variant whose file is missing plays its hand-made
# evaluation by default (its network did not win its SPRT, docs/tuning.md)
NET_FILES = {"oware": HERE / "net_oware.txt", "kalah": HERE / "net_kalah.txt",
             "ayoayo": HERE / "net_ayoayo.txt"}
BUCKETS = 16  # seed counts 0..15 of a pit, the last "15 or more"
SCORE_BUCKETS = 26  # captured seeds 0..25 (25: the game is won)
INPUTS = 12 * BUCKETS + 2 * SCORE_BUCKETS
HIDDEN = 32
ACT_ONE = 256  # a hidden unit's 1.0
OUT_SCALE = 16  # the output weights' resolution: 1/16 centi-seed


# -- 1. the inputs ----------------------------------------------------------------
def active_inputs(state: Any) -> list[int]:
    """The 14 inputs of a two-row ``state`` ((pits, scores, turn)) that are
    1, from its side to move's view."""
    pits, scores, turn = state[0], state[1], state[2]
    own = pits[6 * turn:6 * turn + 6] + pits[6 - 6 * turn:12 - 6 * turn]
    out = [BUCKETS * i + min(seeds, BUCKETS - 1) for i, seeds in enumerate(own)]
    base = 12 * BUCKETS
    out.append(base + min(scores[turn], SCORE_BUCKETS - 1))
    out.append(base + SCORE_BUCKETS + min(scores[1 - turn], SCORE_BUCKETS - 1))
    return out


# -- 2. the network file ------------------------------------------------------------
@dataclass
class Net:
    """Integer weights: w1[INPUTS][HIDDEN], b1[HIDDEN] (x ACT_ONE), w2[HIDDEN]
    (centi-seeds x OUT_SCALE), b2 (centi-seeds x OUT_SCALE x ACT_ONE). The
    kernel adds the hidden sums in 16 bits and the output in 32: ``read_net``
    and ``quantize`` refuse a network that could leave them."""

    w1: list[list[int]]
    b1: list[int]
    w2: list[int]
    b2: int

    def evaluate(self, inputs: list[int] | tuple[int, ...]) -> int:
        """The network's output in centi-seeds (the kernel's integer sum)."""
        total = self.b2
        for j in range(HIDDEN):
            acc = self.b1[j] + sum(self.w1[i][j] for i in inputs)
            total += self.w2[j] * min(max(acc, 0), ACT_ONE)
        return total // (ACT_ONE * OUT_SCALE)


class NetFileError(ValueError):
    pass


def write_net(path: Path, net: Net, command: str) -> None:
    lines = [f"# bingwa network: {INPUTS} inputs, {HIDDEN} hidden, 1 output "
             "(engine/net.py)", f"#   {command}",
             f"dims {INPUTS} {HIDDEN} {ACT_ONE} {OUT_SCALE}"]
    lines += [" ".join(map(str, row)) for row in net.w1]
    lines.append(" ".join(map(str, net.b1)))
    lines.append(" ".join(map(str, net.w2)))
    lines.append(str(net.b2))
    path.write_text("\n".join(lines) + "\n")


def read_net(path: Path) -> Net:
    """The network of ``path`` (NetFileError: one line saying what is wrong)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise NetFileError(f"cannot read the network {path}: {exc.strerror}") from None
    rows = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    expected = ["dims", str(INPUTS), str(HIDDEN), str(ACT_ONE), str(OUT_SCALE)]
    if not rows or rows[0] != expected:
        raise NetFileError(f"{path}: not a network of this build ({' '.join(expected)})")
    try:
        numbers = [[int(x) for x in row] for row in rows[1:]]
    except ValueError:
        raise NetFileError(f"{path}: a weight is not a whole number") from None
    shape = [HIDDEN] * (INPUTS + 2) + [1]
    if [len(row) for row in numbers] != shape:
        raise NetFileError(f"{path}: the weights are not {INPUTS} x {HIDDEN}, {HIDDEN}, "
                           f"{HIDDEN} and 1")
    net = Net(numbers[:INPUTS], numbers[INPUTS], numbers[INPUTS + 1], numbers[INPUTS + 2][0])
    if largest_sum(net) >= 1 << 15:
        raise NetFileError(f"{path}: a hidden sum may leave 16 bits")
    if not fits_the_kernel(net):
        raise NetFileError(f"{path}: an output weight or the output may leave the kernel's "
                           "16 and 32 bits")
    return net


def fits_the_kernel(net: Net) -> bool:
    """The output weights fit in 16 bits and the output's sum in 32 (with
    a margin for the rounding)."""
    return (max(abs(w) for w in net.w2) < 1 << 15
            and sum(abs(w) for w in net.w2) * ACT_ONE + abs(net.b2) < (1 << 31) - (1 << 20))


def input_groups() -> list[range]:
    """The inputs by pit and score: exactly one of each group is 1."""
    pits = [range(BUCKETS * i, BUCKETS * (i + 1)) for i in range(12)]
    base = 12 * BUCKETS
    return pits + [range(base, base + SCORE_BUCKETS),
                   range(base + SCORE_BUCKETS, base + 2 * SCORE_BUCKETS)]


def largest_sum(net: Net) -> int:
    """The largest magnitude a hidden unit's sum (bias and one input of
    each group) can take, or any one weight: the kernel adds in 16 bits."""
    largest = 0
    for j in range(HIDDEN):
        high = net.b1[j] + sum(max(net.w1[i][j] for i in group) for group in input_groups())
        low = net.b1[j] + sum(min(net.w1[i][j] for i in group) for group in input_groups())
        largest = max(largest, high, -low, abs(net.b1[j]))
    return max(largest, max(abs(x) for row in net.w1 for x in row))


DEFAULT = "default"  # the EvalFile value of the shipped networks
NONE = "none"  # the EvalFile value of the hand-made evaluations alone


def eval_file_net(value: str, variant: str) -> Net | None:
    """The network an ``EvalFile`` value names for ``variant`` (one of
    NET_FILES): DEFAULT the one shipped (None where the package ships none),
    NONE (or empty) none, else a file's path (NetFileError: one line)."""
    text = value.strip()
    if text.lower() in (NONE, "", "<empty>"):
        return None
    if text.lower() == DEFAULT:
        shipped = NET_FILES[variant]
        return read_net(shipped) if shipped.exists() else None
    return read_net(Path(text).expanduser())


def eval_file_nets(value: str) -> dict[str, Net | None]:
    """The network an ``EvalFile`` value names for each variant of
    NET_FILES (``eval_file_net``): a file's path is read once and names the
    same network for every variant (NetFileError: one line)."""
    text = value.strip()
    if text.lower() in (NONE, "", "<empty>", DEFAULT):
        return {variant: eval_file_net(text, variant) for variant in NET_FILES}
    return dict.fromkeys(NET_FILES, read_net(Path(text).expanduser()))


_LOADED: set[str] = set()


def load_default(kernel: Any, variant: str = "oware") -> None:
    """The network shipped for ``variant``, once a process, into the first
    kernel of it made (engine/oware.py, kalah.py, ayoayo.py): the engine's
    default evaluation."""
    if variant not in _LOADED:
        _LOADED.add(variant)
        if NET_FILES[variant].exists():
            kernel.set_net(read_net(NET_FILES[variant]))
