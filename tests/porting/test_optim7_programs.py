"""Optimisation from scratch as NumPy scripts write it: batch and momentum gradient descent on least squares,
Adam with bias correction on the Rosenbrock function, Newton's method with np.linalg.solve on a logistic loss,
backtracking (Armijo) line search, a tableau simplex with pivoting by row operations, coordinate descent for
the lasso with soft thresholding, projected gradient onto the simplex by sorting, and Nesterov's accelerated
gradient on a quadratic (tests/porting)."""

import numpy as np
from harness import check


def gd_momentum_least_squares(np, X_host, y_host, lr=0.05, beta=0.9, epochs=100):
    X, y = np.asarray(X_host), np.asarray(y_host)
    n, d = X.shape
    results = {}
    for name, b in (("plain", 0.0), ("momentum", beta)):
        w = np.zeros(d)
        v = np.zeros_like(w)
        losses = np.empty(epochs)
        for e in range(epochs):
            r = X @ w - y
            losses[e] = 0.5 * np.mean(r**2)
            g = X.T @ r / n
            v = b * v + g
            w -= lr * v
        results[name] = w
        results[name + "_loss"] = losses[::20]
    results["exact"] = np.linalg.lstsq(X, y, rcond=None)[0]
    return results


def adam_rosenbrock(np, lr=0.02, steps=400, b1=0.9, b2=0.999, eps=1e-8):
    def grad(p):
        x, y = p
        return np.array([-2 * (1 - x) - 400 * x * (y - x**2), 200 * (y - x**2)])

    p = np.array([-1.2, 1.0])
    m = np.zeros(2)
    v = np.zeros(2)
    path = [p.copy()]
    for t in range(1, steps + 1):
        g = grad(p)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1**t)
        v_hat = v / (1 - b2**t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
        if t % 50 == 0:
            path.append(p.copy())
    f = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
    return {"p": p, "f": float(f), "path": np.array(path)}


def newton_logistic(np, X_host, y_host, iters=8, lam=1e-2):
    X = np.hstack([np.ones((X_host.shape[0], 1)), X_host])
    y = np.asarray(y_host)
    w = np.zeros(X.shape[1])
    norms = []
    for _ in range(iters):
        p = 1 / (1 + np.exp(-X @ w))
        g = X.T @ (p - y) + lam * w
        H = (X * (p * (1 - p))[:, None]).T @ X + lam * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        norms.append(float(np.linalg.norm(g)))
    acc = np.mean((X @ w > 0) == (y == 1))
    return {"w": w, "grad_norms": norms[:4], "accuracy": float(acc)}


def backtracking_line_search(np, A_host, b_host, alpha0=1.0, rho=0.5, c=1e-4):
    A, b = np.asarray(A_host), np.asarray(b_host)

    def f(x):
        return 0.5 * x @ A @ x - b @ x

    x = np.zeros(len(b))
    steps, fs = [], []
    for _ in range(25):
        g = A @ x - b
        t = alpha0
        while f(x - t * g) > f(x) - c * t * (g @ g):
            t *= rho
        x = x - t * g
        steps.append(t)
        fs.append(float(f(x)))
    return {"x": x, "steps": steps, "f": fs[::5], "exact": np.linalg.solve(A, b)}


def simplex_tableau(np, c_host, A_host, b_host):
    # maximise c @ x subject to A x <= b, x >= 0 (b >= 0): the textbook tableau with slack variables
    m, n = A_host.shape
    T = np.zeros((m + 1, n + m + 1))
    T[:m, :n] = A_host
    T[:m, n : n + m] = np.eye(m)
    T[:m, -1] = b_host
    T[-1, :n] = -np.asarray(c_host)
    basis = list(range(n, n + m))
    pivots = 0
    while (T[-1, :-1] < -1e-9).any():
        col = int(np.argmin(T[-1, :-1]))
        ratios = np.full(m, np.inf)
        pos = T[:m, col] > 1e-9
        ratios[pos] = T[:m, -1][pos] / T[:m, col][pos]
        row = int(np.argmin(ratios))
        T[row] /= T[row, col]
        others = np.arange(m + 1) != row
        T[others] -= T[others, col][:, None] * T[row]
        basis[row] = col
        pivots += 1
    x = np.zeros(n + m)
    x[basis] = T[:m, -1]
    return {"x": x[:n], "value": float(T[-1, -1]), "pivots": pivots, "basis": sorted(basis)}


def lasso_coordinate_descent(np, X_host, y_host, lam=0.1, sweeps=30):
    X, y = np.asarray(X_host), np.asarray(y_host)
    n, d = X.shape
    w = np.zeros(d)
    col_sq = (X**2).sum(axis=0)
    r = y - X @ w
    for _ in range(sweeps):
        for j in range(d):
            r += X[:, j] * w[j]
            rho = X[:, j] @ r
            w[j] = np.sign(rho) * max(abs(rho) - lam * n, 0.0) / col_sq[j]
            r -= X[:, j] * w[j]
    obj = 0.5 / n * np.sum(r**2) + lam * np.abs(w).sum()
    return {"w": w, "support": np.flatnonzero(w), "objective": float(obj)}


def project_simplex(np, V_host):
    V = np.asarray(V_host)
    U = -np.sort(-V, axis=1)
    css = np.cumsum(U, axis=1) - 1
    ind = np.arange(1, V.shape[1] + 1)
    cond = U - css / ind > 0
    rho = cond.shape[1] - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = css[np.arange(len(V)), rho] / (rho + 1)
    P = np.maximum(V - theta[:, None], 0)
    return {"P": P, "sums": P.sum(axis=1), "nnz": np.count_nonzero(P, axis=1)}


def nesterov_quadratic(np, A_host, b_host, steps=60):
    A, b = np.asarray(A_host), np.asarray(b_host)
    L = np.linalg.eigvalsh(A).max()
    x = np.zeros_like(b)
    y = x.copy()
    t = 1.0
    gaps = []
    x_star = np.linalg.solve(A, b)
    for _ in range(steps):
        x_new = y - (A @ y - b) / L
        t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2
        y = x_new + (t - 1) / t_new * (x_new - x)
        x, t = x_new, t_new
        gaps.append(np.linalg.norm(x - x_star))
    return {"x": x, "gaps": np.array(gaps)[::10], "L": float(L)}


def bfgs_rosenbrock(np, x0_host, tol=1e-5, max_iter=200):
    def f(x):
        return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    def grad(x):
        g = np.zeros_like(x)
        g[:-1] = -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
        g[1:] += 200 * (x[1:] - x[:-1] ** 2)
        return g

    x = np.array(x0_host, dtype=np.float64)
    Hinv = np.eye(len(x))
    g = grad(x)
    k = 0
    while np.linalg.norm(g) > tol and k < max_iter:
        p = -Hinv @ g
        t = 1.0
        while f(x + t * p) > f(x) + 1e-4 * t * (g @ p):
            t *= 0.5
        s = t * p
        x_new = x + s
        g_new = grad(x_new)
        y = g_new - g
        rho = 1.0 / (y @ s)
        I = np.eye(len(x))
        Hinv = (I - rho * np.outer(s, y)) @ Hinv @ (I - rho * np.outer(y, s)) + rho * np.outer(s, s)
        x, g = x_new, g_new
        k += 1
    return {"x": x, "f": float(f(x)), "converged": bool(np.linalg.norm(g) <= 1e-3),
            "sym": bool(np.allclose(Hinv, Hinv.T))}


def _spd(seed, d):
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(d, d))
    return M @ M.T + d * np.eye(d), rng.normal(size=d)


def test_gradient_descent_momentum_least_squares():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    y = X @ np.array([1.0, -2.0, 0.5, 3.0]) + 0.1 * rng.normal(size=50)
    check(gd_momentum_least_squares, X, y, rtol=1e-3, atol=1e-4)


def test_adam_rosenbrock_bias_correction():
    check(adam_rosenbrock, rtol=2e-3, atol=1e-3)


def test_newton_logistic_regression_hessian_solve():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = (X @ np.array([1.5, -1.0, 0.5]) + 0.5 * rng.normal(size=80) > 0).astype(float)
    check(newton_logistic, X, y, rtol=1e-3, atol=1e-3)


def test_backtracking_armijo_line_search():
    check(backtracking_line_search, *_spd(2, 5), rtol=1e-3, atol=1e-4)


def test_simplex_tableau_pivoting():
    check(simplex_tableau, np.array([3.0, 5.0, 4.0]), np.array([[2.0, 3.0, 1.0], [4.0, 1.0, 2.0], [3.0, 4.0, 2.0]]),
          np.array([5.0, 11.0, 8.0]), rtol=1e-4, atol=1e-5)


def test_lasso_coordinate_descent_soft_threshold():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 6))
    y = X[:, 0] * 2 - X[:, 3] + 0.1 * rng.normal(size=60)
    check(lasso_coordinate_descent, X, y, rtol=1e-3, atol=1e-4)


def test_projection_onto_simplex_by_sorting():
    check(project_simplex, np.random.default_rng(4).normal(size=(7, 5)), rtol=1e-4, atol=1e-5)


def test_bfgs_inverse_hessian_updates_float64():
    check(bfgs_rosenbrock, [-1.2, 1.0, -0.5, 0.8], rtol=1e-3, atol=1e-4)


def test_nesterov_accelerated_gradient():
    check(nesterov_quadratic, *_spd(5, 6), rtol=1e-3, atol=1e-4)
