"""Cubic splines in plain NumPy: a natural spline by the Thomas algorithm in a Python loop and evaluated after
`searchsorted`, the same system by `np.diag(..., k)` and `np.linalg.solve`, clamped end slopes, a periodic spline
through a cyclic system, B-spline bases by the Cox-de Boor recursion fitted by `lstsq`, a Whittaker smoother with
`np.diff(np.eye(n), 2, axis=0)`, Fritsch-Carlson monotone Hermite slopes by `np.where`/`np.sign`, and spline
integrals by `cumsum` of per-interval antiderivatives (tests/porting)."""

import numpy as np
from harness import check


def natural_thomas(np, x, y, xq):
    x, y, xq = np.asarray(x), np.asarray(y), np.asarray(xq)
    n = len(x)
    h = np.diff(x)
    rhs = 6 * np.diff(np.diff(y) / h)
    a = h[:-1].copy()
    b = 2 * (h[:-1] + h[1:])
    c = h[1:].copy()
    d = rhs.copy()
    for i in range(1, n - 2):
        w = a[i] / b[i - 1]
        b[i] = b[i] - w * c[i - 1]
        d[i] = d[i] - w * d[i - 1]
    m = np.zeros(n - 2)
    m[-1] = d[-1] / b[-1]
    for i in range(n - 4, -1, -1):
        m[i] = (d[i] - c[i] * m[i + 1]) / b[i]
    M = np.concatenate([[0.0], m, [0.0]])
    k = np.clip(np.searchsorted(x, xq, side="right") - 1, 0, n - 2)
    t0, t1 = x[k + 1] - xq, xq - x[k]
    hk = h[k]
    s = (M[k] * t0**3 + M[k + 1] * t1**3) / (6 * hk) + (y[k] / hk - M[k] * hk / 6) * t0 \
        + (y[k + 1] / hk - M[k + 1] * hk / 6) * t1
    return {"M": M, "s": s, "k": k, "knots_ok": np.allclose(s[:n], y), "n_at_knots": int(np.isin(xq, x).sum())}


def natural_dense(np, x, y):
    x, y = np.asarray(x), np.asarray(y)
    h = np.diff(x)
    A = np.diag(2 * (h[:-1] + h[1:])) + np.diag(h[1:-1], k=1) + np.diag(h[1:-1], k=-1)
    r = 6 * np.diff(np.diff(y) / h)
    m = np.linalg.solve(A, r)
    M = np.pad(m, 1)
    b = np.diff(y) / h - h * (2 * M[:-1] + M[1:]) / 6
    coef = np.stack([(M[1:] - M[:-1]) / (6 * h), M[:-1] / 2, b, y[:-1]], axis=1)
    return {"M": M, "coef": coef, "cond": np.linalg.cond(A), "band": np.count_nonzero(A),
            "slopes_end": np.array([b[0], b[-1] + h[-1] * (M[-2] + 2 * M[-1]) / 6 * 0 + h[-1] * M[-2] / 2])}


def clamped(np, x, y, s0, s1, xq):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = x.size
    h = np.diff(x)
    A = np.zeros((n, n))
    r = np.zeros(n)
    A[0, :2] = [2 * h[0], h[0]]
    A[-1, -2:] = [h[-1], 2 * h[-1]]
    r[0] = 6 * ((y[1] - y[0]) / h[0] - s0)
    r[-1] = 6 * (s1 - (y[-1] - y[-2]) / h[-1])
    i = np.arange(1, n - 1)
    A[i, i - 1], A[i, i], A[i, i + 1] = h[:-1], 2 * (h[:-1] + h[1:]), h[1:]
    r[i] = 6 * (np.diff(y)[1:] / h[1:] - np.diff(y)[:-1] / h[:-1])
    M = np.linalg.solve(A, r)
    k = np.searchsorted(x, xq) - 1
    k[k < 0] = 0
    t = (xq - x[k]) / h[k]
    val = (1 - t) * y[k] + t * y[k + 1] + h[k] ** 2 / 6 * ((((1 - t) ** 3) - (1 - t)) * M[k] + (t**3 - t) * M[k + 1])
    return {"M": M, "val": val, "resid": A @ M - r}


def periodic(np, theta, y, tq):
    theta, y = np.asarray(theta), np.asarray(y)
    n = len(y)  # y[n] == y[0], not repeated
    h = np.diff(np.append(theta, theta[0] + 2 * np.pi))
    A = np.zeros((n, n))
    idx = np.arange(n)
    A[idx, idx] = 2 * (np.roll(h, 1) + h)
    A[idx, (idx + 1) % n] = h
    A[idx, (idx - 1) % n] = np.roll(h, 1)
    dy = (np.roll(y, -1) - y) / h
    M = np.linalg.solve(A, 6 * (dy - np.roll(dy, 1)))
    tq = np.mod(tq, 2 * np.pi)
    k = np.searchsorted(theta, tq, side="right") - 1
    t0 = theta[k] + h[k] - tq
    t1 = tq - theta[k]
    k1 = (k + 1) % n
    s = (M[k] * t0**3 + M[k1] * t1**3) / (6 * h[k]) + (y[k] - M[k] * h[k] ** 2 / 6) * t0 / h[k] \
        + (y[k1] - M[k1] * h[k] ** 2 / 6) * t1 / h[k]
    return {"M": M, "s": s, "k": k, "sym": np.allclose(A, A.T)}


def bspline_fit(np, x, y, n_inner, degree):
    x, y = np.asarray(x), np.asarray(y)
    inner = np.linspace(x.min(), x.max(), n_inner)
    t = np.concatenate([np.repeat(inner[0], degree), inner, np.repeat(inner[-1], degree)])
    nb = len(t) - 1
    B = ((t[:-1][None, :] <= x[:, None]) & (x[:, None] < t[1:][None, :])).astype(float)
    B[x == t[-1], nb - degree - 1] = 1.0
    for p in range(1, degree + 1):
        left_den = t[p:-1] - t[: -p - 1]
        right_den = t[p + 1:] - t[1:-p]
        left = np.divide(x[:, None] - t[None, : -p - 1], left_den, out=np.zeros((len(x), nb - p)),
                         where=left_den > 0)
        right = np.divide(t[None, p + 1:] - x[:, None], right_den, out=np.zeros((len(x), nb - p)),
                          where=right_den > 0)
        B = left * B[:, :-1] + right * B[:, 1:]
    coef, res, rank, sv = np.linalg.lstsq(B, y, rcond=None)
    return {"B_rowsum": B.sum(axis=1), "coef": coef, "rank": rank, "fit": B @ coef,
            "rss": np.sum((B @ coef - y) ** 2)}


def whittaker(np, y, lam):
    y = np.asarray(y)
    n = y.size
    D = np.diff(np.eye(n), 2, axis=0)
    z = np.linalg.solve(np.eye(n) + lam * D.T @ D, y)
    rough = np.sum(np.diff(z, n=2) ** 2)
    w = np.ones(n)
    w[::4] = 0.0
    zw = np.linalg.solve(np.diag(w) + lam * (D.T @ D), w * y)
    return {"z": z, "rough": rough, "D_shape": D.shape, "zw": zw, "gap_fill": zw[::4]}


def monotone_hermite(np, x, y, xq):
    x, y, xq = map(np.asarray, (x, y, xq))
    h = np.diff(x)
    delta = np.diff(y) / h
    m = np.zeros_like(y)
    m[1:-1] = np.where(np.sign(delta[:-1]) * np.sign(delta[1:]) > 0,
                       (delta[:-1] + delta[1:]) / 2, 0.0)
    m[0], m[-1] = delta[0], delta[-1]
    flat = delta == 0
    m[:-1][flat] = 0
    m[1:][flat] = 0
    alpha = np.divide(m[:-1], delta, out=np.zeros_like(delta), where=~flat)
    beta = np.divide(m[1:], delta, out=np.zeros_like(delta), where=~flat)
    tau = np.where(alpha**2 + beta**2 > 9, 3 / np.sqrt(np.maximum(alpha**2 + beta**2, 1e-300)), 1.0)
    m[:-1] = tau * alpha * delta + np.where(flat, m[:-1], 0) * 0
    m[1:] = np.where(tau < 1, tau * beta * delta, m[1:])
    k = np.clip(np.digitize(xq, x) - 1, 0, len(x) - 2)
    t = (xq - x[k]) / h[k]
    h00, h10, h01, h11 = 2 * t**3 - 3 * t**2 + 1, t**3 - 2 * t**2 + t, -2 * t**3 + 3 * t**2, t**3 - t**2
    v = h00 * y[k] + h10 * h[k] * m[k] + h01 * y[k + 1] + h11 * h[k] * m[k + 1]
    return {"m": m, "v": v, "monotone": bool(np.all(np.diff(v) >= -1e-12)), "tau": tau}


def spline_integral(np, coef, x):
    coef, x = np.asarray(coef), np.asarray(x)
    h = np.diff(x)
    powers = np.array([4, 3, 2, 1])
    pieces = (coef / powers * h[:, None] ** powers[None, :]).sum(axis=1)
    cum = np.concatenate([[0.0], np.cumsum(pieces)])
    mids = np.polyval(coef[0], h[0] / 2)
    return {"pieces": pieces, "cum": cum, "total": cum[-1], "mid0": mids, "avg": cum[-1] / np.ptp(x)}


def test_natural_thomas():
    x = np.array([0.0, 0.5, 1.2, 2.0, 2.4, 3.5, 4.0])
    xq = np.concatenate([x, np.linspace(0, 4, 17)])
    check(natural_thomas, x, np.sin(x) + x, xq, rtol=1e-4, atol=1e-5)


def test_natural_dense():
    x = np.array([0.0, 1.0, 1.5, 3.0, 4.5, 5.0])
    check(natural_dense, x, np.exp(-x) * 3, rtol=1e-4, atol=1e-5)


def test_clamped():
    x = np.linspace(0, np.pi, 8)
    check(clamped, x, np.sin(x), 1.0, -1.0, np.linspace(0, np.pi, 25), rtol=1e-4, atol=1e-5)


def test_periodic():
    theta = np.linspace(0, 2 * np.pi, 9, endpoint=False)
    check(periodic, theta, np.cos(theta) + 0.3 * np.sin(2 * theta), np.linspace(-1, 7, 30), rtol=1e-4,
          atol=1e-5)


def test_bspline_fit():
    rng = np.random.default_rng(2625)
    x = np.sort(rng.uniform(0, 10, 40))
    x[-1] = 10.0
    x[0] = 0.0
    check(bspline_fit, x, np.sin(x) + rng.normal(0, 0.1, 40), 6, 3, rtol=1e-3, atol=1e-4)


def test_whittaker():
    rng = np.random.default_rng(2626)
    check(whittaker, np.cumsum(rng.normal(size=24)), 5.0, rtol=1e-3, atol=1e-4)


def test_monotone_hermite():
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    y = np.array([0.0, 0.1, 0.1, 2.0, 2.1, 5.0, 5.0])
    check(monotone_hermite, x, y, np.linspace(0, 6, 31))


def test_spline_integral():
    coef = np.array([[0.1, -0.2, 1.0, 0.0], [0.3, 0.1, 0.8, 0.9], [-0.05, 0.4, 1.2, 2.1]])
    check(spline_integral, coef, np.array([0.0, 1.0, 2.5, 3.0]))
