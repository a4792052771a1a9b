"""``kd.sum(x, initial=-0.0)`` keeps NumPy's sign of zero: its fold starts from ``initial``, so an empty axis, an
all-masked ``where=`` or all ``-0.0`` elements give ``-0.0`` (kdsl gave ``0.0``)."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got).tolist() == np.signbit(want).tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("values", [[], [-0.0], [-0.0, -0.0], [0.0], [0.0, -0.0], [np.nan], [-np.inf, 1.0]], ids=str)
@pytest.mark.parametrize("initial", [-0.0, 0.0, 2.5])
@pytest.mark.parametrize("where", [True, False])
def test_one_axis(dtype, values, initial, where):
    host = np.array(values, dtype)
    want = np.sum(host, initial=initial, where=where)
    _same(kd.sum(kd.asarray(host), initial=initial, where=where).numpy(), want)
    _same(kd.add.reduce(kd.asarray(host), initial=initial, where=where).numpy(), want)


@pytest.mark.parametrize("shape, axis", [((0, 3), 0), ((3, 0), 1), ((2, 0, 2), (0, 1)), ((1, 0), None),
                                         ((2, 3), 1)], ids=str)
def test_shapes_and_dtype(shape, axis):
    host = np.full(shape, -0.0, np.float32)
    _same(kd.sum(kd.asarray(host), axis=axis, initial=-0.0).numpy(), np.sum(host, axis=axis, initial=-0.0))
    _same(kd.sum(kd.asarray(host), axis=axis, initial=-0.0, dtype=np.float64, keepdims=True).numpy(),
          np.sum(host, axis=axis, initial=-0.0, dtype=np.float64, keepdims=True))
    ints = np.zeros(shape, np.int32)
    _same(kd.sum(kd.asarray(ints), axis=axis, initial=-3).numpy(), np.sum(ints, axis=axis, initial=-3))


def test_masked_and_views():
    host = np.array([[-0.0, 1.0, -0.0], [-0.0, -0.0, 2.0]])
    where = np.array([True, False, True])
    got = kd.sum(kd.asarray(host)[:, ::2].T, axis=1, initial=-0.0, where=kd.asarray([[True, False], [True, True]]))
    _same(got.numpy(), np.sum(host[:, ::2].T, axis=1, initial=-0.0, where=[[True, False], [True, True]]))
    _same(kd.sum(kd.asarray(host), axis=1, initial=-0.0, where=kd.asarray(where)).numpy(),
          np.sum(host, axis=1, initial=-0.0, where=where))
