"""The Jacobi sweeps' rotation loops give each column pair ``lanes`` invocations (``kernels.pair_lanes``).

A round's rotations were one loop over all ``pairs * rows`` elements, each invocation dividing every element's
index (``e / rows``, ``e % rows``) and recomputing its pair's indices (three more ``%``): lavapipe runs integer
division lane by lane, and that was half of a sweep there (`np.linalg.svd` of 200 x 200: 3.4 s of CPU, 1.6 s
now; `eigh` of 127 x 127: 0.77 s, 0.39 s). Now an invocation keeps one pair for its rows ``lane, lane + lanes,
...``. Every split must give the same sweeps: the results below are checked for several forced lane counts,
with rounds cut into many dispatches too (the loop-budget estimate counts the new loops).
"""

import numpy as np
import pytest
from linalg_testing import tol

import kdsl as kd
from kdsl.linalg import graph, kernels


@pytest.mark.parametrize(("pairs", "rows", "wg", "expected"),
                         [(100, 400, 1024, 64), (2, 4, 32, 4), (1, 1, 32, 1), (64, 64, 256, 4), (3, 200, 32, 32)])
def test_pair_lanes_fewest_trips(pairs, rows, wg, expected):
    lanes = kernels.pair_lanes(pairs, rows, wg)
    assert lanes == expected
    trips = kernels.cdiv(pairs, wg // lanes) * kernels.cdiv(rows, lanes)
    for other in (1 << k for k in range(wg.bit_length())):  # no power of two up to wg does better
        assert trips <= kernels.cdiv(pairs, wg // other) * kernels.cdiv(rows, other)
    assert wg % lanes == 0


def _tol(dtype):
    return tol(np.finfo(dtype).dtype.name)  # a complex dtype: its real part's tolerance


def _forced(monkeypatch, lanes):
    monkeypatch.setattr(kernels, "pair_lanes", lambda pairs, rows, wg: min(lanes, wg))
    graph.clear()  # a sweep is recorded once per shape: an earlier plan would keep its lane count


@pytest.mark.parametrize("lanes", [1, 4, 32, 1024])
@pytest.mark.parametrize(("shape", "dtype"), [((9, 6), "float64"), ((6, 9), "float32"), ((13, 13), "complex128"),
                                              ((1, 5), "float64"), ((40, 3), "complex64")])
def test_svd_any_lane_split(monkeypatch, lanes, shape, dtype):
    _forced(monkeypatch, lanes)
    rng = np.random.default_rng(sum(shape) + lanes)
    a = rng.standard_normal(shape).astype(dtype)
    if a.dtype.kind == "c":
        a = a + 1j * rng.standard_normal(shape).astype(a.real.dtype)
    u, s, vh = kd.linalg.svd(kd.asarray(a), full_matrices=False)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), **_tol(dtype))
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ vh.numpy(), a, **_tol(dtype))
    np.testing.assert_allclose(kd.linalg.svd(kd.asarray(a), compute_uv=False).numpy(), s.numpy(), **_tol(dtype))


@pytest.mark.parametrize("lanes", [1, 2, 16, 1024])
@pytest.mark.parametrize(("n", "dtype"), [(2, "float64"), (7, "float32"), (16, "complex128"), (31, "float64")])
def test_eigh_any_lane_split(monkeypatch, lanes, n, dtype):
    _forced(monkeypatch, lanes)
    rng = np.random.default_rng(n * lanes)
    a = rng.standard_normal((3, n, n)).astype(dtype)
    if a.dtype.kind == "c":
        a = a + 1j * rng.standard_normal((3, n, n)).astype(a.real.dtype)
    h = a + np.conj(np.swapaxes(a, -1, -2))
    w, v = kd.linalg.eigh(kd.asarray(h))
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(h), **_tol(dtype))
    vv = v.numpy()
    np.testing.assert_allclose(h @ vv, vv * w.numpy()[:, None, :], **_tol(dtype))
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(h)).numpy(), w.numpy(), **_tol(dtype))


def test_many_dispatches_per_sweep(monkeypatch):
    # a small loop budget cuts each sweep into one dispatch per round: the estimate counts the pair loops
    monkeypatch.setattr(kernels, "loop_budget", lambda: 64)
    graph.clear()
    rng = np.random.default_rng(29)
    a = rng.standard_normal((30, 20))
    s = kd.linalg.svd(kd.asarray(a), compute_uv=False)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), **tol("float64"))
    h = a.T @ a
    np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(h)).numpy(), np.linalg.eigvalsh(h), **tol("float64"))
    graph.clear()
