"""Linear-algebra programs: a Kalman filter, Markov chain stationary distributions, PCA by eigh and SVD,
Jacobi and Gauss-Seidel iterations built from diag/tril/triu, norms and conditioning, batched solves,
least squares with residuals and rank (tests/porting)."""

import numpy as np
from harness import check


def kalman_constant_velocity(np, z_host, dt=0.5):
    z = np.asarray(z_host)
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = 0.01 * np.array([[dt**4 / 4, dt**3 / 2], [dt**3 / 2, dt**2]])
    R = np.array([[0.25]])
    x = np.zeros((2, 1))
    P = np.eye(2) * 10.0
    xs, gains = [], []
    for zk in z:
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (zk - H @ x)
        P = (np.eye(2) - K @ H) @ P
        xs.append(x.ravel())
        gains.append(K[0, 0])
    xs = np.array(xs)
    return {"pos": xs[:, 0], "vel": xs[:, 1], "gain": np.array(gains), "P": P, "sym": bool(np.allclose(P, P.T))}


def markov_stationary(np, T_host):
    T = np.asarray(T_host)
    T = T / T.sum(axis=1, keepdims=True)
    n = len(T)
    A = np.vstack([T.T - np.eye(n), np.ones((1, n))])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi_ls, res, rank, sv = np.linalg.lstsq(A, b, rcond=None)
    M = T.T - np.eye(n)
    M[-1] = 1.0
    rhs = np.zeros(n)
    rhs[-1] = 1.0
    pi_solve = np.linalg.solve(M, rhs)
    w, V = np.linalg.eig(T.T)
    k = np.argmin(np.abs(w - 1))
    pi_eig = np.real(V[:, k])
    pi_eig = pi_eig / pi_eig.sum()
    p = np.full(n, 1.0 / n)
    for _ in range(200):
        p = p @ T
    Tk = np.linalg.matrix_power(T, 50)
    mfpt = np.linalg.solve(np.eye(n - 1) - T[1:, 1:], np.ones(n - 1))
    return {"pi_ls": pi_ls, "rank": int(rank), "sv": sv, "pi_solve": pi_solve, "pi_eig": pi_eig, "p": p,
            "Tk_row": Tk[0], "mfpt": mfpt, "res_small": bool(res.size == 0 or res[0] < 1e-6)}


def pca_three_ways(np, X_host, k=2):
    X = np.asarray(X_host)
    Xc = X - X.mean(axis=0)
    C = np.cov(Xc, rowvar=False)
    w, V = np.linalg.eigh(C)
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    ev_svd = s**2 / (len(X) - 1)
    signs = np.sign(np.sum(V[:, :k] * Vt[:k].T, axis=0))
    Z = Xc @ V[:, :k] * signs
    Z_svd = U[:, :k] * s[:k]
    ratio = w / w.sum()
    k95 = int(np.searchsorted(np.cumsum(ratio), 0.95) + 1)
    recon = Z_svd @ Vt[:k] + X.mean(axis=0)
    err = np.linalg.norm(X - recon) / np.linalg.norm(X)
    whitened = Z_svd / np.sqrt(ev_svd[:k])
    return {"w": w, "ev_svd": ev_svd, "Z": np.abs(Z), "Zs": np.abs(Z_svd), "ratio": ratio, "k95": k95,
            "err": float(err), "wcov": np.cov(whitened, rowvar=False)}


def jacobi_gauss_seidel(np, n=8, iters=40):
    A = 4 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    A[0, -1] = A[-1, 0] = -0.5
    b = np.arange(1, n + 1, dtype=float)
    D = np.diag(np.diag(A))
    L = np.tril(A, k=-1)
    U = np.triu(A, k=1)
    x = np.zeros(n)
    for _ in range(iters):
        x = (b - (L + U) @ x) / np.diag(A)
    xg = np.zeros(n)
    DL_inv = np.linalg.inv(D + L)
    for _ in range(iters):
        xg = DL_inv @ (b - U @ xg)
    exact = np.linalg.solve(A, b)
    rho = np.max(np.abs(np.linalg.eigvals(np.linalg.inv(D) @ (L + U))))
    return {"jac": x, "gs": xg, "exact": exact, "rho": float(rho), "diag_dom": bool(np.all(2 * np.abs(np.diag(A))
            > np.abs(A).sum(axis=1))), "trace": float(np.trace(A)), "offdiag": float(np.trace(A, offset=1))}


def norms_and_conditioning(np, M_host):
    M = np.asarray(M_host)
    v = M[0]
    out = {
        "l1": np.linalg.norm(v, 1), "l2": np.linalg.norm(v), "linf": np.linalg.norm(v, np.inf),
        "l0": np.linalg.norm(v, 0), "fro": np.linalg.norm(M, "fro"), "nuc": np.linalg.norm(M, "nuc"),
        "m1": np.linalg.norm(M, 1), "minf": np.linalg.norm(M, np.inf), "m2": np.linalg.norm(M, 2),
        "rows": np.linalg.norm(M, axis=1), "cols_k": np.linalg.norm(M, axis=0, keepdims=True),
        "cond": np.linalg.cond(M), "cond1": np.linalg.cond(M, 1), "det": np.linalg.det(M),
        "rank": int(np.linalg.matrix_rank(M)), "rank_def": int(np.linalg.matrix_rank(np.outer(v, v))),
        "svals": np.linalg.svd(M, compute_uv=False),
        "chain": np.linalg.multi_dot([M, M.T, M]),
    }
    sign, logdet = np.linalg.slogdet(M)
    out["slog"] = [float(sign), float(logdet)]
    out["vn"] = np.linalg.vector_norm(M, ord=3, axis=1)
    out["mn"] = np.linalg.matrix_norm(M, ord="fro")
    return out


def batched_small_systems(np, A_host, b_host):
    A = np.asarray(A_host) + 3 * np.eye(3)
    b = np.asarray(b_host)
    x = np.linalg.solve(A, b[..., None])[..., 0]
    inv = np.linalg.inv(A)
    dets = np.linalg.det(A)
    resid = np.einsum("nij,nj->ni", A, x) - b
    x2 = np.einsum("nij,nj->ni", inv, b)
    L = np.linalg.cholesky(A @ np.swapaxes(A, -1, -2))
    Q, R = np.linalg.qr(A[0])
    return {"x": x, "dets": dets, "resid_ok": bool(np.allclose(resid, 0, atol=1e-4)), "x2": x2,
            "L": L, "QR": Q @ R, "Rdiag": np.abs(np.diag(R)), "orth": bool(np.allclose(Q.T @ Q, np.eye(3),
            atol=1e-5)), "pinv": np.linalg.pinv(A[1]), "max_det": int(np.argmax(np.abs(dets)))}


def polynomial_least_squares(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    V = np.vander(x, 4, increasing=True)
    coef, res, rank, sv = np.linalg.lstsq(V, y, rcond=None)
    Q, R = np.linalg.qr(V)
    coef_qr = np.linalg.solve(R, Q.T @ y)
    normal = np.linalg.solve(V.T @ V, V.T @ y)
    pf = np.polyfit(x, y, 3)
    fit = V @ coef
    r2 = 1 - np.sum((y - fit) ** 2) / np.sum((y - y.mean()) ** 2)
    under = np.linalg.lstsq(V[:2], y[:2], rcond=None)
    return {"coef": coef, "res": res, "rank": int(rank), "sv": sv, "qr": coef_qr, "normal": normal,
            "pf": pf[::-1], "r2": float(r2), "under_x": under[0], "under_rank": int(under[2]),
            "under_res": under[1]}


def test_kalman_filter_inv_matmul_chain():
    rng = np.random.default_rng(311)
    t = np.arange(30) * 0.5
    check(kalman_constant_velocity, 1.0 + 0.8 * t + rng.normal(0, 0.5, size=30), rtol=1e-3, atol=1e-4)


def test_markov_stationary_lstsq_solve_eig():
    T = np.random.default_rng(312).uniform(0.1, 1.0, size=(5, 5))
    check(markov_stationary, T, rtol=1e-3, atol=1e-4)


def test_pca_eigh_svd_cov():
    rng = np.random.default_rng(313)
    X = rng.normal(size=(60, 4)) @ np.array([[3, 0, 0, 0], [1, 2, 0, 0], [0, 0.5, 1, 0], [0, 0, 0.1, 0.3]])
    check(pca_three_ways, X, rtol=1e-3, atol=1e-3)


def test_jacobi_gauss_seidel_tril_triu_eigvals():
    check(jacobi_gauss_seidel, rtol=1e-4, atol=1e-5)


def test_norm_orders_cond_rank_multi_dot():
    check(norms_and_conditioning, np.random.default_rng(314).normal(size=(4, 4)), rtol=1e-3, atol=1e-4)


def test_batched_solve_inv_det_cholesky_qr():
    rng = np.random.default_rng(315)
    check(batched_small_systems, rng.normal(size=(6, 3, 3)), rng.normal(size=(6, 3)), rtol=1e-3, atol=1e-4)


def test_lstsq_residuals_rank_qr_vander():
    rng = np.random.default_rng(316)
    x = np.linspace(-1, 1, 25)
    check(polynomial_least_squares, x, 1 - 2 * x + 0.5 * x**3 + rng.normal(0, 0.05, 25), rtol=1e-3, atol=1e-4)
