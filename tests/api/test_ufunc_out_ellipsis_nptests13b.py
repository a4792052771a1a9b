"""NumPy's ``out=...`` (an array result, never a scalar) on ufunc calls and methods, and its TypeErrors
(NumPy's test_ufunc.py: test_output_ellipsis, test_output_ellipsis_errors)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("value", [1, np.array(1), np.array([1.5, np.nan, -np.inf]), np.zeros((0, 2)),
                                   np.arange(6, dtype=np.int8).reshape(2, 3)[:, ::2]])
def test_out_ellipsis_is_a_plain_call(value):
    x = value if isinstance(value, int) else kd.asarray(value)
    want = np.add(value, 2, out=...)
    got = kd.add(x, 2, out=...)
    assert isinstance(got, kd.Array) and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    q, r = kd.divmod(x, 2, out=...)
    with np.errstate(invalid="ignore"):  # divmod of inf
        wq, wr = np.divmod(value, 2, out=...)
    np.testing.assert_array_equal(q.numpy(), wq)
    np.testing.assert_array_equal(r.numpy(), wr)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_methods_take_out_ellipsis(dtype):
    a = np.arange(6, dtype=dtype).reshape(2, 3)
    np.testing.assert_array_equal(kd.add.reduce(kd.asarray(a), out=...).numpy(), np.add.reduce(a, out=...))
    np.testing.assert_array_equal(kd.add.accumulate(kd.asarray(a), out=...).numpy(),
                                  np.add.accumulate(a, out=...))
    np.testing.assert_array_equal(kd.add.reduceat(kd.asarray(a), [0, 1], out=...).numpy(),
                                  np.add.reduceat(a, [0, 1], out=...))


def test_ellipsis_errors():
    with pytest.raises(TypeError, match=r"out=\.\.\. is only allowed as a keyword argument"):
        np.add(1, 2, ...)
    with pytest.raises(TypeError, match=r"out=\.\.\. is only allowed as a keyword argument"):
        kd.add(1, 2, ...)
    tuple_error = r"must use `\.\.\.` as `out=\.\.\.` and not per-operand/in a tuple"
    for lib in (np, kd):
        with pytest.raises(TypeError, match=tuple_error):
            lib.negative(1, out=(...,))
        with pytest.raises(TypeError, match=tuple_error):
            lib.divmod(1, 2, out=(lib.zeros(()), ...))
        with pytest.raises(TypeError, match=tuple_error):
            lib.add.reduce(lib.arange(3), out=(...,))
