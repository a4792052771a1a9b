"""mean of float16 sums in float32 and returns float16, as NumPy's (a float16 sum overflows past 65504)."""
import contextlib

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("shape, axis", [((100000,), None), ((70000,), 0), ((2, 40000), 1), ((40000, 2), 0),
                                         ((3, 1), 1), ((0,), None), ((1, 5), 0)])
def test_mean_of_float16_accumulates_in_float32(shape, axis):
    data = np.ones(shape, np.float16)
    data[..., ::3] = 3.0
    with pytest.warns(RuntimeWarning) if data.size == 0 else contextlib.nullcontext():
        got = kd.mean(kd.asarray(data), axis=axis)
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning) if data.size == 0 else contextlib.nullcontext():
        want = np.mean(data, axis=axis)
    assert got.dtype == kd.float16
    np.testing.assert_array_equal(np.asarray(got), want)


def test_mean_of_float16_view_nan_inf_and_where():
    data = np.ones((4, 70000), np.float16)
    data[1, 5] = np.nan
    data[2, 7] = np.inf
    view = kd.asarray(data)[:, ::2]
    np.testing.assert_array_equal(np.asarray(kd.mean(view, axis=1)), np.mean(data[:, ::2], axis=1))
    mask = np.zeros(70000, bool)
    mask[:66000] = True
    np.testing.assert_array_equal(np.asarray(kd.mean(kd.asarray(data[0]), where=kd.asarray(mask))),
                                  np.mean(data[0], where=mask))


def test_mean_float16_with_dtype_keeps_it():
    data = np.ones(1000, np.float16)
    assert kd.mean(kd.asarray(data), dtype=kd.float16).dtype == kd.float16
    assert kd.mean(kd.asarray(data), dtype=kd.float32).dtype == kd.float32
    assert kd.asarray(data).mean().dtype == kd.float16
