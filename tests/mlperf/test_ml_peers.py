"""benchmarks/ml_peers.py in its smoke mode (``--small``, NumPy as the only peer): every workload runs, is
checked against the reference and timed; a disagreeing result is an error, not a row."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ml_peers  # noqa: E402


def test_small_run_with_numpy(capsys):
    rows = ml_peers.main(["--small", "--peers", "numpy", "--repeat", "1", "--warmup", "1", "--warmup-s", "0",
                          "--only", "float32 64,float16 64,1000x16,softmax,full sum,round trip,jit replay"])
    names = [r[0] for r in rows]
    assert names == ["matmul float16 64", "matmul float32 64", "logistic regression step 1000x16",
                     "softmax rows 64x64", "full sum 256x256", "tiny round trip (x + 1)", "kd.jit replay, tiny"]
    for r in rows:
        assert r[1] > 0 and r[2] > 0  # kdsl ms, numpy ms
        assert r[3].startswith("numpy ") and r[3].endswith("x")
    assert "kdsl / best" in capsys.readouterr().out


def test_check_refuses_a_wrong_answer():
    ref = [np.ones((2, 2), np.float32)]
    ml_peers.check("w", "p", [ref[0] + 1e-6], ref, 1e-4)
    with pytest.raises(AssertionError, match="disagrees"):
        ml_peers.check("w", "p", [ref[0] * 1.01], ref, 1e-4)
    with pytest.raises(AssertionError, match="shapes"):
        ml_peers.check("w", "p", [np.ones(4, np.float32)], ref, 1e-4)


def test_logreg_step_matches_numpy_gradient():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 3)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    w, b = np.zeros(3, np.float32), np.float32(0)
    w1, b1 = ml_peers.logreg_step(ml_peers._NumpyOps, x, y, w, b)
    dz = 0.5 - y  # sigmoid(0) = 0.5
    np.testing.assert_allclose(w1, -0.5 * (x.T @ dz) / 50, rtol=1e-6)
    np.testing.assert_allclose(b1, -0.5 * dz.mean(), rtol=1e-6)
