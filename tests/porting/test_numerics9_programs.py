"""Numerical-methods programs as textbooks and lecture notes write them: explicit Euler and RK4 convergence
tables, velocity Verlet for oscillators and a small N-body system, an adaptive embedded RK step by hand,
composite trapezoid/Simpson and a Romberg table, Gauss-Legendre rules from leggauss, vectorised Newton and
bisection with np.where, np.interp with left/right/period, divided differences and a natural cubic spline
(tridiagonal system by np.linalg.solve), weighted polyfit with cov and lstsq(rcond=None), np.gradient with
spacing arrays and edge_order=2, Jacobi/power iterations, np.convolve modes, cumsum/cumprod recurrences,
mgrid/ogrid grids, error norms, printed convergence tables, Chebyshev.interpolate, a finite-difference step study
on logspace of 0-d results and a shooting method (tests/porting)."""

import numpy as np
import pytest
from harness import check

import kdsl as kd


def euler_rk4_convergence(np, hs=(0.2, 0.1, 0.05, 0.025)):
    # y' = -2 t y, y(0) = 1 on [0, 1]; exact exp(-t^2)
    def f(t, y):
        return -2 * t * y

    # float64 asked for: RK4's errors at h = 0.025 (1e-8) are below float32's resolution (kdsl's default)
    errs = np.zeros((2, len(hs)), dtype=np.float64)
    for j, h in enumerate(hs):
        n = int(round(1 / h))
        t = np.linspace(0, 1, n + 1, dtype=np.float64)
        ye = np.empty(n + 1, dtype=np.float64)
        yr = np.empty(n + 1, dtype=np.float64)
        ye[0] = yr[0] = 1.0
        for i in range(n):
            ye[i + 1] = ye[i] + h * f(t[i], ye[i])
            k1 = f(t[i], yr[i])
            k2 = f(t[i] + h / 2, yr[i] + h / 2 * k1)
            k3 = f(t[i] + h / 2, yr[i] + h / 2 * k2)
            k4 = f(t[i] + h, yr[i] + h * k3)
            yr[i + 1] = yr[i] + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        exact = np.exp(-t**2)
        errs[0, j] = np.abs(ye - exact).max()
        errs[1, j] = np.linalg.norm(yr - exact, np.inf)
    order = np.log2(errs[:, :-1] / errs[:, 1:])
    slope = np.polyfit(np.log(np.asarray(hs)), np.log(errs.T), 1)[0]
    return {"errs_euler": errs[0], "order": order.round(1), "slope": slope,
            "rk4_small": bool((errs[1] < 1e-4).all())}


def oscillators_verlet(np, omegas_host, steps=400, dt=0.05):
    w = np.asarray(omegas_host)  # float64 from the host: one oscillator per frequency
    x, v = np.ones_like(w), np.zeros_like(w)
    xs, vs = x.copy(), v.copy()  # symplectic Euler for comparison
    energy = [0.5 * v**2 + 0.5 * w**2 * x**2]
    for _ in range(steps):
        a = -(w**2) * x
        x = x + dt * v + 0.5 * dt**2 * a
        v = v + 0.5 * dt * (a - w**2 * x)
        vs -= dt * w**2 * xs
        xs += dt * vs
        energy.append(0.5 * v**2 + 0.5 * w**2 * x**2)
    E = np.array(energy)
    drift = np.abs(E - E[0]).max(axis=0) / E[0]
    t = steps * dt
    return {"x": x, "v": v, "xs": xs, "drift": drift, "err": np.abs(x - np.cos(w * t)),
            "E_rows": E[::100].T.copy()}


def nbody_velocity_verlet(np, pos_host, vel_host, mass_host, steps=60, dt=0.01, eps=0.05):
    pos, vel = np.array(pos_host), np.array(vel_host)
    m = np.asarray(mass_host)

    def accel(p):
        d = p[None, :, :] - p[:, None, :]  # d[i, j] = p_j - p_i
        r2 = (d**2).sum(axis=-1) + eps**2
        inv3 = r2**-1.5
        np.fill_diagonal(inv3, 0.0)
        return np.einsum("ij,ijk,j->ik", inv3, d, m)

    def energy(p, v):
        d = p[None] - p[:, None]
        r = np.sqrt((d**2).sum(-1) + eps**2)
        iu = np.triu_indices(len(m), 1)
        return 0.5 * (m * (v**2).sum(1)).sum() - (m[iu[0]] * m[iu[1]] / r[iu]).sum()

    E0 = energy(pos, vel)
    a = accel(pos)
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
    P = (m[:, None] * vel).sum(axis=0)
    com = (m[:, None] * pos).sum(0) / m.sum()
    return {"pos": pos, "vel": vel, "P": P, "com": com, "dE": float(abs(energy(pos, vel) - E0))}


def adaptive_heun_euler(np, y0_host, t_end=4.0, tol=1e-4):
    # Lotka-Volterra with an embedded Euler/Heun pair and the usual step-size controller
    y = np.asarray(y0_host, dtype=np.float64)

    def f(y):
        return np.array([1.1 * y[0] - 0.4 * y[0] * y[1], 0.1 * y[0] * y[1] - 0.4 * y[1]])

    t, h = 0.0, 0.1
    ts, ys, rejected = [t], [y], 0
    while t < t_end:
        h = min(h, t_end - t)
        k1 = f(y)
        k2 = f(y + h * k1)
        y_high = y + h / 2 * (k1 + k2)
        err = np.linalg.norm(h / 2 * (k2 - k1), ord=np.inf)
        if err <= tol:
            t += h
            y = y_high
            ts.append(t)
            ys.append(y)
        else:
            rejected += 1
        h = h * min(2.0, max(0.2, 0.9 * np.sqrt(tol / max(float(err), 1e-15))))
    Y = np.array(ys)
    return {"steps": len(ts), "rejected": rejected, "y_end": Y[-1], "t": np.array(ts)[::10],
            "dt_max": float(np.diff(np.array(ts)).max()), "min_prey": float(Y[:, 0].min())}


def composite_quadrature(np, ns=(4, 8, 16, 32, 64)):
    a, b = 0.0, 2.0
    exact = 1 - np.cos(2.0) + 2.0 / 3 * 8  # the integral of sin(x) + 2x^2 over [0, 2]
    rows = []
    for n in ns:
        x = np.linspace(a, b, n + 1)
        y = np.sin(x) + 2 * x**2
        h = (b - a) / n
        trap = np.trapezoid(y, x)
        trap_dx = np.trapezoid(y, dx=h)
        simp = h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
        simp_slices = h / 3 * np.sum(y[0:-1:2] + 4 * y[1::2] + y[2::2])
        mid = h * np.sum(np.sin(x[:-1] + h / 2) + 2 * (x[:-1] + h / 2) ** 2)
        rows.append([trap, trap_dx, simp, simp_slices, mid])
    R = np.array(rows)
    errs = np.abs(R - exact)
    y32 = (np.sin(np.linspace(0, 2, 65)) * 1.0).astype(np.float32)
    # the ratios to one decimal: float32's roundoff (kdsl's default dtype) moves the last one by 1e-3
    return {"R": R, "ratio_trap": np.round(errs[:-1, 0] / errs[1:, 0], 1), "simp_err": errs[:, 2],
            "f32": float(np.trapezoid(y32, dx=np.float32(2 / 64))), "one_point": float(np.trapezoid(np.array([3.0]))),
            "cum": np.cumsum(0.5 * (y32[1:] + y32[:-1])) * (2 / 64)}


def romberg_table(np, levels=6):
    def f(x):
        return 4 / (1 + x**2)

    R = np.zeros((levels, levels))
    for i in range(levels):
        n = 2**i
        x = np.linspace(0, 1, n + 1)
        R[i, 0] = np.trapezoid(f(x), x)
    for j in range(1, levels):
        R[j:, j] = R[j:, j - 1] + (R[j:, j - 1] - R[j - 1 : -1, j - 1]) / (4**j - 1)
    # the same first column from the halving recurrence, reusing old points
    T = [0.5 * (f(0.0) + f(1.0))]
    for i in range(1, levels):
        h = 1 / 2**i
        new = f(h * np.arange(1, 2**i, 2))
        T.append(T[-1] / 2 + h * new.sum())
    return {"R": np.tril(R), "diag": np.diag(R), "best": float(R[-1, -1]),
            "err_small": bool(abs(R[-1, -1] - np.pi) < 1e-5),  # 5e-11 in float64, 7e-7 in float32 (kdsl's)
            "halving": np.array(T), "lower_only": bool(np.all(np.triu(R, 1) == 0))}


def gauss_legendre_rules(np, a=0.0, b=3.0):
    exact = 1 - np.exp(-3.0)
    out = []
    for n in range(1, 9):
        x, w = np.polynomial.legendre.leggauss(n)
        t = 0.5 * (b - a) * x + 0.5 * (b + a)
        out.append(0.5 * (b - a) * np.dot(w, np.exp(-t)))
    est = np.array(out)
    x, w = np.polynomial.legendre.leggauss(6)
    X, Y = np.meshgrid(x, x, indexing="ij")
    W = np.outer(w, w)
    double = np.sum(W * np.cos(X) * np.exp(Y))  # over [-1, 1]^2
    poly_exact = np.sum(w * x**10)  # 6 points integrate degree 11 exactly: 2/11
    P5 = np.polynomial.legendre.legval(x, [0, 0, 0, 0, 0, 1])
    return {"est": est, "err": np.abs(est - exact), "double": float(double), "poly": float(poly_exact),
            "P5_at_nodes": P5, "wsum": float(w.sum()), "nodes_sym": bool(np.allclose(x, -x[::-1]))}


def vectorised_newton(np, c_host):
    c = np.asarray(c_host)  # float64 targets: sqrt and cube roots at once
    x = np.where(c > 1, c / 2, 1.0)
    it = 0
    while it < 40:
        dx = (x * x - c) / (2 * x)
        x = x - dx
        it += 1
        if np.all(np.abs(dx) <= 1e-12 * np.abs(x)):
            break
    y = np.ones_like(c)
    count = np.zeros(c.shape, dtype=np.int64)
    for _ in range(60):
        step = (y**3 - c) / (3 * y**2)
        active = np.abs(step) > 1e-10
        y = np.where(active, y - step, y)
        count += active
    # Newton on z^3 - 1 over a complex grid: which root each start converges to
    re, im = np.ogrid[-1.5:1.5:21j, -1.5:1.5:21j]
    z = re + 1j * im
    z = np.where(z == 0, 1e-3, z)
    for _ in range(30):
        z = z - (z**3 - 1) / (3 * z**2)
    roots = np.exp(2j * np.pi * np.arange(3) / 3)
    basin = np.argmin(np.abs(z[..., None] - roots), axis=-1)
    return {"sqrt": x, "iters": it, "cbrt": y, "count": count, "basin_counts": np.bincount(basin.ravel(), minlength=3),
            "basin_row": basin[10]}


def bisection_where(np, k_host, iters=50):
    k = np.asarray(k_host)  # solve cos(x) = k x on [0, pi/2] for every k
    lo, hi = np.zeros_like(k), np.full_like(k, np.pi / 2)
    flo = np.cos(lo) - k * lo
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        fm = np.cos(mid) - k * mid
        left = np.sign(fm) == np.sign(flo)
        lo = np.where(left, mid, lo)
        flo = np.where(left, fm, flo)
        hi = np.where(left, hi, mid)
    root = 0.5 * (lo + hi)
    # regula falsi (Illinois) on float32 copies
    a, b = np.zeros(k.shape, np.float32), np.full(k.shape, np.pi / 2, dtype=np.float32)
    k32 = k.astype(np.float32)
    fa, fb = np.cos(a) - k32 * a, np.cos(b) - k32 * b
    for _ in range(30):
        c = b - fb * (b - a) / (fb - fa)
        fc = np.cos(c) - k32 * c
        same = np.sign(fc) == np.sign(fb)
        fa = np.where(same, fa / 2, fb)
        a = np.where(same, a, b)
        b, fb = c, fc
    return {"root": root, "width": float((hi - lo).max()), "falsi": b,
            "resid": float(np.abs(np.cos(root) - k * root).max())}


def interp_tables(np, xp_host, fp_host, angles_host):
    xp, fp = np.asarray(xp_host), np.asarray(fp_host)  # float64 from the host
    x = np.linspace(xp[0] - 1, xp[-1] + 1, 17)
    out = {"plain": np.interp(x, xp, fp), "lr": np.interp(x, xp, fp, left=0.0, right=np.nan),
           "scalar": float(np.interp(2.5, xp, fp)), "int_xp": np.interp(x, np.arange(len(fp)), fp),
           "f32": np.interp(x.astype(np.float32), xp.astype(np.float32), fp.astype(np.float32)),
           "one_point": np.interp(x[:3], xp[:1], fp[:1]), "empty": np.interp(x[:0], xp, fp)}
    # headings in degrees with a wrap-around: period=360 (xp unsorted and outside [0, 360) on purpose)
    ang = np.asarray(angles_host)
    val = np.cos(np.deg2rad(ang))
    q = np.array([-10.0, 0.0, 5.0, 180.0, 355.0, 725.0])
    out["period"] = np.interp(q, ang, val, period=360)
    out["complex"] = np.interp(x[::4], xp, fp + 1j * fp[::-1])
    out["strided"] = np.interp(x[::-2], xp[::2], fp[::2])
    return out


def divided_differences(np, f_host, n=9):
    def runge(x):
        return 1 / (1 + 25 * x**2)

    xe = np.linspace(-1, 1, n)
    xc = np.cos((2 * np.arange(n) + 1) * np.pi / (2 * n))  # Chebyshev nodes
    z = np.linspace(-1, 1, 201)
    res = {}
    for name, x in (("equi", xe), ("cheb", xc)):
        F = np.zeros((n, n))
        F[:, 0] = runge(x)
        for j in range(1, n):
            F[j:, j] = (F[j:, j - 1] - F[j - 1 : -1, j - 1]) / (x[j:] - x[: n - j])
        coef = np.diag(F)
        p = np.full_like(z, coef[-1])
        for k in range(n - 2, -1, -1):  # Horner in Newton form
            p = p * (z - x[k]) + coef[k]
        # Lagrange form: product over j != i of (z - x_j) / (x_i - x_j)
        D = x[:, None] - x[None, :]
        np.fill_diagonal(D, 1.0)
        Z = z[None, :] - x[:, None]
        L = np.empty((n, len(z)))
        for i in range(n):
            L[i] = np.prod(np.delete(Z, i, axis=0), axis=0) / np.prod(D[i])
        lag = runge(x) @ L
        res[name] = {"coef": coef, "maxerr": float(np.abs(p - runge(z)).max()),
                     "same": bool(np.allclose(p, lag, atol=1e-4)), "partition": float(np.abs(L.sum(0) - 1).max())}
    # barycentric weights for host data on the same Chebyshev nodes
    w = 1 / np.prod(xc[:, None] - xc[None, :] + np.eye(n), axis=1)
    f = np.asarray(f_host)
    zz = z[1::20]
    C = w / (zz[:, None] - xc[None, :])
    res["bary"] = (C @ f) / C.sum(axis=1)
    return res


def natural_cubic_spline(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    n = len(x) - 1
    h = np.diff(x)
    A = np.zeros((n + 1, n + 1))
    rhs = np.zeros(n + 1)
    A[0, 0] = A[n, n] = 1.0  # natural ends: M_0 = M_n = 0
    i = np.arange(1, n)
    A[i, i - 1] = h[:-1]
    A[i, i] = 2 * (h[:-1] + h[1:])
    A[i, i + 1] = h[1:]
    rhs[1:-1] = 6 * (np.diff(y[1:]) / h[1:] - np.diff(y[:-1]) / h[:-1])
    M = np.linalg.solve(A, rhs)
    z = np.linspace(x[0], x[-1], 41)
    k = np.clip(np.searchsorted(x, z, side="right") - 1, 0, n - 1)
    t0, t1 = x[k + 1] - z, z - x[k]
    s = (M[k] * t0**3 + M[k + 1] * t1**3) / (6 * h[k]) + (y[k] / h[k] - M[k] * h[k] / 6) * t0 \
        + (y[k + 1] / h[k] - M[k + 1] * h[k] / 6) * t1
    # first derivatives from the left and right at the inner knots agree
    dl = (y[1:] - y[:-1]) / h + h * (2 * M[1:] + M[:-1]) / 6
    dr = (y[1:] - y[:-1]) / h - h * (2 * M[:-1] + M[1:]) / 6
    return {"M": M, "s": s,
            "knots": np.interp(x, z, s), "C1": float(np.abs(dl[:-1] - dr[1:]).max()),
            "lin_gap": float(np.abs(s - np.interp(z, x, y)).max()), "tri": bool(np.allclose(np.triu(A, 2), 0))}


def weighted_least_squares(np, x_host, y_host, sigma_host):
    x, y, sig = np.asarray(x_host), np.asarray(y_host), np.asarray(sigma_host)
    p, C = np.polyfit(x, y, 2, w=1 / sig, cov="unscaled")
    p2, C2 = np.polyfit(x, y, 2, w=1 / sig, cov=True)
    perr = np.sqrt(np.diag(C))
    V = np.vander(x, 3) / sig[:, None]
    sol, res, rank, sv = np.linalg.lstsq(V, y / sig, rcond=None)
    chi2 = np.sum(((y - np.polyval(p, x)) / sig) ** 2)
    # normal equations and QR give the same answer
    normal = np.linalg.solve(V.T @ V, V.T @ (y / sig))
    Q, R = np.linalg.qr(V)
    qr = np.linalg.solve(R, Q.T @ (y / sig))
    full = np.polyfit(x, y, 1, full=True)
    line = np.linalg.lstsq(np.column_stack([x, np.ones_like(x)]), y, rcond=None)[0]
    return {"p": p, "perr": perr, "C2": C2, "sol": sol, "res": res, "rank": int(rank), "sv": sv,
            "chi2": float(chi2), "normal": normal, "qr": qr, "full_coef": full[0], "full_res": full[1],
            "full_rank": int(full[2]), "line": line}


def finite_difference_orders(np, ns=(11, 21, 41, 81)):
    errs = []
    for n in ns:
        x = np.linspace(0, np.pi, n)
        f = np.sin(x)
        g1 = np.gradient(f, x)
        g2 = np.gradient(f, x, edge_order=2)
        errs.append([np.abs(g1 - np.cos(x)).max(), np.abs(g2 - np.cos(x)).max(),
                     np.abs(g1 - np.cos(x))[1:-1].max()])
    E = np.array(errs)
    h = np.pi / (np.array(ns) - 1)
    orders = np.polyfit(np.log(h), np.log(E), 1)[0]
    # non-uniform grid: spacing array along one axis, a scalar along the other
    xs = np.array([0.0, 0.1, 0.3, 0.35, 0.7, 1.0])
    ys = np.linspace(0, 2, 5)
    F = np.outer(np.exp(ys), xs**2)
    gy, gx = np.gradient(F, ys[1] - ys[0], xs, edge_order=2)
    d = np.diff(xs, prepend=0.0, append=1.5)
    cum = np.cumsum(np.diff(F[0], prepend=F[0, 0]))
    return {"E": E, "orders": orders.round(1), "gx": gx, "gy": gy, "d": d, "cum": cum,
            "i_grad": np.gradient(np.array([1, 4, 9, 16, 25], dtype=np.int64)),
            "diff2": np.diff(F, n=2, axis=1)[:, ::2]}


def iterations(np, A_host, b_host):
    A, b = np.asarray(A_host), np.asarray(b_host)
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros_like(b)
    hist = []
    energy, energies = 0.0, []
    for _ in range(200):
        x_new = (b - R @ x) / D
        hist.append(np.linalg.norm(x_new - x, ord=np.inf))
        x = x_new
        energy += x @ x  # a running total of 0-d results, each kept in the list
        energies.append(energy)
        if hist[-1] < 1e-10:
            break
    gs = np.zeros_like(b)
    for _ in range(25):  # Gauss-Seidel, row by row
        for i in range(len(b)):
            gs[i] = (b[i] - A[i, :i] @ gs[:i] - A[i, i + 1 :] @ gs[i + 1 :]) / A[i, i]
    v = np.ones(len(b)) / np.sqrt(len(b))
    lam = 0.0
    for _ in range(100):
        w = A @ v
        lam = v @ w
        v = w / np.linalg.norm(w)
    v = v * np.sign(v[0])
    # inverse iteration with a shift for the smallest eigenvalue
    u = np.ones(len(b))
    for _ in range(30):
        u = np.linalg.solve(A - 0.5 * np.eye(len(b)), u)
        u /= np.linalg.norm(u, 2)
    mu = u @ A @ u
    g = 0.5
    for _ in range(100):  # fixed point of g = exp(-g)
        g = np.exp(-g)
    return {"jacobi": x, "iters": len(hist) > 5, "rate": float(hist[6] / hist[5]), "gs": gs, "lam": float(lam),
            "v": v, "mu": float(mu), "eig": np.linalg.eigvalsh(A)[[0, -1]], "omega": float(g),
            "resid": float(np.linalg.norm(A @ x - b, 1)), "energies": [float(e) for e in energies[:5]]}


def convolution_modes(np, sig_host):
    sig = np.asarray(sig_host)
    box = np.ones(5) / 5
    out = {m: np.convolve(sig, box, mode=m) for m in ("full", "same", "valid")}
    out["short_first"] = np.convolve(box[:3], sig[:7], "same")  # the longer one sets 'same's length
    p, q = np.array([1, -3, 2]), np.array([2, 0, 1, 5])
    out["polymul"] = np.convolve(p, q)
    out["poly_same"] = bool(np.array_equal(np.convolve(p, q), np.polymul(p, q)))
    out["deriv"] = np.convolve(sig, [1, 0, -1], "valid") / 2
    out["f32"] = np.convolve(sig.astype(np.float32), np.array([0.25, 0.5, 0.25], dtype=np.float32), "same")
    out["strided"] = np.convolve(sig[::3], sig[1:4][::-1], "full")
    out["one"] = np.convolve(np.array([2.0]), np.array([3.0, 4.0]))
    out["corr"] = np.correlate(sig[:10], np.array([1.0, 2.0, 1.0]), "same")
    kernel = np.exp(-0.5 * (np.arange(-3, 4) / 1.5) ** 2)
    out["gauss"] = np.convolve(sig, kernel / kernel.sum(), "same")[::4]
    return out


def cumulative_recurrences(np, x_host, r_host):
    x = np.asarray(x_host)
    k = np.arange(1, 16)
    fact = np.cumprod(k.astype(np.float64))
    # exp(x) by its Taylor terms x^k / k!, built with cumprod for every x at once (a 2-D table)
    terms = np.cumprod(x[:, None] / k[None, :], axis=1)
    expx = 1 + terms.sum(axis=1)
    # y_n = a y_{n-1} + b in closed form through cumprod and cumsum
    a, b, n = 0.9, 1.0, 30
    pw = np.cumprod(np.full(n, a))
    y = pw * 2.0 + b * np.cumsum(np.concatenate([[1.0], pw[:-1]]))
    yl = [2.0]
    for _ in range(n):
        yl.append(a * yl[-1] + b)
    r = np.asarray(r_host)  # monthly returns: wealth, running peak and drawdown
    wealth = 1000 * np.cumprod(1 + r)
    peak = np.maximum.accumulate(wealth)
    dd = (wealth - peak) / peak
    M = np.arange(12.0).reshape(3, 4)
    return {"fact": fact, "exp": expx, "exp_err": float(np.abs(expx - np.exp(x)).max()), "rec": y,
            "rec_loop": np.array(yl[1:]), "wealth": wealth, "maxdd": float(dd.min()), "when": int(dd.argmin()),
            "cumT": np.cumsum(M.T, axis=0), "cum_step": np.cumsum(M[:, ::-2], axis=1),
            "int_cumprod": np.cumprod(np.arange(1, 8)), "empty": np.cumsum(np.array([])),
            "running_mean": np.cumsum(x) / np.arange(1, len(x) + 1)}


def grids_and_norms(np, h_list=(0.5, 0.25, 0.125)):
    out = {}
    for h in h_list:
        Y, X = np.mgrid[0 : 1 + h / 2 : h, 0 : 2 + h / 2 : h]
        u = np.sin(np.pi * X) * np.cos(np.pi * Y)
        lap = np.zeros_like(u)
        lap[1:-1, 1:-1] = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]) / h**2
        e = (lap + 2 * np.pi**2 * u)[1:-1, 1:-1]
        out[h] = [np.linalg.norm(e.ravel(), 1) * h * h, np.linalg.norm(e) * h, np.linalg.norm(e.ravel(), np.inf),
                  np.linalg.norm(e, "fro") * h, np.linalg.norm(e, 2) if e.size else 0.0]
    E = np.array([out[h] for h in h_list])
    r, c = np.ogrid[0:4, 0:5]
    dist = np.hypot(r - 1.5, c - 2.0)
    xs, ys = np.meshgrid(np.linspace(0, 1, 3), np.linspace(0, 2, 4), sparse=True)
    Xc, Yc = np.mgrid[-1:1:5j, 0:1:3j]
    M = np.arange(12.0).reshape(3, 4) - 5
    return {"E": E, "ratios": (E[:-1] / E[1:]).round(0), "dist": dist, "sparse": xs + ys, "Xc": Xc, "Yc": Yc,
            "cols": np.linalg.norm(M, axis=0), "rows1": np.linalg.norm(M, 1, axis=1),
            "mat": [np.linalg.norm(M, o) for o in (1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc")],
            "vec": [np.linalg.norm(M[1], o) for o in (0, 0.5, 3, -np.inf)],
            "keep": np.linalg.norm(M.T[::2], axis=1, keepdims=True)}


def printed_convergence_table(np, ns=(4, 8, 16, 32)):
    rows = []
    for n in ns:
        x = np.linspace(0, 1, n + 1, dtype=np.float64)
        y = np.exp(x)
        rows.append([n, np.trapezoid(y, x), abs(np.trapezoid(y, x) - (np.e - 1))])
    T = np.array(rows, dtype=np.float64)
    out = {}
    with np.printoptions(precision=4, suppress=True):
        out["ctx"] = str(T[:, 1])
    old = np.get_printoptions()
    np.set_printoptions(precision=3, floatmode="fixed")
    out["fixed"] = str(T[:, 1])
    np.set_printoptions(**old)
    out["sci"] = np.array2string(T[:, 2], formatter={"float_kind": lambda v: f"{v:.2e}"}, separator=", ")
    out["prefix"] = np.array2string(T[:2, 1:], precision=3, prefix="table = ", suppress_small=True)
    out["width"] = np.array2string(np.linspace(0, 1, 12, dtype=np.float64), max_line_width=30, precision=2)
    out["lines"] = "\n".join(f"{int(n):4d} {v:.6f} {e:.3e}" for n, v, e in T)
    out["ints"] = np.array2string(T[:, 0].astype(np.int64), separator=" | ")
    out["after"] = str(np.array([1 / 3], dtype=np.float64))
    out["mean"] = f"mean error {T[:, 2].mean():.6e} over {T[:, 0].mean()} panels, {np.mean(T[:3, 0])}"  # 28 / 3
    return out


def edge_cases(np, one_host):
    one = np.asarray(one_host)  # a single float64 sample
    e = one[:0]
    return {"trap1": float(np.trapezoid(one)), "trap0": float(np.trapezoid(e)), "diff1": np.diff(one),
            "diff_pre": np.diff(one, prepend=0.0), "cum0": np.cumsum(e), "cumprod1": np.cumprod(one),
            "interp1": np.interp(np.array([0.0, 5.0]), one + 1, one), "norm0": float(np.linalg.norm(e)),
            "conv1": np.convolve(one, one), "polyfit0": np.polyfit(np.array([0.0, 1.0]), np.array([2.0, 4.0]), 0),
            "grad2": np.gradient(np.concatenate([one, one * 3])), "close0": bool(np.allclose(e, e)),
            "isclose": np.isclose(one, one * (1 + 1e-9)), "mean_sq": float(np.mean(one**2)),
            "lstsq1": np.linalg.lstsq(np.ones((1, 1)), one, rcond=None)[0]}


def chebyshev_approximation(np, deg=8):
    T = np.polynomial.Chebyshev.interpolate(np.exp, deg, domain=[0, 2])
    z = np.linspace(0, 2, 101)
    err = np.abs(T(z) - np.exp(z))
    Tk = np.polynomial.Chebyshev.interpolate(lambda x, k: np.cos(k * x), 10, args=(3.0,))
    P = T.convert(kind=np.polynomial.Polynomial)
    fit = np.polynomial.chebyshev.chebfit(z - 1, np.exp(z), deg)  # on [-1, 1], where the basis is well conditioned
    L = np.polynomial.Legendre.fit(z, np.exp(z), 4)
    # 1e-5: z is float32 in kdsl (its default), and exp(2) = 7.4 has a float32 ulp of 5e-7
    return {"coef": T.coef, "domain": T.domain, "max_err": bool(err.max() < 1e-5), "decay": np.abs(T.coef[-3:]),
            "cos_coef": Tk.coef[:5], "poly": P.coef[:4], "fit0": fit[:3], "leg": L.coef, "leg_dom": L.domain,
            "roots": np.sort(np.polynomial.Chebyshev.interpolate(np.sin, 9, domain=[-4, 4]).roots().real)}


def step_size_study(np, x0_host, lo_host, hi_host):
    x0 = np.asarray(x0_host)  # float64 host data: the whole study runs in float64
    h = np.logspace(np.log10(np.asarray(lo_host).min()), np.log10(np.asarray(hi_host).max()), 13)
    exact = np.cos(x0)
    fwd = np.abs((np.sin(x0 + h) - np.sin(x0)) / h - exact)
    cen = np.abs((np.sin(x0 + h) - np.sin(x0 - h)) / (2 * h) - exact)
    rich = np.abs((8 * (np.sin(x0 + h / 2) - np.sin(x0 - h / 2)) - (np.sin(x0 + h) - np.sin(x0 - h))) / (6 * h)
                  - exact)
    eps = np.finfo(np.float64).eps
    grid = np.geomspace(h.min(), h.max(), 5)
    # compared where truncation dominates: below, the errors are sin's last-bit rounding over h (kdsl's float64
    # sin and libm's differ by an ulp in places), so the error curves (and their minima) differ there
    return {"h": h, "fwd": fwd[5:], "cen": cen[7:], "rich": rich[10:], "theory": [np.sqrt(eps), np.cbrt(eps)],
            "grid": grid, "slope": np.polyfit(np.log(h[-5:]), np.log(fwd[-5:]), 1)[0].round(1),
            "round_off": bool(fwd[0] > fwd[4])}


def shooting_method(np, target_host, n=100):
    # y'' = -y + x, y(0) = 0, y(1) = target: RK4 for the IVP, secant on the initial slope
    target = np.asarray(target_host)

    def shoot(s):
        h = 1.0 / n
        y = np.array([0.0, 1.0]) * s
        x = 0.0
        for _ in range(n):
            def f(x, y):
                return np.array([y[1], -y[0] + x])
            k1 = f(x, y)
            k2 = f(x + h / 2, y + h / 2 * k1)
            k3 = f(x + h / 2, y + h / 2 * k2)
            k4 = f(x + h, y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            x += h
        return y[0] - target

    s0, s1 = 0.0, 1.0
    F0, F1 = shoot(s0), shoot(s1)
    slopes = [s0, s1]
    for _ in range(6):
        s2 = s1 - F1 * (s1 - s0) / (F1 - F0)
        s0, F0 = s1, F1
        s1 = s2
        F1 = shoot(s1)
        slopes.append(s1)
        if abs(F1) < 1e-5:  # not 1e-10: the states are float32 in kdsl (its default), residuals ~1e-7
            break
    exact = (target - 1 + np.sin(1.0)) / np.sin(1.0)  # y = x - sin x + c sin x
    return {"slopes": [float(v) for v in slopes], "slope": float(s1), "exact": float(exact),
            "miss": bool(abs(F1) < 1e-4)}


def erf_table_by_vectorized_quadrature(np, b_host):
    # erf(b) = 2/sqrt(pi) * integral of exp(-t^2) on [0, b], one trapezoid rule per b through np.vectorize
    def erf_trap(b, n=200):
        t = np.linspace(0, b, n + 1)
        return 2 / np.sqrt(np.pi) * np.trapezoid(np.exp(-t**2), t)

    bs = np.asarray(b_host)
    table = np.vectorize(erf_trap)(bs)
    norms = np.vectorize(lambda x: np.linalg.norm(np.array([x, 1.0])))(bs)
    return {"erf": table, "norms": norms, "monotone": bool(np.all(np.diff(table) > 0)),
            "tail": float(1 - table[-1])}


def test_euler_rk4_convergence_table():
    check(euler_rk4_convergence, rtol=1e-3, atol=1e-6)


def test_oscillators_velocity_verlet():
    check(oscillators_verlet, np.array([0.5, 1.0, 2.0, 3.5]), rtol=1e-3, atol=1e-5)


def test_nbody_velocity_verlet_einsum():
    rng = np.random.default_rng(9)
    check(nbody_velocity_verlet, rng.normal(size=(5, 2)), 0.3 * rng.normal(size=(5, 2)), rng.uniform(0.5, 2, 5),
          rtol=1e-3, atol=1e-4)


def test_adaptive_heun_euler_step_control():
    check(adaptive_heun_euler, [10.0, 5.0], rtol=1e-3, atol=1e-4)


def test_composite_trapezoid_simpson():
    check(composite_quadrature, rtol=1e-4, atol=1e-6)


def test_romberg_table_in_place_columns():
    check(romberg_table, rtol=1e-5, atol=1e-7)


def test_gauss_legendre_leggauss():
    check(gauss_legendre_rules, rtol=1e-5, atol=1e-6)


def test_vectorised_newton_sqrt_cbrt_fractal():
    check(vectorised_newton, np.array([0.25, 2.0, 10.0, 1e4, 3.0]), rtol=1e-5, atol=1e-6)


def test_bisection_and_regula_falsi_where():
    check(bisection_where, np.linspace(0.2, 3.0, 8), rtol=1e-5, atol=1e-6)


def test_interp_left_right_period_complex():
    rng = np.random.default_rng(4)
    xp = np.sort(rng.uniform(0, 10, 9))
    check(interp_tables, xp, np.sin(xp), np.array([350.0, 10.0, 90.0, 200.0, -90.0 + 360 * 2]), rtol=1e-4, atol=1e-5)


def test_divided_differences_lagrange_runge():
    check(divided_differences, np.cos(3 * np.cos((2 * np.arange(9) + 1) * np.pi / 18)), rtol=1e-3, atol=1e-4)


def test_natural_cubic_spline_tridiagonal_solve():
    x = np.array([0.0, 0.5, 1.2, 2.0, 2.6, 3.5, 4.0])
    check(natural_cubic_spline, x, np.sin(x) + 0.1 * x, rtol=1e-4, atol=1e-5)


def test_weighted_polyfit_cov_and_lstsq():
    rng = np.random.default_rng(5)
    x = np.linspace(-2, 3, 15)
    sig = rng.uniform(0.1, 0.5, 15)
    check(weighted_least_squares, x, 0.5 * x**2 - x + 2 + sig * rng.normal(size=15), sig, rtol=1e-3, atol=1e-4)


def test_gradient_orders_spacing_arrays_diff_prepend():
    check(finite_difference_orders, rtol=1e-3, atol=1e-4)


def test_jacobi_gauss_seidel_power_iteration():
    rng = np.random.default_rng(6)
    B = rng.normal(size=(6, 6))
    A = B @ B.T / 6 + 3 * np.eye(6)
    A[np.arange(6), np.arange(6)] += np.abs(A).sum(1)  # diagonally dominant: Jacobi converges
    check(iterations, A, rng.normal(size=6), rtol=1e-3, atol=1e-5)


def test_convolve_modes_polymul_correlate():
    check(convolution_modes, np.sin(np.linspace(0, 6, 40)) + 0.1 * np.cos(np.arange(40) * 7.0), rtol=1e-4, atol=1e-5)


def test_cumsum_cumprod_recurrences():
    rng = np.random.default_rng(7)
    check(cumulative_recurrences, np.linspace(-2, 2, 9), rng.normal(0.01, 0.05, 24), rtol=1e-4, atol=1e-5)


def test_mgrid_ogrid_grids_and_norms():
    check(grids_and_norms, rtol=1e-3, atol=1e-4)


def test_printed_convergence_table():
    check(printed_convergence_table)


def test_empty_and_size_one_inputs():
    check(edge_cases, np.array([2.5]))


def test_chebyshev_interpolate_and_fits():
    check(chebyshev_approximation, rtol=1e-4, atol=1e-6)


def test_step_size_study_logspace_of_results():
    check(step_size_study, np.array([1.0]), np.array([1e-9, 1e-3]), np.array([0.5, 1e-1]), rtol=1e-3, atol=1e-12)


def test_shooting_method_secant_on_rk4():
    check(shooting_method, np.array(2.0), rtol=1e-3, atol=1e-5)


def test_vectorize_of_a_quadrature_per_element():
    # kdsl runs these functions of one element through NumPy's loop, with a PerformanceWarning (vectorize_shape.py)
    with pytest.warns(kd.PerformanceWarning):
        check(erf_table_by_vectorized_quadrature, np.array([0.1, 0.5, 1.0, 2.0]), rtol=1e-5, atol=1e-7)
