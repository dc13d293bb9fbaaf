"""The certificate of a proving build (engine/oware_certify.py, ``bingwa
solve verify``): every proven bound checked move by move with the
pure-Python rules; forged values, bounds and ranks refused; the disputed
boards of issue 26 decided, and the two games played from them."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from support.perfect import perfect

from bingwa.cli import main as cli
from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.oware_certify import (
    BIAS,
    CYCLE_FLAG,
    Certificate,
    CertificateError,
    boards,
    rank,
)
from bingwa.engine.playout import refuter, repeater

db = pytest.importorskip("bingwa.engine._owaredb")

SMALL = 7  # seeds: the build takes well under a second


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("certified")
    tablebase.build(path, SMALL, prove=True)
    return path


@pytest.fixture(scope="module")
def eleven(tmp_path_factory: pytest.TempPathFactory):
    """0..11 seeds, proven (about 6 s on 2 threads): the disputed boards'."""
    path = tmp_path_factory.mktemp("eleven")
    tablebase.build(path, 11, jobs=2, prove=True)
    return path


def board(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.replace("/", ",").split(","))


def copy(folder, to):
    for path in folder.iterdir():
        (to / path.name).write_bytes(path.read_bytes())
    return to


def forge(folder, seeds: int, pits: tuple[int, ...], value: int | None = None,
          bounds: tuple[int, int] | None = None, ranks: tuple[int, int] | None = None,
          exact: bool = True) -> None:
    """Rewrite one board's entry, bounds or ranks in ``folder`` (valid
    headers and checksums: only the certificate can tell)."""
    i = rank(pits)
    if value is not None:
        data = bytearray((folder / tablebase.file_name(seeds)).read_bytes()[tablebase.HEADER_BYTES:])
        data[i] = (value + BIAS) | (0 if exact else CYCLE_FLAG)
        tablebase.write_level(folder, seeds, 0, data, proven=True)
    if bounds is not None:
        data = bytearray((folder / tablebase.bounds_name(seeds)).read_bytes()[tablebase.HEADER_BYTES:])
        data[2 * i], data[2 * i + 1] = bounds[0] + BIAS, bounds[1] + BIAS
        tablebase.write_level(folder, seeds, 0, data, bounds=True, proven=True)
    if ranks is not None:
        raw = bytearray((folder / tablebase.ranks_name(seeds)).read_bytes()[tablebase.HEADER_BYTES:])
        view = memoryview(raw).cast("H")
        view[2 * i], view[2 * i + 1] = ranks
        view.release()
        tablebase.write_level(folder, seeds, 0, raw, proven=True, ranks=True)


def test_the_rank_is_the_databases_index():
    for seeds in range(5):
        for pits in boards(seeds):
            assert rank(pits) == db.rank(pits)
    rng = random.Random(3)
    for _ in range(2000):
        seeds = rng.randrange(5, 25)
        cuts = sorted(rng.randrange(seeds + 1) for _ in range(11))
        pits = tuple(b - a for a, b in zip([0] + cuts, cuts + [seeds]))
        assert rank(pits) == db.rank(pits)


def test_every_proven_bound_of_a_build_is_certified(small):
    cert = Certificate(small)
    reports = cert.check_counts()
    assert [r.seeds for r in reports] == list(range(SMALL + 1))
    for report in reports:
        assert report.failures == 0, report.examples
        assert report.boards == tablebase.positions(report.seeds)
        values = cert.values[report.seeds]
        assert report.exact == sum(1 for b in values if not b & CYCLE_FLAG)
        assert report.exact + report.bounded == report.boards
    assert sum(r.bounds_checked for r in reports) > 50_000


def test_two_processes_check_what_one_does(small):
    one = Certificate(small).check_counts()
    two = Certificate(small).check_counts(jobs=2)
    assert [(r.boards, r.exact, r.bounded, r.bounds_checked) for r in one] == \
           [(r.boards, r.exact, r.bounded, r.bounds_checked) for r in two]


def test_a_cycle_value_forged_as_exact_is_refused(small, tmp_path):
    """``0,1,0,0,0,1/0,0,0,0,0,0``: the two seeds chase each other and the
    game ends by repetition, worth 0; the databases store +2, marked
    cycle-dependent. Marked exact, bounds and all, the certificate fails."""
    pits = board("0,1,0,0,0,1/0,0,0,0,0,0")
    cert = Certificate(small)
    byte = cert.values[2][rank(pits)]
    assert byte & CYCLE_FLAG and (byte & 0x7F) - BIAS == 2
    folder = copy(small, tmp_path)
    forge(folder, 2, pits, value=2, bounds=(2, 2))
    forged = Certificate(folder)
    report = forged.check_count(2)
    assert report.failures >= 1
    assert any(text.startswith("0,1,0,0,0,1/0,0,0,0,0,0: no move keeps the lower bound +2")
               for text in report.examples)
    with pytest.raises(CertificateError):
        forged.check_position(pits)
    result = CliRunner().invoke(cli, ["solve", "verify", "--dir", str(folder), "--max-seeds", "3"])
    assert result.exit_code == 1
    assert "NOT proven" in result.output and " 2 seeds: 78 boards" in result.output
    result = CliRunner().invoke(cli, ["solve", "verify", "--dir", str(folder),
                                      "-p", "0,1,0,0,0,1/0,0,0,0,0,0 23 23 s"])
    assert result.exit_code == 1 and "NOT PROVEN" in result.output


def test_a_rank_that_allows_a_cycle_is_refused(small, tmp_path):
    """A lower bound kept only by quiet moves needs a rank above the
    child's: rank 0 would let the line go round for ever."""
    cert = Certificate(small)
    for pits in boards(6):
        lo, _, rl, _ = cert.claim(pits)
        kids = cert.children(pits)
        if lo > -6 and kids and not any(
                capture and gain - cert.claim(child)[1] >= lo for child, gain, capture, _ in kids):
            break
    else:
        pytest.fail("no board of 6 seeds keeps its lower bound by quiet moves only")
    assert rl >= 1
    folder = copy(small, tmp_path)
    forge(folder, 6, pits, ranks=(0, cert.claim(pits)[3]))
    report = Certificate(folder).check_count(6)
    assert report.failures >= 1
    assert any("no move keeps the lower bound" in text for text in report.examples)


def test_a_value_lowered_below_a_move_is_refused(small, tmp_path):
    cert = Certificate(small)
    pits = next(p for p in boards(5) if cert.claim(p)[0] == cert.claim(p)[1] > -3)
    value = cert.claim(pits)[0]
    folder = copy(small, tmp_path)
    forge(folder, 5, pits, value=value - 2, bounds=(value - 2, value - 2))
    report = Certificate(folder).check_count(5)
    assert any("breaks the upper bound" in text for text in report.examples)


def test_bad_folders_are_one_line(small, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "verify", "--dir", str(tmp_path / "none")])
    assert result.exit_code == 2 and "no such database folder" in result.output
    assert "Traceback" not in result.output
    plain = tmp_path / "plain"
    tablebase.build(plain, 3, prove=False)
    result = runner.invoke(cli, ["solve", "verify", "--dir", str(plain)])
    assert result.exit_code == 2 and "no proving build" in result.output
    result = runner.invoke(cli, ["solve", "verify", "--dir", str(small), "--max-seeds", "9"])
    assert result.exit_code == 2 and "holds 0..7 seeds, not 9" in result.output
    result = runner.invoke(cli, ["solve", "verify", "--dir", str(small), "-p",
                                 "2,0,0,1,0,0/3,1,1,1,1,0 21 17 s"])
    assert result.exit_code == 2 and "10 seeds on the board" in result.output


# -- issue 26: the disputed boards and the two games ------------------------------------
# (board, South to move; the other solver's value; bingwa's)
DISPUTED = [("2,0,0,0,1,0/3,1,1,2,0,0", -4, -6), ("2,0,0,1,0,0/3,1,1,1,1,0", -4, -6),
            ("0,4,0,3,0,1/1,2,0,0,0,0", +1, -1)]


@pytest.mark.parametrize("text,other,ours", DISPUTED)
def test_the_disputed_boards_are_bingwas(eleven, text, other, ours):
    lo, hi, checked = Certificate(eleven).check_position(board(text))
    assert lo == hi == ours != other
    assert checked > 1000


def test_the_twelve_seed_board_is_a_capture_into_a_certified_ten(eleven):
    """``0,0,0,3,0,0/1,0,6,0,2,0`` (other +6, bingwa +8) has one move, a
    capture of 2 into a ten-seed board: +8 is 2 minus that board's
    certified -6."""
    cert = Certificate(eleven)
    kids = cert.children(board("0,0,0,3,0,0/1,0,6,0,2,0"))
    assert len(kids) == 1
    child, gain, capture, _ = kids[0]
    assert capture and gain == 2 and sum(child) == 10
    lo, hi, _ = cert.check_position(child)
    assert gain - lo == gain - hi == 8


# the South moves of the game that "won" a proven loss (issue 26)
ISSUE_GAME = ("d E a D c C e B d D b C f A e D c C d B e C f F b E a B b A d D e C c B e D d C "
              "e D f F b A c C d E a D e B c E b D d C c E e D d E e F f A d D e C c E a D d B "
              "e E b D d").split()


def replaying(moves: list[str], fallback):
    """The side's moves of a recorded game while they are legal, then
    ``fallback``."""
    mine = iter(moves)

    def play(position: Position) -> str:
        for move in mine:
            if move in {m.text for m in position.legal_moves()}:
                return move
            break
        return fallback(position)

    return play


@pytest.mark.parametrize("seed", [0, 1])
def test_the_proven_loss_holds(eleven, seed):
    """From ``2,0,0,1,0,0/3,1,1,1,1,0 21 17 s`` (South's board value -6,
    certified), South replays the issue's game and then tries its own
    searches, repetitions first; the perfect bot as North wins."""
    start = Position.from_text("oware", "2,0,0,1,0,0/3,1,1,1,1,0 21 17 s")
    rng = random.Random(seed)
    south = repeater(replaying(ISSUE_GAME[0::2], refuter(Limits(depth=6), rng, 0.2)))
    north = perfect(eleven)
    game = start.copy()
    while not game.is_over():
        game.push(south(game) if game.turn == 0 else north(game))
    outcome = game.outcome()
    assert outcome.margin(1) > 0, game.text()


@pytest.mark.parametrize("seed", [0, 1])
def test_the_proven_win_holds(eleven, seed):
    """From ``0,0,0,3,0,0/1,0,6,0,2,0 15 21 s`` (+8 for South, certified)
    the perfect bot as South wins against a North that tries repetitions
    and its own searches."""
    start = Position.from_text("oware", "0,0,0,3,0,0/1,0,6,0,2,0 15 21 s")
    north = repeater(refuter(Limits(depth=6), random.Random(seed), 0.2))
    south = perfect(eleven)
    game = start.copy()
    while not game.is_over():
        game.push(south(game) if game.turn == 0 else north(game))
    assert game.outcome().margin(0) > 0, game.text()
