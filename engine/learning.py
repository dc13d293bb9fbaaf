"""The learned evaluation of docs/tuning.md ("A learned evaluation"): the
self-play positions it learns from, labelled by the searches that played
them, the small network and its fit, and the network files the kernels
load. benchmarks/train.py is its command line. Needs the ``tune`` extra
(NumPy) to train; the engine reads a network file with the standard
library only (``read_net``).

The network (two-row variants; Oware first):

* inputs, from the side to move: each of the 12 pits (its own row first)
  one-hot by its seed count (0 .. BUCKETS - 1, the last bucket "that many
  or more"), and each side's captured seeds one-hot (0 .. SCORE_BUCKETS -
  1): 12 x 16 + 2 x 26 = 244 inputs, of which exactly 14 are 1;
* one hidden layer of HIDDEN clipped-linear units (0 .. 1);
* one output, in centi-seeds, **added to the hand-made evaluation**: the
  network learns what the fitted features miss, so an untrained network
  (all zeros) is the hand evaluation itself.

Integer inference (the kernel's ``evaluate`` when a network is loaded):
the first layer's weights and biases are scaled by ACT_ONE (an input's
row is added to the hidden sums; a hidden unit is its sum clipped to 0 ..
ACT_ONE), the output weights are centi-seeds per OUT_SCALE-th of a unit,
and the output is (bias + sum of weight x unit) // (ACT_ONE x OUT_SCALE).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher

HERE = Path(__file__).resolve().parent
NET_FILES = {"oware": HERE / "net_oware.txt"}
BUCKETS = 16  # seed counts 0..15 of a pit, the last "15 or more"
SCORE_BUCKETS = 26  # captured seeds 0..25 (25: the game is won)
INPUTS = 12 * BUCKETS + 2 * SCORE_BUCKETS
HIDDEN = 32
ACT_ONE = 256  # a hidden unit's 1.0
OUT_SCALE = 16  # the output weights' resolution: 1/16 centi-seed
MOVE_CAP = 400  # plies: a game still going is dropped


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


# -- 2. self-play -----------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    """A position of a self-play game: its active inputs, the hand
    evaluation and the label (the search's score, centi-seeds, side to move)."""

    inputs: tuple[int, ...]
    hand: int
    label: int
    game: int
    quiet: bool  # no capture of 2 seeds or more to make (engine/tuning.is_quiet)


def self_play(variant: str, game: int, seed: int, nodes: int, opening_plies: int,
              deviate: float, hash_mb: int = 16, tablebase: Any = None) -> list[Sample]:
    """Game number ``game`` of the seeded set: ``opening_plies`` random
    moves, then the engine against itself at ``nodes`` nodes a move, a
    random move instead with probability ``deviate``. Every position the
    search scored in centi-seeds (not a proven end or draw) is a sample,
    labelled by that score. The same (seed, game) plays the same game."""
    from bingwa.engine.tuning import is_quiet

    rng = random.Random(f"{seed}:{game}")
    position = Position(variant)
    kernel = position.variant.kernel
    for _ in range(opening_plies):
        moves = position.legal_moves()
        if not moves or position.is_over():
            return []
        position.push(rng.choice(moves))
    searcher = Searcher(hash_mb)
    searcher.set_tablebase(tablebase)
    searcher.new_game()
    samples: list[Sample] = []
    while not position.is_over() and len(position.move_stack) <= MOVE_CAP:
        result = searcher.search(position, Limits(nodes=nodes))
        assert result.best is not None and result.info is not None  # the game goes on
        info = result.info
        if info.score_cp is not None and info.score_mate is None and info.score_draw is None:
            state = position.state
            samples.append(Sample(tuple(active_inputs(state)), kernel.evaluate(state),
                                  info.score_cp, game, is_quiet(position)))
        if rng.random() < deviate:
            position.push(rng.choice(position.legal_moves()))
        else:
            position.push(result.best)
    return samples


# -- 3. the network file ------------------------------------------------------------
@dataclass
class Net:
    """Integer weights: w1[INPUTS][HIDDEN], b1[HIDDEN] (x ACT_ONE), w2[HIDDEN]
    (centi-seeds x OUT_SCALE), b2 (centi-seeds x OUT_SCALE x ACT_ONE)."""

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
             "(engine/learning.py)", f"#   {command}",
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
    if any(abs(x) >= 1 << 15 for row in numbers[:INPUTS + 1] for x in row):
        raise NetFileError(f"{path}: a first-layer weight is out of 16 bits")
    return Net(numbers[:INPUTS], numbers[INPUTS], numbers[INPUTS + 1], numbers[INPUTS + 2][0])


# -- 4. the fit (NumPy) -------------------------------------------------------------
SCALE = 400.0  # centi-seeds: the errors are taken of sigmoid(score / SCALE)


@dataclass
class FloatNet:
    """The network as fitted: w1 (INPUTS x HIDDEN), b1, w2 and b2 in seeds."""

    w1: Any
    b1: Any
    w2: Any
    b2: float

    def output(self, inputs: Any) -> Any:
        """Centi-seeds for each row of active ``inputs`` (N x 14)."""
        import numpy as np
        hidden = np.clip(self.w1[inputs].sum(axis=1) + self.b1, 0.0, 1.0)
        return 100.0 * (hidden @ self.w2 + self.b2)


def integer_output(net: Net, inputs: Any) -> Any:
    """``Net.evaluate`` of each row of ``inputs``, vectorised (the same integers)."""
    import numpy as np
    w1 = np.array(net.w1, dtype=np.int64)
    acc = w1[inputs].sum(axis=1) + np.array(net.b1, dtype=np.int64)
    hidden = np.clip(acc, 0, ACT_ONE)
    total = hidden @ np.array(net.w2, dtype=np.int64) + net.b2
    return total // (ACT_ONE * OUT_SCALE)


def _sigmoid(x: Any) -> Any:
    import numpy as np
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


def held_out_error(model: FloatNet | Net | None, inputs: Any, hand: Any, label: Any) -> float:
    """Mean squared error of sigmoid(evaluation / SCALE) against the labels'."""
    import numpy as np
    if model is None:
        value = hand.astype(float)
    elif isinstance(model, Net):
        value = hand + integer_output(model, inputs.astype(np.int64))
    else:
        value = hand + model.output(inputs.astype(np.int64))
    return float(np.mean((_sigmoid(value / SCALE) - _sigmoid(label / SCALE)) ** 2))


def fit(inputs: Any, hand: Any, label: Any, epochs: int, seed: int, log: Any = None,
        batch: int = 1024, rate: float = 3e-3) -> FloatNet:
    """Adam on the squared error of sigmoid((hand + net) / SCALE) against
    sigmoid(label / SCALE); the output weights start at 0 (the hand
    evaluation), the rest from ``seed``. The same data and seed fit the
    same network."""
    import numpy as np
    rng = np.random.default_rng(seed)
    rows = inputs.astype(np.int64)
    params = [rng.normal(0.0, 0.1, (INPUTS, HIDDEN)), np.full(HIDDEN, 0.5),
              np.zeros(HIDDEN), np.zeros(1)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    target = _sigmoid(label / SCALE)
    n, step = len(label), 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        decay = 0.5 ** (epoch * 3 // epochs)  # the rate halves twice over the fit
        for start in range(0, n, batch):
            pick = order[start:start + batch]
            x = np.zeros((len(pick), INPUTS))
            x[np.arange(len(pick))[:, None], rows[pick]] = 1.0
            w1, b1, w2, b2 = params
            acc = x @ w1 + b1
            hidden = np.clip(acc, 0.0, 1.0)
            value = hand[pick] + 100.0 * (hidden @ w2 + b2[0])
            p = _sigmoid(value / SCALE)
            g = 2.0 * (p - target[pick]) * p * (1.0 - p) * (100.0 / SCALE) / len(pick)
            dacc = np.outer(g, w2) * ((acc > 0.0) & (acc < 1.0))
            grads = [x.T @ dacc, dacc.sum(axis=0), hidden.T @ g, np.array([g.sum()])]
            step += 1
            for param, grad, (m, v) in zip(params, grads, moments):
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                param -= (rate * decay) * (m / (1 - 0.9 ** step)) / (
                    np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if log is not None:
            net = FloatNet(params[0], params[1], params[2], float(params[3][0]))
            error = held_out_error(net, inputs[:20000], hand[:20000], label[:20000])
            log(f"fit: epoch {epoch + 1}/{epochs}, training error {error:.6f}")
    return FloatNet(params[0], params[1], params[2], float(params[3][0]))


def quantize(net: FloatNet) -> Net:
    """The kernel's integers nearest ``net`` (NetFileError past 16 bits)."""
    import numpy as np
    w1 = np.rint(net.w1 * ACT_ONE).astype(np.int64)
    if np.abs(w1).max() >= 1 << 15:
        raise NetFileError("a first-layer weight is out of 16 bits")
    b1 = np.rint(net.b1 * ACT_ONE).astype(np.int64)
    w2 = np.rint(net.w2 * 100 * OUT_SCALE).astype(np.int64)
    b2 = int(round(net.b2 * 100 * OUT_SCALE * ACT_ONE))
    return Net(w1.tolist(), b1.tolist(), w2.tolist(), b2)
