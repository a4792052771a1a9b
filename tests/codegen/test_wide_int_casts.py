"""64-bit integers cast to float32/float64 round as NumPy's casts do, also where the next cast in the same kernel
converts back (lavapipe folded ``int64 -> float32 -> int64`` to the identity and ``int64 -> float64 -> float32``
to one rounding; kdsl rounds in integer steps first: ``kd_tof32_l`` in ``kdsl/codegen/helpers.py``)."""

import itertools
import warnings

import numpy as np
import pytest

import kdsl as kd

VALUES = {
    "int64": np.array([0, 5, -5, 2**24 + 1, -(2**24) - 1, 16777219, 2**25 + 3, 2**40 + 1, -(2**31) - 3, 2**53 + 1,
                       2**62 + 2**38 + 1, 2**62 + 2**39 + 2**38, -(2**63), 2**63 - 1, 2**54 + 2**30 + 2**29], np.int64),
    "uint64": np.array([0, 7, 2**24 + 1, 16777219, 2**40 + 1, 2**53 + 1, 2**63 + 2**39 + 1, 2**64 - 1,
                        2**63 + 2**39, 2**62 + 2**38 + 1], np.uint64),
}


def _finite_in(values: np.ndarray, dtype) -> np.ndarray:
    """Where converting ``values`` (floats) to ``dtype`` is defined (NumPy's out-of-range casts are undefined)."""
    if np.dtype(dtype).kind not in "iu":
        return np.ones(values.shape, bool)
    info = np.iinfo(dtype)
    wide = values.astype(np.float64)
    return np.isfinite(wide) & (wide >= float(info.min)) & (wide < float(info.max))


@pytest.mark.parametrize("src, mid, dst", [(s, m, d) for s, m, d in itertools.product(
    VALUES, ["float32", "float64"], ["int64", "uint64", "int32", "float32", "float64"]) if m != d])
def test_round_trip_keeps_numpys_rounding(src, mid, dst):
    x = VALUES[src]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns on its out-of-range casts
        middle = x.astype(mid)
        want = middle.astype(dst)
    got = kd.asarray(x).astype(getattr(kd, mid)).astype(getattr(kd, dst)).numpy()
    fine = _finite_in(middle, dst)
    assert np.array_equal(got[fine], want[fine])


@pytest.mark.parametrize("src", list(VALUES))
@pytest.mark.parametrize("dst", ["float32", "float64"])
def test_single_cast_is_correctly_rounded(src, dst):
    x = VALUES[src]
    assert np.array_equal(kd.asarray(x).astype(getattr(kd, dst)).numpy(), x.astype(dst))


def test_fused_expression_keeps_the_float32_rounding():
    x = VALUES["int64"]
    got = (kd.asarray(x).astype(kd.float32).astype(kd.int64) - kd.asarray(x)).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = x.astype(np.float32).astype(np.int64) - x
    fine = _finite_in(x.astype(np.float32), np.int64)
    assert np.array_equal(got[fine], want[fine]) and np.any(want[fine] != 0)


@pytest.mark.parametrize("n", [1, 1000, 4097])
def test_random_int64_round_trips(n):
    x = np.random.default_rng(n).integers(-(2**62), 2**62, n, dtype=np.int64)
    got = kd.asarray(x).astype(kd.float32).astype(kd.int64).numpy()
    assert np.array_equal(got, x.astype(np.float32).astype(np.int64))
