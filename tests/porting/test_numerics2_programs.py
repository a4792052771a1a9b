"""More numerical programs: quadrature, vectorised Newton/bisection, finite differences, polynomial fits,
interpolation, tridiagonal solves, matrix exponential by series (tests/porting)."""

import numpy as np
from harness import check


def quadrature_rules(np, n=33):
    x = np.linspace(0, np.pi, n)
    y = np.sin(x) * np.exp(-x / 3)
    h = x[1] - x[0]
    trap = np.trapezoid(y, x)
    trap_manual = h * (y.sum() - 0.5 * (y[0] + y[-1]))
    simpson = h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())
    # Gauss-Legendre 3-point on [0, pi], nodes written out
    g = np.array([-np.sqrt(3 / 5), 0.0, np.sqrt(3 / 5)])
    gw = np.array([5 / 9, 8 / 9, 5 / 9])
    t = 0.5 * np.pi * (g + 1)
    gauss = 0.5 * np.pi * np.sum(gw * np.sin(t) * np.exp(-t / 3))
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (y[1:] + y[:-1]) * np.diff(x))])
    X, Y = np.meshgrid(np.linspace(0, 1, 21), np.linspace(0, 2, 41), indexing="ij")
    double = np.trapezoid(np.trapezoid(X * Y**2, dx=0.05, axis=1), dx=0.05)
    exact = 3 / 10 * (1 - np.exp(-np.pi / 3)) * 1.0  # not the integral: a reference scale only
    return {"trap": float(trap), "manual": float(trap_manual), "simpson": float(simpson), "gauss": float(gauss),
            "cum": cum, "double": float(double), "scale": float(exact)}


def vectorised_root_finding(np, c_host):
    c = np.asarray(c_host, dtype=np.float64)
    # solve x**3 + x - c = 0 for every c at once
    lo = np.full_like(c, -10.0)
    hi = np.full_like(c, 10.0)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        f = mid**3 + mid - c
        lo = np.where(f < 0, mid, lo)
        hi = np.where(f >= 0, mid, hi)
    x = c.copy() / 2
    steps = np.zeros(c.shape, dtype=int)
    for _ in range(30):
        fx = x**3 + x - c
        active = np.abs(fx) > 1e-12
        if not active.any():
            break
        x[active] -= fx[active] / (3 * x[active] ** 2 + 1)
        steps += active
    secant_a, secant_b = np.zeros_like(c), np.ones_like(c)
    for _ in range(12):
        fa, fb = secant_a**3 + secant_a - c, secant_b**3 + secant_b - c
        denom = np.where(fb - fa == 0, 1.0, fb - fa)
        secant_a, secant_b = secant_b, np.where(fb - fa == 0, secant_b, secant_b - fb * (secant_b - secant_a) / denom)
    return {"bisect": 0.5 * (lo + hi), "newton": x, "steps": steps, "secant": secant_b,
            "agree": bool(np.allclose(x, 0.5 * (lo + hi), atol=1e-9))}


def finite_differences(np, n=41):
    x = np.linspace(-2, 2, n)
    f = np.exp(-x**2) * np.cos(3 * x)
    d1 = np.gradient(f, x)
    d1_2 = np.gradient(f, x[1] - x[0], edge_order=2)
    d2 = np.gradient(np.gradient(f, x), x)
    fd2 = np.diff(f, n=2) / (x[1] - x[0]) ** 2
    central = (f[2:] - f[:-2]) / (x[2:] - x[:-2])
    xs = np.sort(np.concatenate([x, [0.05, 0.13]]))
    fs = np.exp(-xs**2)
    dnonuni = np.gradient(fs, xs)
    Y, X = np.mgrid[-1:1:9j, -1:1:11j]
    Z = X**2 * Y
    gy, gx = np.gradient(Z, Y[:, 0], X[0])
    extrema = np.flatnonzero(np.diff(d1 > 0))  # diff of booleans is not_equal
    return {"d1": d1, "d1_2": d1_2, "d2": d2, "fd2": fd2, "central": central, "dnonuni": dnonuni, "gy": gy,
            "gx": gx, "extrema": extrema}


def polynomial_fits(np, x_host, y_host):
    x, y = np.asarray(x_host, dtype=np.float64), np.asarray(y_host, dtype=np.float64)
    fits = {}
    for deg in (1, 2, 3):
        coef = np.polyfit(x, y, deg)
        resid = y - np.polyval(coef, x)
        fits[deg] = (coef, float((resid**2).sum()))
    V = np.vander(x, 4)
    coef_v = np.linalg.lstsq(V, y, rcond=None)[0]
    w = 1 / (1 + np.abs(x))
    coef_w = np.polyfit(x, y, 2, w=w)
    p = np.poly1d(fits[3][0])
    dp = np.polyder(fits[3][0])
    ip = np.polyint(fits[2][0])
    roots = np.roots(dp)
    return {"c1": fits[1][0], "c2": fits[2][0], "c3": fits[3][0], "sse": [fits[d][1] for d in (1, 2, 3)],
            "vander": bool(np.allclose(coef_v, fits[3][0])), "cw": coef_w, "p_at": p(0.5), "dp": dp, "ip": ip,
            "crit": np.sort(roots.real)}


def interpolation(np, xp_host, fp_host):
    xp, fp = np.asarray(xp_host), np.asarray(fp_host)
    x = np.linspace(-1, 11, 25)
    lin = np.interp(x, xp, fp)
    clamped = np.interp(x, xp, fp, left=np.nan, right=-1.0)
    per = np.interp(np.array([-0.5, 10.5, 3.25]), xp, fp, period=10)
    i = np.clip(np.searchsorted(xp, x) - 1, 0, len(xp) - 2)
    t = (x - xp[i]) / (xp[i + 1] - xp[i])
    manual = fp[i] * (1 - t) + fp[i + 1] * t
    inside = (x >= xp[0]) & (x <= xp[-1])
    nearest = fp[np.abs(x[:, None] - xp[None, :]).argmin(axis=1)]
    grid = fp.reshape(2, -1) if len(fp) % 2 == 0 else fp[:-1].reshape(2, -1)
    gx = np.linspace(0, grid.shape[1] - 1, 7)
    rows = np.array([np.interp(gx, np.arange(grid.shape[1]), r) for r in grid])
    return {"lin": lin, "clamped": clamped, "per": per, "same_inside": bool(np.allclose(manual[inside], lin[inside])),
            "nearest": nearest, "rows": rows}


def tridiagonal_and_expm(np, n=8):
    a = -np.ones(n - 1)
    b = 2.5 * np.ones(n)
    c = -np.ones(n - 1)
    d = np.sin(np.arange(n) + 1.0)
    cp, dp = np.zeros(n - 1), np.zeros(n)
    cp[0], dp[0] = c[0] / b[0], d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / m
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / m
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    T = np.diag(b) + np.diag(a, -1) + np.diag(c, 1)
    direct = np.linalg.solve(T, d)
    A = np.array([[0.0, 1.0], [-2.0, -0.3]])
    E = np.eye(2)
    term = np.eye(2)
    for k in range(1, 25):
        term = term @ A / k
        E = E + term
    w, V = np.linalg.eig(A)
    E_eig = (V * np.exp(w)) @ np.linalg.inv(V)
    half = np.eye(2) + A / 2 + A @ A / 8
    return {"thomas": x, "same": bool(np.allclose(x, direct)), "resid": float(np.abs(T @ x - d).max()) < 1e-5,
            "expm": E, "expm_eig": E_eig.real, "imag_small": bool(np.abs(E_eig.imag).max() < 1e-5),
            "det": float(np.linalg.det(E)), "trace": float(np.exp(np.trace(A))), "half": half}


def odes_and_fixed_points(np, x0_host):
    x0 = np.asarray(x0_host, dtype=np.float64)
    # logistic map for many r at once
    r = np.linspace(2.5, 4.0, 7)[:, None]
    x = np.tile(x0, (len(r), 1))
    for _ in range(200):
        x = r * x * (1 - x)
    spread = x.max(axis=1) - x.min(axis=1)
    # RK4 for a damped pendulum, states stacked in columns
    def f(s):
        return np.stack([s[1], -0.2 * s[1] - np.sin(s[0])])

    s = np.vstack([x0 * 3, np.zeros_like(x0)])
    dt = 0.05
    energy = []
    for step in range(100):
        k1 = f(s)
        k2 = f(s + dt / 2 * k1)
        k3 = f(s + dt / 2 * k2)
        k4 = f(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if step % 25 == 0:
            energy.append((0.5 * s[1] ** 2 + 1 - np.cos(s[0])).round(6))
    g = x0.copy()
    for _ in range(50):
        g = np.cos(g)
    return {"spread": spread, "final": s, "energy": np.array(energy), "dottie": g}


def test_trapezoid_simpson_gauss_cumulative():
    check(quadrature_rules, rtol=1e-4, atol=1e-5)


def test_bisection_newton_secant_vectorised():
    check(vectorised_root_finding, np.linspace(-20, 30, 11), rtol=1e-4, atol=1e-4)


def test_gradient_diff_finite_differences():
    check(finite_differences, rtol=1e-3, atol=1e-3)


def test_polyfit_polyval_vander_poly1d():
    rng = np.random.default_rng(61)
    x = np.linspace(-2, 2, 25)
    check(polynomial_fits, x, x**3 - x + 0.1 * rng.normal(size=25), rtol=1e-3, atol=1e-3)


def test_interp_left_right_period_searchsorted():
    xp = np.array([0.0, 1.0, 2.5, 4.0, 7.0, 10.0])
    check(interpolation, xp, np.cos(xp), rtol=1e-4, atol=1e-5)


def test_thomas_algorithm_and_expm_series():
    check(tridiagonal_and_expm, rtol=1e-4, atol=1e-5)


def test_logistic_map_rk4_fixed_point():
    check(odes_and_fixed_points, np.linspace(0.1, 0.9, 5), rtol=1e-3, atol=1e-3)
