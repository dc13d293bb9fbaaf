"""Strength of the alphabeta bot against programs written outside bingwa:
OpenSpiel's bots on Oware and Kalah, and Debian's ``mancala`` on Kalah.

Set-up (none of these programs is a bingwa dependency):

    python -m venv /tmp/venv-openspiel && . /tmp/venv-openspiel/bin/activate
    pip install -U pip setuptools wheel cython
    pip install open-spiel
    pip install -e . --no-build-isolation
    apt-get install mancala     # optional, for --opponent debian:D
    # (or: apt-get download mancala && dpkg-deb -x mancala_*.deb /tmp/mancala,
    #  then --mancala-binary /tmp/mancala/usr/games/mancala)

Run (one process, one game at a time):

    python benchmarks/vs_openspiel.py                       # the default matches
    python benchmarks/vs_openspiel.py --variant oware --opponent mcts:10000 --games 40
    python benchmarks/vs_openspiel.py --variant kalah --opponent debian:9 --games 20

Opponents (``--opponent``, repeatable):

- ``mcts:N``: OpenSpiel's C++ ``MCTSBot``, N simulations a move, UCT with
  c = 2, one random rollout per leaf, MCTS-Solver on; seeded per game.
- ``ab:D``: OpenSpiel's Python ``minimax.alpha_beta_search`` to depth D
  (plies, an extra Kalah turn counts as one), leaves scored by the
  difference of captured seeds (Oware) or of stores (Kalah).
- ``debian:D``: the ``mancala`` program of Debian's package (S. H. Huseby
  and G. T. Lines, C), Kalah only, its minimax to D plies (its documented
  levels are 1-9). It breaks ties with a clock-seeded generator and cannot
  be told opening moves: its games all start from the start position.

bingwa's alphabeta plays at ``--movetime`` ms a move. Colours alternate;
game pairs 2k, 2k+1 share an opening: the start position for k = 0, else a
few random plies seeded by k (OpenSpiel opponents only).

Games run in lockstep: OpenSpiel's state follows every move (it is the
referee for every opponent), and before every ply the side to move, the
legal moves, the board and the scores must agree with bingwa's; so must
the end of the game and its result. Disagreements are counted, not hidden:

- ``nofeed`` (Oware): no move can feed the empty opponent. OpenSpiel ends
  the game; bingwa lets the mover sow in his own row first (the seed
  pages' rule). The final scores must still agree; the game is scored.
- ``plays-on`` (Kalah, debian): a row emptied at the end of a move ends
  Kalah (rules.md, OpenSpiel, bingwa); the RULES file of Debian's program
  ends it only when the side to move has no seeds. Were the program to
  play on, the game is scored by rules.md. (Not seen so far: the program
  ends such games as Kalah does.)
- ``mismatch``: anything else; the game stops, is not scored, and its
  record is printed.

Prints, per match, alphabeta's wins, draws and losses, its score in per
cent, the disagreements, and both sides' mean milliseconds a move.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import pyspiel

MAX_PLIES = 1000  # OpenSpiel's longest game
OPENING_PLIES = (2, 4)
DEFAULT_MATCHES = {
    "oware": ["mcts:1000", "mcts:10000", "ab:10"],
    "kalah": ["mcts:1000", "mcts:100000", "ab:9", "debian:9"],
}
OPENSPIEL_GAME = {"oware": "oware", "kalah": "mancala"}


class Mismatch(Exception):
    """bingwa and an outside program disagree where the rules agree."""


# -- translation between bingwa and OpenSpiel --------------------------------
def to_action(variant: str, code: int, side: int) -> int:
    """OpenSpiel's action for bingwa's move code (pit index, 0-5 South,
    6-11 North). Oware actions are row-relative; Kalah's are board indices
    with North's store at 0 and South's at 7."""
    if variant == "oware":
        return code - 6 * side
    return code + 1 + side


def to_code(variant: str, action: int, side: int) -> int:
    if variant == "oware":
        return action + 6 * side
    return action - 1 - side


def openspiel_board(variant: str, state) -> tuple[tuple[int, ...], tuple[int, int]]:
    """(pits in bingwa's order, (South score, North score)) of an OpenSpiel
    state: its observation tensor, which holds seeds / 48 for Oware and raw
    counts for Kalah."""
    tensor = state.observation_tensor(0)
    if variant == "oware":
        counts = [round(v * 48) for v in tensor[:14]]
        return tuple(counts[:12]), (counts[12], counts[13])
    board = [round(v) for v in tensor[:14]]
    return tuple(board[1:7] + board[8:14]), (board[7], board[0])


def swept(pits, scores) -> tuple[int, int]:
    """(South, North) scores with the seeds left on each row added to its
    owner's: OpenSpiel's Oware sweeps them at every ending, a majority win
    too, where bingwa's Outcome keeps the captured seeds only; OpenSpiel's
    Kalah leaves them on the board."""
    return scores[0] + sum(pits[:6]), scores[1] + sum(pits[6:])


def openspiel_winner(state) -> int | None:
    south, north = state.returns()
    return 0 if south > north else 1 if north > south else None


def check_lockstep(variant: str, pos, state) -> None:
    """Side to move, legal moves, board and scores agree (raises Mismatch)."""
    side = pos.turn
    if state.current_player() != side:
        raise Mismatch(f"side to move: bingwa {side}, OpenSpiel {state.current_player()}")
    ours = sorted(m.code for m in pos.legal_moves())
    theirs = sorted(to_code(variant, a, side) for a in state.legal_actions())
    if ours != theirs:
        raise Mismatch(f"legal moves: bingwa {ours}, OpenSpiel {theirs}")
    pits, scores = openspiel_board(variant, state)
    if tuple(pos.state[0]) != pits or tuple(pos.state[1]) != scores:
        raise Mismatch(f"board: bingwa {pos.text()}, OpenSpiel {pits} {scores}")


# -- opponents ---------------------------------------------------------------
class Opponent:
    """An outside program playing one side of a game."""

    name = ""
    from_start_only = False

    def start(self, variant: str, side: int, seed: int) -> None:
        """A new game in which the opponent plays ``side``."""

    def choose(self, pos, state) -> int:
        """The opponent's move (a bingwa move code) in this position."""
        raise NotImplementedError

    def observe(self, pos, code: int, by_opponent: bool) -> None:
        """``code`` was just played (``pos`` is the position after it)."""

    def finish(self, pos) -> str | None:
        """The game is over by rules.md; a disagreement kind, or None."""
        return None

    def close(self) -> None:
        pass


class OpenSpielMCTS(Opponent):
    def __init__(self, simulations: int) -> None:
        self.simulations = simulations
        self.name = f"mcts:{simulations}"
        self.bot: pyspiel.MCTSBot | None = None

    def start(self, variant: str, side: int, seed: int) -> None:
        game = pyspiel.load_game(OPENSPIEL_GAME[variant])
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.variant = variant
        self.bot = pyspiel.MCTSBot(game, evaluator, 2.0, self.simulations, 1000, True, seed, False)

    def choose(self, pos, state) -> int:
        assert self.bot is not None, "start() first"
        return to_code(self.variant, self.bot.step(state), state.current_player())


class OpenSpielAlphaBeta(Opponent):
    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.name = f"ab:{depth}"

    def start(self, variant: str, side: int, seed: int) -> None:
        self.variant = variant
        self.game = pyspiel.load_game(OPENSPIEL_GAME[variant])

    def choose(self, pos, state) -> int:
        from open_spiel.python.algorithms import minimax

        me = state.current_player()
        variant = self.variant

        def value(leaf) -> float:
            # Score difference for ``me``, inside (-1, 1): a proven win (1)
            # outranks any lead.
            _, (south, north) = openspiel_board(variant, leaf)
            return (south - north if me == 0 else north - south) / 49

        _, action = minimax.alpha_beta_search(
            self.game, state, value_function=value, maximum_depth=self.depth,
            maximizing_player_id=me)
        return to_code(self.variant, action, me)


TOP, BOTTOM = "top", "bottom"
BOARD = re.compile(
    r"\s*" + r"\s*\|\s*".join(rf"{c}:\s*(\d+)" for c in "fedcba") + r"\s*\n"
    r"\s*(\d+) [-+]+\s+(\d+)\s*\n"
    r"\s*" + r"\s*\|\s*".join(rf"{c}:\s*(\d+)" for c in "abcdef") + r"\s*\n")
PROMPT = re.compile(r"Move for player at (top|bottom): ")
REPLY = re.compile(r"Move for player at (top|bottom): ([A-F])\n")
GAME_OVER = re.compile(r"=== Game over; (player at (top|bottom) wins|we have a draw) ===\n")


class DebianMancala(Opponent):
    """Debian's ``mancala`` console program (Kalah), driven through pipes.

    It prints ``Move for player at top: `` before every move (the letter
    follows when the program itself moves), then the board. The top player
    starts: top is bingwa's South, and both number their pits a-f in
    sowing order. ``stdbuf -o0`` unbuffers its prompts."""

    from_start_only = True
    TIMEOUT = 600.0

    def __init__(self, depth: int, binary: str) -> None:
        self.depth = depth
        self.binary = binary
        self.name = f"debian:{depth}"
        self.proc: subprocess.Popen | None = None

    def start(self, variant: str, side: int, seed: int) -> None:
        if variant != "kalah":
            raise ValueError("Debian's mancala plays Kalah only")
        self.close()
        levels = ["0", "0"]
        levels[side] = str(self.depth)
        self.proc = subprocess.Popen(
            ["stdbuf", "-o0", self.binary, *levels, "4"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = ""
        self.side = side
        self.expect_board(None)

    def read_more(self) -> bool:
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], self.TIMEOUT)
        if not ready:
            raise Mismatch(f"debian: no output in {self.TIMEOUT:.0f} s")
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        self.buffer += chunk.decode()
        return bool(chunk)

    def expect(self, pattern: re.Pattern) -> re.Match:
        while True:
            match = pattern.search(self.buffer)
            if match:
                self.buffer = self.buffer[match.end():]
                return match
            if GAME_OVER.search(self.buffer) and pattern is not GAME_OVER:
                raise Mismatch(f"debian ended the game: {self.buffer.strip()!r}")
            if not self.read_more():
                raise Mismatch(f"debian exited; waiting for {pattern.pattern!r}")

    def expect_board(self, pos) -> None:
        numbers = [int(n) for n in self.expect(BOARD).groups()]
        top = numbers[5::-1]  # printed f..a
        stores = (numbers[6], numbers[7])
        bottom = numbers[8:14]
        if pos is not None and (tuple(top + bottom) != tuple(pos.state[0])
                                or stores != tuple(pos.state[1])):
            raise Mismatch(f"board: bingwa {pos.text()}, debian {top} {bottom} {stores}")

    def expect_turn(self, side: int, pattern: re.Pattern) -> re.Match:
        match = self.expect(pattern)
        if match.group(1) != (TOP, BOTTOM)[side]:
            raise Mismatch(f"debian moves {match.group(1)}, bingwa's side to move is {side}")
        return match

    def choose(self, pos, state) -> int:
        letter = self.expect_turn(pos.turn, REPLY).group(2)
        return "ABCDEF".index(letter) + 6 * pos.turn

    def observe(self, pos, code: int, by_opponent: bool) -> None:
        if not by_opponent:
            mover = code // 6
            self.expect_turn(mover, PROMPT)
            assert self.proc is not None and self.proc.stdin is not None
            self.proc.stdin.write(f"{'ABCDEF'[code - 6 * mover]}\n".encode())
            self.proc.stdin.flush()
        self.expect_board(pos)

    def finish(self, pos) -> str | None:
        while not GAME_OVER.search(self.buffer):
            if PROMPT.search(self.buffer):
                self.close()
                return "plays-on"
            if not self.read_more():
                raise Mismatch("debian exited without a result")
        match = self.expect(GAME_OVER)
        winner = None if match.group(2) is None else (TOP, BOTTOM).index(match.group(2))
        if winner != pos.outcome().winner:
            raise Mismatch(f"winner: bingwa {pos.outcome().winner}, debian {winner}")
        stores = tuple(int(n) for n in self.expect(BOARD).groups()[6:8])
        if stores != tuple(pos.outcome().scores):
            raise Mismatch(f"final scores: bingwa {pos.outcome().scores}, debian {stores}")
        self.close()
        return None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def make_opponent(spec: str, binary: str) -> Opponent:
    kind, _, value = spec.partition(":")
    if kind == "mcts":
        return OpenSpielMCTS(int(value or 10000))
    if kind == "ab":
        return OpenSpielAlphaBeta(int(value or 8))
    if kind == "debian":
        return DebianMancala(int(value or 9), binary)
    raise ValueError(f"unknown opponent {spec!r} (mcts:N, ab:D, debian:D)")


# -- games ---------------------------------------------------------------------
@dataclass
class GameResult:
    score: int | None  # alphabeta's: 1, 0, -1; None when not scored
    disagreement: str | None
    ab_seconds: list[float] = field(default_factory=list)
    opponent_seconds: list[float] = field(default_factory=list)
    record: str = ""


def opening_moves(variant: str, seed: int) -> list[int]:
    """A few seeded random plies that do not end the game (the library's
    random_openings, every opening kept: no balance check), as move codes."""
    from bingwa.engine import Position
    from bingwa.tournament.openings import random_openings

    rng = random.Random(seed)
    plies = rng.randint(*OPENING_PLIES)
    pos = Position(variant)
    for text in random_openings(variant, 1, plies, rng, evaluate=lambda position: 0)[0]:
        pos.push(text)
    return [m.code for m in pos.move_stack]


def play_game(variant: str, opponent: Opponent, bot, movetime: int, game: int,
              seed: int) -> GameResult:
    from bingwa.engine import Position
    from bingwa.engine.limits import Limits

    pair = game // 2
    if pair == 0 or opponent.from_start_only:
        opening: list[int] = []
    else:
        opening = opening_moves(variant, 7919 * pair + seed)
    ab_side = (game + len(opening)) % 2  # the side that moves first after the opening alternates
    pos = Position(variant)
    state = pyspiel.load_game(OPENSPIEL_GAME[variant]).new_initial_state()
    for code in opening:
        state.apply_action(to_action(variant, code, pos.turn))
        pos.push(next(m for m in pos.legal_moves() if m.code == code))
    bot.new_game()
    opponent.start(variant, 1 - ab_side, 1000 * seed + game)
    result = GameResult(None, None)
    stop = threading.Event()
    try:
        while True:
            if state.is_terminal() or pos.is_over() or len(pos.move_stack) >= MAX_PLIES:
                break
            check_lockstep(variant, pos, state)
            side = pos.turn
            start = time.perf_counter()
            if side == ab_side:
                best = bot.go(pos, Limits(movetime=movetime), lambda info: None, stop).best
                code = pos.parse_move(best).code
                result.ab_seconds.append(time.perf_counter() - start)
            else:
                code = opponent.choose(pos, state)
                result.opponent_seconds.append(time.perf_counter() - start)
            state.apply_action(to_action(variant, code, side))
            pos.push(next(m for m in pos.legal_moves() if m.code == code))
            opponent.observe(pos, code, side != ab_side)
        if len(pos.move_stack) >= MAX_PLIES:
            raise Mismatch(f"no result after {MAX_PLIES} plies")
        if state.is_terminal() and not pos.is_over():
            result.disagreement = finish_unfed(variant, pos)
        elif pos.is_over() and not state.is_terminal():
            raise Mismatch(f"bingwa ended the game ({pos.outcome()}), OpenSpiel did not")
        ours, theirs = swept(*pos.state[:2]), swept(*openspiel_board(variant, state))
        if ours != theirs or pos.outcome().winner != openspiel_winner(state):
            raise Mismatch(f"result: bingwa {pos.outcome()} {pos.text()}, OpenSpiel "
                           f"{state.returns()} {theirs}")
        result.disagreement = opponent.finish(pos) or result.disagreement
        winner = pos.outcome().winner
        result.score = 0 if winner is None else (1 if winner == ab_side else -1)
    except Mismatch as error:
        opponent.close()
        result.disagreement = f"mismatch: {error}"
    result.record = (f"{variant} game {game} vs {opponent.name}, alphabeta "
                     f"{('South', 'North')[ab_side]}: "
                     + " ".join(m.text for m in pos.move_stack))
    return result


def finish_unfed(variant: str, pos) -> str:
    """OpenSpiel ended an Oware game nobody can feed; bingwa lets the mover
    sow in his own row. Play bingwa's game out (every such move leads to
    the same final scores) and return the disagreement kind."""
    opponent_row = pos.state[0][6 * (1 - pos.turn): 6 * (2 - pos.turn)]
    if variant != "oware" or any(opponent_row):
        raise Mismatch(f"OpenSpiel ended the game, bingwa did not: {pos.text()}")
    while not pos.is_over():
        pos.push(pos.legal_moves()[0])
    return "nofeed"


# -- matches -------------------------------------------------------------------
def run_match(variant: str, spec: str, args) -> None:
    from bingwa.bots import find_bot

    opponent = make_opponent(spec, args.mancala_binary)
    bot = find_bot("alphabeta")()
    wins = draws = losses = 0
    kinds: dict[str, int] = {}
    ab_times: list[float] = []
    opp_times: list[float] = []
    started = time.monotonic()
    for game in range(args.games):
        result = play_game(variant, opponent, bot, args.movetime, game, args.seed)
        ab_times += result.ab_seconds
        opp_times += result.opponent_seconds
        if result.disagreement:
            kind = result.disagreement.split(":")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "mismatch":
                print(f"  {result.disagreement}\n  {result.record}", flush=True)
        if result.score == 1:
            wins += 1
        elif result.score == 0:
            draws += 1
        elif result.score == -1:
            losses += 1
        if args.records:
            print(f"  [{result.score}] {result.record}", flush=True)
    opponent.close()
    scored = wins + draws + losses
    pct = 100 * (wins + draws / 2) / scored if scored else 0.0
    notes = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "-"
    ab_ms = 1000 * sum(ab_times) / max(1, len(ab_times))
    opp_ms = 1000 * sum(opp_times) / max(1, len(opp_times))
    print(f"{variant:<6} {spec:<12} {scored:>5} {wins:>4} {draws:>4} {losses:>4} {pct:>7.1f}% "
          f"{ab_ms:>7.1f} {opp_ms:>8.1f}  {notes}  ({time.monotonic() - started:.0f} s)",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per match")
    parser.add_argument("--movetime", type=int, default=100, help="alphabeta's ms a move")
    parser.add_argument("--variant", action="append", choices=sorted(DEFAULT_MATCHES))
    parser.add_argument("--opponent", action="append",
                        help="mcts:N, ab:D or debian:D (default: a set per variant)")
    parser.add_argument("--seed", type=int, default=1, help="seeds openings and MCTS")
    parser.add_argument("--mancala-binary", default="/usr/games/mancala",
                        help="Debian's mancala program")
    parser.add_argument("--records", action="store_true", help="print every game's moves")
    args = parser.parse_args(argv)
    print(f"{'game':<6} {'opponent':<12} {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
          f"{'score %':>8} {'ab ms':>7} {'opp ms':>8}  disagreements")
    for variant in args.variant or list(DEFAULT_MATCHES):
        for spec in args.opponent or DEFAULT_MATCHES[variant]:
            if spec.startswith("debian") and variant != "kalah":
                continue
            run_match(variant, spec, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
