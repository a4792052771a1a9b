"""``ufunc.reduceat`` with no indices: an empty axis in the reduction's dtype, as NumPy's (NumPy's
test_umath.py: test_reduceat_empty; kdsl raised ValueError 'need at least one array to stack')."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("ufunc", ["add", "multiply", "maximum", "subtract", "logical_or"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "bool"])
@pytest.mark.parametrize("shape, axis", [((5, 2), 0), ((5, 2), 1), ((5, 2), -1), ((0, 2), 0), ((3,), 0),
                                         ((1, 1, 4), 2)])
def test_no_indices(ufunc, dtype, shape, axis):
    a = np.ones(shape, dtype=dtype)
    for indices in ([], np.array([], dtype=np.int32)):
        if ufunc == "subtract" and dtype == "bool":  # NumPy has no boolean subtract: its TypeError, ours the same
            with pytest.raises(TypeError, match="boolean subtract"):
                np.subtract.reduceat(a, indices, axis=axis)
            with pytest.raises(TypeError, match="boolean subtract"):
                kd.subtract.reduceat(kd.asarray(a), indices, axis=axis)
            continue
        want = getattr(np, ufunc).reduceat(a, indices, axis=axis)
        got = getattr(kd, ufunc).reduceat(kd.asarray(a), indices, axis=axis)
        assert got.shape == want.shape and got.dtype == want.dtype


def test_no_indices_with_dtype_and_out():
    a = np.array([[np.nan, np.inf], [1.0, -np.inf]], dtype=np.float32)[:, ::-1]  # a non-contiguous view
    want = np.add.reduceat(a, [], axis=1, dtype=np.float64)
    out = kd.zeros((2, 0), dtype=kd.float64)
    got = kd.add.reduceat(kd.asarray(a), [], axis=1, dtype=np.float64, out=out)
    assert got is out and got.shape == want.shape and got.dtype == want.dtype


def test_indices_into_an_empty_axis_still_refused():
    with pytest.raises(IndexError):
        np.add.reduceat(np.ones((0, 2)), [0])
    with pytest.raises(IndexError):
        kd.add.reduceat(kd.ones((0, 2)), [0])
