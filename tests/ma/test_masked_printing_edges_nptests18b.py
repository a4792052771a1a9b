"""Printing a large kd.ma array downloads only what numpy.ma shows, and prints exactly as numpy.ma's repr/str.

kd.ma's repr/str downloaded the whole data and mask (``repr(x.to_numpy())``). numpy.ma shows the edges of a
summarised array; with a mask set it first keeps the first and last 50 entries of axes longer than 100 (750 of
1500 in 1-d) and summarises that by its own size, while ``repr``'s ``mask=`` part summarises the whole mask, and
``dtype=`` appears when every entry is masked. kdsl/ma/printing.py reproduces each case from small stand-ins.
"""

import itertools

import numpy as np
import pytest

import kdsl as kd
import kdsl.ma as km

SHAPES = [(2000,), (1001,), (1502,), (150, 8), (200, 4), (30, 40), (7, 7, 7, 7), (120, 3, 120), (1, 2000),
          (2000, 1), (0, 2000), (3, 500)]
MASKS = ["none", "some", "all", "all_but_middle"]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 3, shape)
    if dtype == np.bool_:
        return h > 0
    h = h.astype(dtype) if np.issubdtype(dtype, np.inexact) else np.round(h).astype(dtype)
    if np.issubdtype(dtype, np.inexact) and h.size:
        h.flat[0], h.flat[-1] = np.nan, -np.inf
    return h


def _mask(shape, kind, seed=1):
    if kind == "none":
        return np.ma.nomask
    if kind == "some":
        return np.random.default_rng(seed).random(shape) < 0.3
    m = np.ones(shape, bool)
    if kind == "all_but_middle" and m.size:
        m.flat[m.size // 2] = False  # hidden from the printout, but numpy.ma's repr then has no dtype=
    return m


def _pair(data, mask, fill=None):
    want = np.ma.MaskedArray(data, mask=mask)
    got = km.MaskedArray(kd.asarray(data)) if mask is np.ma.nomask else km.MaskedArray(kd.asarray(data), mask=mask)
    if fill is not None:
        want.fill_value = fill
        got.set_fill_value(fill)
    return got, want


def _check(got, want):
    assert repr(got) == repr(want)
    assert str(got) == str(want)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.bool_])
def test_prints_as_numpy_ma(shape, dtype):
    for kind, fill in itertools.product(MASKS, [None, 7]):
        if fill is not None and dtype == np.bool_:
            continue
        _check(*_pair(_data(shape, dtype), _mask(shape, kind), fill))


@pytest.mark.parametrize("options", [{"threshold": 10, "edgeitems": 1}, {"threshold": 50, "edgeitems": 2},
                                     {"threshold": 0, "edgeitems": 0}, {"threshold": 3, "edgeitems": 60},
                                     {"threshold": 100, "edgeitems": 3, "linewidth": 40, "precision": 2}])
def test_print_options(options):
    for shape, kind in itertools.product([(300,), (40, 41), (150, 8), (2, 2000)], MASKS):
        got, want = _pair(_data(shape, np.float32), _mask(shape, kind))
        with np.printoptions(**options), kd.printoptions(**options):  # kd.ma prints with kdsl's options
            _check(got, want)


def test_views():
    h = _data((160, 120), np.float64)
    m = _mask((160, 120), "some")
    x = km.MaskedArray(kd.asarray(h), mask=m)
    for key in [(slice(None, None, 3), slice(None, None, -2)), (slice(None), 7), (Ellipsis, slice(1, 119))]:
        _check(x[key], np.ma.MaskedArray(h, mask=m)[key])
    _check(x.T, np.ma.MaskedArray(h, mask=m).T)


def test_downloads_only_the_edges(download_sizes):
    """A 2**26-element masked array prints from corners: every read back stays small."""
    sizes = download_sizes
    n = 8192
    row = np.arange(n, dtype=np.float32)
    x = km.masked_greater(kd.broadcast_to(kd.asarray(row), (n, n)) * 2, 16000.0)
    want = np.ma.masked_greater(np.broadcast_to(row, (n, n)) * 2, 16000.0)
    _check(x, want)
    assert sizes and max(sizes) <= 7 * 7
    sizes.clear()
    y = km.masked_greater(kd.asarray(np.arange(10**6, dtype=np.float32)), 5.0)
    _check(y, np.ma.masked_greater(np.arange(10**6, dtype=np.float32), 5.0))
    assert max(sizes) <= 7
