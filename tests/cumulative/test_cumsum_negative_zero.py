"""A running sum of nothing but -0.0 is -0.0, as NumPy's ``cumsum`` (which starts from the first element), on lines
long enough to cross subgroups, tiles and the scan of tile totals: the devices' subgroup additions start from +0.0.
"""

import numpy as np
import pytest

import kdsl as kd


def _same(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_array_equal(got, want)
    bad = np.flatnonzero(np.signbit(got) != np.signbit(want))
    assert bad.size == 0, f"signs of zeros differ from NumPy's at {bad[:8].tolist()}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 7, 100, 1000, 5000, 70_000, 300_000])
@pytest.mark.parametrize("plus_at", [None, 0, "middle", "last"])
def test_leading_negative_zeros(dtype, n, plus_at):
    """All -0.0 but one +0.0 (or none): the prefix before the +0.0 stays -0.0, everything from it on is 0.0."""
    h = np.full(n, -0.0, dtype)
    if plus_at is not None:
        h[{0: 0, "middle": n // 2, "last": n - 1}[plus_at]] = 0.0
    _same(kd.cumsum(kd.asarray(h)).numpy(), np.cumsum(h))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cancellation_and_values(dtype):
    """Values that cancel exactly give +0.0 from there on (round to nearest), as NumPy's sequential sum."""
    h = np.full(20_000, -0.0, dtype)
    h[5000], h[5001] = 1.5, -1.5
    _same(kd.cumsum(kd.asarray(h)).numpy(), np.cumsum(h))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_rows_columns_and_views(axis):
    h = np.full((3, 3000), -0.0, np.float32)
    h[1, 1000] = 0.0
    _same(kd.cumsum(kd.asarray(h), axis=axis).numpy(), np.cumsum(h, axis=axis))
    _same(kd.cumsum(kd.asarray(h)[:, ::2], axis=axis).numpy(), np.cumsum(h[:, ::2], axis=axis))


def test_empty_and_nan():
    _same(kd.cumsum(kd.asarray(np.zeros(0, np.float32))).numpy(), np.cumsum(np.zeros(0, np.float32)))
    h = np.full(5000, -0.0, np.float32)
    h[3000] = np.nan
    got, want = kd.cumsum(kd.asarray(h)).numpy(), np.cumsum(h)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    _same(got[:3000], want[:3000])
