"""Float sums start from -0.0 on every device (docs/float-semantics.md): a sum of only -0.0 is -0.0 along every
reduction path (one workgroup, split passes, columns), and ``initial`` is added as NumPy's fold adds it. The H200
gave +0.0 here while kernels started from +0.0, and lavapipe -0.0 (it may fold ``0.0 + x`` to ``x``)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, axis", [((1,), None), ((5,), 0), ((70_000,), None), ((3, 4), 0), ((3, 4), 1),
                                         ((300, 2), 0), ((2, 3, 4), (0, 2))], ids=str)
def test_only_negative_zeros(dtype, shape, axis):
    x = kd.asarray(np.full(shape, -0.0, dtype))
    got = kd.sum(x, axis=axis).numpy()
    assert got.dtype == dtype and np.all(got == 0) and np.all(np.signbit(got))  # NumPy 2: +0.0 (documented)
    np.testing.assert_array_equal(np.signbit(kd.sum(x, axis=axis, initial=0.0).numpy()), False)  # NumPy 2's
    np.testing.assert_array_equal(np.signbit(kd.sum(x, axis=axis, initial=-0.0).numpy()), True)


@pytest.mark.parametrize("values", [[-0.0, 0.0], [0.0, -0.0], [1.0, -1.0], [-2.5, 2.5, -0.0]], ids=str)
def test_any_other_zero_sum_is_positive(values):
    got = kd.sum(kd.asarray(np.array(values, np.float32)), initial=-0.0).numpy()
    want = np.sum(np.array(values, np.float32), initial=-0.0)
    assert got == want == 0 and np.signbit(got) == np.signbit(want) == False  # noqa: E712
