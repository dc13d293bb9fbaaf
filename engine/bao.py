"""Bao la Kiswahili and Bao la Kujifunza: ../shared/rules-bao.md, rules
version bao-1 (which follows seeds/004, de Voogt 1995 and Donkers 2001/2003).

This is the pure-Python reference, written straight from the numbered rules
(each step cites its rule); _bao.pyx is its compiled twin and the two are
tested against each other. Notation and the state layout: bao_notation.py.

Decisions where rules-bao.md leaves room (each is the reading that every
worked example and perft table of the rules file reproduces):

- A move value is executed one way only, decided by the position: in a
  namua move a hand seed put into a pit facing an occupied pit captures
  (4.2); in a mtaji move a first lap ending as in 6.1 captures. So when
  every capture is illegal (3.6, 3.7) and the generator falls to the
  takasa groups (section 9), a capture value met there stays the same
  illegal capture and is never re-read as a takasa.
- The takasia block forbids starting any move from the blocked pit (6.4
  "Y may not start a move from t"), not only front-row takasa (9 group 2);
  the two differ only in hand-written positions, since a block is created
  only when its victim has no capture opening.
- Never-ending moves (3.7) are found by counting the seeds dropped in laps
  up to CAP = 65 536, not by cycle detection, so that the pure and the
  compiled kernels agree even on a finite move longer than CAP.
- Scores: while the game goes on, each side's score is the seeds it holds
  (board plus hand); when it ends (7.1, 7.2) the winner is given all 64 and
  the loser 0, so that Outcome's winner is the rules' winner. Seeds are not
  counted for the result (7.3).
- Termination codes: 5 when the side to move has an empty front row (7.1,
  7.2 second sentence), 2 when he has no legal move (7.2). There are no
  draws and no repetition rule (7.3, 14 #25).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import bao_notation as notation
from .bao_notation import NO_BLOCK, NYUMBA, RING, SAFARI, decode_move, encode_move
from .errors import AmbiguousMoveError, IllegalMoveError
from .kernel import PureKernel
from .variant import Variant, register

RULES_VERSION = "bao-1"
CAP = 65_536  # rule 3.7: most seeds a finite move may drop in laps
CLOCKWISE, ANTICLOCKWISE = 1, -1  # steps of the ring place k (rule 1.5)
LEFT_KICHWA, RIGHT_KICHWA = 0, 7  # ring places of pits 1 and 8 (rule 1.4)
FUNCTIONAL_SEEDS = 6  # rule 5.1

# Why a move value is not a legal move (Run.status).
LEGAL = "legal"
EMPTIES_FRONT_ROW = "it would empty the mover's front row during the move (rule 3.6)"
NEVER_ENDING = f"it never ends: it would drop more than {CAP} seeds (rule 3.7)"
NO_SAFARI_DECISION = "the move never reaches the safari decision, so '+' is not a choice (rule 10.1)"


def opposite(k: int) -> int:
    """Front place ``k`` of one player faces front place ``7 - k`` of the other (1.3)."""
    return 7 - k


def is_front(k: int) -> bool:
    return k < 8


def first_direction(k: int, right: bool) -> int:
    """Rule 1.6: ``>`` goes towards the owner's right on either row, which is
    clockwise on the front row and anticlockwise on the back row."""
    if is_front(k):
        return CLOCKWISE if right else ANTICLOCKWISE
    return ANTICLOCKWISE if right else CLOCKWISE


def lap_end(k: int, seeds: int, direction: int) -> int:
    """Where a lap of ``seeds`` from lifted place ``k`` drops its last seed (3.1)."""
    return (k + seeds * direction) % RING


class IllegalMove(Exception):
    """Raised inside a move's execution; its argument is the reason."""


class Run:
    """One move being executed: a mutable copy of the state plus what the
    rules need to remember during the move."""

    def __init__(self, state: Any, code: int) -> None:
        pits, hands, turn, houses, block = state
        self.pits = list(pits)
        self.hands = list(hands)
        self.houses = list(houses)
        self.mover = turn
        self.own = RING * turn  # offset of the mover's ring
        self.theirs = RING * (1 - turn)
        self.namua = hands[turn] > 0  # rule 2.4
        self.both_hands_empty = hands[0] == hands[1] == 0  # rule 2.4
        self.block = block - self.own if block != NO_BLOCK else NO_BLOCK
        self.k, self.right, self.safari = decode_move(code)
        self.capture_move = False  # rule 3.5
        self.safari_decision = False  # rule 4.4: the decision arose
        self.won = False  # rule 7.1
        self.dropped = 0  # rule 3.7
        self.status = LEGAL

    # -- helpers on the mover's ring --
    def mine(self, k: int) -> int:
        return self.pits[self.own + k]

    def facing(self, k: int) -> int:
        """Seeds in the opponent's front pit opposite the mover's front place ``k``."""
        return self.pits[self.theirs + opposite(k)]

    def front_row_empty(self, base: int) -> bool:
        return not any(self.pits[base : base + 8])

    def functional_nyumba(self) -> bool:
        """Rule 5.1: owned and holding at least 6 seeds (counted now)."""
        return bool(self.houses[self.mover]) and self.mine(NYUMBA) >= FUNCTIONAL_SEEDS

    def lift(self, k: int) -> int:
        """Take every seed out of ``k``; lifting the owned nyumba ends
        ownership (5.2)."""
        seeds, self.pits[self.own + k] = self.mine(k), 0
        if k == NYUMBA and self.houses[self.mover]:
            self.houses[self.mover] = 0
        return seeds

    # -- rule 3.1: a lap --
    def lap(self, k: int, seeds: int, direction: int, into_k: bool = False) -> int:
        """Drop ``seeds`` one by one from place ``k`` (into ``k`` itself first
        when ``into_k``, a lap of captured seeds; else into the next pit).
        Returns the place of the last seed."""
        self.dropped += seeds
        if self.dropped > CAP:
            raise IllegalMove(NEVER_ENDING)  # 3.7
        pit = k if into_k else (k + direction) % RING
        for i in range(seeds):
            if i:
                pit = (pit + direction) % RING
            self.pits[self.own + pit] += 1
            # 3.6: the front row must hold a seed after every drop. Drops
            # only add seeds, so after the first drop of a lap it still does.
            if i == 0 and self.front_row_empty(self.own):
                raise IllegalMove(EMPTIES_FRONT_ROW)
        return pit

    # -- rule 3.3: capture --
    def capture(self, e: int, direction: int, chosen_kichwa: int | None = None) -> tuple[int, int, int]:
        """Capture from the pit facing ``e``; returns the next lap (kichwa,
        seeds, direction), sown into the kichwa itself."""
        target = self.theirs + opposite(e)
        seeds, self.pits[target] = self.pits[target], 0  # 3.3.1
        if opposite(e) == NYUMBA and self.houses[1 - self.mover]:
            self.houses[1 - self.mover] = 0  # 3.3.1, 5.2
        if self.both_hands_empty:
            self.houses[0] = self.houses[1] = 0  # 3.3.1, 5.3
        if e in (0, 1):  # 3.3.2: left kimbi
            kichwa = LEFT_KICHWA
        elif e in (6, 7):  # right kimbi
            kichwa = RIGHT_KICHWA
        elif chosen_kichwa is not None:  # the namua hand-seed capture (4.2)
            kichwa = chosen_kichwa
        else:  # central: keep the direction
            kichwa = LEFT_KICHWA if direction == CLOCKWISE else RIGHT_KICHWA
        if self.front_row_empty(self.theirs):
            self.won = True  # 7.1; the lap is still sown (end of 3.3)
        return kichwa, seeds, CLOCKWISE if kichwa == LEFT_KICHWA else ANTICLOCKWISE

    # -- rule 3.2: the end of a lap --
    def end_of_lap(self, e: int, direction: int) -> tuple[int, int, int, bool] | None:
        """The next lap (place, seeds, direction, into the place itself), or
        None when the move ends."""
        if self.mine(e) == 1:  # 3.2.1: e was empty
            return None
        if self.capture_move and is_front(e) and self.facing(e):  # 3.2.2
            return (*self.capture(e, direction), True)
        if self.namua and e == NYUMBA and self.functional_nyumba():  # 3.2.3
            if not self.capture_move:
                return None  # a takasa stops in the functional nyumba (4.4)
            self.safari_decision = True
            if not self.safari:
                return None  # the player stops, keeping the nyumba
            return e, self.lift(e), direction, False  # safari: lift, ownership ends
        if e == self.block:  # 3.2.4: takasia
            return None
        return e, self.lift(e), direction, False  # 3.2.5: relay

    def sow_on(self, k: int, seeds: int, direction: int, into_k: bool) -> None:
        """Laps until the move ends (3.4); the move ends at once after the
        lap of a winning capture (end of 3.3)."""
        step: tuple[int, int, int, bool] | None = (k, seeds, direction, into_k)
        while step is not None:
            k, seeds, direction, into_k = step
            e = self.lap(k, seeds, direction, into_k)
            if self.won:
                return
            step = self.end_of_lap(e, direction)

    # -- the start of a move --
    def namua_move(self) -> None:
        k = self.k
        tax = self.is_tax()
        self.hands[self.mover] -= 1
        self.pits[self.own + k] += 1  # 4.1: the hand seed
        if self.mine(k) > 1 and self.facing(k):  # 4.2: namua capture
            self.capture_move = True
            chosen = RIGHT_KICHWA if self.right else LEFT_KICHWA  # the sign names the kichwa
            kichwa, seeds, direction = self.capture(k, CLOCKWISE, chosen)
            self.sow_on(kichwa, seeds, direction, True)
            return
        direction = first_direction(k, self.right)
        if tax:  # 4.5: lift exactly 2; the nyumba stays owned
            self.pits[self.own + k] -= 2
            seeds = 2
        else:  # 4.3: lift all
            seeds = self.lift(k)
        self.sow_on(k, seeds, direction, False)

    def is_tax(self) -> bool:
        """Rule 4.5: the functional nyumba (counted before the hand seed)
        is the only occupied front pit and the move starts there."""
        return (
            self.k == NYUMBA
            and self.functional_nyumba()
            and not any(self.mine(k) for k in range(8) if k != NYUMBA)
        )

    def mtaji_move(self) -> None:
        k = self.k
        seeds = self.mine(k)
        direction = first_direction(k, self.right)
        e = lap_end(k, seeds, direction)
        # 6.1: a capture move if 2-15 seeds end in an occupied front pit of the
        # mover facing an occupied pit (the lap cannot pass its own pit).
        self.capture_move = 2 <= seeds <= 15 and is_front(e) and self.mine(e) > 0 and bool(self.facing(e))
        self.sow_on(k, self.lift(k), direction, False)

    def execute(self) -> Run:
        try:
            if self.namua:
                self.namua_move()
            else:
                self.mtaji_move()
            if self.safari and not self.safari_decision:
                self.status = NO_SAFARI_DECISION
        except IllegalMove as exc:
            self.status = str(exc.args[0])
        return self

    def state(self, takasia: bool) -> Any:
        """The position after the move; with ``takasia`` (Bao la Kiswahili),
        a mtaji takasa that started with both hands empty may leave a block
        for the next player (6.4, end of section 9)."""
        block = NO_BLOCK
        if takasia and self.both_hands_empty and not self.capture_move and not self.won:
            block = takasia_block(self.pits, self.houses, 1 - self.mover)
        return tuple(self.pits), tuple(self.hands), 1 - self.mover, tuple(self.houses), block


def execute(state: Any, code: int) -> Run:
    return Run(state, code).execute()


def capture_targets(pits: Any, side: int) -> set[int]:
    """Ring places of the opponent's front pits that ``side`` could take
    with the first capture of a mtaji capture move (6.1; 6.4 (i) and (ii)):
    a lap of 2-15 seeds ending in an occupied front pit of ``side`` facing
    an occupied pit."""
    own, theirs = RING * side, RING * (1 - side)
    targets = set()
    for k in range(RING):
        seeds = pits[own + k]
        if 2 <= seeds <= 15:
            for direction in (CLOCKWISE, ANTICLOCKWISE):
                e = lap_end(k, seeds, direction)
                if is_front(e) and pits[own + e] and pits[theirs + opposite(e)]:
                    targets.add(opposite(e))
    return targets


def takasia_block(pits: Any, houses: Any, victim: int) -> int:
    """Rule 6.4 on the position after X's takasa, with Y = ``victim`` to
    move: the pit of Y that is blocked, or NO_BLOCK."""
    if capture_targets(pits, victim):  # (i): Y has a capture opening
        return NO_BLOCK
    targets = capture_targets(pits, 1 - victim)  # (ii): T, the pits X could take
    if len(targets) != 1:
        return NO_BLOCK
    (t,) = targets
    base = RING * victim
    front = [pits[base + k] for k in range(8)]
    if t == NYUMBA and houses[victim] and front[t] >= FUNCTIONAL_SEEDS:
        return NO_BLOCK  # (a) Y's functional nyumba
    if sum(1 for n in front if n) == 1:
        return NO_BLOCK  # (b) the only occupied pit of Y's front row
    if sum(1 for n in front if n >= 2) == 1 and front[t] >= 2:
        return NO_BLOCK  # (c) the only pit of Y's front row holding 2 or more
    if front[t] == 1:
        return NO_BLOCK  # (d) a single seed
    return base + t


# -- section 9: the legal moves -----------------------------------------------
def namua_groups(state: Any) -> Iterator[list[int]]:
    """Candidate moves of a namua move in priority order (section 9)."""
    pits, hands, turn, houses, block = state
    own, theirs = RING * turn, RING * (1 - turn)
    front = [pits[own + k] for k in range(8)]
    # 1. captures (4.2): the sign names the kichwa; '+' is added by legal_moves
    captures = []
    for k in range(8):
        if front[k] and pits[theirs + opposite(k)]:
            if k >= 2:
                captures.append(encode_move(k, True))
            if k <= 5:
                captures.append(encode_move(k, False))
    yield captures
    occupied = [k for k in range(8) if front[k]]
    owned = bool(houses[turn])
    functional = owned and front[NYUMBA] >= FUNCTIONAL_SEEDS  # counted before the hand seed (5.1)
    # 2. takasa (4.3)
    if functional:
        pits_ok = [k for k in occupied if k != NYUMBA]
    elif owned:
        pits_ok = occupied
    else:
        pits_ok = [k for k in occupied if front[k] >= 2]
    yield [encode_move(k, right) for k in pits_ok for right in (False, True)]
    # 3. the tax (4.5), or singletons without a nyumba (4.3)
    if functional and occupied == [NYUMBA]:
        yield [encode_move(NYUMBA, right) for right in (False, True)]
    elif not owned:
        yield [encode_move(k, right) for k in occupied if front[k] == 1 for right in (False, True)]


def mtaji_groups(state: Any) -> Iterator[list[int]]:
    """Candidate moves of a mtaji move in priority order (section 9). The
    blocked pit starts nothing (6.4)."""
    pits, hands, turn, houses, block = state
    own, theirs = RING * turn, RING * (1 - turn)
    mine = pits[own : own + RING]
    blocked = block - own if block != NO_BLOCK else NO_BLOCK
    captures = []  # 1. (6.1)
    for k in range(RING):
        if 2 <= mine[k] <= 15 and k != blocked:
            for right in (False, True):
                e = lap_end(k, mine[k], first_direction(k, right))
                if is_front(e) and mine[e] and pits[theirs + opposite(e)]:
                    captures.append(encode_move(k, right))
    yield captures
    # 2. front-row takasa, 3. back-row takasa (6.2): 2 or more seeds
    yield [encode_move(k, r) for k in range(8) if mine[k] >= 2 and k != blocked for r in (False, True)]
    yield [encode_move(k, r) for k in range(8, RING) if mine[k] >= 2 for r in (False, True)]


def legal_moves(state: Any) -> list[int]:
    """Section 9: the legal members of the first group that has one."""
    pits, hands, turn = state[0], state[1], state[2]
    if not any(pits[RING * turn : RING * turn + 8]):
        return []  # 7.2: an empty front row has no legal move
    groups = namua_groups(state) if hands[turn] else mtaji_groups(state)
    for group in groups:
        legal = []
        for code in group:
            run = execute(state, code)
            if run.status == LEGAL:
                legal.append(code)
            if run.safari_decision and execute(state, code | SAFARI).status == LEGAL:
                legal.append(code | SAFARI)  # 4.4, section 9 group 1
        if legal:
            return legal
    return []


def front_row_empty(state: Any, side: int) -> bool:
    return not any(state[0][RING * side : RING * side + 8])


class BaoRules(PureKernel):
    """The pure-Python kernel; ``takasia`` is on for Bao la Kiswahili and
    off for Bao la Kujifunza (section 8)."""

    def __init__(self, takasia: bool = True) -> None:
        self.takasia = takasia

    def legal_moves(self, state: Any) -> list[int]:
        return legal_moves(state)

    def play(self, state: Any, move: int) -> Any:
        run = execute(state, move)
        if run.status != LEGAL:
            raise ValueError(f"illegal Bao move {move}: {run.status}")
        return run.state(self.takasia)

    def result(self, state: Any) -> tuple[int, int, int]:
        turn = state[2]
        if front_row_empty(state, turn):
            code = 5  # 7.1 (and 7.2: an empty front row has no move)
        elif not legal_moves(state):
            code = 2  # 7.2
        else:
            return 0, *held_seeds(state)
        winner = 1 - turn
        return code, notation.TOTAL_SEEDS * (winner == 0), notation.TOTAL_SEEDS * (winner == 1)

    def key_values(self, state: Any) -> Any:
        pits, hands, turn, houses, block = state
        return (*pits, *hands, turn, *houses, block & 0xFF)

    def perft(self, state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.legal_moves(state)  # empty exactly when the game is over
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.play(state, m), depth - 1) for m in moves)


def held_seeds(state: Any) -> tuple[int, int]:
    """Seeds each side holds, board plus hand (South, North)."""
    pits, hands = state[0], state[1]
    return sum(pits[:RING]) + hands[0], sum(pits[RING:]) + hands[1]


# -- the variants -------------------------------------------------------------
class BaoVariant(Variant):
    """Notation and rule facts shared by both Bao variants."""

    kernel_module = "bao"
    repetition_ends_game = False  # 7.3
    rules_version = RULES_VERSION
    position_word: str
    takasia: bool

    def pure_kernel(self) -> Any:
        return BaoRules(takasia=self.takasia)

    def compiled_kernel(self, module: Any) -> Any:
        return module.BaoKernel(takasia=self.takasia)

    def total_seeds(self) -> int:
        return notation.TOTAL_SEEDS

    def side_to_move(self, state: Any) -> int:
        return int(state[2])

    def seeds_on_board(self, state: Any) -> int:
        return sum(state[0])

    def repetition_scores(self, state: Any) -> tuple[int, int]:
        raise NotImplementedError("Bao has no repetition rule (rule 7.3)")

    def parse_position(self, text: str) -> Any:
        return notation.parse_position(text, self.position_word)

    def format_position(self, state: Any) -> str:
        return notation.format_position(state, self.position_word)

    def format_move(self, code: int, state: Any) -> str:
        return notation.format_move(code, state[2])

    def draw(self, state: Any, last_move: int | None = None) -> str:
        # the last move was made by the side not to move now
        return notation.draw(state, self.position_word, last_move, 1 - state[2])

    def parse_move(self, text: str, state: Any) -> int:
        """A move in canonical text (10.2) or a record's lenient form
        (10.3-10.4): row letter left out in a namua move, sign left out when
        one legal move fits, a trailing ``*``, ``**`` or ``#``, checked
        when the move is legal."""
        turn = state[2]
        k, right, safari, mark = notation.split_move(text.strip(), turn, state[1][turn] > 0)
        if right is None:
            fits = [
                code for code in self.kernel.legal_moves(state)
                if decode_move(code)[0] == k and decode_move(code)[2] == safari
            ]
            if len(fits) > 1:
                moves = [self.format_move(code, state) for code in fits]
                raise AmbiguousMoveError(
                    f"{text}: {len(fits)} legal moves start there, {', '.join(moves[:-1])} "
                    f"and {moves[-1]}: the sign says which (rule 10.4)", moves)
            # none: the move sown to the left, which Position finds illegal and
            # says why in the rules' words, as the web page does for a click
            code = fits[0] if fits else encode_move(k, False, safari)
        else:
            code = encode_move(k, right, safari)
        if mark and code in self.kernel.legal_moves(state):
            self.check_mark(text, state, code, mark)
        return code

    def check_mark(self, text: str, state: Any, code: int, mark: str) -> None:
        """Rule 10.3: ``*`` a takasa, ``**`` a takasa that blocks, ``#`` a win."""
        run = execute(state, code)
        if mark.startswith("*") and run.capture_move:
            raise IllegalMoveError(f"{text}: recorded as a takasa but the move captures")
        if mark == "**" and run.state(self.takasia)[4] == NO_BLOCK:
            raise IllegalMoveError(f"{text}: recorded as a takasia block but it blocks no pit")
        if mark == "#" and not self.kernel.result(self.kernel.play(state, code))[0]:
            raise IllegalMoveError(f"{text}: recorded as a winning move but the game goes on")

    def illegal_reason(self, state: Any, code: int) -> str:
        pits, hands, turn, houses, block = state
        k, right, safari = decode_move(code)
        seeds = pits[RING * turn + k]
        name = notation.pit_name(RING * turn + k)
        run = execute(state, code)
        namua = hands[turn] > 0
        if namua and not is_front(k):
            return "a namua move starts in the front row (rule 4.1)"
        if not seeds:
            return f"{name} is empty"
        if not namua and seeds == 1:
            return "a single seed is never sown in a mtaji move (rule 6.2)"
        if RING * turn + k == block:
            return f"{name} is blocked by takasia this move (rule 6.4)"
        if run.status != LEGAL:
            return run.status
        if run.capture_move:
            if namua and (k <= 1 and right or k >= 6 and not right):
                return f"a capture in {name} takes the kichwa on its own side (rule 4.2)"
            return "not a legal move here"
        if any(execute(state, m).capture_move for m in legal_moves(state)):
            return "a capture is compulsory and this move captures nothing (rule 3.5)"
        if namua and k == NYUMBA and houses[turn] and seeds >= FUNCTIONAL_SEEDS:
            return "the functional nyumba starts a takasa only when it is the only occupied front pit (rule 4.3)"
        if namua and not houses[turn] and seeds == 1:
            return "without a nyumba a singleton is sown only when no front pit holds 2 or more (rule 4.3)"
        if not namua and not is_front(k):
            return "a takasa must start in the front row when one is legal there (rule 6.2)"
        return "not a legal move here"



@register
class Kiswahili(BaoVariant):
    """Bao la Kiswahili (rules-bao.md sections 1-7, 9)."""

    name = "bao"
    aliases = ("kiswahili", "bao-la-kiswahili", "bao-kiswahili", "zanzibar-bao")
    position_word = "kiswahili"
    takasia = True

    def initial_state(self) -> Any:
        pits = [0] * 32
        for side in (0, 1):  # 2.1: nyumba 6, the two pits to its right 2 each
            pits[RING * side + NYUMBA] = 6
            pits[RING * side + 5] = 2
            pits[RING * side + 6] = 2
        return tuple(pits), (22, 22), 0, (1, 1), NO_BLOCK


@register
class Kujifunza(BaoVariant):
    """Bao la Kujifunza (rules-bao.md section 8): mtaji rules only."""

    name = "kujifunza"
    aliases = ("bao-la-kujifunza", "bao-kujifunza")
    position_word = "kujifunza"
    takasia = False

    def initial_state(self) -> Any:
        return (2,) * 32, (0, 0), 0, (0, 0), NO_BLOCK  # 2.2
