"""Numerical-methods programs: ODE integrators, root finding, optimisation, dynamic programming, matrix
factorisation, cosine similarity, Monte Carlo integration by quadrature."""

import numpy as np
from harness import check


def ode_integrators(np, steps=100, dt=0.02):
    def f(t, y):
        return np.array([y[1], -y[0] - 0.1 * y[1]])

    y_euler = np.array([1.0, 0.0])
    y_rk4 = y_euler.copy()
    traj = np.zeros((steps + 1, 2))
    traj[0] = y_rk4
    t = 0.0
    for i in range(steps):
        y_euler = y_euler + dt * f(t, y_euler)
        k1 = f(t, y_rk4)
        k2 = f(t + dt / 2, y_rk4 + dt / 2 * k1)
        k3 = f(t + dt / 2, y_rk4 + dt / 2 * k2)
        k4 = f(t + dt, y_rk4 + dt * k3)
        y_rk4 = y_rk4 + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[i + 1] = y_rk4
        t += dt
    energy = 0.5 * (traj**2).sum(axis=1)
    return {"euler": y_euler, "rk4": y_rk4, "energy_drop": float(energy[0] - energy[-1]),
            "crossings": int(np.sum(np.diff(np.sign(traj[:, 0])) != 0)), "traj_every_25": traj[::25]}


def root_finding(np):
    f = lambda x: x**3 - 2 * x - 5  # noqa: E731
    df = lambda x: 3 * x**2 - 2  # noqa: E731
    x = np.float64(2.0)
    history = []
    for _ in range(8):
        x = x - f(x) / df(x)
        history.append(float(x))
    lo, hi = 2.0, 3.0
    for _ in range(30):
        mid = (lo + hi) / 2
        if f(np.float64(mid)) > 0:
            hi = mid
        else:
            lo = mid
    grid = np.linspace(-3, 3, 61)
    sign_change = np.where(np.diff(np.sign(f(grid))))[0]
    roots = np.roots([1, 0, -2, -5])
    real_root = roots[np.argmin(np.abs(roots.imag))].real
    return {"newton": history[-1], "bisect": lo, "bracket": grid[sign_change], "poly": float(real_root)}


def rosenbrock_descent(np, lr=1e-3, iters=300):
    p = np.array([-1.0, 1.5])
    path = [p.copy()]
    for k in range(iters):
        x, y = p
        grad = np.array([-2 * (1 - x) - 400 * x * (y - x**2), 200 * (y - x**2)])
        grad = np.clip(grad, -50, 50)
        p -= lr * grad
        if k % 100 == 0:
            path.append(p.copy())
    value = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
    return {"p": p, "value": float(value), "path": np.array(path), "norm": float(np.linalg.norm(p - 1))}


def edit_distance(np, a="kitten", b="sitting"):
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=int)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    return {"distance": int(D[n, m]), "table": D}


def matrix_factorisation(np, R_host, U_host, V_host, lr=0.02, reg=0.05, epochs=30):
    R = np.asarray(R_host)
    U, V = np.array(U_host), np.array(V_host)
    mask = R > 0
    losses = []
    for _ in range(epochs):
        E = np.where(mask, R - U @ V.T, 0.0)
        U += lr * (E @ V - reg * U)
        V += lr * (E.T @ U - reg * V)
        losses.append(float(np.sqrt((E[mask] ** 2).mean())))
    pred = U @ V.T
    top = np.argsort(-np.where(mask, -np.inf, pred), axis=1)[:, :2]
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    sim = (V @ V.T) / (norms @ norms.T)
    return {"losses": losses[::5], "pred": pred, "top": top, "sim": sim, "decreasing": bool(losses[-1] < losses[0])}


def quadrature(np):
    x = np.linspace(0, np.pi, 101)
    y = np.sin(x)
    trap = np.trapezoid(y, x)
    h = x[1] - x[0]
    simpson = h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())
    mid = ((x[1:] - x[:-1]) * np.sin((x[1:] + x[:-1]) / 2)).sum()
    grad = np.gradient(y, x)
    cum = np.cumsum(y) * h
    grad_err = float(np.abs(grad - np.cos(x))[1:-1].max())
    return {"trap": float(trap), "simpson": float(simpson), "mid": float(mid), "grad_err": grad_err,
            "cum_last": float(cum[-1])}


def test_ode_integrators():
    check(ode_integrators, rtol=1e-3, atol=1e-4)


def test_root_finding():
    check(root_finding, rtol=1e-5, atol=1e-6)


def test_rosenbrock_gradient_descent():
    check(rosenbrock_descent, rtol=1e-3, atol=1e-4)


def test_edit_distance_dynamic_programming():
    check(edit_distance)


def test_matrix_factorisation_and_cosine_similarity():
    rng = np.random.default_rng(0)
    R = rng.integers(0, 6, size=(6, 5)).astype(np.float32)
    U = (0.3 * rng.normal(size=(6, 3))).astype(np.float32)
    V = (0.3 * rng.normal(size=(5, 3))).astype(np.float32)
    check(matrix_factorisation, R, U, V, rtol=1e-3, atol=1e-4)


def test_quadrature_rules():
    check(quadrature, rtol=1e-4, atol=1e-5)
