"""float32 ``pow`` on a device without float64 (MoltenVK's): the portable helper ``kd_pow_f`` (C99's special cases,
square-and-multiply for whole exponents up to 64, else ``exp2`` of ``b * log2|a|`` carried in two floats). lavapipe
and the H200 have float64 and take ``kdsl.codegen.wide_pow``, so this test hides float64 from the session device
(its ``features``, as tests/sorting/test_searchsorted_without_float64_nptests17c.py does) with empty program and
plan caches, checks that the compiled programs really hold the portable helper, and compares with the correctly
rounded float32 power (NumPy in float64, rounded) within the documented bound: 6 ulp (docs/kernels.md)."""

from collections import OrderedDict

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import plan
from kdsl.engine.state import state

BOUND = 6  # ulps from the correctly rounded power (docs/kernels.md: "6 at most over 100 000 random pairs")


@pytest.fixture
def float32_only(monkeypatch):
    """The session device without float64, and no program compiled before this test (their float32 ``pow``
    went through float64)."""
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    st = state(d)
    monkeypatch.setattr(st, "programs", OrderedDict())
    monkeypatch.setattr(st, "batches", None)
    monkeypatch.setattr(plan, "_plans", OrderedDict())  # cached plans keep their programs: none leaks out
    return st


def _ulps(got, want):
    """Distance in float32 steps (the bits as ordered integers); NaN against NaN is 0."""
    def ordered(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    dist = np.abs(ordered(got) - ordered(want)).astype(np.float64)
    return np.where(np.isnan(got) & np.isnan(want), 0.0, np.where(np.isnan(got) | np.isnan(want), np.inf, dist))


def _check(st, a, b):
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    got = kd.power(kd.asarray(a), kd.asarray(b)).numpy()
    sources = [p.source for p in st.programs.values() if "kd_pow_f" in p.source]
    assert sources and not any("kd_pow_d" in s for s in sources), "the float32-only pow was not compiled"
    with np.errstate(all="ignore"):
        want = np.power(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        numpy32 = np.power(a, b)
    assert got.dtype == np.float32 and got.shape == want.shape
    err = _ulps(got, want)
    flushed = np.zeros(got.shape, bool)  # a subnormal base the device took as a zero of its sign
    if 32 not in kd.device().float_controls[1]:  # a device that flushes float32 subnormals (an H200)
        tiny = np.finfo(np.float32).tiny
        err[(np.abs(want) < tiny) & (np.abs(got) <= tiny)] = 0
        with np.errstate(all="ignore"):
            zero_base = np.power(np.copysign(np.float32(0), a), b)
        flushed = (a != 0) & (np.abs(a) < tiny) & (_ulps(got, zero_base) == 0)
        err[flushed] = 0
    worst = int(np.argmax(err))
    assert err[worst] <= BOUND, f"{a.ravel()[worst]!r} ** {b.ravel()[worst]!r} = {got.ravel()[worst]!r}, " \
                                f"want {want.ravel()[worst]!r} ({err.ravel()[worst]} ulp)"
    # the same special values as NumPy's float32 power: NaN where it is NaN (its sign bit is x86's accident),
    # infinities and zeros with their signs
    np.testing.assert_array_equal(np.isnan(got) & ~flushed, np.isnan(numpy32) & ~flushed)
    special = (np.isinf(numpy32) | (numpy32 == 0)) & ~flushed
    np.testing.assert_array_equal(got[special], numpy32[special])
    np.testing.assert_array_equal(np.signbit(got[special]), np.signbit(numpy32[special]))


def test_random_pairs(float32_only):
    rng = np.random.default_rng(14)
    a = np.abs(rng.standard_normal(20011) * 10).astype(np.float32)
    b = (rng.standard_normal(20011) * 8).astype(np.float32)
    _check(float32_only, a, b)


def test_bases_near_one_with_huge_exponents(float32_only):
    """``b * log2(a)`` with ``a`` a few ulps from 1 and ``|b|`` up to 2**26: its rounding is what ``b`` scales."""
    steps = np.arange(-40, 41, dtype=np.float32)
    a = np.float32(1) + steps * np.float32(2.0**-24)
    b = np.array([1e3, -1e5, 3e6, -2**24 + 1, 6.7e7, 1234567.0, -7654321.5], np.float32)
    aa, bb = np.meshgrid(a, b)
    _check(float32_only, aa.ravel(), bb.ravel())


def test_huge_and_tiny_exponents_and_results(float32_only):
    a = np.array([2.0, 0.5, 10.0, 1e-20, 3e30, 1.5, 0.999], np.float32)
    b = np.array([127.9, -149.0, 38.5, 1.9, -1.3, 218.0, 1e5, -126.5, 1e-30, -1e-38, 0.5, 1e38], np.float32)
    aa, bb = np.meshgrid(a, b)
    _check(float32_only, aa.ravel(), bb.ravel())


def test_negative_bases_with_whole_exponents(float32_only):
    a = np.repeat(np.array([-2.0, -0.5, -1.0, -3.7, -1e10, -1.0000001], np.float32), 12)
    b = np.tile(np.array([0, 1, 2, 3, 7, -1, -3, 64, 65, -64, 1e7 + 1, 0.5], np.float32), 6)  # 0.5: NaN
    _check(float32_only, a, b)


def test_zeros_infinities_and_nan(float32_only):
    values = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, -3.0], np.float32)
    aa, bb = np.meshgrid(values, values)
    _check(float32_only, aa.ravel(), bb.ravel())


def test_subnormal_bases_and_results(float32_only):
    tiny = np.float32(2.0) ** np.arange(-149, -125, dtype=np.float32)
    b = np.array([0.5, 1.0, 2.0, 0.9, 1.1, -0.25, 3.0], np.float32)
    aa, bb = np.meshgrid(tiny, b)
    _check(float32_only, aa.ravel(), bb.ravel())
    x = np.array([0.5, 0.25, 2.0, 1e-3], np.float32)
    e = np.array([140.0, 70.0, -140.0, 14.2], np.float32)  # results below float32's smallest normal
    _check(float32_only, x, e)
