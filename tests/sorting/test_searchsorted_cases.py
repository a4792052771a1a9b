"""kd.searchsorted / Array.searchsorted against NumPy: both sides, sorter, NaN/inf/-0.0 in a and v (NumPy's
sort order), scalar and n-d v, empty a, mixed dtypes."""

import numpy as np
import pytest

import kdsl as kd

S = np.array([-np.inf, -2.0, -0.0, 0.0, 0.0, 1.5, 1.5, 1.5, 7.0, np.inf, np.nan, np.nan], np.float32)
V = np.array([[np.nan, -np.inf, -1.0, 0.0], [-0.0, 1.5, 8.0, np.inf]], np.float32)


@pytest.mark.parametrize("side", ["left", "right"])
def test_floats_with_specials(side):
    assert np.array_equal(kd.searchsorted(kd.asarray(S), kd.asarray(V), side=side).numpy(),
                          np.searchsorted(S, V, side=side))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float64"])
def test_sorter_and_dtypes(side, dtype):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 30, 41).astype(dtype)
    sorter = np.argsort(a, kind="stable")
    v = np.array([-1, 0, 3, 15, 29, 30]).astype(dtype) if dtype[0] != "u" else np.array([0, 3, 15, 29, 30], dtype)
    ref = np.searchsorted(a, v, side=side, sorter=sorter)
    got = kd.searchsorted(kd.asarray(a), kd.asarray(v), side=side, sorter=kd.asarray(sorter))
    assert got.dtype.name == "int64" and np.array_equal(got.numpy(), ref)
    assert np.array_equal(kd.asarray(a).searchsorted(v, side, sorter).numpy(), ref)  # host v and sorter


def test_scalars_empty_and_mixed_dtypes():
    a = kd.asarray(np.arange(10, dtype=np.int32))
    r = kd.searchsorted(a, 4, side="right")
    assert r.shape == () and int(r) == 5
    assert int(kd.searchsorted(a, 4.5)) == np.searchsorted(np.arange(10), 4.5)  # compared as float64
    assert kd.searchsorted(kd.asarray(np.zeros(0, np.float32)), kd.asarray([1.0, 2.0])).tolist() == [0, 0]
    assert kd.searchsorted(a, kd.asarray(np.zeros((2, 0), np.int32))).shape == (2, 0)
    strided = np.arange(20, dtype=np.float32)[::2]
    got = kd.searchsorted(kd.asarray(np.arange(20, dtype=np.float32))[::2], kd.asarray([3.0, 4.0]))
    assert got.tolist() == np.searchsorted(strided, [3.0, 4.0]).tolist()


def test_errors():
    a = kd.asarray([1, 2, 3])
    with pytest.raises(ValueError, match="side"):
        kd.searchsorted(a, 1, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        kd.searchsorted(kd.ones((2, 2)), 1)
    with pytest.raises(ValueError, match="Sorter index out of range"):
        kd.searchsorted(a, 1, sorter=[0, 1, 3])
    with pytest.raises(ValueError, match="sorter.size"):
        kd.searchsorted(a, 1, sorter=[0, 1])
    with pytest.raises(TypeError, match="integers"):
        kd.searchsorted(a, 1, sorter=[0.0, 1.0, 2.0])


def test_python_int_past_the_dtype_compares_as_int64():
    # porting19: searchsorted(int32 data, 2**40) raised OverflowError (NumPy compares it as an int64)
    a = np.array([1, 2, 2, 3, 5], np.int32)
    u = np.array([1, 200], np.uint8)
    for host, v in [(a, 2**40), (a, -2**40), (u, -1), (u, 300)]:
        for side in ("left", "right"):
            assert int(kd.searchsorted(kd.asarray(host), v, side=side)) == np.searchsorted(host, v, side=side)
