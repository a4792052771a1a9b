"""Mixed-precision numerics in plain NumPy: Kahan and pairwise summation of float32 data against a float64
reference, iterative refinement (a float32 `solve`, float64 residuals), ULP errors by `np.spacing`/`nextafter`,
catastrophic cancellation in one-pass variances, float16 softmax with a float32 accumulator, Newton reciprocal
square roots with `view`-based initial guesses, Hilbert-matrix conditioning in both precisions, and `np.float64`
scalars meeting float32 arrays (NEP 50 promotion, `astype(copy=False)`, in-place casts) (tests/porting)."""

import numpy as np
from harness import check


def summation(np, x):
    x32 = np.asarray(x, dtype=np.float32)
    ref = np.sum(x32.astype(np.float64))
    naive = np.float32(0.0)
    s = np.float32(0.0)
    c = np.float32(0.0)
    for v in x32[:200]:
        naive = naive + v
        y = v - c
        t = s + y
        c = (t - s) - y
        s = t
    ref200 = x32[:200].astype(np.float64).sum()
    pair = x32.reshape(-1, 8).sum(axis=1).reshape(-1, 8).sum(axis=1).sum()
    return {"kahan_err": abs(float(s) - ref200) <= abs(float(naive) - ref200) + 1e-3, "kahan": s,
            "dtype": str(s.dtype), "pair": pair, "ref": ref, "sum64": x32.sum(dtype=np.float64),
            "mean32": x32.mean(), "cumsum_last": np.cumsum(x32, dtype=np.float64)[-1]}


def refinement(np, A, b, steps):
    A64, b64 = np.asarray(A, dtype=np.float64), np.asarray(b, dtype=np.float64)
    A32 = A64.astype(np.float32)
    x = np.linalg.solve(A32, b64.astype(np.float32)).astype(np.float64)
    hist = []
    for _ in range(steps):
        r = b64 - A64 @ x
        d = np.linalg.solve(A32, r.astype(np.float32))
        x = x + d
        hist.append(np.linalg.norm(r) / np.linalg.norm(b64))
    return {"x": x, "dtypes": [str(A32.dtype), str(d.dtype), str(x.dtype)], "converged": hist[-1] < 1e-10,
            "first": hist[0] > 1e-9, "exact": np.linalg.solve(A64, b64)}


def ulps(np, x):
    x64 = np.asarray(x)
    x32 = x64.astype(np.float32)
    f64 = np.exp(x64)
    f32 = np.exp(x32)
    err = np.abs(f32.astype(np.float64) - f64) / np.spacing(np.abs(f64).astype(np.float32)).astype(np.float64)
    up = np.nextafter(x32, np.float32(np.inf))
    return {"max_ulp_le_2": bool(err.max() <= 2), "sp": np.spacing(x32), "up": up - x32,
            "eps": np.finfo(np.float32).eps, "rel": np.max(np.abs(f32 / f64 - 1)) < 4 * np.finfo(np.float32).eps,
            "down": np.nextafter(np.float32(1), np.float32(0)), "ulp1": np.spacing(np.float32(1.0))}


def variance_cancellation(np, x, shift):
    x = np.asarray(x, dtype=np.float32) + np.float32(shift)
    n = x.size
    onepass = (np.sum(x * x) - np.sum(x) ** 2 / n) / (n - 1)
    twopass = np.sum((x - x.mean()) ** 2) / (n - 1)
    mean, m2 = np.float64(0.0), np.float64(0.0)
    for k, v in enumerate(x[:50], start=1):
        delta = v - mean
        mean += delta / k
        m2 += delta * (v - mean)
    return {"twopass": twopass, "np_var": x.var(ddof=1), "welford": m2 / 49,
            "ref": x[:50].astype(np.float64).var(ddof=1),
            "onepass_bad": bool(abs(onepass - twopass) > 1e-3 * twopass), "dtype": str(twopass.dtype),
            "wdtype": str(mean.dtype)}


def half_softmax(np, logits):
    z16 = np.asarray(logits, dtype=np.float16)
    m = z16.max(axis=-1, keepdims=True)
    e = np.exp((z16 - m).astype(np.float32))
    p = (e / e.sum(axis=-1, keepdims=True)).astype(np.float16)
    lse = m.astype(np.float32)[..., 0] + np.log(e.sum(axis=-1))
    naive = np.exp(z16) / np.exp(z16).sum(axis=-1, keepdims=True)
    return {"p": p, "dtype": str(p.dtype), "lse": lse, "naive_nan": np.isnan(naive).any(axis=-1),
            "rowsum": p.astype(np.float32).sum(axis=-1), "argmax": p.argmax(axis=-1)}


def rsqrt_newton(np, x):
    x = np.asarray(x, dtype=np.float32)
    i = x.view(np.int32)
    i = np.int32(0x5F3759DF) - (i >> 1)
    y = i.view(np.float32)
    errs = []
    for _ in range(3):
        y = y * (np.float32(1.5) - np.float32(0.5) * x * y * y)
        errs.append(np.max(np.abs(y * np.sqrt(x) - 1)))
    return {"y": y, "errs": np.array(errs), "dtype": str(y.dtype), "guess_bits": i[:4],
            "ref": 1 / np.sqrt(x.astype(np.float64))}


def hilbert(np, n):
    i = np.arange(1, n + 1, dtype=np.float64)  # kdsl: 1.0 / int32 is float32 (its weak-float rule); typed here
    H = 1.0 / (i[:, None] + i[None, :] - 1)
    H32 = H.astype(np.float32)
    b = H @ np.ones(n)
    x64 = np.linalg.solve(H, b)
    x32 = np.linalg.solve(H32, b.astype(np.float32))
    return {"cond_log": np.log10(np.linalg.cond(H)), "err64_small": np.abs(x64 - 1).max() < 1e-6,
            "err32_big": bool(np.abs(x32 - 1).max() > 1e-4), "dtype32": str(x32.dtype),
            "det_sign": np.sign(np.linalg.det(H)), "H": H}


def nep50(np, x):
    x32 = np.asarray(x, dtype=np.float32)
    a = x32 * np.float64(2.0)
    b = x32 * 2.0
    c = x32 + np.float32(1.5)
    d = x32.astype(np.float32, copy=False)
    y = x32.copy()
    y += np.float64(0.1)
    y *= 3
    i = np.arange(4, dtype=np.int16)
    j = i + np.int64(5)
    k = i * 2
    f = i / np.float32(2)
    w = np.where(x32 > 0, x32, np.float64(-1.0))
    return {"types": [str(t.dtype) for t in (a, b, c, d, y, j, k, f, w)], "a": a, "y": y, "f": f, "w": w,
            "same": d is x32, "mean_type": str(x32.mean(dtype=np.float64).dtype)}


def test_summation():
    rng = np.random.default_rng(2651)
    check(summation, rng.uniform(0, 1, 512) * 1000 + 1e4, rtol=1e-5)


def test_refinement():
    rng = np.random.default_rng(2652)
    A = rng.normal(size=(6, 6)) + 6 * np.eye(6)
    check(refinement, A, rng.normal(size=6), 4, rtol=1e-6, atol=1e-9)


def test_ulps():
    check(ulps, np.linspace(-5, 5, 41))


def test_variance_cancellation():
    rng = np.random.default_rng(2654)
    check(variance_cancellation, rng.normal(0, 0.01, 256), 1000.0, rtol=2e-2)


def test_half_softmax():
    rng = np.random.default_rng(2655)
    z = rng.normal(0, 3, (4, 10))
    z[0, 3] = 15.0
    check(half_softmax, z, rtol=2e-3, atol=1e-3)


def test_rsqrt_newton():
    check(rsqrt_newton, np.array([0.25, 1.0, 2.0, 10.0, 1e-3, 12345.0]))


def test_hilbert():
    check(hilbert, 7, rtol=1e-3)


def test_nep50():
    check(nep50, np.array([-1.0, 0.5, 2.0, -0.0]))
