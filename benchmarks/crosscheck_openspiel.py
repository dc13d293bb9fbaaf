"""Cross-check bingwa's perft against OpenSpiel, an independent
implementation (its `mancala` is Kalah(6,4); its `oware` is Abapa).

    python -m venv /tmp/os && /tmp/os/bin/pip install open-spiel
    /tmp/os/bin/python benchmarks/crosscheck_openspiel.py 8   # prints OpenSpiel's counts
    bingwa perft -v kalah 8                                   # compare

OpenSpiel is not a bingwa dependency; the values it confirmed are pinned in
tests/engine/test_perft.py.
"""

import sys

import pyspiel  # type: ignore[import-not-found]


def perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    for name in ("mancala", "oware"):
        game = pyspiel.load_game(name)
        counts = [perft(game.new_initial_state(), d) for d in range(1, depth + 1)]
        print(name, counts)


if __name__ == "__main__":
    main()
