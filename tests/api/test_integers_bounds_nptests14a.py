"""Generator.integers at the edges of its bounds, against NumPy: whole 64-bit ranges with array bounds (they drew
one constant), uint64 bounds at and above 2**63 (OverflowError), draws of nothing (NumPy checks no bounds then)
and NumPy's messages for integers(high) and reversed array bounds."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    """('raise', type, message) or ('ok', shape, dtype) of a call."""
    try:
        r = call()
    except (ValueError, OverflowError, TypeError) as e:
        return ("raise", type(e), str(e))
    return ("ok", np.shape(r), np.asarray(r).dtype)


@pytest.mark.parametrize("low,high,endpoint,dtype", [
    ([-2**63], [2**63], False, np.int64), ([-2**63], 2**63 - 1, True, np.int64),
    ([0], [2**64], False, np.uint64), (0, [2**64 - 1], True, np.uint64),
    (np.array([0, 2**63], dtype=np.uint64), 2**64, False, np.uint64),
])
def test_whole_64_bit_ranges_with_array_bounds(low, high, endpoint, dtype):
    """Every bit pattern is possible: the draws spread over the range (NumPy's moments), not one constant."""
    x = kd.random.default_rng(5).integers(low, high, size=(4000, np.size(low)), endpoint=endpoint, dtype=dtype)
    assert x.dtype == np.dtype(dtype) and x.shape == (4000, np.size(low))
    v = x.numpy().astype(np.float64)
    lo = np.asarray(low, dtype=np.float64)
    hi = np.asarray(high, dtype=np.float64)
    assert len(np.unique(x.numpy())) > 3990
    # uniform on [lo, hi]: mean (lo + hi) / 2, sd (hi - lo) / sqrt(12); 6 standard errors
    assert np.all(np.abs(v.mean(axis=0) - (lo + hi) / 2) < 6 * (hi - lo) / np.sqrt(12 * 4000))


@pytest.mark.parametrize("low,high,dtype", [
    ([2**63], [2**64], np.uint64), ([2**64 - 3], [2**64 - 1], np.uint64), ([-5, 2**62], [-3, 2**62 + 2], np.int64),
    ([[1], [3]], np.array([5, 7, 9])[::2], np.int16),
])
def test_array_bounds_near_the_top(low, high, dtype):
    """Bounds above 2**63 (uint64) keep their bits; results stay inside [low, high) as NumPy's."""
    x = kd.random.default_rng(2).integers(low, high, size=None, dtype=dtype).numpy()
    want = np.random.default_rng(2).integers(low, high, dtype=dtype)
    assert x.shape == want.shape and x.dtype == want.dtype
    lo = np.broadcast_to(np.asarray(low, dtype=object), x.shape)
    hi = np.broadcast_to(np.asarray(high, dtype=object), x.shape)
    assert np.all((x.astype(object) >= lo) & (x.astype(object) < hi))


@pytest.mark.parametrize("endpoint", [False, True])
@pytest.mark.parametrize("args,kwargs", [
    ((0, 0), {"size": (3, 0)}), ((5, 0), {"size": 0}), ((-129, 0), {"size": (0, 2), "dtype": np.int8}),
    (([5], [0]), {"size": (0, 1)}), ((5, 0), {"size": 0, "dtype": bool}), ((np.zeros((2, 0), int), 3), {}),
    ((-2,), {}), (([-2, 4],), {}), ((0,), {}), (([3], [1]), {}), (([0, 5], [1, 2]), {}), ((-1, -1), {}),
    ((np.array([1, 9, 3])[::2], 10), {"dtype": np.uint8}), ((np.array([-1]), 10), {"dtype": np.uint8}),
])
def test_integers_checks_and_empty_draws(endpoint, args, kwargs):
    """The same error (type and message for these) or the same shape and dtype as NumPy."""
    want = _outcome(lambda: np.random.default_rng(0).integers(*args, endpoint=endpoint, **kwargs))
    got = _outcome(lambda: kd.random.default_rng(0).integers(*args, endpoint=endpoint, **kwargs))
    if want[0] == "raise" and got[0] == "raise":
        assert got[1] is want[1]
        if want[2].startswith("high <") or isinstance(args[0], list):  # integers(high); reversed array bounds
            assert got[2] == want[2]
    else:
        assert got == want
