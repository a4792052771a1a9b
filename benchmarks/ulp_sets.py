"""Input sets for ``benchmarks/ulp_report.py``: wide, seeded arguments for one float dtype, and the ulp distance.

Each set is a name and an array: random bit patterns (every magnitude of the dtype), log-uniform magnitudes, each
function's interesting domain, near 0, near 1, subnormals, the special values with the overflow and underflow
edges, and (for ``sin``/``cos``/``tan``) huge arguments and the doubles nearest multiples of pi/2.

Example:
    >>> import numpy as np
    >>> sorted(unary_sets("exp", np.float64, 64))[:3]
    ['bits', 'domain', 'edges']
    >>> ulps(np.array([1.0, np.nan]), np.array([np.nextafter(1.0, 2.0), np.nan])).tolist()
    [1.0, 0.0]
"""

from __future__ import annotations

import numpy as np

# Where each function's result is finite and not trivially 0, 1 or inf (float64 bounds; float32 is clipped).
DOMAIN = {
    "exp": (-745.2, 709.8), "exp2": (-1075.0, 1024.0), "expm1": (-40.0, 709.8), "sinh": (-710.5, 710.5),
    "cosh": (-710.5, 710.5), "tanh": (-20.0, 20.0), "log": (0.0, 1e300), "log2": (0.0, 1e300),
    "log10": (0.0, 1e300), "log1p": (-1.0, 1e300), "arcsin": (-1.0, 1.0), "arccos": (-1.0, 1.0),
    "arctanh": (-1.0, 1.0), "arccosh": (1.0, 1e300), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "tan": (-1e4, 1e4),
    "sinc": (-1e3, 1e3), "i0": (-700.0, 700.0), "sigmoid": (-745.0, 40.0),
}
LOG_DOMAIN = {"log", "log2", "log10", "log1p", "arccosh"}  # domains sampled by magnitude, not uniformly


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(sum(map(ord, name)))  # each function its own, reproducible arguments


def random_bits(rng: np.random.Generator, dtype: type, n: int) -> np.ndarray:
    """``n`` finite values with uniformly random bits (every exponent equally often)."""
    itype = np.uint64 if dtype == np.float64 else np.uint32
    bits = rng.integers(0, np.iinfo(itype).max, n, dtype=itype, endpoint=True)
    x = bits.view(dtype)
    return np.where(np.isfinite(x), x, dtype(1.5))


def log_uniform(rng: np.random.Generator, dtype: type, n: int, lo: float, hi: float) -> np.ndarray:
    """``n`` values of random sign with log10 of the magnitude uniform in ``[lo, hi]``."""
    mag = 10.0 ** rng.uniform(lo, hi, n)
    with np.errstate(over="ignore"):
        return (mag * rng.choice([-1.0, 1.0], n)).astype(dtype)


def edges(dtype: type) -> np.ndarray:
    """Signed zeros, infinities, NaN, the extreme finite and subnormal values and the overflow/underflow
    thresholds of exp-like functions, each with its neighbours."""
    fi = np.finfo(dtype)
    core = [0.0, 1.0, 2.0, 0.5, 10.0, np.pi / 2, np.pi, 1e-300, fi.max, fi.tiny, fi.smallest_subnormal, fi.eps,
            np.log(fi.max), np.log(fi.tiny), np.log(fi.smallest_subnormal), np.log2(fi.max), np.log2(fi.tiny),
            np.log2(fi.smallest_subnormal), np.log(fi.max) + np.log(2.0), 22.0, 20.0, 0.7, 0.25, 0.75]
    x = np.array(core, dtype)
    near = [x]
    with np.errstate(over="ignore"):
        for _ in range(3):
            near += [np.nextafter(x, dtype(np.inf)), np.nextafter(x, dtype(-np.inf))]
            x = near[-2]
    v = np.concatenate(near)
    v = np.concatenate([v, -v, np.array([np.inf, -np.inf, np.nan, -np.nan], dtype)])
    return v.astype(dtype)


def unary_sets(name: str, dtype: type, n: int) -> dict[str, np.ndarray]:
    """The named argument sets of one unary function (``n`` values each, ``edges`` as listed)."""
    rng = _rng(name)
    fi = np.finfo(dtype)
    lo, hi = DOMAIN.get(name, (-1e3, 1e3))
    lo, hi = max(lo, -float(fi.max)), min(hi, float(fi.max))
    if name in LOG_DOMAIN:
        base = max(lo, 0.0)
        domain = base + 10.0 ** rng.uniform(np.log10(fi.smallest_subnormal), np.log10(hi), n)
        if name == "log1p":
            domain = np.concatenate([domain[: n // 2], rng.uniform(-1.0, 1.0, n - n // 2)])
    else:
        domain = rng.uniform(lo, hi, n)
    tiny_exp = float(np.log10(fi.smallest_subnormal))
    sets = {
        "bits": random_bits(rng, dtype, n),
        "log-uniform": log_uniform(rng, dtype, n, tiny_exp, float(np.log10(fi.max))),
        "domain": domain.astype(dtype),
        "near 0": log_uniform(rng, dtype, n, -20.0, 0.0),
        "near 1": (1.0 + rng.uniform(-1e-2, 1e-2, n)).astype(dtype),
        "subnormal": (rng.integers(1, 2 ** (fi.nmant), n).astype(dtype) * fi.smallest_subnormal
                      * rng.choice([-1.0, 1.0], n)).astype(dtype),
        "edges": edges(dtype),
    }
    if name in ("sin", "cos", "tan", "sinc"):
        sets["huge"] = log_uniform(rng, dtype, n, 4.0, float(np.log10(fi.max)))
        k = rng.integers(1, 2 ** 40 if dtype == np.float64 else 2 ** 16, n).astype(np.float64)
        sets["k pi/2"] = (k * (np.pi / 2)).astype(dtype)
    return sets


def binary_sets(name: str, dtype: type, n: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The named argument pairs of one binary function."""
    rng = _rng(name)
    fi = np.finfo(dtype)
    tiny_exp, big_exp = float(np.log10(fi.smallest_subnormal)), float(np.log10(fi.max))
    e = edges(dtype)
    ea, eb = np.meshgrid(e, e)
    sets = {
        "bits": (random_bits(rng, dtype, n), random_bits(rng, dtype, n)),
        "log-uniform": (log_uniform(rng, dtype, n, tiny_exp, big_exp), log_uniform(rng, dtype, n, tiny_exp, big_exp)),
        "edges": (ea.ravel(), eb.ravel()),
    }
    if name in ("power", "float_power"):
        a = np.abs(log_uniform(rng, dtype, n, -10.0, 10.0))
        sets["domain"] = (a, rng.uniform(-30.0, 30.0, n).astype(dtype))
        near1 = (1.0 + rng.uniform(-1e-6, 1e-6, n)).astype(dtype)
        sets["near 1"] = (near1, log_uniform(rng, dtype, n, 0.0, 8.0 if dtype == np.float64 else 4.0))
        sets["negative base"] = (-a, rng.integers(-60, 60, n).astype(dtype))
    else:
        sets["domain"] = (rng.uniform(-800.0, 800.0, n).astype(dtype), rng.uniform(-800.0, 800.0, n).astype(dtype))
        sets["near 0"] = (log_uniform(rng, dtype, n, -20.0, 0.0), log_uniform(rng, dtype, n, -20.0, 0.0))
    return sets


def ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place, elementwise (neighbouring floats are 1 apart, ``-0.0`` and ``0.0``
    0 apart, NaN and NaN 0, NaN and a number inf)."""
    signed = np.int64 if got.dtype.itemsize == 8 else np.int32

    def ordered(v: np.ndarray) -> np.ndarray:
        i = v.view(signed)
        return np.where(i < 0, np.iinfo(signed).min - i, i)

    og, ow = ordered(got), ordered(want)
    with np.errstate(over="ignore"):
        exact = np.abs(og.astype(np.int64) - ow.astype(np.int64)).astype(np.float64)
    rough = np.abs(og.astype(np.float64) - ow.astype(np.float64))
    dist = np.where(rough < 2.0**60, exact, rough)
    return np.where(np.isnan(got) & np.isnan(want), 0.0, np.where(np.isnan(got) | np.isnan(want), np.inf, dist))


def special_mismatch(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where ``got`` and ``want`` disagree about NaN, an infinity or the sign of a zero."""
    nan = np.isnan(got) != np.isnan(want)
    inf = (np.isinf(got) | np.isinf(want)) & (got != want) & ~np.isnan(got) & ~np.isnan(want)
    zero = (got == 0) & (want == 0) & (np.signbit(got) != np.signbit(want))
    return nan | inf | zero
