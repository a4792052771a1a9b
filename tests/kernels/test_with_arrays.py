"""The kernel features on kdsl's lazy arrays: kernels mutate them, compute/factories return lazy arrays."""

import numpy as np
import pytest

import kdsl
import kdsl as kd
from kdsl.frontend.array.array import Array

rng = np.random.default_rng(5)
A_NP = rng.random((3, 4)).astype(np.float32)
B_NP = rng.random((4, 2)).astype(np.float32)


@kd.kernel
def scale(x, a):
    i = kd.global_id(0)
    x[i] = x[i] * a


def test_kernel_mutates_realised_and_lazy_arrays():
    x = kdsl.asarray(np.arange(5, dtype=np.float32))
    scale[5](x, 3.0)
    np.testing.assert_allclose(x.numpy(), np.arange(5) * 3)
    y = kdsl.asarray(np.arange(5, dtype=np.float32)) + 1  # not computed yet
    scale[5](y, 2.0)
    np.testing.assert_allclose(y.numpy(), (np.arange(5) + 1) * 2)


def test_compute_returns_a_lazy_array():
    a, b = kdsl.asarray(A_NP), kdsl.asarray(B_NP)
    c = kd.compute("c[i, j] = sum(k, a[i, k] * b[k, j])", a=a, b=b)
    assert isinstance(c, Array) and c.shape == (3, 2)
    np.testing.assert_allclose((c * 2 + 1).numpy(), (A_NP @ B_NP) * 2 + 1, rtol=1e-5)


def test_compute_accepts_numpy_operands():
    out = kd.compute("out[j, i] = x[i, j] + bias[j]", x=A_NP, bias=np.ones(4, np.float32))
    np.testing.assert_allclose(out.numpy(), A_NP.T + 1)


def test_elementwise_and_reduction_on_arrays():
    k = kd.elementwise("T x, T y", "T z", "z = x > 0.5 ? x : y * 2", "f")
    z = k(kdsl.asarray(A_NP), kdsl.asarray(np.ones(4, np.float32)))
    assert isinstance(z, Array)
    np.testing.assert_allclose(z.numpy(), np.where(A_NP > 0.5, A_NP, 2))
    l2 = kd.reduction("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2")
    np.testing.assert_allclose(l2(kdsl.asarray(A_NP), axis=1).numpy(), np.sqrt((A_NP ** 2).sum(1)), rtol=1e-5)


@pytest.mark.parametrize("form", ["max(k, x[i, k])", "min(k, x[i, k])"])
def test_compute_max_min_reductions(form):
    got = kd.compute(f"y[i] = {form}", x=kdsl.asarray(A_NP))
    expected = A_NP.max(1) if form.startswith("max") else A_NP.min(1)
    np.testing.assert_allclose(got.numpy(), expected)
