"""Narrower integers promoted to int64/uint64 inside a fused kernel, then compared (found by the array API suite).

lavapipe (Mesa 22.3) miscompiled comparisons of a plain GLSL ``int64_t(x)`` of a 32-bit ``int x``
(``int64_t(x) < 0l`` was false and ``int64_t(x) >= 64l`` true for every x), so ``int64 // int8`` rounded toward
zero and ``int64 >> int8`` gave -1: each op whose helper compares its operands was wrong although the promoted
value itself was right.
kdsl now widens by the two words (``kd_sext_l``); these tests check the ops against NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

X64 = np.array([-374, 31398, 230551, -18573600, 7, -7, 0, -3037000499], np.int64)
SMALL = np.array([5, -5, 2, -2, 3, -1, 1, 7])
OPS = {
    "floor_divide": np.floor_divide, "remainder": np.remainder, "right_shift": np.right_shift,
    "left_shift": np.left_shift, "maximum": np.maximum, "minimum": np.minimum, "less": np.less,
    "greater_equal": np.greater_equal,
}


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32])
def test_int64_with_narrower_operand(name: str, dtype: type) -> None:
    small = SMALL.astype(dtype) if np.dtype(dtype).kind == "i" else np.abs(SMALL).astype(dtype)
    expected = OPS[name](X64, small)
    got = getattr(kd, name)(kd.asarray(X64), kd.asarray(small))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.tolist(), expected)


@pytest.mark.parametrize("shape_x, shape_s", [((8,), ()), ((1, 8), (3, 1)), ((8,), (1, 1, 1))])
def test_floor_divide_and_shift_broadcast(shape_x: tuple[int, ...], shape_s: tuple[int, ...]) -> None:
    # the suite's failing examples: int64 data with an int8 scalar or a broadcast (1, 1, 1) divisor
    x = X64.reshape(shape_x)
    s = np.resize(np.array([-5, 5, 3], np.int8), shape_s) if shape_s else np.int8(-5)
    for op in (np.floor_divide, np.right_shift):
        expected = op(x, np.abs(s) if op is np.right_shift else s)
        got = op(kd.asarray(x), kd.asarray(np.abs(s) if op is np.right_shift else s))
        np.testing.assert_array_equal(np.asarray(got), expected)


def test_inplace_and_strided_operands() -> None:
    x = X64.copy()
    a = kd.asarray(x)
    s = np.array([5, 9, 2, 9, 3, 9, 1, 9, 6, 9, 4, 9, 2, 9, 1, 9], np.int8)[::2]  # a non-contiguous view
    a >>= kd.asarray(np.array([5, 9, 2, 9, 3, 9, 1, 9, 6, 9, 4, 9, 2, 9, 1, 9], np.int8))[::2]
    x >>= s
    np.testing.assert_array_equal(np.asarray(a), x)


@pytest.mark.parametrize("to", [np.int64, np.uint64])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])
def test_widened_values_compare_like_numpy(dtype: type, to: type) -> None:
    v = np.array([5, -5, 2, -2, 0, 100, -128, 127], dtype)
    k = kd.asarray(v).astype(to)
    for threshold in (0, 3, 64):
        np.testing.assert_array_equal(np.asarray(k < threshold), v.astype(to) < threshold)
        np.testing.assert_array_equal(np.asarray(k >= threshold), v.astype(to) >= threshold)
    np.testing.assert_array_equal(np.asarray(kd.where(k < 0, k, -k) if to is np.int64 else k), (
        np.where(v.astype(to) < 0, v.astype(to), -v.astype(to)) if to is np.int64 else v.astype(to)))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint32, np.int64])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_sorter_of_any_integer_dtype(dtype: type, side: str) -> None:
    # the sorter's entries were clamped as int64_t(int): the comparison this file is about
    a = np.array([3.0, 1.0, 2.0, 5.0, 2.0, -0.0, np.nan], np.float32)
    sorter = np.argsort(a, kind="stable").astype(dtype)
    v = np.array([[0.0, 2.0], [2.5, np.inf]], np.float32)
    got = kd.searchsorted(kd.asarray(a), kd.asarray(v), side=side, sorter=kd.asarray(sorter))
    np.testing.assert_array_equal(np.asarray(got), np.searchsorted(a, v, side=side, sorter=sorter))
