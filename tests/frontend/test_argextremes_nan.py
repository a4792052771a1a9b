"""argmin/argmax with NaN (NumPy: the index of the first NaN, whatever else is there) on every float dtype,
axis and reduction plan (one invocation per output, strided partials, workgroup trees over long axes);
nanargmin/nanargmax skip NaN instead."""

import numpy as np
import pytest
from kd_testing import FLOATS, sample

import kdsl as kd


def _with_nans(shape, dtype, seed, where):
    h = sample(shape, dtype, seed=seed, special=False)
    flat = h.reshape(-1)
    n = flat.size
    spots = {"start": [0], "end": [n - 1], "middle": [n // 2, n // 2 + 3], "many": list(range(1, n, 7)),
             "all": list(range(n))}[where]
    flat[[s for s in spots if s < n]] = np.nan
    flat[min(2, n - 1)] = -np.inf if where != "all" else np.nan  # an infinity before/after the NaN
    flat[min(5, n - 1)] = np.inf if where != "all" else np.nan
    return h


@pytest.mark.parametrize("where", ["start", "end", "middle", "many", "all"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_first_nan_wins_flat(policy, name, dtype, where):
    for n in (1, 9, 70_001):
        h = _with_nans((n,), dtype, n, where)
        got = getattr(kd, name)(kd.asarray(h))
        assert int(got) == getattr(np, name)(h), n


@pytest.mark.parametrize("shape", [(6, 9), (3, 5, 4), (1200, 7), (5, 3000)])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_first_nan_wins_every_axis(policy, name, dtype, shape):
    h = _with_nans(shape, dtype, 3, "many")
    h[0] = sample(shape[1:], dtype, seed=9, special=False)  # some lines without NaN
    for view in (lambda x: x, lambda x: np.swapaxes(x, 0, -1)[::-1], lambda x: x[..., ::2]):
        hv = view(h)
        a = view(kd.asarray(h))
        for axis in [None, *range(-hv.ndim, hv.ndim)]:
            for keepdims in (False, True):
                want = getattr(np, name)(hv, axis=axis, keepdims=keepdims)
                got = getattr(kd, name)(a, axis=axis, keepdims=keepdims)
                assert got.shape == want.shape and got.dtype == kd.int64
                np.testing.assert_array_equal(got.numpy(), want, err_msg=f"axis {axis}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_methods_and_lazy_input(dtype):
    h = np.array([[1.0, -np.inf, np.nan], [np.nan, 2.0, np.nan], [0.5, 0.25, np.inf]], dtype)
    a = kd.asarray(h)
    np.testing.assert_array_equal(a.argmin(axis=1).numpy(), h.argmin(axis=1))
    np.testing.assert_array_equal((a * 2).argmax(axis=0).numpy(), (h * 2).argmax(axis=0))
    assert int((a - 1).argmax()) == (h - 1).argmax()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nan_variants_skip_nan(name, dtype):
    h = _with_nans((4, 9), dtype, 5, "many")
    a = kd.asarray(h)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(getattr(kd, name)(a, axis=axis).numpy(), getattr(np, name)(h, axis=axis))
