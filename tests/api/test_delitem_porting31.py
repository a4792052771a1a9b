"""`del a[i]` raises NumPy's ValueError "cannot delete array elements" for kdsl arrays and kd.ma arrays of any
shape, key and dtype, and leaves the array as it was (Python's fallback was a TypeError; tests/porting)."""

import numpy as np
import pytest

import kdsl as kd

KEYS = [0, -1, slice(None), slice(1, None, 2), (0, 1), (slice(None), 1), [0, 1], Ellipsis]


def _deleted(a, key):
    with pytest.raises(Exception) as info:
        del a[key]
    return info.type, str(info.value)


@pytest.mark.parametrize("key", KEYS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "complex64"])
def test_del_item_is_numpys_value_error(key, dtype):
    host = np.arange(6).reshape(2, 3).astype(dtype)
    a = kd.asarray(host)
    assert _deleted(a, key) == _deleted(host.copy(), key) == (ValueError, "cannot delete array elements")
    np.testing.assert_array_equal(a.numpy(), host)


def test_del_item_of_zero_d_empty_view_and_masked():
    for host in (np.array(2.5), np.zeros((0, 3)), np.arange(8.0)[::2]):
        with pytest.raises(ValueError, match="cannot delete array elements"):
            del kd.asarray(host)[...]
    m = kd.ma.masked_equal(kd.asarray(np.arange(4.0)), 2.0)
    with pytest.raises(ValueError, match="cannot delete array elements"):
        del m[0]
    assert m.count() == 3 and m.filled(-1).tolist() == [0.0, 1.0, -1.0, 3.0]
    with pytest.raises(ValueError, match="cannot delete array elements"):
        del np.ma.masked_equal(np.arange(4.0), 2.0)[0]
