"""benchmarks/ml_training.py in its smoke mode (``--small``, NumPy as the peer): both training steps run, are
checked (the MLP against a NumPy backprop + Adam, the transformer against a NumPy forward pass and central
differences) and timed; a disagreeing result is an error, not a row. With PyTorch installed, kdsl is also
checked against its PyTorch peers at the small sizes (the check the GPU run relies on)."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ml_training  # noqa: E402

FAST = ["--small", "--repeat", "1", "--warmup", "1", "--warmup-s", "0"]


def test_small_run_with_numpy(capsys):
    rows = ml_training.main([*FAST, "--peers", "numpy"])
    assert [r[0].split()[0] for r in rows] == ["MLP", "char"]
    mlp, transformer = rows
    assert mlp[1] > 0 and mlp[2] > 0  # kdsl ms, numpy ms
    assert transformer[1] > 0 and np.isnan(transformer[2])  # no NumPy training step for the transformer
    out = capsys.readouterr().out
    assert "checked: kdsl on MLP" in out and "central differences" in out and "issue 13 goal" in out


def test_small_run_against_pytorch(capsys):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (a test-only extra: pip install torch)")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny steps: one thread is fastest on the CI's two cores
    try:
        rows = ml_training.main([*FAST, "--peers", "torch"])
    finally:
        torch.set_num_threads(threads)
    for r in rows:
        assert r[1] > 0 and r[2] > 0 and r[3].endswith("x")
    out = capsys.readouterr().out
    assert out.count("checked: kdsl on") == 2


def test_check_refuses_a_wrong_update():
    start = [np.zeros(4, np.float32)]
    want = [np.full(4, 1e-3, np.float32)]
    ml_training.check("w", "p", start, [want[0] * (1 + 1e-5)], want, [1.0], [1.0], 2e-3)
    with pytest.raises(AssertionError, match="disagrees"):
        ml_training.check("w", "p", start, [want[0] * 1.01], want, [1.0], [1.0], 2e-3)
    with pytest.raises(AssertionError, match="loss at step 0"):
        ml_training.check("w", "p", start, want, want, [1.01], [1.0], 2e-3)
    with pytest.raises(AssertionError, match="shape"):
        ml_training.check("w", "p", start, [np.zeros(3, np.float32)], want, [1.0], [1.0], 2e-3)


def test_numpy_mlp_step_is_the_reference_kdsl_matches():
    w = ml_training.mlp_workload(small=True)
    _, np_losses, np_params = ml_training.checked_steps(w.trainers["numpy"])
    _, kd_losses, kd_params = ml_training.checked_steps(w.trainers["kdsl"])
    ml_training.check(w.name, "kdsl", w.params, kd_params, np_params, kd_losses, np_losses, 1e-4)
    assert np_losses[-1] < np_losses[0]
