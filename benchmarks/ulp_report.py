"""How far kdsl's elementwise math is from NumPy's, in ulps: every transcendental ufunc, float64/float32/complex128.

A measurement, not a test (it takes minutes on lavapipe and prints a table to read; the tests check bounds on
smaller sets): for each function and dtype and each input set of ``benchmarks/ulp_sets.py`` (random bits, log-uniform
magnitudes, the function's domain, near 0, near 1, subnormals, special values and overflow edges, huge arguments
of sin/cos/tan) one row: the largest ulp distance from NumPy, the fraction of results that differ at all, how many
disagree about NaN, inf or a zero's sign, and the worst argument. With ``--exact N`` the first N arguments of the
domain, near-0 and near-1 sets are also compared with the correctly rounded result (mpmath at 200 bits), for kdsl and
for NumPy: a NumPy whose own loops are not correctly rounded (its AVX-512 ``exp``) bounds how often kdsl can agree
with it. Complex rows give the worse component's ulps and the normwise error ``|got - want| / |want|`` in eps.

Run: ``python3 benchmarks/ulp_report.py [--n 65536] [--dtypes float64,float32,complex128] [--funcs exp,log]
[--exact 2000]``
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ulp_sets  # noqa: E402

import kdsl as kd  # noqa: E402

UNARY = ("exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh "
         "arctanh sqrt cbrt sinc i0").split()
BINARY = "arctan2 power float_power hypot logaddexp logaddexp2".split()
COMPLEX = ("exp expm1 log log2 log10 log1p sqrt sin cos tan sinh cosh tanh arcsin arccos arctan arcsinh arccosh "
           "arctanh power").split()


def _exact_fn(name: str):
    """mpmath's function of one or two mpf arguments for ``name`` (imported here: optional)."""
    import mpmath as mp

    def sinc(x):
        return mp.mpf(1) if x == 0 else mp.sin(mp.pi * x) / (mp.pi * x)

    table = {"exp2": lambda x: mp.power(2, x), "log2": lambda x: mp.log(x, 2), "arcsin": mp.asin,
             "arccos": mp.acos, "arctan": mp.atan, "arcsinh": mp.asinh, "arccosh": mp.acosh, "arctanh": mp.atanh,
             "i0": lambda x: mp.besseli(0, x), "sinc": sinc, "arctan2": mp.atan2, "power": mp.power,
             "float_power": mp.power, "logaddexp": lambda a, b: mp.log(mp.exp(a) + mp.exp(b)),
             "logaddexp2": lambda a, b: mp.log(mp.power(2, a) + mp.power(2, b), 2)}
    return table.get(name) or getattr(mp, name)


def correctly_rounded(name: str, args: tuple[np.ndarray, ...], dtype: type) -> np.ndarray:
    """The correctly rounded results (NaN where the exact one is not a finite real of ``dtype``'s range)."""
    import mpmath as mp

    mp.mp.prec = 200
    fn = _exact_fn(name)
    out = np.full(args[0].shape, np.nan)
    for i in range(args[0].size):
        try:
            v = fn(*(mp.mpf(float(a[i])) for a in args))
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        if isinstance(v, mp.mpf) and mp.isfinite(v):
            fi = np.finfo(dtype)
            if abs(v) < float(fi.tiny):  # mpmath's float() rounds to 53 bits first: round onto the subnormal grid once
                step = mp.mpf(float(fi.smallest_subnormal))
                out[i] = float(mp.nint(v / step)) * float(step)
                continue
            with np.errstate(over="ignore"):
                out[i] = float(v)
    return out.astype(dtype)


def _call(name: str, args: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
    """kdsl's and NumPy's results of ``name`` on ``args``."""
    got = getattr(kd, name)(*(kd.asarray(a) for a in args)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, name)(*args)
    return got, want


def _row(name: str, dtype: str, label: str, args: tuple[np.ndarray, ...], got, want) -> str:
    if np.iscomplexobj(want):
        err = np.maximum(ulp_sets.ulps(got.real.copy(), want.real.copy()), ulp_sets.ulps(got.imag.copy(),
                                                                                         want.imag.copy()))
        special = ulp_sets.special_mismatch(got.real, want.real) | ulp_sets.special_mismatch(got.imag, want.imag)
        ok = np.isfinite(want) & (want != 0)
        with np.errstate(all="ignore"):
            rel = np.where(ok, np.abs(got - want) / np.abs(want), 0.0) / np.finfo(want.real.dtype).eps
        norm = f"{np.nanmax(rel, initial=0.0):9.2f}"
    else:
        err = ulp_sets.ulps(got, want)
        special = ulp_sets.special_mismatch(got, want)
        norm = ""
    finite = np.where(special, 0.0, err)
    worst = int(np.argmax(finite)) if finite.size else 0
    arg = ", ".join(repr(a.ravel()[worst].item()) for a in args) if finite.size else ""
    return (f"{name:12s} {dtype:10s} {label:13s} {got.size:7d} {np.max(finite, initial=0):10.4g} "
            f"{np.mean(err > 0):9.5f} {int(special.sum()):6d} {norm:>9s}  {arg}")


def _exact_rows(name: str, dtype: str, args: tuple[np.ndarray, ...], got, want) -> str:
    exact = correctly_rounded(name, args, want.dtype.type)
    keep = np.isfinite(exact) & np.isfinite(want)
    parts = []
    for who, res in (("kdsl", got), ("numpy", want)):
        e = ulp_sets.ulps(res[keep], exact[keep])
        parts.append(f"{who} max {np.max(e, initial=0):.3g} differ {np.mean(e > 0) if e.size else 0:.5f}")
    return f"{name:12s} {dtype:10s} {'vs exact':13s} {int(keep.sum()):7d}  " + "; ".join(parts)


def report(funcs: list[str], dtypes: list[str], n: int, exact: int) -> None:
    print(f"{'function':12s} {'dtype':10s} {'set':13s} {'n':>7s} {'max ulp':>10s} {'differ':>9s} "
          f"{'special':>6s} {'norm eps':>9s}  worst argument")
    for dtype in dtypes:
        complex_ = dtype.startswith("complex")
        real = np.float64 if dtype in ("float64", "complex128") else np.float32
        for name in funcs:
            if complex_ and name not in COMPLEX:
                continue
            two = name in BINARY or (complex_ and name == "power")
            if two:
                sets = ulp_sets.binary_sets(name, real, n)
            elif complex_:
                sets = {k: v for k, v in ulp_sets.binary_sets(name, real, n).items() if k != "domain"}
                sets["domain"] = tuple(np.random.default_rng(1).uniform(-20, 20, (2, n)).astype(real))
            else:
                sets = {k: (v,) for k, v in ulp_sets.unary_sets(name, real, n).items()}
            sample = []
            for label, args in sets.items():
                if complex_:
                    z = (args[0] + 1j * args[1]).astype(dtype)
                    args = (z, z[::-1].copy()) if two else (z,)
                got, want = _call(name, args)
                print(_row(name, dtype, label, args, got, want), flush=True)
                if label in ("domain", "near 0", "near 1") and not complex_:
                    sample.append(tuple(a[:exact] for a in args))
            if exact and sample:
                args = tuple(np.concatenate(parts) for parts in zip(*sample, strict=True))
                got, want = _call(name, args)
                print(_exact_rows(name, dtype, args, got, want), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=65536, help="arguments per set")
    p.add_argument("--dtypes", default="float64,float32,complex128")
    p.add_argument("--funcs", default=",".join(UNARY + BINARY))
    p.add_argument("--exact", type=int, default=0, help="arguments per set compared with mpmath (0: none)")
    a = p.parse_args()
    print(f"device: {kd.device().name}; numpy {np.__version__}")
    report(a.funcs.split(","), a.dtypes.split(","), a.n, a.exact)


if __name__ == "__main__":
    main()
