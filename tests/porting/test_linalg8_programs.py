"""Numerical linear algebra as NumPy users write it on small matrices: solve/inv/det with residual checks,
lstsq line and polynomial fits, eigh/eig of symmetric and Markov matrices (stationary distribution), SVD low-rank
approximation, QR and Cholesky solves, pinv and matrix_rank of a rank-deficient matrix, norms and cond, Gram-Schmidt
by hand and power iteration (tests/porting)."""

import numpy as np
from harness import check


def solve_inv_det(np, A, b):
    x = np.linalg.solve(A, b)
    Ainv = np.linalg.inv(A)
    residual = np.linalg.norm(A @ x - b)
    X = np.linalg.solve(A, np.eye(len(A)))
    sign, logdet = np.linalg.slogdet(A)
    return {"x": x, "inv_ok": bool(np.allclose(Ainv @ A, np.eye(len(A)), atol=1e-4)), "small": bool(residual < 1e-4),
            "det": np.linalg.det(A), "sign": sign, "logdet": logdet, "X": X, "x2": Ainv.dot(b)}


def lstsq_fits(np, x, y):
    A = np.vstack([x, np.ones_like(x)]).T
    (m, c), res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    V = np.vander(x, 4)
    coef = np.linalg.lstsq(V, y, rcond=None)[0]
    fit = np.polyval(coef, x)
    r2 = 1 - np.sum((y - fit) ** 2) / np.sum((y - y.mean()) ** 2)
    normal = np.linalg.solve(V.T @ V, V.T @ y)
    return {"m": float(m), "c": float(c), "res": res, "rank": int(rank), "sv": sv, "coef": coef,
            "r2": round(float(r2), 4), "normal": normal, "polyfit": np.polyfit(x, y, 3)}


def symmetric_eigen(np, M):
    S = (M + M.T) / 2
    w, V = np.linalg.eigh(S)
    recon = V @ np.diag(w) @ V.T
    ortho = V.T @ V
    signs = np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])])
    w2 = np.linalg.eigvalsh(S)
    return {"w": w, "V": V * signs, "recon_ok": bool(np.allclose(recon, S, atol=1e-4)),
            "ortho": bool(np.allclose(ortho, np.eye(len(S)), atol=1e-4)), "w2": w2, "trace": np.trace(S),
            "sum_w": w.sum(), "pd": bool(np.all(w > 0))}


def markov_stationary(np, P):
    P = P / P.sum(axis=1, keepdims=True)
    w, V = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1))
    pi = np.real(V[:, k])
    pi = pi / pi.sum()
    A = np.vstack([P.T - np.eye(len(P)), np.ones(len(P))])
    b = np.zeros(len(P) + 1)
    b[-1] = 1
    pi2 = np.linalg.lstsq(A, b, rcond=None)[0]
    pi3 = np.linalg.matrix_power(P, 60)[0]
    return {"pi": pi, "pi2": pi2, "pi3": pi3, "fixed": bool(np.allclose(pi @ P, pi, atol=1e-5)),
            "lambda_max": float(np.max(np.abs(w)))}


def svd_low_rank(np, M):
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    k = 2
    Mk = U[:, :k] @ np.diag(s[:k]) @ Vt[:k]
    err = np.linalg.norm(M - Mk, "fro")
    energy = np.cumsum(s ** 2) / np.sum(s ** 2)
    sv = np.linalg.svd(M, compute_uv=False)
    return {"s": s, "Mk": Mk, "err": err, "tail": float(np.sqrt(np.sum(s[k:] ** 2))), "energy": energy,
            "sv": sv, "n2": np.linalg.norm(M, 2), "nuc": np.linalg.norm(M, "nuc"), "rank": np.linalg.matrix_rank(M)}


def qr_cholesky(np, A, b):
    Q, R = np.linalg.qr(A)
    d = np.sign(np.diag(R))
    Q, R = Q * d, R * d[:, None]
    x_qr = np.linalg.solve(R, Q.T @ b)
    G = A.T @ A
    L = np.linalg.cholesky(G)
    y = np.linalg.solve(L, A.T @ b)
    x_ch = np.linalg.solve(L.T, y)
    upper = bool(np.allclose(R, np.triu(R)))
    return {"Q": Q, "R": R, "x_qr": x_qr, "x_ch": x_ch, "L": L, "upper": upper,
            "lower": bool(np.allclose(L, np.tril(L)))}


def pinv_rank_cond(np, B):
    M = np.hstack([B, B[:, :1] + B[:, 1:2]])
    P = np.linalg.pinv(M)
    mp = np.allclose(M @ P @ M, M, atol=1e-4)
    norms = [np.linalg.norm(B, o) for o in (1, 2, np.inf, -np.inf, "fro")]
    vn = [np.linalg.norm(B[0], o) for o in (0, 1, 2, np.inf, 3)]
    return {"rank_M": int(np.linalg.matrix_rank(M)), "rank_B": int(np.linalg.matrix_rank(B)), "penrose": bool(mp),
            "norms": norms, "vnorms": vn, "cond": np.linalg.cond(B), "cond1": np.linalg.cond(B[:3], 1),
            "rows": np.linalg.norm(B, axis=1, keepdims=True)}


def gram_schmidt_power(np, A):
    A = np.asarray(A)
    n = A.shape[1]
    Q = np.zeros_like(A)
    for j in range(n):
        v = A[:, j].copy()
        for i in range(j):
            v -= (Q[:, i] @ A[:, j]) * Q[:, i]
        Q[:, j] = v / np.linalg.norm(v)
    S = A.T @ A
    v = np.ones(n)
    for _ in range(100):
        v = S @ v
        v /= np.linalg.norm(v)
    lam = v @ S @ v
    top = np.linalg.eigvalsh(S)[-1]
    return {"Q": Q, "ortho": bool(np.allclose(Q.T @ Q, np.eye(n), atol=1e-4)), "lam": lam, "top": top,
            "v": v * np.sign(v[0]), "Rdiag": np.abs(np.diag(Q.T @ A))}


def batched_solve_and_outer(np, As, bs):
    xs = np.linalg.solve(As, bs[..., None])[..., 0]
    dets = np.linalg.det(As)
    inv = np.linalg.inv(As)
    ok = np.allclose(np.einsum("nij,nj->ni", As, xs), bs, atol=1e-4)
    cross = np.cross(bs[:, :3], bs[:, 1:4])
    kron = np.kron(np.eye(2), As[0][:2, :2])
    return {"xs": xs, "dets": dets, "ok": bool(ok), "inv_tr": np.trace(inv, axis1=1, axis2=2), "cross": cross,
            "kron": kron, "multi": np.linalg.multi_dot([As[0], As[1], bs[0]])}


RNG = np.random.default_rng(821)


def test_solve_inv_det_slogdet():
    A = RNG.normal(size=(4, 4)) + 4 * np.eye(4)
    check(solve_inv_det, A, RNG.normal(size=4), rtol=1e-3, atol=1e-4)


def test_lstsq_line_and_cubic_fit():
    x = np.linspace(0, 2, 15)
    check(lstsq_fits, x, 1.5 * x**3 - x + 0.3 + np.random.default_rng(822).normal(0, 0.05, 15), rtol=2e-3, atol=2e-3)


def test_eigh_symmetric_reconstruction():
    check(symmetric_eigen, np.random.default_rng(823).normal(size=(5, 5)) + 5 * np.eye(5), rtol=1e-3, atol=1e-4)


def test_markov_chain_stationary_distribution():
    check(markov_stationary, np.random.default_rng(824).random((4, 4)) + 0.1, rtol=1e-3, atol=1e-4)


def test_svd_low_rank_approximation():
    check(svd_low_rank, np.random.default_rng(825).normal(size=(6, 4)), rtol=1e-3, atol=1e-4)


def test_qr_and_cholesky_least_squares():
    rng = np.random.default_rng(826)
    check(qr_cholesky, rng.normal(size=(6, 3)), rng.normal(size=6), rtol=1e-3, atol=1e-4)


def test_pinv_rank_norms_cond():
    check(pinv_rank_cond, np.random.default_rng(827).normal(size=(4, 3)), rtol=1e-3, atol=1e-4)


def test_gram_schmidt_and_power_iteration():
    check(gram_schmidt_power, np.random.default_rng(828).normal(size=(5, 3)), rtol=1e-3, atol=1e-4)


def test_batched_solve_det_cross_kron():
    rng = np.random.default_rng(829)
    check(batched_solve_and_outer, rng.normal(size=(3, 4, 4)) + 3 * np.eye(4), rng.normal(size=(3, 4)),
          rtol=1e-3, atol=1e-4)
