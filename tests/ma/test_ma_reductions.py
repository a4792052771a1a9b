"""kd.ma's reductions against numpy.ma: masked entries left out, fully masked results masked (the constant for
scalars), axis/keepdims, ddof, empty / all-masked / unmasked inputs and non-contiguous views."""

import numpy as np
import pytest
from ma_testing import DTYPES, LAYOUTS, MASKS, assert_same, pair

import kdsl as kd

FILLED = ["sum", "prod", "min", "max", "any", "all", "ptp"]
STATS = ["mean", "var", "std"]
ARGS = ["argmin", "argmax"]


def _axes(shape):
    return [None] + list(range(len(shape))) + ([-1] if shape else [])


def _compare(name, n, k, axis, keepdims, **kwargs):
    np_kwargs = dict(kwargs)
    if keepdims:
        np_kwargs["keepdims"] = True
    with np.errstate(all="ignore"):
        expected = getattr(n, name)(axis=axis, **np_kwargs)
    got = getattr(k, name)(axis=axis, keepdims=keepdims, **kwargs)
    # numpy.ma's int sums are int64 as kdsl's; float32 products and sums agree to float32 rounding
    assert_same(got, expected, rtol=2e-5, atol=1e-5, check_dtype=name not in ("ptp",))
    module = getattr(kd.ma, name)(k, axis=axis, keepdims=keepdims, **kwargs)
    assert_same(module, expected, rtol=2e-5, atol=1e-5, check_dtype=name not in ("ptp",))


# NumPy's ptp of bools raises (bool subtraction): that pair is left out
CASES = [(name, dtype) for name in FILLED + STATS for dtype in DTYPES if (name, dtype) != ("ptp", np.bool_)]


@pytest.mark.parametrize(("name", "dtype"), CASES, ids=lambda v: getattr(v, "__name__", v))
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 5), (1, 4)])
@pytest.mark.parametrize("kind", MASKS)
def test_reductions(name, dtype, shape, kind):
    n, k = pair(shape, dtype, kind)
    for axis in _axes(shape):
        _compare(name, n, k, axis, False)
    _compare(name, n, k, shape and 0, True)


@pytest.mark.parametrize("name", ARGS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", MASKS)
def test_arg_reductions(name, dtype, kind):
    n, k = pair((4, 5), dtype, kind)
    for axis in (None, 0, 1):
        got = getattr(k, name)(axis=axis)
        np.testing.assert_array_equal(np.asarray(got.numpy()), getattr(n, name)(axis=axis))
        np.testing.assert_array_equal(getattr(kd.ma, name)(k, axis=axis).numpy(), getattr(np.ma, name)(n, axis=axis))


@pytest.mark.parametrize("name", FILLED + STATS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_views(name, layout):
    n, k = pair((4, 6), np.float64, "some", layout)
    for axis in (None, 0, 1):
        _compare(name, n, k, axis, False)


@pytest.mark.parametrize("ddof", [0, 1, 2, 3])
@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof(name, ddof):
    data = np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0], [2.0, 2.0, 2.0]])
    mask = np.array([[0, 0, 1], [0, 1, 1], [0, 0, 0]], bool)
    n = np.ma.array(data, mask=mask)
    k = kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))
    for axis in (None, 0, 1):
        with np.errstate(all="ignore"):
            expected = getattr(n, name)(axis=axis, ddof=ddof)
        assert_same(getattr(k, name)(axis=axis, ddof=ddof), expected)


def test_nan_and_inf_are_values():
    data = np.array([1.0, np.nan, np.inf, -np.inf, 2.0])
    for mask in ([0, 1, 0, 0, 0], [0, 0, 1, 1, 0], [0, 1, 1, 1, 0]):
        n = np.ma.array(data, mask=mask)
        k = kd.ma.array(kd.asarray(data), mask=mask)
        for name in ("sum", "min", "max", "mean"):
            with np.errstate(all="ignore"):
                assert_same(getattr(k, name)(), getattr(n, name)())


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0)])
@pytest.mark.parametrize("name", ["sum", "prod", "any", "all", "count"])
def test_empty(shape, name):
    n, k = pair(shape, np.float32, "some")
    for axis in _axes(shape):
        expected = getattr(n, name)(axis=axis)
        got = getattr(k, name)(axis=axis)
        if name == "count":
            np.testing.assert_array_equal(np.asarray(got.numpy() if isinstance(got, kd.Array) else got), expected)
        else:
            assert_same(got, expected)


def test_fully_masked_scalar_is_the_masked_constant():
    k = kd.ma.array(kd.asarray(np.arange(4.0)), mask=True)
    for name in FILLED + STATS:
        assert getattr(k, name)() is kd.ma.masked
    assert k.count() == 0
    assert kd.ma.sum(kd.ma.array([1.0, 2.0], mask=[True, True])) is np.ma.masked


def test_average():
    data = np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    mask = np.array([[0, 0, 1], [1, 1, 1]], bool)
    n = np.ma.array(data, mask=mask)
    k = kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))
    for axis in (None, 0, 1):
        assert_same(kd.ma.average(k, axis=axis), np.ma.average(n, axis=axis))
    w = np.array([1.0, 2.0, 3.0])
    assert_same(kd.ma.average(k, axis=1, weights=kd.asarray(w)), np.ma.average(n, axis=1, weights=w))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)])
def test_median(dtype, kind, shape):
    n, k = pair(shape, dtype, kind)
    typed = kind in ("some", "none")  # numpy.ma's dtype of fully masked and unmasked medians varies by path
    for axis in _axes(shape):
        assert_same(kd.ma.median(k, axis=axis), np.ma.median(n, axis=axis), check_dtype=typed)
        assert_same(kd.median(k, axis=axis), np.ma.median(n, axis=axis), check_dtype=typed)
    assert_same(kd.ma.median(k, axis=0, keepdims=True), np.ma.median(n, axis=0, keepdims=True), check_dtype=typed)


@pytest.mark.parametrize("name", ["var", "std", "mean"])
@pytest.mark.parametrize("shape", [(1,), (10,), (300,), (33, 7)])
@pytest.mark.parametrize("kind", ["some", "none", "all"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_float16_statistics_round_as_numpy_ma(name, shape, kind, ddof):
    # numpy.ma's float16 mean sums in float32 and rounds to float16; var's deviations and squares then round in
    # float16 too (kd.ma computed them in float64: ~1e-4 relative off). Along the last axis (one float16 sum per
    # row, float32 accumulation) kdsl gives NumPy's values exactly; NaN and inf data included
    n, k = pair(shape, np.float16, kind, seed=3)
    n[..., 0], k[..., 0] = np.float16(40.5), np.float16(40.5)  # a large value: deviations that round in float16
    kwargs = {} if name == "mean" else {"ddof": ddof}
    for axis in (None, -1):
        with np.errstate(all="ignore"):
            expected = getattr(n, name)(axis=axis, **kwargs)
        assert_same(getattr(k, name)(axis=axis, **kwargs), expected, rtol=0, atol=0)
        assert_same(getattr(kd.ma, name)(k, axis=axis, **kwargs), expected, rtol=0, atol=0)


def test_float16_variance_with_dtype_stays_unrounded():
    n, k = pair((20,), np.float16, "some", seed=5)
    for dtype in (np.float16, np.float32, np.float64):
        assert_same(k.var(dtype=dtype), n.var(dtype=dtype), rtol=1e-6, atol=0)
