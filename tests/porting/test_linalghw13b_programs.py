"""Numerical linear algebra homework as course notebooks write it: power iteration with a Rayleigh quotient and
deflation, classical and modified Gram-Schmidt compared with `np.linalg.qr`, least squares by the normal equations
against `lstsq` (and the condition numbers that explain the difference), conjugate gradient on an SPD system with
a residual history, Jacobi iteration with `np.diag`/`np.diagflat`, LU by hand with partial pivoting (row swaps
by fancy indexing), inverse iteration with `solve`, and Householder reflections (tests/porting)."""

import numpy as np
from harness import check


def power_iteration(np, A, iters):
    A = np.asarray(A)
    x = np.ones(A.shape[0])
    lams = []
    for _ in range(iters):
        y = A @ x
        x = y / np.linalg.norm(y)
        lams.append(float(x @ A @ x))
    lam1 = x @ A @ x
    v1 = x * np.sign(x[np.argmax(np.abs(x))])
    B = A - lam1 * np.outer(v1, v1)  # Hotelling deflation
    z = np.ones(A.shape[0])
    for _ in range(iters):
        z = B @ z
        z /= np.linalg.norm(z)
    lam2 = z @ B @ z
    w = np.linalg.eigvalsh(A)
    return {"lam1": lam1, "lam2": lam2, "v1": v1, "history": np.array(lams[-5:]),
            "exact": w[::-1][:2], "err": abs(lam1 - w[-1]) < 1e-3}


def gram_schmidt(np, A):
    A = np.asarray(A, dtype=float)
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    for j in range(n):  # classical
        v = A[:, j].copy()
        R[:j, j] = Q[:, :j].T @ A[:, j]
        v -= Q[:, :j] @ R[:j, j]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    Qm = A.copy()
    Rm = np.zeros((n, n))
    for j in range(n):  # modified
        Rm[j, j] = np.linalg.norm(Qm[:, j])
        Qm[:, j] /= Rm[j, j]
        Rm[j, j + 1:] = Qm[:, j] @ Qm[:, j + 1:]
        Qm[:, j + 1:] -= np.outer(Qm[:, j], Rm[j, j + 1:])
    Qn, Rn = np.linalg.qr(A)
    signs = np.sign(np.diag(Rn))
    return {"Q": Q, "R": R, "Qm": Qm, "Rm": Rm, "Qn": Qn * signs, "Rn": Rn * signs[:, None],
            "orth": np.abs(Q.T @ Q - np.eye(n)).max() < 1e-4, "recon": np.allclose(Q @ R, A, atol=1e-4),
            "upper": bool(np.all(np.tril(R, -1) == 0))}


def normal_equations(np, x, y, deg):
    x, y = np.asarray(x), np.asarray(y)
    X = np.vander(x, deg + 1, increasing=True)
    XtX = X.T @ X
    beta_ne = np.linalg.solve(XtX, X.T @ y)
    beta_ls, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    L = np.linalg.cholesky(XtX)
    z = np.linalg.solve(L, X.T @ y)
    beta_ch = np.linalg.solve(L.T, z)
    fitted = X @ beta_ls
    r2 = 1 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2)
    return {"ne": beta_ne, "ls": beta_ls, "chol": beta_ch, "rank": int(rank), "sv": sv, "res": res,
            "cond_ratio": np.round(np.log10(np.linalg.cond(XtX)) / np.log10(np.linalg.cond(X)), 1), "r2": r2}


def conjugate_gradient(np, A, b, tol):
    A, b = np.asarray(A), np.asarray(b)
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    history = [float(np.sqrt(rs))]
    for _ in range(len(b)):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        history.append(float(np.sqrt(rs_new)))
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return {"x": x, "steps": len(history) - 1 <= len(b), "exact": np.linalg.solve(A, b),
            "resid": np.linalg.norm(A @ x - b) < 1e-3, "first": history[:3]}


def jacobi(np, A, b, iters):
    A, b = np.asarray(A), np.asarray(b)
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros(len(b))
    errs = np.empty(iters)
    exact = np.linalg.solve(A, b)
    for k in range(iters):
        x = (b - R @ x) / D
        errs[k] = np.linalg.norm(x - exact, ord=np.inf)
    dominant = np.all(2 * np.abs(D) > np.abs(A).sum(axis=1))
    T = -R / D[:, None]
    rho = np.max(np.abs(np.linalg.eigvals(T)))
    return {"x": x, "errs": errs[:6], "dominant": bool(dominant), "rho": rho, "below": int(np.argmax(errs < 1e-4))}


def lu_partial_pivot(np, A):
    A = np.array(A, dtype=float)
    n = len(A)
    P = np.arange(n)
    L = np.eye(n)
    U = A.copy()
    for k in range(n - 1):
        p = k + np.argmax(np.abs(U[k:, k]))
        if p != k:
            U[[k, p], :] = U[[p, k], :]
            P[[k, p]] = P[[p, k]]
            L[[k, p], :k] = L[[p, k], :k]
        L[k + 1:, k] = U[k + 1:, k] / U[k, k]
        U[k + 1:, k:] -= np.outer(L[k + 1:, k], U[k, k:])
    det = np.prod(np.diag(U)) * (-1) ** (np.sum(P != np.arange(n)) // 2)
    return {"L": L, "U": np.triu(U), "P": P, "ok": np.allclose(L @ U, A[P], atol=1e-4),
            "det": det, "np_det": np.linalg.det(A)}


def inverse_iteration(np, A, shift, iters):
    A = np.asarray(A)
    n = len(A)
    M = A - shift * np.eye(n)
    v = np.ones(n) / np.sqrt(n)
    for _ in range(iters):
        w = np.linalg.solve(M, v)
        v = w / np.linalg.norm(w)
    lam = v @ A @ v
    vals, vecs = np.linalg.eigh(A)
    i = np.argmin(np.abs(vals - shift))
    return {"lam": lam, "nearest": vals[i], "align": abs(float(v @ vecs[:, i])) > 0.999, "i": int(i)}


def householder_qr(np, A):
    A = np.array(A, dtype=float)
    m, n = A.shape
    R = A.copy()
    Q = np.eye(m)
    for k in range(n):
        x = R[k:, k]
        e = np.zeros_like(x)
        e[0] = np.copysign(np.linalg.norm(x), x[0])
        u = x + e
        u /= np.linalg.norm(u)
        R[k:, :] -= 2.0 * np.outer(u, u @ R[k:, :])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ u, u)
    R[np.abs(R) < 1e-6] = 0.0
    return {"R": np.abs(np.diag(R)), "upper": bool(np.all(np.tril(R, -1) == 0)),
            "recon": np.allclose(Q @ R, A, atol=1e-4), "orth": np.allclose(Q.T @ Q, np.eye(m), atol=1e-4)}


def _spd(rng, n):
    M = rng.normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def test_power_iteration_deflation():
    rng = np.random.default_rng(1301)
    check(power_iteration, _spd(rng, 6) + np.diag([20.0, 10, 0, 0, 0, 0]), 120, rtol=2e-3, atol=2e-3)


def test_gram_schmidt_classical_modified():
    rng = np.random.default_rng(1302)
    check(gram_schmidt, rng.normal(size=(8, 5)), rtol=1e-3, atol=1e-4)


def test_least_squares_normal_equations():
    rng = np.random.default_rng(1303)
    for n in (30, 40000):  # 40000 rows: lstsq's Q past lavapipe's loop budget (tests/linalg/test_tall_qr_porting13b.py)
        x = np.linspace(0, 1, n)
        check(normal_equations, x, 1 + 2 * x - x ** 2 + 0.01 * rng.normal(size=n), 2, rtol=2e-3, atol=2e-3)


def test_conjugate_gradient():
    rng = np.random.default_rng(1304)
    check(conjugate_gradient, _spd(rng, 10), rng.normal(size=10), 1e-5, rtol=1e-3, atol=1e-4)


def test_jacobi_iteration():
    rng = np.random.default_rng(1305)
    A = rng.normal(size=(6, 6)) + np.diag(np.full(6, 12.0))
    check(jacobi, A, rng.normal(size=6), 30, rtol=1e-3, atol=1e-5)


def test_lu_partial_pivoting_by_hand():
    rng = np.random.default_rng(1306)
    check(lu_partial_pivot, rng.normal(size=(5, 5)), rtol=1e-3, atol=1e-4)


def test_inverse_iteration_with_shift():
    rng = np.random.default_rng(1307)
    check(inverse_iteration, _spd(rng, 6), 7.0, 20, rtol=1e-3, atol=1e-4)


def test_householder_reflections():
    rng = np.random.default_rng(1308)
    check(householder_qr, rng.normal(size=(6, 4)), rtol=1e-3, atol=1e-4)
