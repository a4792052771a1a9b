"""A NumPy integer scalar stored by a basic index into a signed integer array (``a[0] = np.int64(40000)``,
``a[:] = v``, ``a[1:, ::2] = v``, ``a.fill(v)``) must fit the array's dtype: NumPy raises OverflowError ("Python
integer 40000 out of bounds for int16"), where kdsl wrapped it to -25536. Masks, index arrays, ``put`` and
unsigned arrays wrap it in both (kdsl/frontend/array/stored_values.checked_value)."""

import numpy as np
import pytest

import kdsl as kd

SIGNED = ["int8", "int16", "int32", "int64"]
VALUES = [np.int64(40000), np.int64(-1), np.uint16(40000), np.int32(300), np.int64(200), np.uint64(300),
          np.int16(-5), np.uint64(2 ** 63), np.int64(2 ** 40), np.uint8(200), np.int64(-129), np.bool_(True)]


def _basic_stores(xp, dtype, v):
    """What each basic store of ``v`` leaves (or the error type it raises), on a 2-d array and a view."""
    out = []
    for key in (0, (0, 1), slice(None), (slice(1, None), slice(None, None, 2)), Ellipsis, "fill", "view"):
        a = xp.zeros((3, 4), dtype=dtype)
        try:
            if key == "fill":
                a.fill(v)
            elif key == "view":
                a[::-1, 1:][1] = v
            else:
                a[key] = v
            out.append(np.asarray(a).tolist())
        except OverflowError:
            out.append("OverflowError")
    return out


@pytest.mark.parametrize("dtype", SIGNED + ["uint8", "uint16"])
def test_basic_stores_check_numpy_integer_scalars(dtype):
    for v in VALUES:
        assert _basic_stores(kd, dtype, v) == _basic_stores(np, dtype, v), repr(v)


@pytest.mark.parametrize("dtype", SIGNED)
def test_masks_index_arrays_and_put_still_wrap(dtype):
    v = np.int64(2 ** 40 + 40000)
    for store in (lambda a, xp: a.__setitem__(xp.asarray(np.array([True, False, True])), v),
                  lambda a, xp: a.__setitem__(xp.asarray(np.array([0, 2])), v),
                  lambda a, xp: xp.put(a, [1], v)):
        a, b = np.zeros(3, dtype), kd.zeros(3, dtype=dtype)
        store(a, np)
        store(b, kd)
        np.testing.assert_array_equal(b.numpy(), a)


def test_in_range_values_and_empty_regions():
    a = kd.zeros((2, 3), dtype=kd.int8)
    a[0] = np.int64(-128)
    a[1, 1:] = np.uint64(127)
    assert a.tolist() == [[-128, -128, -128], [0, 127, 127]]
    e = kd.zeros((0, 3), dtype=kd.int16)
    with pytest.raises(OverflowError, match="40000 out of bounds for int16"):
        e[:] = np.int64(40000)  # NumPy checks the value even when nothing is selected
    with pytest.raises(OverflowError):
        np.zeros((0, 3), np.int16)[:] = np.int64(40000)


def test_program_catches_the_overflow():
    """A sensor decoder stores readings into int16 and flags the ones that do not fit."""
    def decode(xp, raw):
        out = xp.zeros(len(raw), dtype=xp.int16)
        bad = []
        for i, r in enumerate(raw):
            try:
                out[i] = r
            except OverflowError:
                bad.append(i)
        return np.asarray(out).tolist(), bad

    raw = list(np.array([12, 40000, -7, -33000, 32767], dtype=np.int64))
    assert decode(kd, raw) == decode(np, raw) == ([12, 0, -7, 0, 32767], [1, 3])
