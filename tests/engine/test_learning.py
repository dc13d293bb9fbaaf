"""engine/net.py, the Oware and Kalah kernels' networks, the EvalFile option,
engine/learning.py and benchmarks/train.py, its command line: the inputs,
the integer inference against its Python twin, the network file, the
shipped network as the default, the fit and the one-command training."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bingwa.engine import Position, find_variant
from bingwa.engine.limits import Limits
from bingwa.engine.net import (
    ACT_ONE,
    BUCKETS,
    HIDDEN,
    INPUTS,
    NET_FILES,
    OUT_SCALE,
    SCORE_BUCKETS,
    Net,
    NetFileError,
    active_inputs,
    eval_file_net,
    eval_file_nets,
    read_net,
    write_net,
)

search = pytest.importorskip("bingwa.engine.search")
ROOT = Path(__file__).resolve().parents[2]


def random_net(seed: int, scale: int = 300) -> Net:
    rng = random.Random(seed)
    return Net([[rng.randint(-scale, scale) for _ in range(HIDDEN)] for _ in range(INPUTS)],
               [rng.randint(-scale, 2 * scale) for _ in range(HIDDEN)],
               [rng.randint(-3000, 3000) for _ in range(HIDDEN)],
               rng.randint(-10 ** 5, 10 ** 5))


def zero_net() -> Net:
    return Net([[0] * HIDDEN for _ in range(INPUTS)], [0] * HIDDEN, [0] * HIDDEN, 0)


@pytest.fixture
def kernel():
    kernel = find_variant("oware").kernel
    yield kernel
    kernel.set_net(eval_file_net("default", "oware"))


@pytest.fixture
def kalah_kernel():
    kernel = find_variant("kalah").kernel
    yield kernel
    kernel.set_net(eval_file_net("default", "kalah"))


def random_games(variant: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    position = Position(variant)
    while len(out) < count:
        if position.is_over():
            position = Position(variant)
        out.append(position.copy())
        position.push(rng.choice(position.legal_moves()))
    return out


def positions(count: int, seed: int) -> list[Position]:
    """Positions of random games, and some with large pits and scores
    (the last bucket of each)."""
    return [Position.from_text("oware", "20,0,0,0,1,0/0,0,3,0,0,0 10 14 s"),
            Position.from_text("oware", "0,17,0,0,0,0/1,0,0,0,0,2 2 26 n")] + random_games(
        "oware", count - 2, seed)


def test_the_inputs_are_one_bucket_a_pit_and_a_score_from_the_side_to_move():
    state = Position.from_text("oware", "16,0,0,0,1,0/0,0,3,0,0,0 0 28 n").state
    inputs = active_inputs(state)
    assert len(inputs) == 14 and len(set(inputs)) == 14
    # North to move: its row (A..F, "0,0,3,0,0,0") first, then South's
    assert inputs[:6] == [BUCKETS * i + (3 if i == 2 else 0) for i in range(6)]
    assert inputs[6] == BUCKETS * 6 + BUCKETS - 1  # 16 seeds: the last bucket
    assert inputs[10] == BUCKETS * 10 + 1
    assert inputs[12] == 12 * BUCKETS + SCORE_BUCKETS - 1  # North's 28: the last
    assert inputs[13] == 12 * BUCKETS + SCORE_BUCKETS + 0


def assert_twin(kernel, games: list[Position], net: Net) -> None:
    """The kernel's evaluation with ``net`` is the hand one plus the Python
    twin's output on every position of ``games``, outputs of both signs
    (rounded down alike)."""
    assert kernel.net_dims == (BUCKETS, SCORE_BUCKETS, INPUTS, HIDDEN, ACT_ONE, OUT_SCALE)
    seen = set()
    for position in games:
        state = position.state
        kernel.set_net(None)
        hand = kernel.evaluate(state)
        assert not kernel.uses_net
        kernel.set_net(net)
        output = net.evaluate(active_inputs(state))
        assert kernel.evaluate(state) == hand + output, position.text()
        seen.add(output > 0)
    assert seen == {True, False}


def test_the_kernel_network_is_its_python_twin(kernel):
    assert_twin(kernel, positions(300, 1), random_net(3))


def test_the_kalah_kernel_network_is_its_python_twin_on_kalah_6_4_alone(kalah_kernel):
    assert kalah_kernel.net_board == (6, 48)
    # late positions too: a store past the last bucket (25 of 48: won)
    games = random_games("kalah", 400, 11)
    assert max(max(p.state[1]) for p in games) > SCORE_BUCKETS
    assert_twin(kalah_kernel, games, random_net(13))
    # other boards, and the other capture rule, play the hand evaluation:
    # the network's inputs mean another game there
    for spec in ("kalah seeds=3", "kalah pits=4", "kalah empty-capture=true"):
        variant = find_variant(spec)
        other = variant.kernel
        for position in random_games(spec, 30, 12):
            assert other.evaluate(position.state) == sum(
                f * w for f, w in zip(other.features(position.state), other.weights)), spec


def test_the_ayoayo_kernel_network_is_its_python_twin():
    kernel = find_variant("ayoayo").kernel
    try:
        assert_twin(kernel, random_games("ayoayo", 300, 18), random_net(17))
    finally:
        kernel.set_net(eval_file_net("default", "ayoayo"))


def test_without_a_network_the_evaluation_is_the_hand_one(kernel):
    kernel.set_net(random_net(4))
    kernel.set_net(None)
    assert not kernel.uses_net
    for position in positions(50, 2):
        features = kernel.features(position.state)
        assert kernel.evaluate(position.state) == sum(
            f * w for f, w in zip(features, kernel.weights))


def searched(position: Position) -> tuple[str | None, int | None, int | None]:
    from bingwa.engine.searcher import Searcher

    result = Searcher(1).search(position, Limits(nodes=20_000))
    assert result.info is not None
    return result.best, result.info.nodes, result.info.score_cp


def test_the_search_uses_the_network_and_a_zero_one_changes_nothing(kernel):
    position = positions(30, 5)[-1]
    kernel.set_net(None)
    hand = searched(position)
    kernel.set_net(zero_net())
    assert kernel.uses_net
    assert searched(position) == hand
    kernel.set_net(random_net(6, scale=2000))
    assert searched(position) != hand
    kernel.set_net(None)
    assert searched(position) == hand


def test_the_kalah_search_uses_its_network_and_the_oware_one_is_apart(kernel, kalah_kernel):
    position = random_games("kalah", 12, 14)[-1]
    kalah_kernel.set_net(None)
    hand = searched(position)
    kernel.set_net(random_net(6, scale=2000))  # Oware's: no change to Kalah's search
    assert searched(position) == hand
    kalah_kernel.set_net(zero_net())
    assert searched(position) == hand
    kalah_kernel.set_net(random_net(15, scale=2000))
    assert searched(position) != hand


def test_a_network_of_another_shape_is_refused_and_the_loaded_one_stays(kernel):
    position = positions(30, 5)[-1]
    kernel.set_net(random_net(6, scale=2000))
    before = searched(position)
    net = zero_net()
    net.w2 = [0] * (HIDDEN - 1)
    with pytest.raises(ValueError, match="shape"):
        kernel.set_net(net)
    assert kernel.uses_net and searched(position) == before


@pytest.mark.parametrize("name", ["bao", "kujifunza"])
def test_a_variant_without_a_network_refuses_one_and_takes_none(name):
    kernel = find_variant(name).kernel
    kernel.set_net(None)  # the hand evaluation: what it plays anyway
    assert not kernel.uses_net
    with pytest.raises(ValueError, match="takes no network"):
        kernel.set_net(zero_net())
    assert not kernel.uses_net


def test_the_network_file_round_trips(tmp_path):
    net = random_net(7)
    write_net(tmp_path / "net.txt", net, "a test")
    assert read_net(tmp_path / "net.txt") == net


@pytest.mark.parametrize("damage, message", [
    (lambda text: "", "not a network of this build"),
    (lambda text: text.replace(f"dims {INPUTS}", "dims 99"), "not a network of this build"),
    (lambda text: text.replace("\n5 ", "\nfive ", 1), "not a whole number"),
    (lambda text: text.rsplit("\n", 2)[0] + "\n", "are not"),
    (lambda text: text.replace("\n5 ", "\n40000 ", 1), "may leave 16 bits"),
    (lambda text: text.replace("\n5 ", "\n3000 ", 1).replace("\n0 ", "\n3000 "),
     "may leave 16 bits"),
    (lambda text: text.rsplit("\n", 2)[0] + "\n2147000000\n", "may leave the kernel"),
])
def test_a_damaged_network_file_is_one_line(tmp_path, damage, message):
    net = zero_net()
    net.w1[0][0] = 5
    path = tmp_path / "net.txt"
    write_net(path, net, "a test")
    path.write_text(damage(path.read_text()))
    with pytest.raises(NetFileError, match=message):
        read_net(path)


def test_a_missing_network_file_is_one_line(tmp_path):
    with pytest.raises(NetFileError, match="cannot read"):
        read_net(tmp_path / "none.txt")


def engine_session(lines: list[str]) -> list[str]:
    """``bingwa engine``'s output for ``lines``, each ``go`` and
    ``isready`` waited for."""
    engine = subprocess.Popen([sys.executable, "-m", "bingwa", "engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert engine.stdin is not None and engine.stdout is not None
    out = []
    for line in lines:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        if line.startswith("go") or line == "isready":
            for reply in engine.stdout:
                out.append(reply.rstrip("\n"))
                if reply.startswith(("bestmove", "readyok")):
                    break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    assert engine.wait(timeout=60) == 0
    assert engine.stderr is not None and "Traceback" not in engine.stderr.read()
    return out


def searched_line(out: list[str]) -> str:
    """The last ``info depth`` of ``out`` without its timings (nps, time)."""
    last = [line for line in out if line.startswith("info depth")][-1]
    return re.sub(r" (nps|time) \d+", "", last)


def last_info(option: str | None) -> str:
    """The last ``info depth`` of ``go nodes 5000`` from the start, with
    EvalFile set to ``option`` (None: not set), without its timings."""
    lines = ["uci"] + ([f"setoption name EvalFile value {option}"] if option else [])
    return searched_line(engine_session(lines + ["position startpos", "go nodes 5000"]))


def test_evalfile_chooses_the_network_and_the_shipped_one_is_the_default(tmp_path):
    assert NET_FILES["oware"].exists()  # shipped in the package
    path = tmp_path / "net.txt"
    write_net(path, random_net(8, scale=2000), "a test")
    default, none, mine = last_info(None), last_info("none"), last_info(str(path))
    assert last_info("default") == default
    assert len({default, none, mine}) == 3  # three evaluations, three searches


def test_an_evalfile_names_a_network_for_every_variant(tmp_path):
    path = tmp_path / "net.txt"
    write_net(path, random_net(5, scale=2000), "a test")
    mine = eval_file_nets(str(path))
    assert set(mine) == set(NET_FILES)
    assert all(net == read_net(path) for net in mine.values())  # one file, every variant
    assert eval_file_nets("none") == dict.fromkeys(NET_FILES)
    assert eval_file_nets(" Default ") == {
        variant: read_net(file) if file.exists() else None for variant, file in NET_FILES.items()}
    with pytest.raises(NetFileError):
        eval_file_nets(str(tmp_path / "missing.txt"))


def kalah_info(option: str | None) -> str:
    """``last_info`` of Kalah(6,4) (at a node limit its solver would take
    the root's value: ``Kalah Endgames 0``)."""
    lines = ["uci", "setoption name UCI_Variant value kalah",
             "setoption name Kalah Endgames value 0"]
    lines += [f"setoption name EvalFile value {option}"] if option else []
    return searched_line(engine_session(lines + ["position startpos", "go nodes 5000"]))


def test_evalfile_chooses_kalahs_network_too(tmp_path):
    path = tmp_path / "net.txt"
    write_net(path, random_net(16, scale=2000), "a test")
    default, none, mine = kalah_info(None), kalah_info("none"), kalah_info(str(path))
    assert kalah_info("default") == default
    assert mine not in (default, none)
    # the package ships Kalah's network or none: the default is one of the two
    assert (default != none) == NET_FILES["kalah"].exists()


def test_a_bad_evalfile_is_one_error_line_and_the_network_before_stays(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("not a network\n")
    for value, message in ((str(tmp_path / "none.txt"), "cannot read the network"),
                           (str(bad), "not a network of this build")):
        for before in (None, "none"):  # the shipped network, then the hand evaluation
            first = [f"setoption name EvalFile value {before}"] if before else []
            out = engine_session(["uci", *first, f"setoption name EvalFile value {value}",
                                  "isready", "position startpos", "go nodes 5000"])
            errors = [line for line in out if line.startswith("info string error")]
            assert len(errors) == 1 and message in errors[0], out
            assert searched_line(out) == last_info(before)


# -- the fit and the command (NumPy) ----------------------------------------------
def test_the_fit_learns_what_the_hand_evaluation_misses():
    np = pytest.importorskip("numpy")
    from bingwa.engine.learning import fit, held_out_error, integer_output, quantize

    rng = np.random.default_rng(1)
    n = 6000
    inputs = np.stack([BUCKETS * i + rng.integers(0, BUCKETS, n) for i in range(12)]
                      + [12 * BUCKETS + rng.integers(0, SCORE_BUCKETS, n),
                         12 * BUCKETS + SCORE_BUCKETS + rng.integers(0, SCORE_BUCKETS, n)],
                      axis=1)
    hand = rng.integers(-300, 300, n)
    # what the hand evaluation misses: 150 centi-seeds when the first pit is empty
    label = hand + np.where(inputs[:, 0] == 0, 150, 0) + rng.integers(-20, 20, n)
    train, test = slice(0, 5000), slice(5000, n)
    net = fit(inputs[train], hand[train], label[train], epochs=30, seed=1, batch=256)
    before = held_out_error(None, inputs[test], hand[test], label[test])
    after = held_out_error(net, inputs[test], hand[test], label[test])
    assert after < before / 4
    integer = quantize(net)
    assert held_out_error(integer, inputs[test], hand[test], label[test]) < before / 4
    floats = net.output(inputs[test])
    assert np.abs(integer_output(integer, inputs[test]) - floats).max() <= 3
    again = fit(inputs[train], hand[train], label[train], epochs=30, seed=1, batch=256)
    assert quantize(again) == integer  # the same data and seed, the same network


def test_train_is_one_command_from_scratch_and_reproducible(tmp_path):
    pytest.importorskip("numpy")
    outs = []
    for run_number in range(2):
        out = tmp_path / f"net{run_number}.txt"
        run = subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "train.py"), "--games", "3",
             "--nodes", "300", "--epochs", "2", "--seed", "4", "-j", "2",
             "--data", str(tmp_path / f"data{run_number}"), "--out", str(out)],
            capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert "held-out error" in run.stdout and "network written" in run.stdout
        outs.append(out.read_text().split("\n", 2)[2])  # past the comment lines
    assert outs[0] == outs[1]
    read_net(tmp_path / "net0.txt")  # a network of this build


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--variant", "kalah", "--endgames", "-1"], "--endgames must be 0 or more"),
    (["--variant", "kalah", "--tablebase", "x"], "--tablebase is Oware's"),
    (["--variant", "bao"], "invalid choice"),
])
def test_train_refuses_bad_arguments_in_one_line(tmp_path, args, message):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "train.py"), *args],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and message in run.stderr
    assert "Traceback" not in run.stderr
