"""Reductions give new arrays, as NumPy's do: with ``keepdims=True`` the result owns its data (``base`` None,
``flags.owndata``), where kdsl's used to be a reshaped view of its temporary; and a 0-d ``nanquantile`` /
``nanpercentile`` stands for a NumPy scalar (``m += 1`` leaves another name bound to it unchanged)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
DATA[0, 1, 2] = np.nan

OWNED_WITH_KEEPDIMS = ["sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax", "argmin",
                       "nansum", "nanmax", "nanmean", "nanvar", "count_nonzero"]


@pytest.mark.parametrize("name", OWNED_WITH_KEEPDIMS)
@pytest.mark.parametrize("axis", [0, -1, (0, 2), None])
def test_keepdims_results_own_their_data(name, axis):
    if name in ("argmax", "argmin") and isinstance(axis, tuple):
        axis = 1  # (one axis only)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(DATA, axis=axis, keepdims=True)
        got = getattr(kd, name)(kd.asarray(DATA), axis=axis, keepdims=True)
    assert want.base is None and want.flags.owndata  # (what NumPy does, checked)
    assert got.base is None and got.flags.owndata
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, equal_nan=True)
    assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("name, q", [("nanquantile", 0.3), ("nanpercentile", 30), ("quantile", 0.3),
                                     ("percentile", 30), ("nanmedian", None), ("median", None)])
def test_a_zero_d_quantile_is_a_value(name, q):
    x = DATA[1]  # (no NaN: quantile and median give numbers)
    args = () if q is None else (q,)
    want = getattr(np, name)(x, *args)
    m = getattr(kd, name)(kd.asarray(x), *args)
    kept = m
    m += 1
    assert float(kept) == pytest.approx(float(want), rel=1e-6)
    assert float(m) == pytest.approx(float(want) + 1, rel=1e-6)
    assert m.base is None
