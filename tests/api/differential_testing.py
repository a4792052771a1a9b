"""Helpers of the seeded differential tests against NumPy (``test_differential_*.py``): random data of every dtype
seen through random views, calls run on both libraries, and results compared bit for bit.

    >>> import numpy as np, kdsl as kd
    >>> a = array(np.random.default_rng(0), (2, 3), np.float32)  # Data: the same view on either library
    >>> flip = lambda xp, x: xp.flip(x, 0)
    >>> assert_same(outcome(np, flip, [a], {}), outcome(kd, flip, [a], {}), close=False)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]


class Data:
    """Host data and the view of it that a case uses; ``view(xp)`` builds the same view on NumPy or kdsl."""

    def __init__(self, base: np.ndarray, view: Any = None) -> None:
        self.base, self.make = base, view or (lambda v: v)

    def view(self, xp: Any) -> Any:
        return self.make(xp.asarray(self.base))

    def __repr__(self) -> str:  # what a failure prints: enough to rebuild the case
        return f"Data({self.base.dtype}, {self.view(np).shape}, {self.base.tolist()!r:.80})"


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any, special: bool = True) -> np.ndarray:
    """Small values of ``dtype`` with zeros, extremes and (for inexact dtypes) NaN, infinities and -0.0."""
    dtype, n = np.dtype(dtype), int(np.prod(shape))
    if dtype.kind == "b":
        return (rng.random(shape) < 0.5).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(max(info.min, -50), min(info.max, 100), n, endpoint=True).astype(dtype)
        if n and rng.random() < 0.3:
            v[rng.integers(n)] = info.max
    else:
        v = (rng.standard_normal(n) * 3).round(1)
        v = (v + 1j * (rng.standard_normal(n) * 3).round(1) if dtype.kind == "c" else v).astype(dtype)
        for s in (np.nan, np.inf, -np.inf, -0.0) if special and n else ():
            if rng.random() < 0.3:
                v[rng.integers(n)] = s
    if n and rng.random() < 0.3:
        v[rng.integers(0, n, max(1, n // 3))] = 0
    return v.reshape(shape)


def rand_shape(rng: np.random.Generator, ndim: int | None = None) -> tuple[int, ...]:
    ndim = int(rng.choice([0, 1, 1, 2, 2, 3, 4])) if ndim is None else ndim
    return tuple(int(rng.choice([0, 1, 1, 2, 3, 5])) for _ in range(ndim))


def array(rng: np.random.Generator, shape: tuple[int, ...] | None = None, dtype: Any = None,
          ndim: int | None = None, special: bool = True) -> Data:
    """Random data of ``shape`` (drawn when None), contiguous or seen through a transpose, a reversed or a
    stepped slice."""
    dtype = DTYPES[rng.integers(len(DTYPES))] if dtype is None else dtype
    shape = rand_shape(rng, ndim) if shape is None else shape
    kind, nd = int(rng.integers(4)), len(shape)
    if kind == 1 and nd >= 2:
        perm = tuple(int(p) for p in rng.permutation(nd))
        base = values(rng, tuple(shape[i] for i in np.argsort(perm)), dtype, special)
        return Data(base, lambda v: v.transpose(perm))
    if kind == 2 and nd >= 1:
        base = values(rng, (shape[0] * 2,) + shape[1:], dtype, special)
        return Data(base, lambda v: v[::-2])
    if kind == 3 and nd >= 1:
        base = values(rng, shape[:-1] + (shape[-1] * 2 + 1,), dtype, special)
        return Data(base, lambda v: v[..., 1::2])
    return Data(values(rng, shape, dtype, special))


def mask_of(rng: np.random.Generator, shape: tuple[int, ...]) -> Data:
    return Data(rng.random(shape) < 0.5)


def trailing(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to ``shape``: some of its last axes, some of them length 1."""
    return tuple(s if rng.random() < 0.7 else 1 for s in shape[int(rng.integers(0, len(shape) + 1)):])


def converted(xp: Any, value: Any) -> Any:
    if isinstance(value, Data):
        return value.view(xp)
    if isinstance(value, list) and any(isinstance(v, Data) for v in value):
        return [converted(xp, v) for v in value]
    return value


def outcome(xp: Any, func: Any, args: list, kw: dict) -> Any:
    """The call's result as host data (lists and tuples kept), or the exception it raised."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = func(xp, *[converted(xp, a) for a in args], **{k: converted(xp, v) for k, v in kw.items()})
    except Exception as e:  # noqa: BLE001 - the exception class itself is compared
        return e
    return type(out)(np.asarray(o) for o in out) if isinstance(out, (list, tuple)) else np.asarray(out)


def assert_same(want: Any, got: Any, close: bool) -> None:
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for w, g in zip(want, got, strict=True):
            assert_same(w, g, close)
        return
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    if close and want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=2e-6, equal_nan=True)
        return
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind in "fc":  # signs of zeros too
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))


def plain(name: str) -> Any:
    """The function ``name`` of whichever library ``xp`` a case runs on."""
    return lambda xp, *args, **kw: getattr(xp, name)(*args, **kw)


def in_place(name: str) -> Any:
    """The in-place routine ``name`` as a function returning its (modified) first argument."""
    def call(xp: Any, a: Any, *args: Any, **kw: Any) -> Any:
        getattr(xp, name)(a, *args, **kw)
        return a
    return call
