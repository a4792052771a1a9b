"""Distances in ulps between float arrays, for the accuracy tests of this folder (imported as ``from ulps import
ulps``, as ``spirv_words`` is).

Example:
    >>> import numpy as np
    >>> ulps(np.array([1.0, np.nan, 0.0]), np.array([np.nextafter(1.0, 2.0), np.nan, -0.0])).tolist()
    [1.0, 0.0, 0.0]
    >>> assert_special_values(np.array([np.nan, -0.0, 1.0]), np.array([np.nan, -0.0, 1.0]))
"""

from __future__ import annotations

import numpy as np


def ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """How many representable floats of ``got``'s dtype (float64 or float32) lie between each pair: neighbours are
    1 apart, +0.0 and -0.0 are 0 apart, NaN against NaN 0 and NaN against a number inf. Far-apart pairs (past
    2**53 ulps) are rough, as a float64 count."""
    got, want = np.asarray(got), np.asarray(want)
    signed = np.int64 if got.dtype == np.float64 else np.int32

    def ordered(v: np.ndarray) -> np.ndarray:  # the floats' order as integers, -0.0 and +0.0 both 0
        i = v.view(signed).astype(np.int64)
        return np.where(i < 0, np.iinfo(signed).min - i, i)

    og, ow = ordered(got), ordered(want.astype(got.dtype))
    with np.errstate(over="ignore"):  # int64 differences are exact where they do not wrap
        dist = np.where(np.sign(og) == np.sign(ow), np.abs(og - ow).astype(np.float64),
                        np.abs(og.astype(np.float64) - ow.astype(np.float64)))
    return np.where(np.isnan(got) & np.isnan(want), 0.0, np.where(np.isnan(got) | np.isnan(want), np.inf, dist))


def assert_special_values(got: np.ndarray, want: np.ndarray) -> None:
    """``got`` has NaN where NumPy's ``want`` has, the same signs elsewhere (-0.0 kept) and is within 1 ulp."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    num = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[num]), np.signbit(want[num]))
    assert ulps(got[num], want[num]).max() <= 1
