"""engine/tuning.py and benchmarks/tune.py, its command line: the self-play
data, the Texel fit and the weights files."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bingwa.engine import Position, find_variant
from bingwa.engine.kernel import compiled_module

pytest.importorskip("numpy")
pytest.importorskip("scipy")
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tune():
    from bingwa.engine import tuning

    return tuning


def compiled(spec: str):
    variant = find_variant(spec)
    if compiled_module(type(variant).kernel_module) is None:
        pytest.skip("compiled kernel not built")
    return variant


def constants(path: Path) -> dict[str, int]:
    return {name: int(value) for name, value in
            re.findall(r"^\s+(\w+) = (-?\d+)$", path.read_text(), re.MULTILINE)}


def test_the_fit_recovers_the_weights_of_a_known_model(tune):
    rng = np.random.default_rng(3)
    x = np.column_stack([rng.integers(-6, 7, 3000), rng.integers(-10, 11, 3000),
                         rng.integers(0, 5, 3000)]).astype(float)
    truth = np.array([100.0, 40.0, -25.0])
    y = tune.sigmoid(0.004 * (x @ truth))  # the expected results themselves
    assert tune.fit_scale(truth, x, y) == pytest.approx(0.004, rel=1e-3)
    fitted = tune.fit_weights(np.array([100.0, 0.0, 0.0]), 0.004, x, y)
    assert fitted[0] == 100.0  # the material weight is held: the unit of scores
    assert fitted[1:] == pytest.approx(truth[1:], abs=0.5)


def test_a_position_with_a_capture_to_make_is_not_quiet(tune):
    compiled("oware")
    assert tune.is_quiet(Position("oware"))
    # South's f (1 seed) lands in North's A (1 -> 2): a capture
    state = ((4, 4, 4, 4, 4, 1, 1, 4, 4, 4, 4, 4), (3, 3), 0)
    assert not tune.is_quiet(Position("oware", state))


@pytest.mark.parametrize("variant", ["oware", "ayoayo", "kalah", "bao", "kujifunza"])
def test_the_weights_files_hold_what_the_kernels_were_built_with(tune, variant):
    kernel = compiled(variant).kernel
    spec = tune.WEIGHTS_FILES[variant]
    expected = {spec.prefix + name.upper(): w
                for name, w in zip(kernel.feature_names, kernel.weights)}
    assert constants(spec.path) == expected


def test_apply_writes_a_weights_file_in_the_feature_order(tune, monkeypatch, tmp_path):
    target = tmp_path / "weights_kalah.pxd"
    spec = tune.WEIGHTS_FILES["kalah"]
    monkeypatch.setitem(tune.WEIGHTS_FILES, "kalah",
                        tune.WeightsFile(target, spec.prefix, spec.title))
    tune.write_weights("kalah", ("store", "row_seed"), [100, -7], "the command")
    assert constants(target) == {"EVAL_STORE": 100, "EVAL_ROW_SEED": -7}
    assert list(constants(target)) == ["EVAL_STORE", "EVAL_ROW_SEED"]
    assert "#   the command" in target.read_text()


def test_one_command_plays_fits_and_reuses_its_data(tmp_path):
    compiled("kalah")
    args = ["--variant", "kalah", "--games", "10", "--nodes", "100", "--seed", "4",
            "--data", str(tmp_path)]

    def tune_command() -> str:
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tune.py"), *args],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = tune_command()
    assert "positions kept ->" in first
    assert re.search(r"^extra_turn\s+-?\d+\s+-?\d+$", first, re.MULTILINE)
    [data] = list(tmp_path.glob("kalah-g10-s4-n100-*.npz"))
    again = tune_command()  # the same command: the same data, the same fit
    assert f"reusing {data}" in again
    assert again.split("\n", 1)[1] == first.split("positions kept -> ")[1].split("\n", 1)[1]
