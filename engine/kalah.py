"""Kalah with stores: ../shared/rules.md, section Kalah.

Rules as implemented (pure-Python reference; _kalah.pyx is its compiled twin):

- ``pits`` pits a side (default 6), ``seeds`` per pit (default 4); each
  player's store lies on his right. The state's ``scores`` are the stores.
- Sowing is counter-clockwise through the mover's own store, skipping the
  opponent's store. The origin pit is NOT skipped (rule 1).
- Last seed in the mover's store: the mover moves again (rule 2).
- Last seed in an empty pit of the mover's row with seeds facing: both go
  to the mover's store; with ``empty-capture`` the last seed goes to the
  store even when the facing pit is empty (rule 3).
- The game ends as soon as either row is empty after a move; each player
  adds his row to his store; more in store wins (rule 4). There is no
  repetition rule: the seeds in stores only grow.
"""

from __future__ import annotations

from typing import Any

from .kernel import PureKernel
from .tworow import TwoRowVariant
from .variant import OptionSpec, register


class KalahRules(PureKernel):
    def __init__(self, pits: int = 6, empty_capture: bool = False) -> None:
        self.m = pits
        self.empty_capture = empty_capture

    def play(self, state: Any, move: int) -> Any:
        m = self.m
        pits_t, stores, mover = state
        # The ring the mover sows around: own pits, own store, opponent pits.
        # Slots 0..m-1 are the mover's pits, m his store, m+1..2m the opponent's.
        own = list(pits_t[mover * m : mover * m + m])
        opp = list(pits_t[(1 - mover) * m : (1 - mover) * m + m])
        store = stores[mover]
        start = move - mover * m
        seeds, own[start] = own[start], 0
        slot = start
        while seeds:
            slot = (slot + 1) % (2 * m + 1)
            if slot < m:
                own[slot] += 1
            elif slot == m:
                store += 1
            else:
                opp[slot - m - 1] += 1
            seeds -= 1
        next_turn = 1 - mover
        if slot == m:
            next_turn = mover  # rule 2: extra turn
        elif slot < m and own[slot] == 1:
            facing = m - 1 - slot
            if opp[facing] or self.empty_capture:  # rule 3
                store += opp[facing] + 1
                opp[facing] = own[slot] = 0
        pits = own + opp if mover == 0 else opp + own
        new_stores = (store, stores[1]) if mover == 0 else (stores[0], store)
        return tuple(pits), new_stores, next_turn

    def legal_moves(self, state: Any) -> list[int]:
        if self.result(state)[0]:
            return []
        pits, _, mover = state
        m = self.m
        return [p for p in range(mover * m, mover * m + m) if pits[p]]

    def result(self, state: Any) -> tuple[int, int, int]:
        pits, stores, _ = state
        m = self.m
        south, north = sum(pits[:m]), sum(pits[m:])
        if south == 0 or north == 0:  # rule 4
            return 4, stores[0] + south, stores[1] + north
        return 0, stores[0], stores[1]

    def key_values(self, state: Any) -> Any:
        pits, stores, turn = state
        return (*pits, *stores, turn)


@register
class Kalah(TwoRowVariant):
    name = "kalah"
    aliases = ("kalaha", "mancala")
    kernel_module = "kalah"
    store_word = "Stores"
    guesses_moves_left = True
    option_specs = (
        OptionSpec("pits", "int", 6, low=1, high=12, help="pits on each side"),
        OptionSpec("seeds", "int", 4, low=1, high=10, help="seeds in each pit at the start"),
        OptionSpec(
            "empty-capture",
            "bool",
            False,
            help="the last seed in an own empty pit is stored even with nothing facing",
        ),
    )

    @property
    def pits_per_side(self) -> int:
        return int(self.options["pits"])

    def seeds_per_pit(self) -> int:
        return int(self.options["seeds"])

    def pure_kernel(self) -> Any:
        return KalahRules(self.pits_per_side, bool(self.options["empty-capture"]))

    def compiled_kernel(self, module: Any) -> Any:
        from .net import load_default

        kernel = module.KalahKernel(self.pits_per_side, bool(self.options["empty-capture"]))
        load_default(kernel, "kalah")  # the learned evaluation (engine/net.py), shared by all
        return kernel

    def repetition_scores(self, state: Any) -> tuple[int, int]:
        raise AssertionError("Kalah has no repetition ending")
