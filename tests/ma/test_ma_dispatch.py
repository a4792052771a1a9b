"""Masked arrays through kd's and NumPy's own functions (kd.sum(x), np.mean(x), kd.where, np.concatenate...):
kd.ma's functions run, as NumPy's functions respect np.ma masks; kd.asarray(x) is the data."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "any", "all", "ptp"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("kind", ["some", "all", "nomask"])
def test_kd_and_np_reductions_respect_the_mask(name, kind):
    n, k = pair((3, 4), np.float64, kind)
    for axis in (None, 0, 1):
        with np.errstate(all="ignore"):  # np.ptp of a np.ma array ignores its mask: the method is the reference
            expected = n.ptp(axis=axis) if name == "ptp" else getattr(np, name)(n, axis=axis)
        assert_same(getattr(kd, name)(k, axis=axis), expected, check_dtype=False)
        if name != "ptp":
            assert_same(getattr(np, name)(k, axis=axis), expected, check_dtype=False)


@pytest.mark.parametrize("name", ["argmin", "argmax"])
def test_arg_reductions(name):
    n, k = pair((3, 4), np.float32, "some")
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(getattr(kd, name)(k, axis=axis).numpy(), getattr(np, name)(n, axis=axis))
        np.testing.assert_array_equal(getattr(np, name)(k, axis=axis).numpy(), getattr(np, name)(n, axis=axis))


def test_joining_and_where():
    n1, k1 = pair((2, 3), np.float32, "some")
    n2, k2 = pair((2, 3), np.float32, "nomask", seed=4)
    assert_same(kd.concatenate([k1, k2]), np.ma.concatenate([n1, n2]))
    assert_same(np.concatenate([k1, k2], axis=1), np.ma.concatenate([n1, n2], axis=1))
    assert_same(kd.stack([k1, k2.data]), np.ma.stack([n1, n2.data]))
    assert_same(kd.where(k1 > 0, k1, 0.0), np.ma.where(n1 > 0, n1, 0.0))
    assert_same(np.where(k1 > 0, k1, k2), np.ma.where(n1 > 0, n1, n2))


def test_asarray_is_the_data_and_plain_calls_unchanged():
    n, k = pair((2, 3), np.float32, "some")
    got = kd.asarray(k)
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), np.asarray(n))
    np.testing.assert_array_equal(np.asarray(k), np.asarray(n))
    plain = kd.asarray(np.arange(6.0).reshape(2, 3))
    assert isinstance(kd.sum(plain, axis=0), kd.Array)
    assert np.shape(k) == (2, 3) and np.ndim(k) == 2 and np.size(k) == 6


def test_numpy_function_without_a_masked_version_raises():
    _, k = pair((2, 3), np.float32, "some")
    with pytest.raises(TypeError, match="kd.ma has no percentile"):
        np.percentile(k, 50)
    with pytest.raises(TypeError, match="kd.ma has no masked"):
        kd.gcd(k, k)


@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_sorting_accumulations_dot_and_stacking_respect_the_mask(kind):
    # kd.sort(x), kd.cumsum(x), kd.dot(a, x), kd.hstack([x, y]) of masked arrays ran on the data alone (the mask
    # silently dropped); they are kd.ma's now, as np.sort/np.argsort/np.cumsum of np.ma arrays are numpy.ma's
    n, k = pair((3, 4), np.float64, kind)
    for lib in (kd, np):
        assert_same(lib.sort(k, kind="stable"), np.sort(n, kind="stable"), masked_data=True)
        np.testing.assert_array_equal(lib.argsort(k, kind="stable").numpy(), np.argsort(n, kind="stable"))
        np.testing.assert_array_equal(lib.argsort(k, 0, kind="stable").numpy(), np.argsort(n, 0, kind="stable"))
        for name in ("cumsum", "cumprod"):
            assert_same(getattr(lib, name)(k, axis=1), getattr(np, name)(n, axis=1))
    assert_same(kd.dot(k, k.T), np.ma.dot(n, n.T))
    assert_same(kd.dot(k.data, k.T), np.ma.dot(n.data, n.T))
    assert_same(kd.hstack([k, k]), np.ma.hstack([n, n]))
    assert_same(kd.vstack([k[0], k]), np.ma.vstack([n[0], n]))


MOVES = [("flip", (), {}), ("flip", (1,), {}), ("fliplr", (), {}), ("flipud", (), {}), ("roll", (1,), {}),
         ("roll", (-2,), {"axis": 1}), ("rot90", (3,), {}), ("moveaxis", (0, 1), {}), ("rollaxis", (1,), {}),
         ("tile", ((2, 1),), {}), ("atleast_3d", (), {}), ("round", (1,), {}), ("around", (), {"decimals": 1})]


@pytest.mark.parametrize("name,args,kwargs", MOVES)
def test_rearrangements_and_rounding_carry_the_mask(name, args, kwargs):
    # np.flip(x), np.roll(x, 1), np.tile(x, 2), np.round(x, 1) of a np.ma array keep its mask (the subclass survives);
    # kd's dropped it (the data alone), and np.flip(kd_masked) was a TypeError
    n, k = pair((3, 4), np.float64, "some")
    want = getattr(np, name)(n * 3.33, *args, **kwargs)
    for lib in (kd, np):
        assert_same(getattr(lib, name)(k * 3.33, *args, **kwargs), want)
    assert isinstance(getattr(kd, name)(k.data, *args, **kwargs), kd.Array)  # plain arrays: unchanged
