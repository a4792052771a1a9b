"""``reduce``/``accumulate``/``reduceat`` of the comparison ufuncs (``kd.less.reduce``, ``kd.equal.accumulate``)
as NumPy's: left folds on bool operands, NumPy's TypeError for any other loop and ValueError for several axes,
empty axes without ``initial`` and ``where=`` without ``initial`` (kdsl had no such methods); and
``kd.gcd.accumulate`` / ``kd.lcm.accumulate`` (missing)."""

import itertools

import numpy as np
import pytest

import kdsl as kd

NAMES = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


def _same(got, want):
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _every_bool_row(n):
    return np.array(list(itertools.product([False, True], repeat=n)), bool).reshape(-1, n)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_every_bool_sequence(name, n):
    host = _every_bool_row(n)  # every sequence of n bools, one per row
    ours, theirs = getattr(kd, name), getattr(np, name)
    x = kd.asarray(host)
    _same(ours.reduce(x, axis=1), theirs.reduce(host, axis=1))
    _same(ours.reduce(x, axis=-1, keepdims=True), theirs.reduce(host, axis=-1, keepdims=True))
    _same(ours.accumulate(x, axis=1), theirs.accumulate(host, axis=1))
    _same(ours.reduce(x.T), theirs.reduce(host.T))  # axis 0 by default, a transposed view
    _same(ours.accumulate(x.T), theirs.accumulate(host.T))
    for initial in (False, True):
        _same(ours.reduce(x, axis=1, initial=initial), theirs.reduce(host, axis=1, initial=initial))


@pytest.mark.parametrize("name", NAMES)
def test_where_views_and_reduceat(name):
    host = np.array([[True, False, True, True, False, True], [False, False, True, False, True, True]])
    ours, theirs = getattr(kd, name), getattr(np, name)
    x = kd.asarray(host)
    mask = np.array([True, False, True, True, False, True])
    _same(ours.reduce(x, axis=1, where=kd.asarray(mask), initial=True),
          theirs.reduce(host, axis=1, where=mask, initial=True))
    _same(ours.reduce(x[:, ::2], axis=1), theirs.reduce(host[:, ::2], axis=1))
    _same(ours.reduceat(x, [0, 2, 5], axis=1), theirs.reduceat(host, [0, 2, 5], axis=1))
    _same(ours.reduce(kd.asarray([1.0, 0.0, np.nan]), dtype=bool), theirs.reduce(np.array([1.0, 0.0, np.nan]),
                                                                                  dtype=bool))
    _same(ours.accumulate(kd.asarray([3, 0, 2]), dtype=bool), theirs.accumulate(np.array([3, 0, 2]), dtype=bool))
    _same(ours.reduce(kd.asarray(True)), theirs.reduce(np.array(True)))
    _same(ours.reduce(x[:, :0], axis=1, initial=True), theirs.reduce(host[:, :0], axis=1, initial=True))
    _same(ours.accumulate(x[:, :0], axis=1), theirs.accumulate(host[:, :0], axis=1))
    _same(np.asarray(theirs.reduce(x, axis=1)), theirs.reduce(host, axis=1))  # NumPy dispatches to kdsl


def test_long_axis():
    rng = np.random.default_rng(0)
    host = rng.random((3, 3000)) < 0.8  # long runs of True: the closed forms' parities
    for name in NAMES:
        ours, theirs = getattr(kd, name), getattr(np, name)
        _same(ours.reduce(kd.asarray(host), axis=1), theirs.reduce(host, axis=1))
        _same(ours.accumulate(kd.asarray(host), axis=1), theirs.accumulate(host, axis=1))


@pytest.mark.parametrize("name", NAMES)
def test_errors(name):
    ours = getattr(kd, name)
    for dtype in (np.float32, np.int32, np.uint8):
        with pytest.raises(TypeError, match="No loop matching the specified signature"):
            ours.reduce(kd.asarray(np.array([1, 2], dtype)))
        with pytest.raises(TypeError, match="No loop matching the specified signature"):
            ours.accumulate(kd.asarray(np.array([1, 2], dtype)))
    b = kd.asarray([[True, False], [False, True]])
    with pytest.raises(ValueError, match="not reorderable"):
        ours.reduce(b, axis=None)
    with pytest.raises(ValueError, match="no identity"):
        ours.reduce(kd.zeros((0,), dtype=bool))
    with pytest.raises(ValueError, match="where mask"):
        ours.reduce(b, axis=1, where=kd.asarray([True, False]))
    with pytest.raises(TypeError, match="scalar"):
        ours.accumulate(kd.asarray(True))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.int16])
def test_gcd_lcm_accumulate(name, dtype):
    # lcm's products stay in range: under wrap-around NumPy's sequential fold and kdsl's doubling scan differ
    values = [[12, -18, 8, 0, 6], [-5, 10, 15, 3, 1]] if name == "gcd" else [[2, -3, 4, 0, 6], [-5, 1, 3, 2, 1]]
    host = np.array(values)
    host = (np.abs(host) if dtype == np.uint8 else host).astype(dtype)
    ours, theirs = getattr(kd, name), getattr(np, name)
    x = kd.asarray(host)
    _same(ours.accumulate(x, axis=1), theirs.accumulate(host, axis=1))
    _same(ours.accumulate(x), theirs.accumulate(host))
    _same(ours.accumulate(x[:, ::-2], axis=1), theirs.accumulate(host[:, ::-2], axis=1))
    _same(ours.accumulate(x[:, :0], axis=1), theirs.accumulate(host[:, :0], axis=1))
    _same(ours.accumulate(x[:1], axis=0), theirs.accumulate(host[:1], axis=0))
    _same(ours.reduceat(x, [0, 2], axis=1), theirs.reduceat(host, [0, 2], axis=1))
