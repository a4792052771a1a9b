"""Classic numerical recipes as numerical-analysis course notebooks write them: Romberg integration with a
triangular table filled row by row (`np.zeros((n, n))`, slice sums of the new midpoints), Newton's method
vectorised over many starting points with a convergence mask and in-place updates of the active ones, the secant
method on arrays with `np.errstate` around the divisions, Richardson extrapolation of central differences,
Chebyshev nodes with barycentric interpolation (weights with alternating signs, exact-node hits by `np.isclose`),
Aitken's delta-squared acceleration on a fixed-point iteration and Horner evaluation against `np.polyval`
(tests/porting)."""

import numpy as np
from harness import check


def romberg(np, a, b, levels):
    def f(x):
        return np.exp(-x ** 2) * np.cos(3 * x)
    R = np.zeros((levels, levels))
    h = b - a
    R[0, 0] = h / 2 * (f(np.array([a, b]))).sum()
    for i in range(1, levels):
        h /= 2
        mids = a + h * np.arange(1, 2 ** i, 2)
        R[i, 0] = R[i - 1, 0] / 2 + h * f(mids).sum()
        for k in range(1, i + 1):
            R[i, k] = R[i, k - 1] + (R[i, k - 1] - R[i - 1, k - 1]) / (4 ** k - 1)
    x = np.linspace(a, b, 2 ** (levels - 1) + 1)
    trap = np.trapezoid(f(x), x)
    return {"table": np.tril(R), "best": R[-1, -1], "trap": trap, "diag_diffs": np.abs(np.diff(np.diag(R)))}


def newton_many(np, x0, tol, max_iter):
    x = x0.copy()
    active = np.ones(x.shape, dtype=bool)
    iters = np.zeros(x.shape, dtype=int)
    for _ in range(max_iter):
        xa = x[active]
        fx = xa ** 3 - 2 * xa - 5
        dfx = 3 * xa ** 2 - 2
        step = fx / dfx
        x[active] = xa - step
        iters[active] += 1
        done = np.abs(step) < tol
        idx = np.flatnonzero(active)
        active[idx[done]] = False
        if not active.any():
            break
    root = x[np.argmin(np.abs(x ** 3 - 2 * x - 5))]
    return {"x": x, "iters": iters, "converged": int((~active).sum()), "root": root,
            "residual": np.max(np.abs(x ** 3 - 2 * x - 5)), "basins": np.unique(np.round(x, 4))}


def secant_many(np, a, b, n_iter):
    def f(x):
        return np.cos(x) - x / 4
    x0, x1 = a.copy(), b.copy()
    for _ in range(n_iter):
        f0, f1 = f(x0), f(x1)
        with np.errstate(divide="ignore", invalid="ignore"):
            x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        x2 = np.where(np.isfinite(x2), x2, x1)
        x0, x1 = x1, x2
    roots = np.unique(np.round(x1[np.abs(f(x1)) < 1e-5], 4))
    return {"x": x1, "roots": roots, "ok": int(np.sum(np.abs(f(x1)) < 1e-5)),
            "close": bool(np.allclose(f(x1[np.abs(f(x1)) < 1e-5]), 0, atol=1e-5))}


def richardson(np, x, h0, levels):
    def D(h):
        return (np.sin(x + h) - np.sin(x - h)) / (2 * h)
    T = np.zeros((levels, levels) + x.shape)
    for i in range(levels):
        T[i, 0] = D(h0 / 2 ** i)
        for k in range(1, i + 1):
            T[i, k] = T[i, k - 1] + (T[i, k - 1] - T[i - 1, k - 1]) / (4 ** k - 1)
    err_plain = np.abs(T[:, 0] - np.cos(x))
    err_best = np.abs(T[-1, -1] - np.cos(x))
    order = np.log2(err_plain[:-1] / err_plain[1:])
    return {"best": T[-1, -1], "err_plain": err_plain.max(axis=1), "err_best": err_best.max(),
            "order": np.round(order.mean(axis=1), 1)}


def chebyshev_barycentric(np, n, x_eval):
    k = np.arange(n)
    nodes = np.cos((2 * k + 1) * np.pi / (2 * n))
    f = 1 / (1 + 25 * nodes ** 2)
    w = (-1.0) ** k * np.sin((2 * k + 1) * np.pi / (2 * n))
    diff = x_eval[:, None] - nodes[None, :]
    exact = np.isclose(diff, 0, atol=1e-6)  # kdsl: float32 nodes from Python floats (documented)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = w / diff
        p = (c @ f) / c.sum(axis=1)
    hit_rows, hit_cols = np.nonzero(exact)
    p[hit_rows] = f[hit_cols]
    runge = 1 / (1 + 25 * x_eval ** 2)
    eq = np.linspace(-1, 1, n)
    coeffs = np.polyfit(eq, 1 / (1 + 25 * eq ** 2), n - 1)
    return {"nodes": nodes, "p": p, "err": np.abs(p - runge).max(), "hits": hit_rows,
            "equispaced_err": np.abs(np.polyval(coeffs, x_eval) - runge).max() > np.abs(p - runge).max()}


def aitken(np, x0, n):
    xs = np.empty((n, x0.size))
    xs[0] = x0
    for i in range(1, n):
        xs[i] = np.cos(xs[i - 1])
    a, b, c = xs[:-2], xs[1:-1], xs[2:]
    denom = c - 2 * b + a
    with np.errstate(divide="ignore", invalid="ignore"):
        acc = a - (b - a) ** 2 / denom
    acc = np.where(np.abs(denom) > 1e-12, acc, c)
    fixed = 0.7390851332151607
    return {"plain_err": np.abs(xs[-1] - fixed), "acc_err": np.abs(acc[6] - fixed) < 1e-5,
            "acc": acc[:5], "steps_to_tol": np.argmax(np.abs(xs - fixed) < 1e-4, axis=0)}


def horner(np, coeffs, x):
    y = np.zeros_like(x)
    for c in coeffs:
        y = y * x + c
    dy = np.zeros_like(x)
    p = np.zeros_like(x)
    for c in coeffs:
        dy = dy * x + p
        p = p * x + c
    roots = np.roots(coeffs)
    real = np.sort(roots[np.abs(roots.imag) < 1e-6].real)
    return {"y": y, "polyval": bool(np.allclose(y, np.polyval(coeffs, x), rtol=1e-4)), "dy": dy,
            "der_ok": bool(np.allclose(dy, np.polyval(np.polyder(coeffs), x), rtol=1e-3, atol=1e-3)),
            "real_roots": real}


def test_romberg_table():
    check(romberg, 0.0, 2.0, 6, rtol=1e-3, atol=1e-5)


def test_newton_vectorised():
    check(newton_many, np.random.default_rng(14351).uniform(1, 4, 50), 1e-6, 30, rtol=1e-4, atol=1e-4)


def test_secant_vectorised():
    rng = np.random.default_rng(14352)
    a = rng.uniform(-6, 6, 40)
    check(secant_many, a, a + 0.1, 12, rtol=1e-4, atol=1e-4)


def test_richardson_extrapolation():
    check(richardson, np.linspace(0, 3, 7), 0.4, 4, rtol=2e-2, atol=1e-5)


def test_chebyshev_barycentric():
    n = 15
    nodes = np.cos((2 * np.arange(n) + 1) * np.pi / (2 * n))
    check(chebyshev_barycentric, n, np.concatenate([np.linspace(-1, 1, 41), nodes[[2, 7]]]), rtol=1e-3, atol=1e-4)


def test_aitken_acceleration():
    check(aitken, np.array([0.0, 0.5, 1.0, 2.0]), 40, rtol=1e-3, atol=1e-5)


def test_horner_and_roots():
    check(horner, np.array([1.0, -6.0, 11.0, -6.0, 0.5]), np.linspace(-1, 4, 30), rtol=1e-3, atol=1e-3)
