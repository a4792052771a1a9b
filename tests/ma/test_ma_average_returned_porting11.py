"""``np.ma.average(x, weights=w, returned=True)`` returns the sum of weights in the result's dtype (float64 for
integer data, as NumPy's ``wgt.sum(dtype=result_dtype)``; kdsl gave the weights' own int dtype), and without
weights the count in the mean's dtype. ``kd.ma.getmask``/``getmaskarray`` of a NumPy masked array, among them
``np.ma.masked`` (the mean of an all-masked array), give its mask: ``getmaskarray(x.mean())`` was False
(kdsl/ma/average.py, kdsl/ma/functions.getmask)."""

import numpy as np
import pytest

import kdsl as kd

CASES = [((5,), None), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 2), ((1, 4), 0), ((4, 1), 1), ((3, 4), None)]


def _pair(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    data = rng.integers(-5, 20, shape).astype(dtype)
    mask = rng.random(shape) < 0.3
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))


def _weights(shape, axis, wdtype, seed):
    rng = np.random.default_rng(seed)
    wshape = shape if axis is None else (shape[axis],)
    return rng.integers(0, 4, wshape).astype(wdtype)


def _same(got, want):
    g, w = np.asarray(kd.ma.getdata(got).numpy()), np.asarray(np.ma.getdata(want))
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    np.testing.assert_allclose(g, w, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "bool"])
@pytest.mark.parametrize("wdtype", ["int64", "float32", "float64"])
def test_sum_of_weights_dtype_and_values(dtype, wdtype):
    for k, (shape, axis) in enumerate(CASES):
        npx, kdx = _pair(shape, dtype, k)
        w = _weights(shape, axis, wdtype, 100 + k)
        with np.errstate(all="ignore"):
            want_avg, want_scl = np.ma.average(npx, axis=axis, weights=w, returned=True)
        got_avg, got_scl = kd.ma.average(kdx, axis=axis, weights=kd.asarray(w), returned=True)
        _same(got_scl, want_scl)
        np.testing.assert_array_equal(kd.ma.getmaskarray(got_avg).numpy(), np.ma.getmaskarray(want_avg))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_count_without_weights_in_the_means_dtype(dtype):
    for k, (shape, axis) in enumerate(CASES):
        npx, kdx = _pair(shape, dtype, 50 + k)
        want_avg, want_scl = np.ma.average(npx, axis=axis, returned=True)
        got_avg, got_scl = kd.ma.average(kdx, axis=axis, returned=True)
        _same(got_scl, np.asarray(want_scl))


def test_views_nan_and_empty():
    data = np.array([[1.0, np.nan, 3.0, 4.0], [5.0, 6.0, np.inf, 8.0]])
    npx, kdx = np.ma.masked_invalid(data)[:, ::2], kd.ma.masked_invalid(kd.asarray(data))[:, ::2]
    w = np.array([2, 1])
    with np.errstate(invalid="ignore"):  # NumPy multiplies the masked NaN's data
        want = np.ma.average(npx, axis=1, weights=w, returned=True)
    got = kd.ma.average(kdx, axis=1, weights=kd.asarray(w), returned=True)
    _same(got[1], want[1])
    _same(got[0], want[0])
    empty = np.ma.array(np.zeros((0, 3)), mask=np.zeros((0, 3), bool))
    kempty = kd.ma.array(kd.zeros((0, 3), dtype=kd.float64), mask=kd.zeros((0, 3), dtype=kd.bool_))
    want = np.ma.average(empty, axis=0, weights=np.ones(0), returned=True)
    got = kd.ma.average(kempty, axis=0, weights=kd.ones(0, dtype=kd.float64), returned=True)
    _same(got[1], want[1])


def test_getmask_of_numpy_masked_arrays():
    all_masked = np.ma.masked_equal(np.array([-9.0, -9.0]), -9).mean()
    assert all_masked is np.ma.masked
    assert kd.ma.getmaskarray(all_masked).tolist() is True
    assert kd.ma.getmask(all_masked).tolist() is True
    assert kd.ma.getmaskarray(kd.ma.masked_equal(kd.asarray([-9.0, -9.0]), -9).mean()).tolist() is True
    x = np.ma.array([1, 2, 3], mask=[False, True, False])
    assert kd.ma.getmaskarray(x).tolist() == [False, True, False]
    assert kd.ma.getmask(np.ma.array([1, 2])) is kd.ma.nomask  # NumPy's nomask there too
    assert np.ma.getmask(np.ma.array([1, 2])) is np.ma.nomask
    assert kd.ma.getmaskarray(np.array([1, 2])).tolist() == [False, False]


def _kind(x):
    """(masked or plain, dtype, shape, mask, data) of a sum of weights, kdsl's or NumPy's."""
    if x is np.ma.masked:
        return "masked"
    if isinstance(x, kd.ma.MaskedArray):
        return "masked array", x.dtype.name, x.shape, kd.ma.getmaskarray(x).numpy().tolist(), \
            x.filled(0).numpy().tolist()
    if isinstance(x, np.ma.MaskedArray):
        return "masked array", x.dtype.name, x.shape, np.ma.getmaskarray(x).tolist(), x.filled(0).tolist()
    host = np.asarray(x.numpy() if isinstance(x, kd.Array) else x)
    return "plain", host.dtype.name, host.shape, host.tolist()


MASKS = {"nomask": np.ma.nomask, "none": np.zeros((4, 5), bool), "some": np.eye(4, 5, dtype=bool),
         "rows": np.array([[1] * 5, [0] * 5, [1] * 5, [0] * 5], bool), "all": np.ones((4, 5), bool)}
WEIGHTS = [(None, np.arange(20.0).reshape(4, 5)), (0, np.array([1.0, 2.0, 3.0, 4.0])), (1, np.arange(5)),
           ((0, 1), np.ones((4, 5))), (-1, np.ma.array([1.0, 2.0, 3.0, 4.0, 5.0], mask=[0, 1, 0, 0, 0])),
           (1, np.ma.array(np.ones(5), mask=True))]


@pytest.mark.parametrize("mask", list(MASKS))
@pytest.mark.parametrize("case", range(len(WEIGHTS)))
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_sum_of_weights_is_masked_as_numpys(mask, case, keepdims, dtype):
    # numpy.ma's sum of weights is a masked array (masked where a line has no unmasked weight); kd.ma's was always
    # a plain array. Weights of the axes' shape against unmasked data: NumPy broadcasts its sum to the average's
    # shape with np.broadcast_to, a plain array, which kdsl gives too
    axis, w = WEIGHTS[case]
    data = np.arange(20, dtype=dtype).reshape(4, 5) - 7
    host = np.ma.array(data, mask=MASKS[mask])
    x = kd.ma.array(kd.asarray(data), mask=MASKS[mask])
    kw = kd.ma.array(kd.asarray(w.data), mask=w.mask) if isinstance(w, np.ma.MaskedArray) else kd.asarray(w)
    with np.errstate(all="ignore"):
        _, want = np.ma.average(host, axis=axis, weights=w, returned=True, keepdims=keepdims)
    _, got = kd.ma.average(x, axis=axis, weights=kw, returned=True, keepdims=keepdims)
    assert _kind(got) == _kind(want)
