"""reduceat of the left-folding ufuncs (subtract, divide, power...) over many slices: one whole-array path
(kdsl.frontend.array.reduceat_folds) with NumPy's results: exact bits where every slice is short, integers exact
(wrap-around included) and floats to rounding on long slices of subtract/divide."""

import functools
import warnings

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(14)


def _starts(n, count, rng=RNG):
    """``count`` indices into ``n`` with gaps below ``2 * n / count`` (every slice short: the stepped path),
    repeats, and some going backwards (NumPy's ``a[i]`` alone)."""
    idx = np.cumsum(rng.integers(1, 2 * n // count, count))
    idx = (idx * (n - 1) // idx[-1]).astype(np.int64)  # the last slice is one element: short too
    idx[0] = 0
    swap = rng.choice(count - 1, count // 10, replace=False)
    idx[swap], idx[swap + 1] = idx[swap + 1], idx[swap].copy()
    assert np.diff(np.sort(idx)).max() <= 64
    return idx


def _left_folds(name, a, idx, axis, dtype):
    """Each slice's left fold by NumPy's ufunc, one call per element: reduceat's definition. (NumPy 2.5.2, on
    the GPU machine, gives other values for ``power.reduceat`` and ``arctan2.reduceat``: up to 3% and 200% off
    this fold on data near 1, where 2.4's agree with it to the bit.)"""
    x = np.moveaxis(a if dtype is None else a.astype(dtype), axis, 0)
    ends = np.append(idx[1:], len(x))
    fn = getattr(np, name)
    folds = [functools.reduce(fn, x[s:e]) if e > s else x[s] for s, e in zip(idx, ends, strict=True)]
    return np.moveaxis(np.stack(folds), 0, axis)


def _compare(name, a, idx, axis=0, dtype=None, exact=True, rtol=1e-12):
    with np.errstate(all="ignore"):
        ref = getattr(np, name).reduceat(a, idx, axis=axis, dtype=dtype)
        if name in LIBM:
            ref = _left_folds(name, a, idx, axis, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(kd, name).reduceat(kd.asarray(a), idx, axis=axis, dtype=dtype).numpy()
    assert got.dtype == ref.dtype and got.shape == ref.shape
    if exact:
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=rtol, equal_nan=True)


FLOAT_FOLDS = ["subtract", "divide", "power", "float_power", "floor_divide", "remainder", "fmod", "arctan2",
               "hypot", "copysign", "nextafter", "heaviside"]
LIBM = ("power", "float_power", "arctan2", "hypot")  # kdsl's own implementations, not the C library's


@pytest.mark.parametrize("name", FLOAT_FOLDS)
def test_short_slices_fold_exactly_as_numpy(name):
    """NumPy's operations in NumPy's order: the same bits. kdsl's own power, arctan2 and hypot are within an ulp
    or two of the C library's, and a fold carries that along; their folds are ill-conditioned on signed data with
    zeros (an ulp decides the sign of ``atan2(acc, 0)``; ``acc ** b`` chains under- and overflow), so they get
    positive data near 1 (NumPy's zeros, NaN and infinities go through the exact folds)."""
    a = RNG.uniform(0.5, 1.5, 3000) * RNG.choice([-1.0, 1.0], 3000)
    a[::97] = 0.0
    a[5::211] = np.nan
    a[7::331] = -np.inf
    if name in LIBM:
        a = RNG.uniform(0.9, 1.1, 3000)
    _compare(name, a, _starts(3000, 400), exact=name not in LIBM, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("name", ["subtract", "floor_divide", "remainder", "left_shift", "right_shift"])
def test_integer_short_slices_exact(name, dtype):
    info = np.iinfo(dtype)
    a = RNG.integers(max(info.min, -100), min(info.max, 100), 2000).astype(dtype)
    if name in ("floor_divide", "remainder"):
        a[a == 0] = 3
    if name.endswith("shift"):
        a = np.abs(a % 5).astype(dtype)
    _compare(name, a, _starts(2000, 300))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint32])
def test_subtract_long_slices_integers_wrap_exactly(dtype):
    info = np.iinfo(dtype)
    a = RNG.integers(info.min // 2, info.max // 2, 20000, endpoint=True).astype(dtype)
    idx = np.r_[0, np.sort(RNG.choice(np.arange(1, 20000), 40, replace=False))]
    _compare("subtract", a, idx)


@pytest.mark.parametrize("name", ["subtract", "divide"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_slices_floats_to_rounding(name, dtype):
    a = RNG.uniform(0.9, 1.1, 20000).astype(dtype)
    idx = np.r_[0, np.sort(RNG.choice(np.arange(1, 20000), 40, replace=False))]
    _compare(name, a, idx, exact=False, rtol=1e-4 if dtype == np.float32 else 1e-11)


def test_divide_long_slices_of_integers_are_float64():
    a = RNG.integers(1, 3, 5000)
    _compare("divide", a, np.arange(0, 5000, 100), exact=False)


@pytest.mark.parametrize("name", ["subtract", "power"])
def test_other_axis_and_dtype(name):
    a = RNG.uniform(0.9, 1.1, (3, 900))  # (well-conditioned folds of power: see above)
    idx = _starts(900, 120)
    exact = name not in LIBM
    _compare(name, a, idx, axis=1, exact=exact)
    _compare(name, a.T.copy(), idx, axis=0, exact=exact)
    _compare(name, a.astype(np.float32), idx, axis=-1, dtype=np.float64, exact=exact)


def test_signed_zeros_and_infinities():
    a = np.array([-0.0, -0.0, 0.0, -0.0, np.inf, np.inf, -np.inf, 1.0] * 50)
    _compare("subtract", a, np.arange(0, 400, 2))
    long_idx = np.r_[0, np.arange(100, 400, 100), np.arange(399, 360, -1)]
    _compare("subtract", a, long_idx, exact=False)


def test_bool_subtract_keeps_numpys_error():
    with pytest.raises(TypeError):
        np.subtract.reduceat(np.ones(100, bool), np.arange(0, 100, 2))
    with pytest.raises(TypeError):
        kd.subtract.reduceat(kd.ones(100, dtype=kd.bool), np.arange(0, 100, 2))


def test_many_slices_stay_few_kernels():
    a = kd.asarray(RNG.uniform(0.5, 1.5, 40000))
    kd.realize(a)
    idx = np.arange(0, 40000, 20)  # 2 000 slices
    plan = kd.explain(kd.subtract.reduceat(a, idx), kd.divide.reduceat(a, idx))
    assert len(plan.splitlines()) < 40


@pytest.mark.parametrize("name", ["hypot", "gcd"])
def test_one_element_slices_keep_their_sign(name):
    """NumPy's reduceat starts each fold from the slice's first element: a lone -3 stays -3 (reduce would fold
    in the identity 0 first and give 3)."""
    a = np.array([-3, 4, -6, 8, -5]) if name == "gcd" else np.array([-3.0, 4.0, -6.0, 8.0, -5.0])
    for idx in ([0, 1, 2], [0, 2, 4], [1, 0, 3], list(range(5)) * 10):
        _compare(name, a, idx, exact=name == "gcd")  # (kdsl's hypot: within an ulp of the C library's)
