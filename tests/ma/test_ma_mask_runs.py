"""kd.ma's ``clump_masked``/``clump_unmasked``, ``flatnotmasked_contiguous``/``notmasked_contiguous`` and
``flatnotmasked_edges``/``notmasked_edges`` against numpy.ma (gaps of a time series: an AttributeError before)."""

import numpy as np
import pytest
from ma_testing import pair

import kdsl as kd


def _host(value):
    if isinstance(value, kd.Array):
        return value.numpy()
    if isinstance(value, (list, tuple)):
        return type(value)(_host(v) for v in value)
    return value


def _same(got, want):
    got = _host(got)
    if isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
    elif isinstance(want, np.ndarray):
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("kind", ["some", "none", "all", "nomask"])
@pytest.mark.parametrize("shape", [(9,), (1,)])
def test_runs_of_a_1d_mask(kind, shape):
    n, k = pair(shape, np.float64, kind)
    for name in ["clump_masked", "clump_unmasked", "flatnotmasked_contiguous", "flatnotmasked_edges"]:
        _same(getattr(kd.ma, name)(k), getattr(np.ma, name)(n))
    _same(kd.ma.notmasked_contiguous(k), np.ma.notmasked_contiguous(n))
    _same(kd.ma.notmasked_edges(k), np.ma.notmasked_edges(n))


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_edges_and_runs_along_an_axis(axis, kind):
    n, k = pair((4, 6), np.int32, kind, layout="transposed")
    _same(kd.ma.notmasked_edges(k, axis), np.ma.notmasked_edges(n, axis))
    _same(kd.ma.notmasked_contiguous(k, axis), np.ma.notmasked_contiguous(n, axis))
