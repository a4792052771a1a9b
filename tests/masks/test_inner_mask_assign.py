"""``a[:, mask] = v`` (a boolean mask after slices) against NumPy: values of every broadcastable shape, masks
from NumPy and kdsl, dtypes, views that write through to their base, and NumPy's errors."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(7)


def _both(a: np.ndarray, key: tuple, value):
    want = a.copy()
    want[key] = value
    got = kd.asarray(a)
    got[tuple(kd.asarray(k) if isinstance(k, np.ndarray) else k for k in key)] = \
        kd.asarray(value) if isinstance(value, np.ndarray) else value
    return got.numpy(), want


MASK = np.array([True, False, True, True, False])


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16", "bool", "complex64"])
@pytest.mark.parametrize("case", [
    ((3, 5), (slice(None), MASK), 1),                                    # a scalar
    ((3, 5), (slice(None), MASK), np.arange(3).reshape(3, 1)),           # one value per row
    ((3, 5), (slice(None), MASK), np.arange(3)),                         # one value per selected column
    ((3, 5), (slice(1, None), MASK), np.arange(6).reshape(2, 3)),        # one per selected element
    ((3, 5, 2), (slice(None), MASK, 0), np.arange(9).reshape(3, 3)),     # an int after the mask
    ((3, 5, 2), (slice(None, None, 2), MASK), np.arange(12).reshape(2, 3, 2)),
    ((3, 5, 2), (slice(None), MASK), np.arange(2)),                      # broadcast over the trailing axis
    ((2, 3, 5), (slice(None), slice(None), MASK), np.arange(18).reshape(1, 2, 3, 3)),  # extra leading 1
    ((3, 5), (slice(None), np.zeros(5, bool)), 4),                       # nothing selected
    ((3, 5), (slice(None), np.ones(5, bool)), np.arange(15).reshape(3, 5)),
])
def test_matches_numpy(dtype, case):
    shape, key, value = case
    a = (RNG.standard_normal(shape) * 4).astype(dtype)
    value = value.astype(dtype) if isinstance(value, np.ndarray) else value
    got, want = _both(a, key, value)
    np.testing.assert_array_equal(got, want)


def test_a_two_axis_mask_after_a_slice():
    a = RNG.standard_normal((3, 4, 2)).astype(np.float32)
    m = RNG.random((4, 2)) > 0.4
    for value in (2.5, np.arange(3 * m.sum(), dtype=np.float32).reshape(3, -1)):
        got, want = _both(a, (slice(None), m), value)
        np.testing.assert_array_equal(got, want)


def test_through_a_transposed_view_writes_the_base():
    host = RNG.standard_normal((5, 3)).astype(np.float32)
    a = kd.asarray(host)
    a.T[:, kd.asarray(MASK)] = -1.0
    want = host.copy()
    want.T[:, MASK] = -1.0
    np.testing.assert_array_equal(a.numpy(), want)


def test_numpys_errors():
    a = kd.zeros((3, 5))
    with pytest.raises(ValueError, match=r"shape mismatch: value array of shape \(4,\) could not be broadcast to "
                                         r"indexing result of shape \(3,3\)"):  # NumPy 2.4's words
        a[:, kd.asarray(MASK)] = kd.ones(4)
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 1"):
        a[:, np.ones(4, bool)] = 1.0
    with pytest.raises(IndexError, match="too many indices"):
        a[:, np.ones((5, 2), bool)] = 1.0
    with pytest.raises(ValueError, match="broadcast"):
        a[:, MASK] = kd.ones((2, 3, 3))
    np.testing.assert_array_equal(a.numpy(), np.zeros((3, 5)))
