"""kd.vectorize's ``excluded`` arguments pass through whole and set no loop shape, as NumPy's: a kdsl array
among them (a lookup table, a set of test values) need not broadcast with the looped arguments."""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _member(x, values):
    return x in np.asarray(values).ravel().tolist()  # Python control flow: NumPy's loop on the host


def _scaled(x, table):
    return x * table.sum()  # array math: one call with the whole arrays


@pytest.mark.parametrize("values_shape", [(3, 3), (5,), (2, 7)])
@pytest.mark.parametrize("by_keyword", [False, True])
def test_vectorize_excluded_device_array_is_not_broadcast(values_shape, by_keyword):
    a = np.arange(24).reshape(2, 3, 4)
    values = (np.arange(int(np.prod(values_shape))) * 3).reshape(values_shape)
    excluded = {"values"} if by_keyword else {1}
    want = np.vectorize(_member, otypes=[bool], excluded=excluded)
    got = kd.vectorize(_member, otypes=[bool], excluded=excluded)
    args, kwargs = ((a,), {"values": values}) if by_keyword else ((a, values), {})
    kargs = tuple(kd.asarray(x) for x in args)
    kkwargs = {k: kd.asarray(v) for k, v in kwargs.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # kd's PerformanceWarning for the host loop
        out = got(*kargs, **kkwargs)
    np.testing.assert_array_equal(out.numpy(), want(*args, **kwargs))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_vectorize_excluded_array_in_array_math(dtype):
    x, table = np.arange(6, dtype=dtype).reshape(2, 3), np.arange(5, dtype=dtype)
    want = np.vectorize(_scaled, excluded={1})(x, table)
    got = kd.vectorize(_scaled, excluded={1})(kd.asarray(x), kd.asarray(table))
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want)
