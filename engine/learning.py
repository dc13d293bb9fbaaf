"""The learned evaluation's training (docs/tuning.md, "A learned
evaluation"): the self-play positions it learns from, labelled by the
searches that played them, and the network's fit. benchmarks/train.py is
its command line. Needs the ``tune`` extra (NumPy); the network itself,
its file and the kernel's integer inference are engine/net.py's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.net import (
    ACT_ONE,
    HIDDEN,
    INPUTS,
    OUT_SCALE,
    Net,
    NetFileError,
    active_inputs,
    fits_the_kernel,
    largest_sum,
)
from bingwa.engine.searcher import Searcher

MOVE_CAP = 400  # plies: a game still going is dropped


# -- 1. self-play -----------------------------------------------------------------
def hand_evaluation(kernel: Any, state: Any) -> int:
    """The hand-made evaluation alone (the kernel's features and weights),
    whatever network the kernel adds."""
    return sum(f * w for f, w in zip(kernel.features(state), kernel.weights))


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
              deviate: float, hash_mb: int = 16, tablebase: Any = None,
              endgames: Any = None) -> list[Sample]:
    """Game number ``game`` of the seeded set: ``opening_plies`` random
    moves, then the engine against itself at ``nodes`` nodes a move, a
    random move instead with probability ``deviate``, with the hand
    evaluation alone (the process's network is turned off), probing the
    Oware databases ``tablebase`` or the Kalah solver ``endgames``
    (solvers.endgame_solver) where given. Every position the search scored
    in centi-seeds (not a proven end or draw; a root the Kalah solver
    decided is scored by its exact value) is a sample, labelled by that
    score. The same (seed, game) plays the same game."""
    from bingwa.engine.tuning import is_quiet

    rng = random.Random(f"{seed}:{game}")
    position = Position(variant)
    kernel = position.variant.kernel
    for _ in range(opening_plies):
        moves = position.legal_moves()
        if not moves or position.is_over():
            return []
        position.push(rng.choice(moves))
    from bingwa.engine.searcher import search_kernel

    # the hand evaluation alone plays (in this process): the data, and so the
    # network, do not depend on the network shipped now
    search_kernel(position.variant).set_net(None)
    searcher = Searcher(hash_mb)
    searcher.set_tablebase(tablebase)
    searcher.set_kalah_endgames(endgames)
    searcher.new_game()
    samples: list[Sample] = []
    while not position.is_over() and len(position.move_stack) <= MOVE_CAP:
        result = searcher.search(position, Limits(nodes=nodes))
        assert result.best is not None and result.info is not None  # the game goes on
        info = result.info
        if info.score_cp is not None and info.score_mate is None and info.score_draw is None:
            state = position.state
            samples.append(Sample(tuple(active_inputs(state)), hand_evaluation(kernel, state),
                                  info.score_cp, game, is_quiet(position)))
        if rng.random() < deviate:
            position.push(rng.choice(position.legal_moves()))
        else:
            position.push(result.best)
    return samples


# -- 2. the fit (NumPy) -------------------------------------------------------------
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
    b1 = np.rint(net.b1 * ACT_ONE).astype(np.int64)
    w2 = np.rint(net.w2 * 100 * OUT_SCALE).astype(np.int64)
    b2 = int(round(net.b2 * 100 * OUT_SCALE * ACT_ONE))
    out = Net(w1.tolist(), b1.tolist(), w2.tolist(), b2)
    if largest_sum(out) >= 1 << 15 or not fits_the_kernel(out):
        raise NetFileError("the fit's weights are too large for the kernel's 16-bit sums")
    return out
