"""``kd.sum`` without ``initial`` starts from NumPy 2's identity ``+0.0``: all ``-0.0`` elements sum to ``0.0``
(``np.sum([-0.0])``, ``np.add.reduce``, ``np.mean``), while ``initial=-0.0``, ``cumsum`` and ``add.reduceat``
(folds that start from an element) keep ``-0.0`` (kdsl gave ``-0.0`` for the sums)."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got.real).tolist() == np.signbit(want.real).tolist()
    if np.iscomplexobj(want):
        assert np.signbit(got.imag).tolist() == np.signbit(want.imag).tolist()


DTYPES = [np.float32, np.float64, np.float16, np.complex64]


def _host(shape, dtype):
    host = np.full(shape, -0.0, dtype)
    if np.iscomplexobj(host):
        host.imag = -0.0
    return host


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, axis", [((1,), None), ((3, 4), None), ((3, 4), 0), ((3, 4), 1), ((2, 1, 3), (0, 2)),
                                         ((1, 5), -1), ((), None), ((3, 4), ())], ids=str)
def test_all_negative_zeros(dtype, shape, axis):
    host = _host(shape, dtype)
    x = kd.asarray(host)
    _same(kd.sum(x, axis=axis), np.sum(host, axis=axis))
    _same(kd.add.reduce(x, axis=axis), np.add.reduce(host, axis=axis))
    _same(kd.sum(x, axis=axis, keepdims=True), np.sum(host, axis=axis, keepdims=True))
    _same(kd.mean(x, axis=axis), np.mean(host, axis=axis))
    _same(kd.nansum(x, axis=axis), np.nansum(host, axis=axis))
    _same(kd.sum(x, axis=axis, initial=-0.0), np.sum(host, axis=axis, initial=-0.0))  # kept
    if not np.iscomplexobj(host):  # (complex products' signs of zero follow NumPy's multiplication formula)
        _same(kd.prod(x, axis=axis), np.prod(host, axis=axis))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_views_masks_and_element_started_folds(dtype):
    host = np.array([[-0.0, 1.5, -0.0, -0.0], [-0.0, -0.0, np.nan, -np.inf]], dtype)
    x = kd.asarray(host)
    _same(kd.sum(x[:, ::2], axis=1), np.sum(host[:, ::2], axis=1))
    _same(kd.sum(x.T[2:], axis=0), np.sum(host.T[2:], axis=0))
    where = np.array([True, False, True, True])
    _same(kd.sum(x, axis=1, where=kd.asarray(where)), np.sum(host, axis=1, where=where))
    _same(kd.sum(x[:, :0], axis=1), np.sum(host[:, :0], axis=1))
    _same(kd.cumsum(x, axis=1), np.cumsum(host, axis=1))
    _same(kd.add.accumulate(x[0]), np.add.accumulate(host[0]))
    _same(kd.add.reduceat(x, [0, 2], axis=1), np.add.reduceat(host, [0, 2], axis=1))
    _same(kd.add.reduceat(x, [2, 0, 3], axis=1, dtype=np.float64), np.add.reduceat(host, [2, 0, 3], axis=1,
                                                                                    dtype=np.float64))
    _same(kd.sum(x[:, 2:], axis=1, dtype=np.float64), np.sum(host[:, 2:], axis=1, dtype=np.float64))
    ints = np.array([[0, -3], [3, 0]], np.int32)
    _same(kd.sum(kd.asarray(ints), axis=1), np.sum(ints, axis=1))
