"""kd.ediff1d's ``to_begin``/``to_end`` as NumPy's: checked by the same_kind rule, then written into the result's
dtype, wrapping what does not fit (``2**16`` before int16 differences is 0; it raised OverflowError)."""

import warnings

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize(("dtype", "begin", "end"), [("int16", 2**16, 2**16 + 4), ("int8", 200, [1, 300]),
                                                     ("float16", 1e6, -3), ("int32", np.int64(2**40), None),
                                                     ("uint8", np.uint16(300), None)])
def test_ediff1d_edges_wrap_into_the_dtype(dtype, begin, end):
    a = np.array([1, 2, 4, 7], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's overflow-in-cast warning, as NumPy gives it
        want = np.ediff1d(a, to_begin=begin, to_end=end)
        got = kd.ediff1d(kd.asarray(a), to_begin=begin, to_end=end).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("dtype", "begin"), [("uint8", -1), ("int32", 1.5), ("int16", [0.5]),
                                            ("uint16", 70000), ("uint8", [7])])
def test_ediff1d_edges_of_another_kind_are_refused(dtype, begin):
    a = np.array([1, 2, 4], dtype)
    with pytest.raises(TypeError):
        np.ediff1d(a, to_begin=begin)
    with pytest.raises(TypeError, match="same_kind"):
        kd.ediff1d(kd.asarray(a), to_begin=begin)
