"""Linear algebra programs: solving systems, least squares, decompositions, power iteration, Markov chains."""

import numpy as np
from harness import check


def linear_systems(np, A_host, b_host):
    A = np.array(A_host, dtype=np.float64)
    b = np.array(b_host, dtype=np.float64)
    x = np.linalg.solve(A, b)
    Ainv = np.linalg.inv(A)
    residual = np.linalg.norm(A @ x - b)
    assert np.allclose(A @ Ainv, np.eye(len(A)), atol=1e-4)
    np.testing.assert_allclose(Ainv @ b, x, rtol=1e-3, atol=1e-4)
    det = np.linalg.det(A)
    sign, logdet = np.linalg.slogdet(A)
    Q, R = np.linalg.qr(A)
    x_qr = np.linalg.solve(R, Q.T @ b)
    cond = np.linalg.cond(A)
    print(f"det={det:.4f} residual={residual:.2e} cond={cond:.1f}")
    return {"x": x, "Ainv": Ainv, "det": float(det), "logdet": float(logdet), "sign": float(sign),
            "x_qr": x_qr, "R_diag_abs": np.abs(np.diag(R)), "ok": bool(residual < 1e-3),
            "rank": int(np.linalg.matrix_rank(A))}


def power_iteration(np, M_host, iters=100):
    M = np.asarray(M_host)
    S = M @ M.T
    v = np.ones(S.shape[0]) / np.sqrt(S.shape[0])
    for _ in range(iters):
        w = S @ v
        v = w / np.linalg.norm(w)
    lam = v @ S @ v
    evals, evecs = np.linalg.eigh(S)
    top = evecs[:, -1]
    align = abs(float(np.dot(top, v)))
    sv = np.linalg.svd(M, compute_uv=False)
    fro = np.linalg.norm(M, "fro")
    return {"lam": float(lam), "evals": evals, "align": round(align, 3), "sv": sv, "fro": float(fro),
            "sv_check": bool(np.isclose(np.sqrt((sv**2).sum()), fro, rtol=1e-4)), "tr": float(np.trace(S))}


def markov_chain(np, P_host, steps=50):
    P = np.asarray(P_host)
    P = P / P.sum(axis=1, keepdims=True)
    state = np.zeros(len(P))
    state[0] = 1.0
    history = [state]
    for _ in range(steps):
        state = state @ P
        history.append(state)
    H = np.stack(history)
    w, V = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1))
    stationary = np.real(V[:, k])
    stationary = stationary / stationary.sum()
    Pn = np.linalg.matrix_power(P, 20)
    return {"final": state, "stationary": stationary, "Pn_row0": Pn[0], "H_last": H[-5:],
            "converged": bool(np.allclose(state, stationary, atol=1e-4))}


def least_squares_fit(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    coeffs = np.polyfit(x, y, 3)
    fitted = np.polyval(coeffs, x)
    p = np.poly1d(coeffs)
    V = np.vander(x, 4)
    c2, *_ = np.linalg.lstsq(V, y, rcond=None)
    ridge = np.linalg.solve(V.T @ V + 0.1 * np.eye(4), V.T @ y)
    dp = p.deriv()
    rmse = np.sqrt(np.mean((fitted - y) ** 2))
    return {"coeffs": coeffs, "c2": c2, "ridge": ridge, "p2": float(p(2.0)), "dp": dp.coeffs, "rmse": float(rmse)}


def gram_schmidt(np, A_host):
    A = np.array(A_host, dtype=float)
    n = A.shape[1]
    Q = np.zeros_like(A)
    for j in range(n):
        v = A[:, j].copy()
        for i in range(j):
            v -= np.dot(Q[:, i], A[:, j]) * Q[:, i]
        Q[:, j] = v / np.linalg.norm(v)
    ortho = Q.T @ Q
    L = np.linalg.cholesky(A.T @ A)
    proj = Q @ Q.T
    cross = np.cross(A[:3, 0], A[:3, 1])
    kron = np.kron(np.eye(2), A[:2, :2])
    return {"ortho": ortho, "L": L, "proj": proj, "cross": cross, "kron": kron, "outer": np.outer(A[:, 0], A[0]),
            "einsum": np.einsum("ij,ij->j", A, A), "tensordot": np.tensordot(A, A, axes=([0], [0]))}


def test_linear_systems_solve_inv_det_qr():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(5, 5)) + 5 * np.eye(5)
    check(linear_systems, A, rng.normal(size=5), rtol=1e-3, atol=1e-4)


def test_power_iteration_eigh_svd():
    check(power_iteration, np.random.default_rng(1).normal(size=(6, 4)).astype(np.float32), rtol=1e-3, atol=1e-4)


def test_markov_chain_stationary_distribution():
    check(markov_chain, np.random.default_rng(2).uniform(0.1, 1.0, size=(4, 4)), rtol=1e-3, atol=1e-4)


def test_polynomial_least_squares():
    rng = np.random.default_rng(3)
    x = np.linspace(-2, 2, 25)
    y = 0.5 * x**3 - x + 2 + 0.1 * rng.normal(size=25)
    check(least_squares_fit, x, y, rtol=2e-3, atol=2e-3)


def test_gram_schmidt_and_products():
    check(gram_schmidt, np.random.default_rng(4).normal(size=(5, 3)), rtol=1e-3, atol=1e-4)
