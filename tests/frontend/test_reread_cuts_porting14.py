"""A loop whose step reads the step before through views (Floyd-Warshall's ``D[:, k, None] + D[None, k, :]``, a
reflected or rolled copy) is cut into kernels that compute each node at a bounded number of positions
(``fusion.MAX_READS``): unstored, step n's kernel computed step 1 3**n times, and 12 Floyd-Warshall steps never
finished compiling. A stencil of a few views of one computed array stays one kernel."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import fusion


def _kernels_planned(*arrays) -> int:
    return kd.explain(*arrays).count("kernel ")


def floyd_warshall(xp, D):
    D = xp.asarray(D)
    for k in range(D.shape[0]):
        via = D[:, k, None] + D[None, k, :]
        D = xp.where(via < D, via, D)
    return D


@pytest.mark.parametrize("n, dtype", [(12, np.float64), (30, np.float32), (5, np.float64)])
def test_floyd_warshall_by_where_runs_and_matches(n, dtype):
    rng = np.random.default_rng(n)
    D0 = np.where(rng.random((n, n)) < 0.3, rng.uniform(1, 9, (n, n)), np.inf).astype(dtype)
    np.fill_diagonal(D0, 0)
    got = floyd_warshall(kd, D0)
    if n >= 12:  # planned before anything compiles: several kernels, not one of 3**n copies of the first step
        assert _kernels_planned(got) >= 2
    np.testing.assert_array_equal(got.numpy(), floyd_warshall(np, D0))


def test_floyd_warshall_by_minimum():
    rng = np.random.default_rng(7)
    D0 = rng.uniform(1, 9, (16, 16))
    D = kd.asarray(D0)
    E = D0.copy()
    for k in range(16):
        D = kd.minimum(D, D[:, k, None] + D[None, k, :])
        E = np.minimum(E, E[:, k, None] + E[None, k, :])
    np.testing.assert_array_equal(D.numpy(), E)


def test_reflected_chain_is_cut_every_few_steps():
    a = np.linspace(-1, 2, 9, dtype=np.float32)
    x, e = kd.asarray(a), a.copy()
    for _ in range(20):  # each step reads the one before at two positions: 2**20 copies in one kernel unstored
        x = x + x[::-1]
        e = e + e[::-1]
    # (too short for the depth cut, no scalars for the push-word cut: only the read count cuts this chain)
    assert _kernels_planned(x) >= 20 // (int(np.log2(fusion.MAX_READS)) + 1)
    np.testing.assert_array_equal(x.numpy(), e)


def test_damped_reflected_chain_matches_numpy():
    a = np.linspace(-1, 1, 9, dtype=np.float32)
    x, e = kd.asarray(a), a.copy()
    for _ in range(40):
        x = 0.5 * x + 0.25 * (x[::-1] + x)
        e = np.float32(0.5) * e + np.float32(0.25) * (e[::-1] + e)
    np.testing.assert_allclose(x.numpy(), e, rtol=1e-6, atol=1e-7)


def test_rolled_heat_steps_match_numpy():
    u0 = np.sin(np.linspace(0, 2 * np.pi, 32, endpoint=False)) + np.linspace(0, 1, 32) ** 2
    u, v = kd.asarray(u0), u0.copy()
    for _ in range(60):
        u = u + 0.2 * (kd.roll(u, 1) - 2 * u + kd.roll(u, -1))
        v = v + 0.2 * (np.roll(v, 1) - 2 * v + np.roll(v, -1))
    np.testing.assert_allclose(u.numpy(), v, rtol=1e-12, atol=1e-12)


def test_stencil_of_one_computed_array_stays_one_kernel():
    a = np.random.default_rng(3).uniform(0.5, 1.5, (16, 24)).astype(np.float32)
    y = kd.sin(kd.asarray(a)) * 2.0
    z = sum(y[i:i + 14, j:j + 22] for i in range(3) for j in range(3))  # 9 views <= MAX_READS
    del y  # (a live array's value is stored anyway: fusion._held)
    assert _kernels_planned(z) == 1
    ys = np.sin(a) * np.float32(2.0)
    expected = sum(ys[i:i + 14, j:j + 22] for i in range(3) for j in range(3))
    np.testing.assert_allclose(z.numpy(), expected, rtol=1e-5, atol=1e-6)
