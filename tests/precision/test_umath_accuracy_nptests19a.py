"""NumPy's ``test_umath_accuracy.py`` ported: kdsl's float32/float64 ``exp``, ``log``, ``sin``, ``sinh``, ``arcsinh``,
``cbrt``, ``expm1``, ``log1p``, ``log2``, ``log10``, ... on NumPy's validation sets
(``numpy/_core/tests/data/umath-validation-set-<ufunc>.csv``: inputs, correctly rounded outputs and the ulp bound
NumPy's own loops must meet), within the same bounds.

float32 exponentials and logarithms are kdsl's float32 helpers (kdsl.codegen.float32_exp_log: no float64), and the
hyperbolic and inverse functions kdsl's float forms on them; all meet NumPy's float32 bounds. A
device that flushes float32 subnormals (docs/float-semantics.md) may give a zero of the right sign for a subnormal
result and treat a subnormal argument as a zero of its sign; the comparison allows exactly that.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import kdsl as kd

DATA = pathlib.Path(np.__file__).parent / "_core" / "tests" / "data"
FILES = sorted(DATA.glob("umath-validation-set-*.csv"))
NAMES = [f.stem.split("-")[3] for f in FILES]
BITS = {np.float32: (np.uint32, np.int32), np.float64: (np.uint64, np.int64)}
# Where kdsl's documented bound (docs/kernels.md, "Precision of the math functions") is wider than NumPy's: none
# (float64 arcsin was 2 ulp off at one argument of its set before kdsl.codegen.fp64_atan).
KDSL_BOUND: dict[tuple[str, type], int] = {}


def _load(name: str, dtype: type) -> tuple[np.ndarray, np.ndarray, int]:
    """Inputs, expected outputs and NumPy's ulp bound of one validation set's ``dtype`` rows (hex bit patterns)."""
    key = f"np.{dtype.__name__}"
    with open(DATA / f"umath-validation-set-{name}.csv") as f:
        rows = [line.strip().split(",") for line in f if line[0] not in "$#" and line.startswith(key + ",")]
    bits = BITS[dtype][0]
    x = np.array([int(r[1], 16) for r in rows], bits).view(dtype)
    y = np.array([int(r[2], 16) for r in rows], bits).view(dtype)
    return x, y, max(int(r[3]) for r in rows)


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place (consecutive floats differ by one; NaN against NaN is 0)."""
    signed = BITS[got.dtype.type][1]
    low = np.iinfo(signed).min

    def ordered(v: np.ndarray) -> list[int]:  # the floats' bits as integers in the floats' order
        i = v.view(signed)
        return [int(low) - int(b) if b < 0 else int(b) for b in i]

    dist = np.array([abs(a - b) for a, b in zip(ordered(got), ordered(want), strict=True)], np.float64)
    both_nan = np.isnan(got) & np.isnan(want)
    return np.where(both_nan, 0.0, np.where(np.isnan(got) | np.isnan(want), np.inf, dist))


def _flushed(got: np.ndarray, x: np.ndarray, want: np.ndarray, name: str) -> np.ndarray:
    """Where a subnormal-flushing device's result is allowed: a zero of ``want``'s sign for a subnormal ``want``,
    or the function of a zero of ``x``'s sign for a subnormal ``x``."""
    preserved = kd.device().float_controls[1]  # the widths whose subnormals the device keeps (DenormPreserve)
    if 8 * got.dtype.itemsize in preserved:
        return np.zeros(got.shape, bool)
    tiny = np.finfo(got.dtype).tiny
    zero_want = (np.abs(want) < tiny) & (want != 0) & (got == 0) & (np.signbit(got) == np.signbit(want))
    with np.errstate(all="ignore"):
        of_zero = getattr(np, name)(np.copysign(np.zeros_like(x), x))
    zero_x = (np.abs(x) < tiny) & (x != 0) & ((got == of_zero) | (np.isnan(got) & np.isnan(of_zero)))
    return zero_want | zero_x


CASES = [(n, d) for n in NAMES for d in (np.float32, np.float64)]


@pytest.mark.parametrize("name, dtype", CASES, ids=[f"{n}-{np.dtype(d).name}" for n, d in CASES])
def test_validation_set_within_numpys_ulp_bound(name, dtype):
    if dtype is np.float64 and not kd.device().supports(kd.float64):
        pytest.skip("no float64 on this device (float32 stands in for it: docs/numpy-api.md)")
    x, want, bound = _load(name, dtype)
    bound = KDSL_BOUND.get((name, dtype), bound)
    rng = np.random.default_rng(0)
    perm = rng.permutation(len(x))  # NumPy's test shuffles too: no result may depend on its neighbours
    x, want = x[perm], want[perm]
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    assert got.dtype == dtype
    err = np.where(_flushed(got, x, want, name), 0.0, _ulps(got, want))
    worst = int(np.argmax(err))
    assert err[worst] <= bound, (f"{name}({x[worst]!r}) = {got[worst]!r}, want {want[worst]!r}: "
                                 f"{err[worst]} ulp > {bound}")


FP16_UFUNCS = ["absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil",
               "conjugate", "cos", "cosh", "deg2rad", "degrees", "exp", "exp2", "expm1", "fabs", "floor",
               "log", "log10", "log1p", "log2", "negative", "positive", "rad2deg", "radians", "reciprocal",
               "rint", "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc"]


@pytest.mark.parametrize("name", FP16_UFUNCS)
def test_float16_within_an_ulp_of_float32(name):
    """NumPy's ``test_validate_fp16_transcendentals``: on all 65 536 float16 bit patterns, the float16 result is
    within one float16 ulp of the float32 result (NaN where it is NaN)."""
    h = np.arange(65536, dtype=np.uint16).view(np.float16)
    f = getattr(kd, name)
    with np.errstate(all="ignore"):
        half = f(kd.asarray(h)).numpy()
        single = f(kd.asarray(h.astype(np.float32))).numpy()
        assert half.dtype == np.float16
        np.testing.assert_array_max_ulp(half, single, maxulp=1, dtype=np.float16)  # (casts: overflow warns)
