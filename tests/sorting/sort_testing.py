"""Shared helpers of the sorting tests: host data with the awkward values of each dtype, and exact checks."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from kdsl.engine import plan as engine_plan
from kdsl.engine import sorting as engine_sorting

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
              "float32", "float64"]


def sample(shape, dtype, seed: int = 0, dups: bool = True) -> np.ndarray:
    """Deterministic data with many duplicates (stability shows) and, for floats, NaN/inf/-0.0/0.0 scattered."""
    rng = np.random.default_rng(seed)
    d = np.dtype(dtype)
    n = int(np.prod(shape))
    if d == np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if d.kind == "f":
        out = (rng.integers(-8, 8, n) / 4 if dups else rng.standard_normal(n)).astype(d)
        if n >= 8:
            out[:8] = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan, -0.0, 0.0]
            rng.shuffle(out)
        return out.reshape(shape)
    info = np.iinfo(d)
    out = rng.integers(max(info.min, -20), min(info.max, 20), n, endpoint=True).astype(d)
    if n >= 4:
        out[:2] = [info.min, info.max]
        rng.shuffle(out)
    return out.reshape(shape)


def assert_same(got, expected) -> None:
    """Same shape, dtype and bits (the sign of zero included); NaNs at the same places (their payloads are the
    device's: NVIDIA's arithmetic makes its own NaN, NumPy keeps the operand's)."""
    g = np.asarray(got)
    assert g.shape == expected.shape, f"shape {g.shape} != NumPy's {expected.shape}"
    assert g.dtype == expected.dtype, f"dtype {g.dtype} != NumPy's {expected.dtype}"
    if g.dtype.kind == "f":
        nan = np.isnan(expected)
        assert (np.isnan(g) == nan).all(), f"\n{g}\n!= NumPy's\n{expected} (NaN places)"
        g, expected = np.where(nan, 0, g).astype(g.dtype), np.where(nan, 0, expected).astype(g.dtype)
    assert g.tobytes() == expected.tobytes(), f"\n{g}\n!= NumPy's\n{expected}"


def force_sort(monkeypatch, kind: str, private: bool | None = None) -> None:
    """Make every sort take ``kind`` ("radix" or "bitonic"; ``private``: the radix tiles' kind, None: the
    device's), with an empty plan cache (cached plans would keep the sort chosen before)."""
    low = 2 if kind == "radix" else 1 << 40
    monkeypatch.setattr(engine_sorting, "RADIX_MIN_CPU", low)
    monkeypatch.setattr(engine_sorting, "RADIX_MIN_GPU", low)
    monkeypatch.setattr(engine_sorting, "RADIX_PRIVATE", private)
    monkeypatch.setattr(engine_plan, "_plans", OrderedDict())
