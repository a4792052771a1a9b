"""Functions whose NumPy results are new arrays must not alias their input in kdsl either: kd.roll by whole turns
returned the input itself (or a view), kd.vectorize of a function returning its argument (or a view of it)
returned that, so a write into the result changed the input and a write into the input changed the result."""

import numpy as np
import pytest

import kdsl as kd

ROLLS = [(0, None), (6, None), (24, None), (0, 0), (4, 0), ((0, 6), (0, 1)), ((4, -6), (0, 1)), ((1, 3), (0, 0)),
         (-12, 1)]
DTYPES = [np.float32, np.int32, np.float64]


def _independent(result_np, result_kd, host, a):
    """A write into the input, then one into the result: each stays where it was made, as NumPy's."""
    host[(0,) * host.ndim] = 99
    a[(0,) * host.ndim] = 99
    np.testing.assert_array_equal(result_kd.numpy(), result_np)
    if result_np.size:
        result_np[(-1,) * result_np.ndim] = -5
        result_kd[(-1,) * result_np.ndim] = -5
    np.testing.assert_array_equal(a.numpy(), host)
    np.testing.assert_array_equal(result_kd.numpy(), result_np)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shift,axis", ROLLS)
def test_roll_is_a_new_array(shift, axis, dtype):
    host = np.arange(24, dtype=dtype).reshape(4, 6)
    a = kd.asarray(host)
    _independent(np.roll(host, shift, axis), kd.roll(a, shift, axis), host, a)


@pytest.mark.parametrize("source", ["whole", "strided", "empty"])
def test_roll_of_views_and_empty_arrays(source):
    base = np.array([[np.nan, np.inf, -0.0, 1.0], [2.0, 3.0, 4.0, 5.0]], np.float32)
    a_base = kd.asarray(base)
    pick = {"whole": lambda x: x, "strided": lambda x: x[:, ::2], "empty": lambda x: x[:, :0]}[source]
    host, a = pick(base), pick(a_base)
    res_np, res_kd = np.roll(host, 0), kd.roll(a, 0)
    base[0, 0] = 7.0
    a_base[0, 0] = 7.0
    np.testing.assert_array_equal(res_kd.numpy(), res_np)
    np.testing.assert_array_equal(a_base.numpy(), base)


FUNCS = {"identity": lambda v: v, "first": lambda v, w=0: v, "either": lambda v: v if True else -v}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("source", ["whole", "strided"])
def test_vectorize_returns_a_new_array(source, name, dtype):
    base = np.arange(24, dtype=dtype).reshape(4, 6)
    a_base = kd.asarray(base)
    host, a = (base, a_base) if source == "whole" else (base[::2, 1:], a_base[::2, 1:])
    _independent(np.vectorize(FUNCS[name])(host), kd.vectorize(FUNCS[name])(a), host, a)


def test_vectorize_still_broadcasts_and_casts():
    f = kd.vectorize(lambda x, y: x, otypes=[np.float64])
    a = kd.asarray(np.array([1, 2, 3], np.int32))
    out = f(a, kd.zeros((2, 1), kd.int32))
    a[0] = 50
    assert out.dtype == kd.float64 and out.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
