"""CuPy-style testing helpers: one test body runs on NumPy (``xp=np``) and on kdsl (``xp=kd``); results must match.

    @numpy_kdsl_allclose(rtol=1e-6)
    @pytest.mark.parametrize("dtype", ALL_DTYPES)
    def test_add(xp, dtype):
        a = xp.asarray(sample((3, 4), dtype))
        return a + a

``sample`` makes host data with the awkward values of each dtype (NaN, inf, -0.0, extremes), so both sides
start from identical inputs.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np
import pytest

import kdsl as kd

FLOATS = ["float16", "float32", "float64"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTS = SIGNED + UNSIGNED
NUMERIC = INTS + FLOATS
ALL_DTYPES = ["bool"] + NUMERIC
COMPLEX = ["complex64", "complex128"]

# Tolerances per result dtype; float64 transcendental functions run in float32 (documented).
RTOL = {"float16": 2e-3, "float32": 2e-5, "float64": 2e-6}


def sample(shape, dtype, seed: int = 0, special: bool = True, low=None, high=None) -> np.ndarray:
    """Deterministic host data of ``dtype``; floats include NaN/inf/-0.0 and ints their extremes when
    ``special`` (and the array has room)."""
    rng = np.random.default_rng(seed)
    d = np.dtype(dtype)
    n = int(np.prod(shape))
    if d == np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if d.kind == "c":  # the specials land in the real part of the first elements, the imaginary of the last
        part = np.dtype(d.char.lower())  # F -> f, D -> d
        re = sample((n,), part, seed, special, low, high)
        im = sample((n,), part, seed + 1, special, low, high)[::-1]
        out = np.empty(n, d)
        out.real, out.imag = re, im  # not re + 1j * im: 1j * inf is nan+infj
        return out.reshape(shape)
    if d.kind == "f":
        lo, hi = (-4, 4) if low is None else (low, high)
        out = rng.uniform(lo, hi, n).astype(d)
        if special and n >= 8:
            out[:5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
        return out.reshape(shape)
    info = np.iinfo(d)
    lo = max(info.min, -100) if low is None else low
    hi = min(info.max, 100) if high is None else high
    out = rng.integers(lo, hi, n, endpoint=True).astype(d)
    if special and n >= 8:
        out[:3] = [info.min, info.max, 0]
    return out.reshape(shape)


LAYOUTS = ["plain", "strided", "transposed"]


def strided(xp, data):
    """A non-contiguous ``xp`` view of host ``data`` (every other element of a last axis made twice as long)."""
    return xp.asarray(np.repeat(data, 2, axis=-1))[..., ::2]


def layout_data(xp, shape, dtype="float32", layout="plain", seed=0):
    """``sample`` data as an ``xp`` array in one of ``LAYOUTS``: contiguous, a strided view of the same values,
    or a transposed view."""
    a = sample(shape, dtype, seed=seed)
    if layout == "strided":
        return strided(xp, a)
    if layout == "transposed":
        return xp.asarray(np.ascontiguousarray(a.T)).T
    return xp.asarray(a)


def to_numpy(x):
    if isinstance(x, kd.Array):
        return x.numpy()
    if isinstance(x, (list, tuple)):
        return type(x)(to_numpy(v) for v in x)
    return x


def assert_match(got, expected, rtol=None, atol=0.0, check_dtype=True, equal_nan=True) -> None:
    """Same shape, same dtype, values within tolerance (NaN matches NaN)."""
    if isinstance(expected, (list, tuple)):
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=False):
            assert_match(g, e, rtol, atol, check_dtype, equal_nan)
        return
    g, e = np.asarray(to_numpy(got)), np.asarray(expected)
    assert g.shape == e.shape, f"shape {g.shape} != NumPy's {e.shape}"
    if check_dtype:
        assert g.dtype == e.dtype, f"dtype {g.dtype} != NumPy's {e.dtype}"
    if e.dtype.kind in "biu" and g.dtype.kind in "biu":
        np.testing.assert_array_equal(g, e)
        return
    tol = RTOL.get(e.dtype.name, 2e-5) if rtol is None else rtol
    if e.dtype.kind == "c" or g.dtype.kind == "c":
        _assert_complex_close(g.astype(np.complex128), e.astype(np.complex128), tol, atol, equal_nan)
        return
    np.testing.assert_allclose(g.astype(np.float64), e.astype(np.float64), rtol=tol, atol=atol,
                               equal_nan=equal_nan)


def _assert_complex_close(g: np.ndarray, e: np.ndarray, rtol: float, atol: float, equal_nan: bool) -> None:
    """Real and imaginary parts each match, NaN/inf positions per part; the tolerance scales with the
    modulus of NumPy's value (as a complex ``allclose`` does), so a part that is ~0 next to a large other
    part may differ by rounding. A cast to float64 would drop the imaginary part, and a plain complex
    ``assert_allclose`` would treat ``nan+1j`` and ``nan+5j`` as equal."""
    finite = [np.where(np.isfinite(p), p, 0.0) for p in (e.real, e.imag)]
    with np.errstate(over="ignore"):  # a modulus beyond the dtype's range is inf: any finite error passes
        limit = atol + rtol * np.hypot(*finite)
    for name, gp, ep in (("real", g.real, e.real), ("imag", g.imag, e.imag)):
        both_nan = np.isnan(gp) & np.isnan(ep) if equal_nan else np.zeros(ep.shape, bool)
        same = (gp == ep) | both_nan
        with np.errstate(invalid="ignore"):
            close = np.isfinite(gp) & np.isfinite(ep) & (np.abs(gp - ep) <= limit)
        bad = ~(same | close)
        if bad.any():
            idx = np.argwhere(bad)[:5].tolist() if bad.ndim else []
            raise AssertionError(
                f"{name} parts differ at {int(bad.sum())} of {bad.size} positions {idx} (rtol={rtol:g}, "
                f"atol={atol:g}):\n kdsl:  {g[bad][:5]}\n NumPy: {e[bad][:5]}")


def numpy_kdsl_allclose(rtol=None, atol=0.0, check_dtype=True, accept_error=()):
    """Decorator: run the body with ``xp=np`` and ``xp=kd`` and compare what they return.

    ``accept_error``: exception types that, when NumPy raises them, kdsl must raise too.
    """
    def deco(fn):
        sig = inspect.signature(fn)
        params = [p for name, p in sig.parameters.items() if name != "xp"]

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with np.errstate(all="ignore"):
                try:
                    expected = fn(*args, xp=np, **kwargs)
                except accept_error as exc:
                    with pytest.raises(type(exc)):
                        to_numpy(fn(*args, xp=kd, **kwargs))
                    return
            got = fn(*args, xp=kd, **kwargs)
            assert_match(got, expected, rtol, atol, check_dtype)

        wrapper.__signature__ = sig.replace(parameters=params)
        return wrapper
    return deco
