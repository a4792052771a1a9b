"""Python int scalars outside an integer array's range in ``where``, ``select`` and ``clip``: NumPy 2 force-casts
them in ``where``/``select`` (wrapping: ``where(m, uint8_img, -1)`` fills 255) and drops a ``clip`` bound that
lies past the range on its own side (``clip(uint8_img, -1, 300)``); the other side still raises OverflowError.

kdsl follows NumPy 2.4 (the release it is tested with): NumPy 2.5's ``where`` raises OverflowError for such a
scalar instead (docs/numpy-api.md, "Deliberate differences"), so ``where``'s expected values come from
:func:`_where24`, which spells out 2.4's cast, not from the installed NumPy's ``where``."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = ["uint8", "int8", "uint16", "int16", "int32", "uint32"]
SCALARS = [-1, 300, -300, 70000, 2**40, -(2**33) - 5, 5]


def _data(dtype, shape=(3, 4)):
    info = np.iinfo(dtype)
    lo, hi = max(int(info.min), -(2**62)), min(int(info.max), 2**62)  # float64 holds them: no cast overflow
    return np.linspace(lo, hi, int(np.prod(shape))).astype(dtype).reshape(shape)


def _same(got, expected):
    # float results: kdsl's weak Python floats give float32 (docs/numpy-api.md, "Deliberate differences")
    assert got.dtype == expected.dtype or got.dtype.kind == expected.dtype.kind == "f"
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def _where24(m, x, y):
    """NumPy 2.4's ``where(m, x, y)``: a Python int next to an integer array is cast to its dtype, wrapping."""
    def cast(s, other):
        integer_array = isinstance(other, np.ndarray) and other.dtype.kind in "iu"
        if isinstance(s, int) and not isinstance(s, bool) and integer_array:
            return np.array(s).astype(other.dtype)  # C's modular cast (an int beyond int64 is a uint64 array)
        return s
    return np.where(m, cast(x, y), cast(y, x))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("s", SCALARS)
def test_where_scalar_wraps_like_numpy(dtype, s):
    a = _data(dtype)
    m = np.arange(a.size).reshape(a.shape) % 3 == 0
    _same(kd.where(kd.asarray(m), kd.asarray(a), s), _where24(m, a, s))
    _same(kd.where(kd.asarray(m), s, kd.asarray(a)), _where24(m, s, a))


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a[::2], lambda a: a.T, lambda a: a[:0]])
def test_where_views_and_empty(view):
    a = _data("uint8", (4, 3))
    _same(kd.where(view(kd.asarray(a)) > 100, view(kd.asarray(a)), -1), _where24(view(a) > 100, view(a), -1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("s", SCALARS)
def test_select_default_wraps_like_numpy(dtype, s):
    a = _data(dtype)
    conds = [a > a.flat[4], a < a.flat[2]]
    k = [kd.asarray(c) for c in conds]
    _same(kd.select(k, [kd.asarray(a), kd.asarray(a) // 2], s), np.select(conds, [a, a // 2], s))


@pytest.mark.parametrize("s", [2**63 - 1, 2**63, 2**64 - 1, -(2**63)])
@pytest.mark.parametrize("dtype", ["uint8", "int64"])
def test_where_c_long_limits(dtype, s):
    a = _data(dtype)
    _same(kd.where(kd.asarray(a) > a.flat[5], kd.asarray(a), s), _where24(a > a.flat[5], a, s))


@pytest.mark.parametrize("s", [2**64, -(2**63) - 1, 2**70])
def test_where_beyond_c_long_raises_like_numpy(s):
    a = _data("uint8")
    with pytest.raises(OverflowError):
        np.where(a > 3, a, s)
    with pytest.raises(OverflowError, match="too large"):
        kd.where(kd.asarray(a) > 3, kd.asarray(a), s)


def test_where_floats_and_strong_scalars_unchanged():
    a = _data("uint8")
    m = a > 100
    _same(kd.where(kd.asarray(m), kd.asarray(a), -1.5), np.where(m, a, -1.5))
    _same(kd.where(kd.asarray(m), kd.asarray(a), True), np.where(m, a, True))
    assert kd.where(kd.asarray(m), kd.asarray(a), kd.int16(-1)).dtype == np.where(m, a, np.int16(-1)).dtype


BOUNDS = [(-1, 300), (60, 300), (-5, 100), (None, 300), (-1, None), (-(2**40), 2**40), (3, 3)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lo, hi", BOUNDS)
def test_clip_drops_bounds_past_the_range(dtype, lo, hi):
    a = _data(dtype)
    _same(kd.clip(kd.asarray(a), lo, hi), np.clip(a, lo, hi))
    _same(kd.asarray(a)[::2].clip(lo, hi), a[::2].clip(lo, hi))


@pytest.mark.parametrize("lo, hi", [(300, 400), (-10, -5)])
def test_clip_bound_past_the_other_side_raises_like_numpy(lo, hi):
    a = _data("uint8")
    with pytest.raises(OverflowError):
        np.clip(a, lo, hi)
    with pytest.raises(OverflowError, match="out of bounds"):
        kd.clip(kd.asarray(a), lo, hi)


def test_clip_floats_unchanged():
    a = _data("int16")
    _same(kd.clip(kd.asarray(a), -1e6, 2.5), np.clip(a, -1e6, 2.5))
    b = np.array([-1.0, 0.5, 300.0])
    _same(kd.clip(kd.asarray(b), -1, 300), np.clip(b, -1, 300))


def test_clip_out_keeps_dtype():
    a = _data("uint8")
    k = kd.asarray(a)
    kd.clip(k, -1, 200, out=k)
    np.clip(a, -1, 200, out=a)
    _same(k, a)


@pytest.mark.parametrize("ufunc", ["add", "subtract", "multiply", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("s", [-1, 300, -200, 7])
def test_ufunc_at_scalar_wraps_like_numpy(ufunc, dtype, s):
    a = _data(dtype, (6,))
    idx = [0, 2, 2, 5]
    k = kd.asarray(a)
    getattr(kd, ufunc).at(k, idx, s)
    getattr(np, ufunc).at(a, idx, s)
    _same(k, a)


def test_ufunc_at_2d_and_view():
    a = _data("uint8", (3, 4))
    k = kd.asarray(a)
    kd.add.at(k, (np.array([0, 0, 2]), np.array([1, 1, 3])), -1)
    np.add.at(a, (np.array([0, 0, 2]), np.array([1, 1, 3])), -1)
    _same(k, a)
    kd.add.at(k[:, ::2], [1, 1], 300)
    np.add.at(a[:, ::2], [1, 1], 300)
    _same(k, a)


@pytest.mark.parametrize("ufunc", ["maximum", "minimum"])
def test_ufunc_at_extremum_out_of_range_compares_exactly(ufunc):
    # NumPy compares with -1 itself (not the wrapped 255) and casts the result back: done on the host
    a = _data("uint8", (6,))
    k = kd.asarray(a)
    with pytest.warns(kd.PerformanceWarning):
        getattr(kd, ufunc).at(k, [0, 1], -1)
    getattr(np, ufunc).at(a, [0, 1], -1)
    _same(k, a)
