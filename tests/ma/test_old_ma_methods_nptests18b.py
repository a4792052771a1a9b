"""numpy.ma features that numpy/ma/tests/test_old_ma.py uses and kd.ma lacked (AttributeError before):

* ``x.shape = s`` (reshapes the data and the mask in place), ``x.put(...)``, ``x.choose(...)``, ``x.count()``
  an ``np.intp`` when a mask is set (a Python int before),
  ``x.conj()``/``x.conjugate()``, ``x.itemsize``, ``x.nbytes``; ``make_mask(m, copy=True)`` a copy (it was ``m``);
* ``kd.ma.add.reduce(x, axis)``, ``kd.ma.maximum.reduce(x)`` and the other masked binary functions' ``reduce``:
  the data filled (0; 1 for multiply and arctan2; the dtype's extreme for maximum/minimum) and reduced, the
  result masked where every entry along the axis is.
"""

import warnings

import numpy as np
import pytest

import kdsl as kd
import kdsl.ma as km

DATA = np.array([[1.0, 5.0, 2.0], [3.0, 2.0, 7.0], [4.0, np.nan, -np.inf]])
MASKS = [np.array([[0, 1, 0], [0, 1, 1], [1, 1, 0]], bool), np.ma.nomask, np.ones((3, 3), bool)]


def _pair(data, mask):
    kd_mask = None if mask is np.ma.nomask else mask
    return km.array(kd.asarray(data), mask=kd_mask), np.ma.array(data, mask=mask)


def _host(r):
    """A result as comparable host values: 'masked', or (filled values, mask, dtype)."""
    if r is km.masked or r is np.ma.masked:
        return "masked"
    if isinstance(r, km.MaskedArray):
        r = r.to_numpy()
    if isinstance(r, np.ma.MaskedArray):
        if r.ndim == 0:  # numpy.ma's 0-d extrema results are 0-d masked arrays: kd.ma's are masked or plain
            return "masked" if r.mask else (np.asarray(r.data).tolist(), r.dtype)
        return (r.filled(-99).tolist(), np.ma.getmaskarray(r).tolist(), r.dtype)
    r = np.asarray(r)
    return (r.tolist(), r.dtype)


def _close(got, want):
    if isinstance(want, str) or isinstance(got, str):
        assert got == want
        return
    np.testing.assert_allclose(np.asarray(got[0], float), np.asarray(want[0], float), rtol=1e-12)
    assert got[1:] == want[1:]


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "hypot", "logical_and", "logical_or",
                                  "bitwise_or", "logical_xor", "maximum", "minimum"])
@pytest.mark.parametrize("mask_index", range(3))
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_reduce(name, mask_index, axis):
    data = DATA if name not in ("bitwise_or",) else np.arange(9).reshape(3, 3)
    if name in ("subtract",) and axis is None:
        axis = 0  # NumPy refuses axis=None for the non-reorderable ones
    got, want = _pair(data, MASKS[mask_index])
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = _host(getattr(np.ma, name).reduce(want, axis=axis))
    _close(_host(getattr(km, name).reduce(got, axis=axis)), expected)


def test_reduce_defaults_views_and_empty():
    got, want = _pair(DATA, MASKS[0])
    _close(_host(km.add.reduce(got)), _host(np.ma.add.reduce(want)))  # axis=0
    _close(_host(km.maximum.reduce(got[0])), _host(np.ma.maximum.reduce(want[0])))
    with pytest.warns(np.ma.core.MaskedArrayFutureWarning, match="axis=0"):  # numpy.ma's n-d default: all of it
        assert float(km.maximum.reduce(got)) == float(np.ma.maximum.reduce(want))
    _close(_host(km.multiply.reduce(got.T[::-1], axis=1)), _host(np.ma.multiply.reduce(want.T[::-1], axis=1)))
    e_got, e_want = _pair(np.zeros((0, 3)), np.zeros((0, 3), bool))
    _close(_host(km.add.reduce(e_got, axis=0)), _host(np.ma.add.reduce(e_want, axis=0)))
    assert km.add.reduce(km.array(5.0, mask=True)) is km.masked
    assert float(km.add.reduce(km.array([2.0]))) == 2.0


def test_shape_assignment():
    for mask in MASKS:
        got, want = _pair(np.arange(12.0), np.ma.nomask if mask is np.ma.nomask else mask.reshape(-1)[:9].tolist()
                          + [0, 1, 0])
        got.shape = want.shape = (3, 4)
        assert got.shape == (3, 4) and km.getmaskarray(got).shape == (3, 4)
        assert _host(got) == _host(want)
        with pytest.raises(ValueError):
            got.shape = (5,)
        got.shape = (2, -1, 2)
        assert got.shape == (2, 3, 2)


def test_put_choose_conj_and_sizes():
    got, want = _pair(np.array([10, 20, 30, 40]), [0, 0, 1, 0])
    got.put([0, 2], km.array([7, 8], mask=[1, 0]))
    want.put([0, 2], np.ma.array([7, 8], mask=[1, 0]))
    assert _host(got) == _host(want)
    got.put(-1, 5, mode="raise")
    want.put(-1, 5, mode="raise")
    assert _host(got) == _host(want)
    idx, nidx = _pair(np.array([0, 1, 2, 1]), [0, 0, 0, 1])
    choices = [kd.asarray(np.array([10, 11, 12, 13])), kd.asarray(np.arange(4)), kd.asarray(np.full(4, 12))]
    host = [np.asarray(c) for c in choices]
    assert _host(idx.choose(choices)) == _host(np.ma.choose(nidx, host))
    assert _host(idx.choose(*choices)) == _host(np.ma.choose(nidx, host))
    z, nz = _pair(np.array([1 + 2j, -3j, 4]), [0, 1, 0])
    for f in ("conj", "conjugate"):
        assert _host(getattr(z, f)()) == _host(getattr(nz, f)())
    assert (z.itemsize, z.nbytes) == (nz.itemsize, nz.nbytes)
    assert (got.itemsize, got.nbytes) == (want.itemsize, want.nbytes)


@pytest.mark.parametrize("mask", [[1, 0, 0, 0], np.ma.nomask, [1, 1, 1, 1]])
def test_count_types(mask):
    # numpy.ma: an np.intp with a mask, a Python int without one (test_old_ma's test_xtestCount)
    got, want = _pair(np.array([0.0, 1.0, 2.0, 3.0]), mask)
    for g, w in ((got.count(), want.count()), (km.count(got), np.ma.count(want))):
        assert g == w and type(g) is type(w)
    assert np.asarray(got.count(axis=0)).tolist() == np.asarray(want.count(axis=0)).tolist()


@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "logical_or", "bitwise_xor"])
@pytest.mark.parametrize("axis", [0, 1])
def test_accumulate(name, axis):
    data = DATA if name != "bitwise_xor" else np.arange(9).reshape(3, 3)
    for mask in MASKS:
        got, want = _pair(data, mask)
        with np.errstate(all="ignore"):
            expected = getattr(np.ma, name).accumulate(want, axis=axis)
        result = getattr(km, name).accumulate(got, axis=axis)
        assert km.getmask(result) is km.nomask  # numpy.ma's accumulate drops the mask
        np.testing.assert_allclose(np.asarray(result.data, float), np.asarray(expected.data, float), rtol=1e-12)


def _flat_steps(M, x):
    x.flat[1] = 9
    x.flat[0] = M.masked
    x.flat[2:4] = M.array([7, 8], mask=[1, 0])
    x.flat[[5, -1]] = 6
    return [x.flat[1], x.flat[0], x.flat[1:3], x.flat[[0, 3]], len(list(x.flat))]


@pytest.mark.parametrize("mask", [[0, 1, 0, 0, 0, 1], np.ma.nomask])
@pytest.mark.parametrize("view", [lambda a: a.reshape(2, 3), lambda a: a.reshape(3, 2).T, lambda a: a[::-1]])
def test_flat(mask, view):
    got, want = _pair(np.arange(6.0), mask)
    got, want = view(got), view(want)
    results = _flat_steps(km, got), _flat_steps(np.ma, want)
    assert _host(got) == _host(want)
    for g, w in zip(*results, strict=True):
        assert _host(g) == _host(w)


@pytest.mark.parametrize("mask", [[0, 1, 0, 0, 0, 1], np.ma.nomask])
@pytest.mark.parametrize("view", [lambda a: a.reshape(2, 3), lambda a: a.reshape(3, 2).T, lambda a: a[::-1]])
def test_flat_assignment(mask, view):
    # numpy.ma's x.flat = v is x.ravel()[:] = v: a copy for non-contiguous views, which then stay unchanged
    got, want = _pair(np.arange(6.0), mask)
    got, want = view(got), view(want)
    got.flat, want.flat = 5.0, 5.0
    assert _host(got) == _host(want)
    got.flat, want.flat = km.masked, np.ma.masked
    assert _host(got) == _host(want)


def test_make_mask_copy():
    # test_old_ma's test_testCopySize: make_mask(m) is m for a bool mask, make_mask(m, copy=True) a new one
    for src in ([0, 0, 1, 0, 0], np.array([[1, 0], [0, 1]], bool)):
        m, n = km.make_mask(src), np.ma.make_mask(src)
        assert (km.make_mask(m) is m) == (np.ma.make_mask(n) is n)
        c = km.make_mask(m, copy=True)
        assert c is not m
        c[(0,) * c.ndim] = not bool(c[(0,) * c.ndim])
        assert np.asarray(m).tolist() == n.tolist()  # the copy's change did not reach m
    assert km.make_mask([0, 0]) is km.nomask and km.make_mask([0, 0], copy=True) is km.nomask
