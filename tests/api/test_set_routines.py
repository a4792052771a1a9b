"""union1d, intersect1d (assume_unique, return_indices), setdiff1d, setxor1d against NumPy: dtypes, n-d and
strided inputs, empty inputs, NaN and -0.0, mixed dtypes, NumPy dispatch."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(0)
CASES = {
    "ints": (RNG.integers(0, 10, 12), RNG.integers(5, 15, (3, 3))),
    "int16-uint8": (RNG.integers(-5, 5, 9).astype(np.int16), RNG.integers(0, 5, 7).astype(np.uint8)),
    "floats-nan": (np.array([1.0, np.nan, 2.0, np.nan, -0.0, np.inf]), np.array([np.nan, 0.0, 2.0, 3.0, np.inf],
                                                                                 np.float32)),
    "float32": (RNG.normal(size=20).round(0).astype(np.float32), RNG.normal(size=(2, 5)).round(0).astype(np.float32)),
    "bools": (np.array([True, True]), np.array([False, True, False])),
    "empty-left": (np.zeros(0, np.int32), np.array([1, 2], np.int32)),
    "empty-both": (np.zeros(0, np.float32), np.zeros((0, 2), np.float32)),
    "one-each": (np.array([3]), np.array([3])),
    "disjoint": (np.arange(4), np.arange(10, 13)),
}


def _same(expected, got):
    assert isinstance(got, kd.Array)
    out = got.numpy()
    assert out.dtype == expected.dtype and out.shape == expected.shape, (out, expected)
    assert np.array_equal(out, expected, equal_nan=expected.dtype.kind == "f")


def _pairs(name):
    a, b = CASES[name]
    return a, b, kd.asarray(a), kd.asarray(b)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("fn", ["union1d", "setxor1d", "setdiff1d"])
def test_set_routines_match_numpy(name, fn):
    a, b, ka, kb = _pairs(name)
    _same(getattr(np, fn)(a, b), getattr(kd, fn)(ka, kb))
    _same(getattr(np, fn)(b, a), getattr(kd, fn)(kb, ka))


@pytest.mark.parametrize("name", sorted(CASES))
def test_intersect1d_matches_numpy(name):
    a, b, ka, kb = _pairs(name)
    _same(np.intersect1d(a, b), kd.intersect1d(ka, kb))
    for expected, got in zip(np.intersect1d(a, b, return_indices=True), kd.intersect1d(ka, kb, return_indices=True),
                             strict=True):
        _same(expected, got)


def test_assume_unique():
    a, b = np.array([5, 1, 3, 9]), np.array([3, 7, 5, 0])
    ka, kb = kd.asarray(a), kd.asarray(b)
    for fn in ("setxor1d", "setdiff1d", "intersect1d"):
        _same(getattr(np, fn)(a, b, assume_unique=True), getattr(kd, fn)(ka, kb, assume_unique=True))
    for expected, got in zip(np.intersect1d(a, b, assume_unique=True, return_indices=True),
                             kd.intersect1d(ka, kb, assume_unique=True, return_indices=True), strict=True):
        _same(expected, got)


def test_views_and_host_inputs():
    a = RNG.integers(0, 20, (6, 8))
    ka = kd.asarray(a)
    b = a.T[::2, 1::3]
    kb = ka.T[::2, 1::3]
    for fn in ("union1d", "setxor1d", "setdiff1d", "intersect1d"):
        _same(getattr(np, fn)(a[::-1], b), getattr(kd, fn)(ka[::-1], kb))
    _same(np.union1d(np.array([3, 1]), np.array([2, 1])), kd.union1d(kd.asarray(np.array([3, 1])), np.array([2, 1])))
    assert kd.union1d([3, 1], [2, 1]).tolist() == [1, 2, 3]


@pytest.mark.parametrize("fn", ["union1d", "setxor1d", "setdiff1d", "intersect1d"])
def test_numpy_dispatches_to_kdsl(fn):
    a, b, ka, kb = _pairs("ints")
    got = getattr(np, fn)(ka, kb)
    assert isinstance(got, kd.Array)
    _same(getattr(np, fn)(a, b), got)
