"""NumPy's ``where=``, ``initial=`` and ``out=`` of reductions (kdsl/frontend/array/reduction_where.py) and the
methods' NumPy signatures, against NumPy."""

import numpy as np
import pytest

import kdsl as kd

# NumPy (the oracle) warns where a where= mask leaves nothing to average
pytestmark = pytest.mark.filterwarnings("ignore:(Mean of empty slice|invalid value encountered):RuntimeWarning")

WHERES = {"elementwise": lambda h: h > 0, "row": lambda h: np.array([True, False, True, True]),
          "column": lambda h: np.array([[True], [False], [True]]), "all false": lambda h: np.zeros(h.shape, bool)}


def _data(dtype="float32"):
    return np.random.default_rng(0).uniform(-3, 3, (3, 4)).round(1).astype(dtype)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "any", "all"])
@pytest.mark.parametrize("where", WHERES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_where(name, where, axis, keepdims):
    host = _data()
    w = WHERES[where](host)
    expected = getattr(np, name)(host, axis=axis, keepdims=keepdims, where=w)
    got = getattr(kd, name)(kd.asarray(host), axis=axis, keepdims=keepdims, where=kd.asarray(w))
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.filterwarnings("ignore:Degrees of freedom:RuntimeWarning")
@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("where", ["elementwise", "row", "column"])
@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_var_std_where(name, where, ddof, axis):
    host = _data()
    w = WHERES[where](host)
    expected = getattr(np, name)(host, axis=axis, ddof=ddof, where=w)
    got = getattr(kd.asarray(host), name)(axis=axis, ddof=ddof, where=w)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("where", ["elementwise", "row", "all false"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_max_min_where_initial(name, where, axis, dtype):
    host = _data("float32").astype(dtype) if dtype == "float32" else (_data() * 10).astype(dtype)
    w = WHERES[where](host)
    expected = getattr(np, name)(host, axis=axis, where=w, initial=-1)
    got = getattr(kd.asarray(host), name)(axis=axis, where=w, initial=-1)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("shape", [(3, 4), (0,), (2, 0)])
def test_initial(name, shape):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) / 4 + 0.5
    for axis in [None, -1]:
        expected = getattr(np, name)(host, axis=axis, initial=2.0)
        got = getattr(kd, name)(kd.asarray(host), axis=axis, initial=2.0)
        assert got.shape == np.shape(expected)
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)


def test_where_on_strided_views_and_nan():
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    host[0, 0] = np.nan
    a = kd.asarray(host)[:, ::2].T
    w = np.isfinite(host[:, ::2].T)
    np.testing.assert_allclose(kd.sum(a, where=w, axis=1).numpy(), np.sum(host[:, ::2].T, where=w, axis=1))
    np.testing.assert_allclose(a.mean(where=w).numpy(), host[:, ::2].T.mean(where=w), rtol=1e-6)


def test_out():
    out = kd.zeros(4)
    host = _data()
    assert kd.sum(kd.asarray(host), axis=0, out=out) is out
    np.testing.assert_allclose(out.numpy(), host.sum(axis=0), rtol=1e-6)
    kd.asarray(host).max(0, out)  # NumPy's positional order of the methods: axis, out
    np.testing.assert_allclose(out.numpy(), host.max(0))
    with pytest.raises(ValueError, match="shape"):
        kd.sum(kd.asarray(host), out=out)
    with pytest.raises(TypeError, match="kdsl Array"):
        kd.sum(kd.asarray(host), axis=0, out=np.zeros(4, np.float32))


def test_numpy_dispatch_and_errors():
    host = _data()
    a = kd.asarray(host)
    got = np.sum(a, where=kd.asarray(host > 0), axis=1)
    assert isinstance(got, kd.Array)
    np.testing.assert_allclose(got.numpy(), np.sum(host, where=host > 0, axis=1), rtol=1e-6)
    with pytest.raises(ValueError, match="initial"):
        a.max(where=host > 0)
    with pytest.raises(ValueError, match="does not broadcast"):
        a.sum(where=np.ones((2, 3), bool))


def test_shape_assignment():
    a, host = kd.arange(6), np.arange(6)
    a.shape = (3, -1)
    host.shape = (3, -1)
    np.testing.assert_array_equal(a.numpy(), host)
    b, hb = kd.zeros((2, 6)), np.zeros((2, 6), np.float32)
    r, hr = b[1], hb[1]
    r.shape, hr.shape = (2, 3), (2, 3)
    r[0] = 5
    hr[0] = 5
    np.testing.assert_array_equal(b.numpy(), hb)
    with pytest.raises(ValueError, match="cannot reshape"):
        a.shape = (4, 2)
