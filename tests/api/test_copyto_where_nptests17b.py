"""kd.copyto's ``where=`` and ``casting=`` against NumPy's np.copyto (NumPy's test_api.py copyto tests): Python
lists and scalars are read as truth values, arrays must be boolean (TypeError otherwise), masks broadcast and
may be strided or reversed views, the cast rule applies with a mask too."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(m, dst_dtype, src, where, casting="same_kind"):
    dst = np.arange(6, dtype=dst_dtype).reshape(2, 3)
    if m is kd:
        dst = kd.asarray(dst)
    try:
        with np.errstate(all="ignore"):
            m.copyto(dst, src, casting=casting, where=where)
    except (TypeError, ValueError, OverflowError) as exc:
        return type(exc).__name__
    return repr(np.asarray(dst).tolist())


WHERES = {
    "bool_list": [True, False, True],
    "int_list": [[0, 1, 1], [1, 0, 0]],
    "float_list": [0.0, 1.5, 0.0],
    "scalar_true": True,
    "scalar_zero": 0,
    "numpy_scalar": np.float64(1.0),
    "bool_array": np.array([[True], [False]]),
    "bool_reversed_view": np.array([True, False, False, True])[::-1][1:],
    "int_array": np.array([0, 1, 1]),
    "float_array": np.array([[0.0, 1.0, 0.0]]),
    "uint8_array": np.array([1, 0, 1], np.uint8),
    "bad_shape": np.array([True, False]),
}


@pytest.mark.parametrize("where", sorted(WHERES))
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.uint8])
def test_where_as_numpy(where, dtype):
    mask = WHERES[where]
    kd_mask = kd.asarray(mask) if isinstance(mask, np.ndarray) else mask
    want = _outcome(np, dtype, np.array(7, dtype), mask)
    assert _outcome(kd, dtype, np.array(7, dtype), kd_mask) == want
    assert _outcome(kd, dtype, np.array(7, dtype), mask) == want


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("src", [2.5, np.float64(np.nan), -1, 300, np.array([1.5, -np.inf, 2.0]), True])
def test_casting_with_a_mask(casting, src):
    for dtype in (np.int16, np.float32, np.uint8):
        want = _outcome(np, dtype, src, [True, False, True], casting)
        kd_src = kd.asarray(src) if isinstance(src, np.ndarray) else src
        assert _outcome(kd, dtype, kd_src, [True, False, True], casting) == want, (dtype, src)


def test_masked_overlapping_copy():
    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    a = kd.asarray(host.copy())
    for m, x in ((np, host), (kd, a)):
        m.copyto(x[:, :2], x[::-1, 1::-1], where=[[0, 1], [1, 1]])
        m.copyto(x.T, x.T[::-1], where=np.array([[True, False], [False, True], [True, True]]))
    np.testing.assert_array_equal(a.numpy(), host)


def _error_or_result(m, dst_shape, src_shape, where_shape):
    dst = np.zeros(dst_shape)
    src = np.arange(1.0, 1.0 + np.prod(src_shape)).reshape(src_shape)
    where = True if where_shape is None else np.ones(where_shape, bool)
    if m is kd:
        dst, src = kd.asarray(dst), kd.asarray(src)
        where = where if where_shape is None else kd.asarray(where)
    try:
        m.copyto(dst, src, where=where)
    except ValueError as exc:
        return str(exc)
    return np.asarray(dst).tolist()


@pytest.mark.parametrize(("dst_shape", "src_shape", "where_shape"), [
    ((4, 5), (3,), None), ((4, 5), (2, 4, 5), None), ((), (2,), None), ((4, 5), (1, 1, 5), None),
    ((4, 5), (1, 1, 3), None), ((4, 5), (1, 2, 1, 5), None), ((4, 5), (5,), (2, 4, 5)), ((4, 5), (5,), (1, 4, 1)),
    ((4, 5), (5,), (4, 1)), ((0, 3), (1, 3), None), ((0, 3), (2, 3), None), ((3,), (1, 1, 1), None)])
def test_shape_errors_and_leading_ones(dst_shape, src_shape, where_shape):
    # NumPy's messages print shapes without spaces and name the input or the where mask ("cannot broadcast an
    # array of shape (3,) to shape (4, 5)" before); an input's leading length-1 axes beyond dst's rank are
    # dropped, as NumPy's assignment drops them (a ValueError before), a where mask's are not
    assert _error_or_result(kd, dst_shape, src_shape, where_shape) == \
        _error_or_result(np, dst_shape, src_shape, where_shape)
