"""``clip`` with one Python scalar bound and one array bound takes the dtype of NumPy's three-operand loop
(found by differential fuzzing): it clipped pairwise, so the scalar took a dtype beside ``a`` alone first
(``clip(bool_a, -5, float32_b)`` was float64, NumPy's float32; ``clip(bool_a, 0, uint8_b)`` int32, NumPy's
uint8; ``clip(uint8_a, 0.4, np.float16(3))`` float32, NumPy's float16)."""

import numpy as np
import pytest

import kdsl as kd

B = np.array([True, False, True])
U8 = np.array([1, 200, 7], np.uint8)
I16 = np.array([-3, 50, 0], np.int16)
F16 = np.array([0.5, 9.0, -0.0], np.float16)
F32 = np.array([1.5, -2.0, np.nan], np.float32)

CASES = [(B, -5, F32), (B, 0, U8), (B, F32, 1), (B, np.uint16([3, 0, 1]), 1), (U8, 0.4, F16), (U8, 0.4, np.float16(3)),
         (U8, 2, np.uint16([2, 9, 300])), (F16, 5.6, np.uint16([2, 9, 1])), (I16, F16, 2), (I16, 7, np.int8([1, 2, 3])),
         (F32, -1, np.float16(0.5)), (B, 0, np.int8([1, 0, -1])), (U8[::-1], -1, U8), (F16[::2], 1, F32[::2])]


def _kd(v):
    return kd.asarray(v) if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize(("a", "lo", "hi"), CASES)
def test_one_scalar_bound_beside_an_array_bound(a, lo, hi):
    want = np.clip(a, lo, hi)
    got = kd.clip(_kd(a), _kd(lo), _kd(hi)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    swapped = kd.clip(_kd(a), min=_kd(lo), max=_kd(hi)).numpy()  # the standard's spelling: the same loop
    assert swapped.dtype == want.dtype


def test_scalar_bound_out_of_the_resolved_range_raises():
    with pytest.raises(OverflowError):
        np.clip(U8, 300, U8)
    with pytest.raises(OverflowError):
        kd.clip(kd.asarray(U8), 300, kd.asarray(U8))


@pytest.mark.parametrize(("a", "lo", "hi"), [(U8, 1, 5), (F32, 0.5, None), (I16, None, 3)])
def test_scalar_bounds_alone_keep_kdsls_weak_rule(a, lo, hi):
    got = kd.clip(kd.asarray(a), lo, hi)
    assert got.dtype == a.dtype
