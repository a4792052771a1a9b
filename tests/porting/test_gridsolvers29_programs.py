"""Heat and wave equations on 2-D grids and the hand-written linear solvers behind implicit steps, in plain NumPy:
explicit heat steps by `np.roll` (periodic) and by slicing with Dirichlet borders written through views, the
leapfrog wave equation with a moving source and an energy check, conjugate gradient on the 5-point Laplacian
applied matrix-free, Jacobi and red-black Gauss-Seidel sweeps with boolean checkerboard masks and in-place updates
of slices, a Crank-Nicolson step solved by a dense `np.linalg.solve` of a Kronecker-sum matrix, and a multigrid-style
restriction/prolongation pair, upwind/Lax-Wendroff advection
through type-annotated helpers (`np.ndarray[Any, np.dtype[np.float64]]`, `np.float64 | float`) (tests/porting)."""

import numpy as np
from harness import check


def heat_periodic(np, u0, alpha, steps):
    u = np.array(u0, dtype=np.float32)
    total0 = u.sum()
    maxima = []
    for _ in range(steps):
        lap = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u
        u += alpha * lap
        maxima.append(u.max())
    return {"u": u, "mass_drift": abs(u.sum() - total0) / abs(total0), "max": np.array(maxima),
            "monotone": bool(np.all(np.diff(maxima) <= 1e-6)), "dtype": u.dtype.name}


def heat_dirichlet(np, n, alpha, steps, hot):
    u = np.zeros((n, n))
    u[0, :] = hot          # hot top edge
    u[:, 0] = np.linspace(hot, 0, n)
    interior = u[1:-1, 1:-1]  # a view: updates reach u
    probe = []
    for _ in range(steps):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * interior
        interior += alpha * lap
        probe.append(u[n // 2, n // 2])
    flux = (u[0, 1:-1] - u[1, 1:-1]).sum()
    return {"u": u, "probe": np.array(probe), "flux": flux, "centre_line": u[:, n // 2],
            "above_half": np.count_nonzero(u > hot / 2)}


def wave_leapfrog(np, n, c, dt, steps, src):
    u_prev = np.zeros((n, n))
    u = np.zeros((n, n))
    energy = []
    for k in range(steps):
        lap = np.zeros_like(u)
        lap[1:-1, 1:-1] = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        u_next = 2 * u - u_prev + (c * dt) ** 2 * lap
        u_next[src] += np.sin(0.6 * k) * (k < 10)
        u_next[[0, -1], :] = 0
        u_next[:, [0, -1]] = 0
        u_prev, u = u, u_next
        vel = (u - u_prev) / dt
        gy, gx = np.gradient(u)
        energy.append(0.5 * np.sum(vel**2) + 0.5 * c**2 * np.sum(gx**2 + gy**2))
    front = np.argwhere(np.abs(u) > 0.01 * np.abs(u).max())
    return {"u": u, "energy": np.array(energy), "extent": front.max(axis=0) - front.min(axis=0),
            "peak_at": np.unravel_index(np.abs(u).argmax(), u.shape)}


def _apply_laplacian(np, x, n):
    X = x.reshape(n, n)
    Y = 4 * X
    Y[1:, :] -= X[:-1, :]
    Y[:-1, :] -= X[1:, :]
    Y[:, 1:] -= X[:, :-1]
    Y[:, :-1] -= X[:, 1:]
    return Y.ravel()


def conjugate_gradient(np, b, n, tol, maxit):
    b = np.asarray(b, dtype=float)
    x = np.zeros_like(b)
    r = b - _apply_laplacian(np, x, n)
    p = r.copy()
    rs = r @ r
    history = [np.sqrt(rs)]
    for it in range(maxit):  # noqa: B007 (the count is read after the loop)
        Ap = _apply_laplacian(np, p, n)
        a = rs / (p @ Ap)
        x += a * p
        r -= a * Ap
        rs_new = r @ r
        history.append(np.sqrt(rs_new))
        if np.sqrt(rs_new) < tol * history[0]:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    resid = np.linalg.norm(b - _apply_laplacian(np, x, n)) / np.linalg.norm(b)
    return {"x": x.reshape(n, n), "iters": it + 1, "resid": resid, "hist": np.array(history[:10])}


def jacobi_vs_gauss_seidel(np, f, h, sweeps):
    f = np.asarray(f)
    n = f.shape[0]
    uj = np.zeros((n + 2, n + 2))
    ug = np.zeros((n + 2, n + 2))
    ii, jj = np.meshgrid(np.arange(n + 2), np.arange(n + 2), indexing="ij")
    red = ((ii + jj) % 2 == 0)
    red[[0, -1], :] = red[:, [0, -1]] = False
    black = ~red
    black[[0, -1], :] = black[:, [0, -1]] = False
    F = np.pad(f, 1)
    res_j, res_g = [], []
    for _ in range(sweeps):
        uj[1:-1, 1:-1] = 0.25 * (uj[:-2, 1:-1] + uj[2:, 1:-1] + uj[1:-1, :-2] + uj[1:-1, 2:] + h**2 * f)
        for mask in (red, black):
            nb = np.roll(ug, 1, 0) + np.roll(ug, -1, 0) + np.roll(ug, 1, 1) + np.roll(ug, -1, 1)
            ug[mask] = 0.25 * (nb[mask] + h**2 * F[mask])
        for u, res in ((uj, res_j), (ug, res_g)):
            r = h**2 * f + u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
            res.append(np.linalg.norm(r))
    rate_j = (res_j[-1] / res_j[0]) ** (1 / (sweeps - 1))
    rate_g = (res_g[-1] / res_g[0]) ** (1 / (sweeps - 1))
    return {"uj": uj, "ug": ug, "res_j": np.array(res_j), "res_g": np.array(res_g), "gs_faster": rate_g < rate_j,
            "red_count": int(red.sum())}


def crank_nicolson(np, u0, alpha, steps):
    u = np.asarray(u0, dtype=float)
    n = u.shape[0]
    T = 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    L = -(np.kron(T, np.eye(n)) + np.kron(np.eye(n), T))
    A = np.eye(n * n) - 0.5 * alpha * L
    B = np.eye(n * n) + 0.5 * alpha * L
    v = u.ravel()
    norms = []
    for _ in range(steps):
        v = np.linalg.solve(A, B @ v)
        norms.append(np.linalg.norm(v))
    w = np.linalg.eigvalsh(L)
    return {"u": v.reshape(n, n), "norms": np.array(norms), "decay_bound": np.exp(w.max() * alpha * steps),
            "amp": np.max(np.abs((1 + 0.5 * alpha * w) / (1 - 0.5 * alpha * w)))}


def restrict_prolong(np, fine):
    f = np.asarray(fine, dtype=float)
    coarse = 0.25 * (f[0::2, 0::2] + f[1::2, 0::2] + f[0::2, 1::2] + f[1::2, 1::2])
    up = np.repeat(np.repeat(coarse, 2, axis=0), 2, axis=1)
    bil = np.kron(coarse, np.ones((2, 2)))
    err = f - up
    smooth = np.abs(np.diff(up, axis=0)).sum() + np.abs(np.diff(up, axis=1)).sum()
    return {"coarse": coarse, "same": np.array_equal(up, bil), "err_norm": np.linalg.norm(err),
            "mean_kept": np.isclose(coarse.mean(), f.mean()), "tv": smooth}


def typed_advection(np, u0, c, steps):
    from typing import Any

    # typed helpers, as modern NumPy code writes them (the annotations are evaluated where each def runs)
    def upwind(u: np.ndarray[Any, np.dtype[np.float64]], nu: np.float64 | float) -> np.ndarray:
        return u - nu * (u - np.roll(u, 1))

    def lax_wendroff(u: np.ndarray, nu: float, out: np.ndarray | None = None) -> np.ndarray:
        r = u - 0.5 * nu * (np.roll(u, -1) - np.roll(u, 1)) + 0.5 * nu**2 * (np.roll(u, -1) - 2 * u + np.roll(u, 1))
        if out is not None:
            out[...] = r
            return out
        return r

    a = np.asarray(u0, dtype=np.float64)
    b = a.copy()
    buf = np.empty_like(a)
    for _ in range(steps):
        a = upwind(a, np.float64(c))
        b = lax_wendroff(b, c, out=buf).copy()
    return {"upwind": a, "lw": b, "mass": [float(a.sum()), float(b.sum())], "peak": [int(a.argmax()), int(b.argmax())],
            "tv": [float(np.abs(np.diff(a)).sum()), float(np.abs(np.diff(b)).sum())]}


def _bump(n, seed):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:n, 0:n]
    return np.exp(-((x - n / 2) ** 2 + (y - n / 3) ** 2) / 8.0) + 0.05 * rng.uniform(size=(n, n))


def test_heat_periodic():
    check(heat_periodic, _bump(16, 2950), 0.2, 30)


def test_heat_dirichlet():
    check(heat_dirichlet, 14, 0.24, 60, 100.0, rtol=1e-3, atol=1e-4)


def test_wave_leapfrog():
    check(wave_leapfrog, 20, 1.0, 0.4, 40, (10, 7), rtol=1e-3, atol=1e-4)


def test_conjugate_gradient():
    n = 12
    b = _bump(n, 2951).ravel()
    r = check(conjugate_gradient, b, n, 1e-6, 200, rtol=2e-3, atol=1e-4)
    assert r["resid"] < 1e-5


def test_jacobi_vs_gauss_seidel():
    check(jacobi_vs_gauss_seidel, _bump(10, 2952), 0.1, 25, rtol=1e-3, atol=1e-5)


def test_crank_nicolson():
    check(crank_nicolson, _bump(6, 2953), 0.5, 10, rtol=1e-3, atol=1e-5)


def test_typed_advection():
    x = np.linspace(0, 1, 50, endpoint=False)
    check(typed_advection, np.exp(-((x - 0.3) / 0.05) ** 2), 0.4, 40)


def test_restrict_prolong():
    check(restrict_prolong, _bump(12, 2954))
