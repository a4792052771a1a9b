"""Interpolation and numerical integration in plain NumPy: `np.interp` with `period=` (angles, times of day),
`left=`/`right=` and scalar queries, cubic Hermite and Catmull-Rom splines by hand (interval lookup by
`searchsorted`, clipped, basis polynomials in the local coordinate), a natural cubic spline by solving the tridiagonal
system with `np.linalg.solve`, monotone PCHIP slopes with `np.where` guards, `np.trapezoid` along axes and with
non-uniform `x`, composite Simpson by strided slices, a cumulative trapezoid by `cumsum` with `np.concatenate`,
Romberg extrapolation, Gauss-Legendre nodes from `np.polynomial.legendre.leggauss`, and composite rules
behind `np.typing` annotations (`NDArray[np.float64]`, `ArrayLike`) (tests/porting)."""

import numpy as np
from harness import check


def periodic_interp(np, hours, temps, query, angles_deg, values):
    hours, temps = np.asarray(hours), np.asarray(temps)
    daily = np.interp(query, hours, temps, period=24)
    wind = np.interp(np.array([-30.0, 350.0, 725.0, 10.0]), angles_deg, values, period=360)
    clamp = np.interp(query, hours, temps, left=np.nan, right=-1.0)
    one = np.interp(12.5, hours, temps)
    return {"daily": daily, "wind": wind, "clamp": clamp, "one": one, "one_type": type(float(one)).__name__,
            "nan_count": int(np.isnan(clamp).sum())}


def hermite_spline(np, x, y, dy, xq):
    x, y, dy, xq = map(np.asarray, (x, y, dy, xq))
    i = np.clip(np.searchsorted(x, xq, side="right") - 1, 0, len(x) - 2)
    h = x[i + 1] - x[i]
    t = (xq - x[i]) / h
    h00 = 2 * t**3 - 3 * t**2 + 1
    h10 = t**3 - 2 * t**2 + t
    h01 = -2 * t**3 + 3 * t**2
    h11 = t**3 - t**2
    yq = h00 * y[i] + h10 * h * dy[i] + h01 * y[i + 1] + h11 * h * dy[i + 1]
    dyq = ((6 * t**2 - 6 * t) * y[i] + (3 * t**2 - 4 * t + 1) * h * dy[i] + (-6 * t**2 + 6 * t) * y[i + 1]
           + (3 * t**2 - 2 * t) * h * dy[i + 1]) / h
    return {"yq": yq, "dyq": dyq, "interval": i, "exact_at_knots": np.allclose(yq[np.isin(xq, x)], y[np.isin(x, xq)])}


def catmull_rom(np, pts, samples):
    P = np.asarray(pts, dtype=float)
    P = np.vstack([2 * P[0] - P[1], P, 2 * P[-1] - P[-2]])
    t = np.linspace(0, 1, samples, endpoint=False)[:, None]
    segs = []
    for k in range(1, len(P) - 2):
        p0, p1, p2, p3 = P[k - 1], P[k], P[k + 1], P[k + 2]
        segs.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2
                           + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3))
    curve = np.concatenate(segs)
    seglen = np.linalg.norm(np.diff(curve, axis=0), axis=1)
    arclen = np.concatenate([[0.0], np.cumsum(seglen)])
    even = np.linspace(0, arclen[-1], 9)
    resampled = np.column_stack([np.interp(even, arclen, curve[:, d]) for d in range(curve.shape[1])])
    return {"curve": curve, "length": arclen[-1], "resampled": resampled,
            "passes": np.allclose(curve[::samples], np.asarray(pts, dtype=float)[:-1])}


def natural_cubic(np, x, y, xq):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(x)
    h = np.diff(x)
    A = np.zeros((n, n))
    rhs = np.zeros(n)
    A[0, 0] = A[-1, -1] = 1
    k = np.arange(1, n - 1)
    A[k, k - 1] = h[:-1]
    A[k, k] = 2 * (h[:-1] + h[1:])
    A[k, k + 1] = h[1:]
    rhs[1:-1] = 3 * (np.diff(y)[1:] / h[1:] - np.diff(y)[:-1] / h[:-1])
    c = np.linalg.solve(A, rhs)
    b = np.diff(y) / h - h * (2 * c[:-1] + c[1:]) / 3
    d = np.diff(c) / (3 * h)
    j = np.clip(np.searchsorted(x, xq) - 1, 0, n - 2)
    dx = np.asarray(xq) - x[j]
    yq = y[j] + b[j] * dx + c[j] * dx**2 + d[j] * dx**3
    curvature = 2 * c[j] + 6 * d[j] * dx
    return {"c": c, "yq": yq, "ends": curvature[[0, -1]], "bandwidth": np.count_nonzero(A, axis=1)}


def pchip_slopes(np, x, y):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    h = np.diff(x)
    delta = np.diff(y) / h
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    same = np.sign(delta[:-1]) * np.sign(delta[1:]) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = np.where(same, (w1 + w2) / (w1 / delta[:-1] + w2 / delta[1:]), 0.0)
    d = np.empty_like(y)
    d[1:-1] = inner
    d[0] = ((2 * h[0] + h[1]) * delta[0] - h[0] * delta[1]) / (h[0] + h[1])
    d[-1] = ((2 * h[-1] + h[-2]) * delta[-1] - h[-1] * delta[-2]) / (h[-1] + h[-2])
    d[0] = 0.0 if np.sign(d[0]) != np.sign(delta[0]) else d[0]
    d[-1] = 0.0 if np.sign(d[-1]) != np.sign(delta[-1]) else d[-1]
    return {"d": d, "flat": np.flatnonzero(d == 0), "monotone_ok": bool(np.all(d * np.repeat(delta, [2] +
            [1] * (len(delta) - 2) + [1])[: len(d)] >= 0))}


def trapezoid_family(np, t, signal, grid):
    t, s = np.asarray(t), np.asarray(signal)
    area = np.trapezoid(s, t)
    rows = np.trapezoid(np.asarray(grid), dx=0.25, axis=1)
    cols = np.trapezoid(np.asarray(grid), x=np.linspace(0, 1, grid.shape[0]), axis=0)
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (s[1:] + s[:-1]) * np.diff(t))])
    half = np.searchsorted(cum, cum[-1] / 2)
    mean_value = area / (t[-1] - t[0])
    return {"area": area, "rows": rows, "cols": cols, "cum": cum, "half_t": t[half],
            "mean": mean_value, "check": np.isclose(cum[-1], area)}


def simpson_romberg(np, a, b, n):
    def f(x):
        return np.exp(-x**2) * np.cos(3 * x)

    x = np.linspace(a, b, n + 1)
    y = f(x)
    h = (b - a) / n
    simpson = h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())
    R = np.zeros((6, 6))
    for k in range(6):
        m = 2**k
        xs = np.linspace(a, b, m + 1)
        R[k, 0] = np.trapezoid(f(xs), xs)
        for j in range(1, k + 1):
            R[k, j] = R[k, j - 1] + (R[k, j - 1] - R[k - 1, j - 1]) / (4**j - 1)
    nodes, weights = np.polynomial.legendre.leggauss(8)
    gauss = 0.5 * (b - a) * np.sum(weights * f(0.5 * (b - a) * nodes + 0.5 * (a + b)))
    return {"simpson": simpson, "romberg": R[-1, -1], "table_diag": np.diag(R), "gauss": gauss,
            "spread": np.ptp([simpson, R[-1, -1], gauss])}


def typed_quadrature(np, a, b, ns):
    from collections.abc import Callable

    Func = Callable[[np.typing.NDArray[np.float64]], np.typing.NDArray[np.float64]]

    def composite(f: Func, lo: float, hi: float, n: int, rule: str = "simpson") -> np.float64:
        x: np.typing.NDArray[np.float64] = np.linspace(lo, hi, n + 1, dtype=np.float64)
        y = f(x)
        h = (hi - lo) / n
        if rule == "trapezoid":
            return np.trapezoid(y, x)
        return h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())

    def f(x: np.typing.ArrayLike) -> np.typing.NDArray[np.float64]:
        return np.sqrt(np.asarray(x)) * np.exp(-np.asarray(x))

    rows = np.array([[composite(f, a, b, n, r) for r in ("trapezoid", "simpson")] for n in ns])
    errs = np.abs(np.diff(rows, axis=0))
    return {"rows": rows, "errs": errs, "order": np.log2(errs[:-1] / errs[1:])}


def test_periodic_interp():
    hours = np.array([0.0, 3, 6, 9, 12, 15, 18, 21])
    temps = np.array([12.0, 10, 11, 16, 21, 23, 19, 15])
    query = np.array([-2.0, 0.5, 7.25, 13.0, 22.5, 23.9, 25.0, 48.5])
    check(periodic_interp, hours, temps, query, np.array([0.0, 90, 180, 270]), np.array([1.0, 4, 2, 3]))


def test_hermite_spline():
    x = np.array([0.0, 0.5, 1.5, 2.0, 3.5])
    check(hermite_spline, x, np.sin(x), np.cos(x), np.array([0.0, 0.2, 0.5, 1.0, 1.7, 2.0, 3.0, 3.5]))


def test_catmull_rom():
    pts = np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 3.0], [4.0, 1.0], [6.0, 2.0]])
    check(catmull_rom, pts, 8)


def test_natural_cubic():
    x = np.array([0.0, 1.0, 2.5, 3.0, 4.5, 6.0])
    check(natural_cubic, x, np.log1p(x) * np.cos(x), np.linspace(0, 6, 25), rtol=1e-3, atol=1e-5)


def test_pchip_slopes():
    check(pchip_slopes, np.array([0.0, 1, 2, 4, 5, 7]), np.array([0.0, 1, 1, 3, 2.5, 4]))


def test_trapezoid_family():
    t = np.sort(np.random.default_rng(2970).uniform(0, 5, 40))
    grid = np.random.default_rng(2971).normal(size=(6, 9))
    check(trapezoid_family, t, np.sin(t) ** 2, grid)


def test_typed_quadrature():
    check(typed_quadrature, 0.5, 3.0, [4, 8, 16, 32, 64], rtol=2e-3, atol=1e-6)


def test_simpson_romberg():
    check(simpson_romberg, -1.0, 2.0, 40, rtol=1e-4, atol=1e-6)
