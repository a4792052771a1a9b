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
