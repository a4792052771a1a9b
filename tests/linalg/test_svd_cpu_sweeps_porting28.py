"""The one-sided Jacobi SVD's sweeps on a CPU driver: one workgroup per matrix, never a dispatch per round.

`np.linalg.lstsq(A, b)` of a 513 x 130 `A` (a regression on 130 features) took 5.6 s on lavapipe and `svd` of a
200 x 200 matrix 14 s: from 128 columns on, a few matrices were swept a round per dispatch with a workgroup per
column pair (the way to fill a GPU), and lavapipe's dispatches cost more than they shared out. A CPU device now
keeps one workgroup per matrix (1 s and 3.4 s there); GPUs keep the round-per-dispatch sweeps.
"""

import numpy as np
import pytest
from linalg_testing import tol

import kdsl as kd
from kdsl.linalg import graph, jacobi, jacobi_svd, kernels


def test_cpu_device_is_the_drivers_type():
    assert kernels.cpu_device() == (kd.device().info["device_type"] == "cpu")


@pytest.mark.parametrize("cpu", [True, False])
def test_whole_gpu_rounds_only_off_cpu(cpu, monkeypatch):
    monkeypatch.setattr(kernels, "cpu_device", lambda: cpu)
    assert jacobi_svd.whole_gpu_rounds(1, jacobi.WIDE_EIGH) is (not cpu)
    assert not jacobi_svd.whole_gpu_rounds(1, jacobi.WIDE_EIGH - 1)  # narrow matrices: one workgroup each
    assert not jacobi_svd.whole_gpu_rounds(jacobi.WIDE_BATCH + 1, jacobi.WIDE_EIGH)  # many matrices fill it anyway


@pytest.mark.parametrize("cpu", [True, False])
@pytest.mark.parametrize("shape", [(9, 6), (6, 9), (7, 7)])
def test_svd_and_lstsq_on_either_path(cpu, shape, monkeypatch):
    monkeypatch.setattr(jacobi, "WIDE_EIGH", 2)  # every matrix "large"
    monkeypatch.setattr(kernels, "cpu_device", lambda: cpu)
    graph.clear()  # a sweep is recorded once per shape: an earlier call's plan would hide the path taken
    calls = []
    for name in ("_svd_rounds", "_svd_sweep"):
        original = getattr(jacobi_svd, name)
        monkeypatch.setattr(jacobi_svd, name, lambda *a, _f=original, _n=name: (calls.append(_n), _f(*a))[1])
    rng = np.random.default_rng(sum(shape) + cpu)
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape[0])
    u, s, vh = kd.linalg.svd(kd.asarray(a), full_matrices=False)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), **tol("float64"))
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ vh.numpy(), a, **tol("float64"))
    x = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None)[0]
    np.testing.assert_allclose(x.numpy(), np.linalg.lstsq(a, b, rcond=None)[0], **tol("float64"))
    assert set(calls) == {"_svd_sweep" if cpu else "_svd_rounds"}
