"""NumPy functions and ufuncs called on kdsl arrays run kdsl's (lazy, on the device) or raise TypeError."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine.programs import stats

DATA = np.array([[1.0, -2.0, np.nan], [0.0, -0.0, 4.5]], np.float32)


def _no_transfers(fn):
    """Run ``fn`` and check it built a lazy kdsl array without moving data between host and device."""
    before = (stats["uploads"], stats["downloads"])
    out = fn()
    assert isinstance(out, kd.Array)
    assert (stats["uploads"], stats["downloads"]) == before
    return out


@pytest.mark.parametrize("ufunc", [np.exp, np.sqrt, np.negative, np.isnan, np.signbit, np.floor])
def test_unary_ufuncs_dispatch(ufunc):
    a = kd.asarray(DATA)
    out = _no_transfers(lambda: ufunc(a))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(out.numpy(), ufunc(DATA), rtol=2e-6, equal_nan=True)


@pytest.mark.parametrize("ufunc", [np.add, np.maximum, np.hypot, np.copysign, np.less, np.subtract])
def test_binary_ufuncs_dispatch_with_numpy_operands(ufunc):
    a, b = kd.asarray(DATA), kd.asarray(DATA[::-1].copy())
    np.testing.assert_allclose(_no_transfers(lambda: ufunc(a, b)).numpy(), ufunc(DATA, DATA[::-1]), rtol=2e-6,
                               equal_nan=True)
    np.testing.assert_allclose(ufunc(DATA[0], a).numpy(), ufunc(DATA[0], DATA), rtol=2e-6, equal_nan=True)


def test_ufunc_methods_out_and_dtype():
    a = kd.asarray(DATA[:, :2])
    np.testing.assert_allclose(np.add.reduce(a).numpy(), np.add.reduce(DATA[:, :2]))
    np.testing.assert_allclose(np.maximum.reduce(a, axis=1).numpy(), np.maximum.reduce(DATA[:, :2], axis=1))
    np.testing.assert_allclose(np.add.accumulate(a, axis=1).numpy(), np.add.accumulate(DATA[:, :2], axis=1))
    out = kd.zeros((2, 2))
    assert np.multiply(a, 2, out=out) is out and np.array_equal(out.numpy(), DATA[:, :2] * 2)
    assert np.add(a, 1, dtype=np.float64).dtype is kd.float64


@pytest.mark.parametrize("call", [lambda a: np.sum(a), lambda a: np.mean(a, axis=0), lambda a: np.concatenate([a, a]),
                                  lambda a: np.stack([a, a], axis=1), lambda a: np.transpose(a),
                                  lambda a: np.where(a > 0, a, 0), lambda a: np.pad(a, 1), lambda a: np.tril(a),
                                  lambda a: np.nansum(a, axis=1), lambda a: np.linalg.matmul(a, a.T)])
def test_functions_dispatch(call):
    a = kd.asarray(DATA)
    got = _no_transfers(lambda: call(a))
    np.testing.assert_allclose(got.numpy(), call(DATA), rtol=2e-6, equal_nan=True)


def test_metadata_functions_and_explicit_conversion():
    a = kd.asarray(DATA)
    assert np.shape(a) == (2, 3) and np.ndim(a) == 2 and np.size(a) == 6
    host = np.asarray(a)
    assert isinstance(host, np.ndarray) and np.array_equal(host, DATA, equal_nan=True)


@pytest.mark.parametrize("call,name", [(lambda a: np.isnat(a), "isnat"), (lambda a: np.ldexp.reduce(a), "reduce"),
                                       (lambda a: np.busday_count(a, a), "busday_count"),
                                       (lambda a: np.ldexp.reduceat(a, [0]), "reduceat"),
                                       (lambda a: np.frompyfunc(abs, 1, 1)(a), "abs \\(vectorized\\)")])
def test_missing_functions_raise_naming_them(call, name):
    with pytest.raises(TypeError, match=name):
        call(kd.asarray(DATA))


def test_ufunc_methods_and_where_run_kdsls():
    host = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    a = kd.asarray(host)
    got = np.add.outer(a[0], a[1])
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), np.add.outer(host[0], host[1]))
    out, ref = kd.ones((2, 3)), np.ones((2, 3), np.float32)
    np.multiply(a, 10, out=out, where=a > 0)
    np.multiply(host, 10, out=ref, where=host > 0)
    np.testing.assert_array_equal(out.numpy(), ref)
    np.testing.assert_array_equal(np.maximum.accumulate(a, axis=1).numpy(), np.maximum.accumulate(host, axis=1))
    np.testing.assert_array_equal(np.add.reduceat(a, [0, 2, 1], axis=1).numpy(),
                                  np.add.reduceat(host, [0, 2, 1], axis=1))
    b, hb = kd.zeros(3), np.zeros(3, np.float32)
    np.add.at(b, [0, 0, 2], 1.0)
    np.add.at(hb, [0, 0, 2], 1.0)
    np.testing.assert_array_equal(b.numpy(), hb)


def test_numpy_out_is_refused():
    host = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match="np.asarray"):
        np.add(host, kd.ones(3), out=host)
