"""``Array.astype``'s NumPy keywords (``order``, ``casting``, ``subok``, ``copy``), against ``ndarray.astype``."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

RULES = ["no", "equiv", "safe", "same_kind", "unsafe"]
PAIRS = [(np.float32, np.int32), (np.int8, np.int16), (np.int32, np.float32), (np.float32, np.float64),
         (np.float64, np.float32), (np.uint8, np.int8), (np.int32, np.int32), (np.bool_, np.float32)]


@pytest.mark.parametrize("src, dst", PAIRS)
@pytest.mark.parametrize("casting", RULES)
def test_casting_rule_like_numpy(src: type, dst: type, casting: str) -> None:
    host = np.array([[0, 1, 3], [2, 0, 1]]).astype(src)[:, ::2]  # a strided view
    a = kd.asarray(host)
    try:
        expected = host.astype(dst, casting=casting)  # type: ignore[call-overload]
    except TypeError:
        with pytest.raises(TypeError, match="casting='unsafe'"):
            a.astype(dst, casting=casting)
        return
    got = a.astype(dst, casting=casting)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("shape", [(0,), (3,), (2, 1, 3)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
def test_copy_false_returns_self_only_when_nothing_changes(shape: tuple[int, ...], dtype: type) -> None:
    host = (np.arange(int(np.prod(shape))).reshape(shape) % 3).astype(dtype)
    a = kd.asarray(host)
    assert (a.astype(dtype, copy=False) is a) == (host.astype(dtype, copy=False) is host)
    assert a.astype(dtype) is not a and host.astype(dtype) is not host
    other = np.float64 if dtype is not np.float64 else np.float32
    b = a.astype(other, copy=False)
    assert b is not a and b.dtype == host.astype(other).dtype
    np.testing.assert_array_equal(np.asarray(b), host.astype(other))


def test_copy_true_is_independent_of_the_source() -> None:
    a = kd.asarray(np.array([1.0, -0.0, np.nan], np.float32))
    b = a.astype(kd.float32)
    a[0] = 5.0
    np.testing.assert_array_equal(np.asarray(b), np.array([1.0, -0.0, np.nan], np.float32))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_orders_accepted(order: str) -> None:
    host = np.arange(6.0, dtype=np.float32).reshape(2, 3).T
    np.testing.assert_array_equal(np.asarray(kd.asarray(host).astype(np.int16, order=order, subok=False)),
                                  host.astype(np.int16, order=order, subok=False))


def test_bad_keywords_raise_what_numpy_raises() -> None:
    a, host = kd.ones(3), np.ones(3, np.float32)
    for kwargs in ({"order": "Q"}, {"casting": "bogus"}):
        with pytest.raises(ValueError):
            host.astype(np.int32, **kwargs)  # type: ignore[call-overload]
        with pytest.raises(ValueError, match="order" if "order" in kwargs else "casting"):
            a.astype(np.int32, **kwargs)


_SAME_VALUE_CASES = [
    ([1.0, 2.0, 2.5], "int32"), ([1.0, 2.0], "int64"), ([1.0, 1e40], "float32"), ([0.1], "float32"),
    ([0.5, -0.25], "float32"), ([1, 300], "int8"), ([1, 127], "int8"), ([-1, 2], "uint8"), ([3, 2], "uint8"),
    ([np.nan, np.inf, -np.inf], "float16"), ([0.0, 2.0], "bool"), ([2**24 + 1], "float32"), ([], "int8"),
    ([70000.0], "float16"), ([-0.0], "int32"),
]


@pytest.mark.parametrize("values,dtype", _SAME_VALUE_CASES)
@pytest.mark.parametrize("source", ["float64", "int64"])
@pytest.mark.parametrize("view", [False, True])
def test_astype_same_value(values, dtype, source, view):
    """NumPy 2.4's casting='same_value' (ndarray.astype's docstring): ValueError when a value would change."""
    host = np.asarray(values, dtype=np.float64)
    if source == "int64":
        host = host[np.isfinite(host) & (host == np.round(host))].astype(np.int64)
    if view:  # every other element of a doubled array
        host = np.repeat(host, 2)[::2]
        a = kd.asarray(np.repeat(host, 2))[::2]
    else:
        a = kd.asarray(host)
    try:
        want = host.astype(dtype, casting="same_value")
    except ValueError:
        with pytest.raises(ValueError, match="same_value"):
            a.astype(dtype, casting="same_value")
        return
    got = a.astype(dtype, casting="same_value")
    assert got.dtype == kd.dtype.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_astype_same_value_same_dtype_and_copy():
    a = kd.asarray([1.5, 2.5])
    assert a.astype(a.dtype, casting="same_value", copy=False) is a
    b = a.astype(a.dtype, casting="same_value")
    assert b is not a and b.tolist() == [1.5, 2.5]
