"""Helpers of the complex-number tests: sample data with awkward values and a comparison that checks NaN/inf
placement, signs of infinities and zeros, and a norm-wise relative tolerance for finite values.

Tolerances (docs/complex.md): norm-wise ``|got - want| <= rtol * |want| + atol``.

* arithmetic (``+ - * /``, ``square``, ``reciprocal``, ``abs``, ``sign``): complex64 ``2e-6``, complex128 ``1e-14``
  (a few units in the last place: the textbook product and Smith's quotient round a handful of times);
* transcendental functions (``exp log sqrt sin cos tanh **``, ``angle``): complex64 ``1e-5``, complex128 ``1e-13``,
  with ``atol = rtol`` on inputs of magnitude below ~4 (``sin`` near its zeros is absolutely, not relatively,
  accurate);
* reductions and products over ``n`` terms: ``n`` times the arithmetic tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

CDTYPES = ["complex64", "complex128"]
ARITH_RTOL = {"complex64": 2e-6, "complex128": 1e-14}
FUNC_RTOL = {"complex64": 1e-5, "complex128": 1e-13}
BIG = {"complex64": 1e30, "complex64_max": 3e38, "complex128": 1e300, "complex128_max": 1.7e308}
SPECIAL = [0.0, -0.0, 1.0, -2.5, 0.7, np.inf, -np.inf, np.nan]


def need(dtype: str) -> None:
    """complex128 needs float64 on the device: skip on devices without it (lavapipe and the H200 have it)."""
    if not kd.device().supports(dtype):
        pytest.skip(f"this device has no float64, so no {dtype}")


def csample(shape, dtype: str, seed: int = 0, special: bool = False, scale: float = 4.0) -> np.ndarray:
    """Deterministic complex host data, components uniform in [-scale, scale); ``special``: the first 8 elements
    (when there is room) hold zeros of both signs, infinities and NaN components."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    out = (rng.uniform(-scale, scale, n) + 1j * rng.uniform(-scale, scale, n)).astype(dtype)
    if special and n >= 8:
        out[:8] = [complex(0.0, -0.0), complex(-0.0, 0.0), complex(np.inf, 1.0), complex(1.0, -np.inf),
                   complex(np.nan, 2.0), complex(-np.inf, np.nan), complex(-0.0, -0.0), complex(2.0, np.nan)]
    return out.reshape(shape)


def special_grid(dtype: str, values=SPECIAL) -> np.ndarray:
    """Every (real, imag) pair of ``values``."""
    return np.array([complex(a, b) for a in values for b in values], dtype)


def _component_ok(g: np.ndarray, w: np.ndarray, zero_sign: bool) -> np.ndarray:
    """Elementwise: the same NaN-ness, the same infinities, and (``zero_sign``) zeros of the same sign."""
    ok = np.isnan(g) == np.isnan(w)
    inf = np.isinf(w)
    ok &= np.where(inf, g == w, ~np.isinf(g))
    if zero_sign:
        zero = w == 0
        ok &= np.where(zero, (g == 0) & (np.signbit(g) == np.signbit(w)), True)
    return ok


def assert_complex_close(got, want, rtol: float, atol: float = 0.0, zero_sign: bool = True) -> None:
    """``got`` (a kdsl Array or NumPy data) matches NumPy's ``want``: dtype and shape, non-finite components
    exactly, signed zeros (``zero_sign``), finite elements norm-wise within ``rtol * |want| + atol``."""
    g = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    w = np.asarray(want)
    assert g.dtype == w.dtype, f"dtype {g.dtype}, NumPy {w.dtype}"
    assert g.shape == w.shape, f"shape {g.shape}, NumPy {w.shape}"
    if w.dtype.kind != "c":
        gc, wc = g.astype(np.complex128), w.astype(np.complex128)
    else:
        gc, wc = g, w
    ok = _component_ok(gc.real, wc.real, zero_sign) & _component_ok(gc.imag, wc.imag, zero_sign)
    finite = np.isfinite(wc.real) & np.isfinite(wc.imag)
    real = np.finfo(w.dtype).dtype  # float32 for complex64
    if 8 * real.itemsize not in kd.device().float_controls[1]:  # a device that flushes subnormals (the H200)
        atol = max(atol, float(np.finfo(real).tiny))  # may give 0 where NumPy gives a subnormal
    with np.errstate(all="ignore"):
        err = np.abs(gc.astype(np.complex128) - wc.astype(np.complex128))
        bound = rtol * np.abs(wc.astype(np.complex128)) + atol
    ok &= np.where(finite, err <= bound, True)
    if not ok.all():
        bad = np.flatnonzero(~ok.reshape(-1))[:8]
        lines = [f"  [{i}] got {g.reshape(-1)[i]!r} want {w.reshape(-1)[i]!r}" for i in bad]
        raise AssertionError(f"{(~ok).sum()} of {ok.size} elements differ (rtol={rtol}, atol={atol}):\n"
                             + "\n".join(lines))
