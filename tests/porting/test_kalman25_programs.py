"""Kalman filtering and sensor fusion in plain NumPy: a constant-velocity filter with `solve` gains and innovation
statistics, a Rauch-Tung-Striebel smoother run backwards, a batch of filters stacked by `einsum`/`matmul`, an
information-form fusion of several sensors, complementary and alpha-beta filters with `np.float64` gains, a
Joseph-form update with gating by the Mahalanobis distance, an unscented transform's sigma points by `cholesky`, and
steady-state gains by iterating the Riccati equation, Gauss-Markov sensor biases whose diagonal transition
matrix goes through `eig`, and a masked sensor log cast by `np.float32(masked)` (tests/porting)."""

import numpy as np
from harness import check


def cv_filter(np, zs, dt, q, r):
    zs = np.asarray(zs)
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    R = np.array([[r]])
    x = np.zeros(2)
    P = np.eye(2) * 100.0
    xs, nis, gains = [], [], []
    for z in zs:
        x = F @ x
        P = F @ P @ F.T + Q
        y = z - H @ x
        S = H @ P @ H.T + R
        K = np.linalg.solve(S.T, (P @ H.T).T).T
        x = x + K @ y
        P = (np.eye(2) - K @ H) @ P
        xs.append(x.copy())
        nis.append((y @ np.linalg.inv(S) @ y).item())
        gains.append(K[:, 0])
    xs = np.array(xs)
    return {"xs": xs, "nis": np.array(nis), "gain": np.stack(gains), "P": P,
            "rmse": np.sqrt(np.mean((xs[:, 0] - zs[:, 0]) ** 2))}


def rts_smoother(np, zs, dt, q, r):
    zs = np.asarray(zs).ravel()
    n = zs.size
    F = np.array([[1.0, dt], [0.0, 1.0]])
    Q = q * np.eye(2)
    xf = np.zeros((n, 2))
    Pf = np.zeros((n, 2, 2))
    xp = np.zeros((n, 2))
    Pp = np.zeros((n, 2, 2))
    x, P = np.array([zs[0], 0.0]), np.eye(2)
    for k in range(n):
        x, P = F @ x, F @ P @ F.T + Q
        xp[k], Pp[k] = x, P
        S = P[0, 0] + r
        K = P[:, 0] / S
        x = x + K * (zs[k] - x[0])
        P = P - np.outer(K, P[0, :])
        xf[k], Pf[k] = x, P
    xs, Ps = xf.copy(), Pf.copy()
    for k in range(n - 2, -1, -1):
        C = Pf[k] @ F.T @ np.linalg.inv(Pp[k + 1])
        xs[k] = xf[k] + C @ (xs[k + 1] - xp[k + 1])
        Ps[k] = Pf[k] + C @ (Ps[k + 1] - Pp[k + 1]) @ C.T
    return {"xf": xf, "xs": xs, "var_f": Pf[:, 0, 0], "var_s": np.diagonal(Ps, axis1=1, axis2=2),
            "shrunk": bool(np.all(Ps[:, 0, 0] <= Pf[:, 0, 0] + 1e-9))}


def batch_filters(np, zs, dts, q, r):
    zs, dts = np.asarray(zs), np.asarray(dts)  # (T, B) measurements of B tracks
    B = dts.shape[0]
    F = np.broadcast_to(np.eye(2), (B, 2, 2)).copy()
    F[:, 0, 1] = dts
    x = np.zeros((B, 2))
    P = np.tile(np.eye(2) * 10.0, (B, 1, 1))
    out = np.empty((zs.shape[0], B))
    for t in range(zs.shape[0]):
        x = np.einsum("bij,bj->bi", F, x)
        P = F @ P @ np.swapaxes(F, -1, -2) + q * np.eye(2)
        S = P[:, 0, 0] + r
        K = P[:, :, 0] / S[:, None]
        innov = zs[t] - x[:, 0]
        x = x + K * innov[:, None]
        P = P - K[:, :, None] * P[:, None, 0, :]
        out[t] = x[:, 1]
    return {"vel": out, "trace": np.trace(P, axis1=1, axis2=2), "final": x}


def information_fusion(np, readings, variances):
    z = np.asarray(readings, dtype=np.float64)  # (sensors, time)
    v = np.asarray(variances)
    w = 1.0 / v
    fused = np.sum(w[:, None] * z, axis=0) / w.sum()
    fused_var = 1.0 / w.sum()
    bad = np.isnan(z)
    wm = np.where(bad, 0.0, w[:, None])
    robust = np.nansum(wm * np.nan_to_num(z), axis=0) / wm.sum(axis=0)
    Y = np.diag(w)
    Hs = np.ones((len(v), 1))
    info = Hs.T @ Y @ Hs
    return {"fused": fused, "var": fused_var, "robust": robust, "info": info,
            "best": int(np.argmax(w)), "used": (~bad).sum(axis=0)}


def complementary(np, gyro, accel_angle, dt, alpha):
    g = np.asarray(gyro, dtype=np.float32)
    a = np.asarray(accel_angle, dtype=np.float32)
    alpha = np.float64(alpha)
    angle = np.zeros_like(g)
    est = a[0]
    for i in range(1, g.size):
        est = alpha * (est + g[i] * dt) + (1 - alpha) * a[i]
        angle[i] = est
    drift = np.cumsum(g) * dt
    return {"angle": angle, "dtype": str((g * alpha).dtype), "drift": drift,
            "lowpass": np.convolve(a, np.full(5, 0.2), mode="same")}


def alpha_beta(np, zs, dt, a, b):
    zs = np.asarray(zs)
    x, v = zs[0], 0.0
    xs, vs, res = [], [], []
    for z in zs[1:]:
        xp = x + v * dt
        r = z - xp
        x = xp + a * r
        v = v + (b / dt) * r
        xs.append(x)
        vs.append(v)
        res.append(r)
    res = np.array(res)
    return {"x": np.array(xs), "v": np.array(vs), "res_std": res.std(ddof=1),
            "big": np.flatnonzero(np.abs(res) > 2 * res.std())}


def gated_update(np, x, P, zs, R, gate):
    x, P, zs, R = map(np.asarray, (x, P, zs, R))
    H = np.eye(2, 4)
    S = H @ P @ H.T + R
    Sinv = np.linalg.inv(S)
    innov = zs - (H @ x)[None, :]
    d2 = np.einsum("ni,ij,nj->n", innov, Sinv, innov)
    ok = d2 < gate
    K = P @ H.T @ Sinv
    best = np.argmin(np.where(ok, d2, np.inf))
    xn = x + K @ innov[best]
    IKH = np.eye(4) - K @ H
    Pn = IKH @ P @ IKH.T + K @ R @ K.T
    sym = np.allclose(Pn, Pn.T)
    return {"d2": d2, "ok": ok, "best": best, "x": xn, "P": Pn, "sym": bool(sym),
            "eig": np.linalg.eigvalsh(Pn)}


def unscented(np, mean, cov, kappa):
    m, C = np.asarray(mean), np.asarray(cov)
    n = m.size
    L = np.linalg.cholesky((n + kappa) * C)
    pts = np.vstack([m, m + L.T, m - L.T])
    w = np.full(2 * n + 1, 0.5 / (n + kappa))
    w[0] = kappa / (n + kappa)
    r = np.hypot(pts[:, 0], pts[:, 1])
    th = np.arctan2(pts[:, 1], pts[:, 0])
    y = np.column_stack([r, th])
    ym = w @ y
    d = y - ym
    yc = (w[:, None] * d).T @ d
    return {"pts": pts, "w": w, "mean": ym, "cov": yc, "wsum": w.sum()}


def riccati(np, F, H, Q, R, iters):
    F, H, Q, R = map(np.asarray, (F, H, Q, R))
    P = np.eye(F.shape[0])
    history = []
    for _ in range(iters):
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        P = (np.eye(F.shape[0]) - K @ H) @ P
        history.append(np.linalg.norm(K))
    h = np.array(history)
    conv = np.argmax(np.abs(np.diff(h)) < 1e-6)
    return {"K": K, "P": P, "hist": h, "converged_at": conv, "poles": np.sort(np.abs(np.linalg.eigvals(F - F @ K @ H)))}


def gauss_markov_biases(np, taus, sigmas, dt, steps):
    taus, sigmas = np.asarray(taus), np.asarray(sigmas)
    F = np.diag(np.exp(-dt / taus))  # independent first-order Gauss-Markov sensor biases
    Q = np.diag(sigmas**2 * (1 - np.exp(-2 * dt / taus)))
    lam, V = np.linalg.eig(F)
    lam, V = lam.real, V.real  # a diagonal F has a real spectrum (NumPy 2.5 returns it as complex)
    stable = np.all(np.abs(lam) < 1)
    P_inf = np.diag(Q) / (1 - lam**2)
    P = np.zeros_like(F)
    for _ in range(steps):
        P = F @ P @ F.T + Q
    slowest = np.argmax(lam)
    return {"lam": lam, "V": V, "stable": bool(stable), "P_inf": P_inf, "P": np.diag(P),
            "slowest": slowest, "half_life": -dt * np.log(2) / np.log(lam)}


def masked_sensor_log(np, readings, lo, hi):
    r = np.ma.masked_outside(np.asarray(readings), lo, hi)  # out-of-range samples are dropouts
    r32 = np.float32(r)  # the log is kept in single precision: the cast keeps the mask
    mean = r32.mean(axis=1)
    spread = r32.std(axis=1)
    return {"dtype": str(r32.dtype), "mean": mean.filled(np.nan), "std": spread.filled(np.nan),
            "count": r32.count(axis=1), "dropouts": np.ma.count_masked(r32, axis=1)}


def test_cv_filter():
    rng = np.random.default_rng(2501)
    t = np.arange(40) * 0.1
    z = (2.0 + 1.5 * t + rng.normal(0, 0.3, t.size))[:, None]
    check(cv_filter, z, 0.1, 0.5, 0.09, rtol=1e-3, atol=1e-4)


def test_rts_smoother():
    rng = np.random.default_rng(2502)
    z = np.sin(np.linspace(0, 3, 30)) + rng.normal(0, 0.1, 30)
    check(rts_smoother, z, 0.1, 0.01, 0.01, rtol=1e-3, atol=1e-4)


def test_batch_filters():
    rng = np.random.default_rng(2503)
    dts = np.array([0.1, 0.2, 0.5, 1.0])
    z = np.cumsum(rng.normal(1, 0.2, (25, 4)) * dts, axis=0)
    check(batch_filters, z, dts, 0.05, 0.1, rtol=1e-3, atol=1e-4)


def test_information_fusion():
    rng = np.random.default_rng(2504)
    z = 20 + rng.normal(0, [[0.5], [1.0], [2.0]], (3, 12))
    z[1, 3] = np.nan
    z[2, [0, 5]] = np.nan
    check(information_fusion, z, np.array([0.25, 1.0, 4.0]))


def test_complementary():
    rng = np.random.default_rng(2505)
    check(complementary, rng.normal(0.1, 0.02, 50), np.linspace(0, 0.5, 50) + rng.normal(0, 0.05, 50), 0.01, 0.98,
          rtol=1e-3, atol=1e-5)


def test_alpha_beta():
    rng = np.random.default_rng(2506)
    z = 3.0 * np.arange(30) * 0.5 + rng.normal(0, 1.0, 30)
    z[[7, 19]] += 8.0
    check(alpha_beta, z, 0.5, 0.5, 0.2, rtol=1e-3, atol=1e-4)


def test_gated_update():
    P = np.diag([1.0, 1.0, 4.0, 4.0]) + 0.1
    zs = np.array([[1.0, 1.2], [5.0, -3.0], [0.4, 0.1], [-0.2, 0.9]])
    check(gated_update, np.array([0.5, 0.5, 1.0, -1.0]), P, zs, 0.2 * np.eye(2), 9.21, rtol=1e-3, atol=1e-5)


def test_unscented():
    check(unscented, np.array([3.0, 4.0]), np.array([[0.5, 0.1], [0.1, 0.3]]), 1.0, rtol=1e-4, atol=1e-5)


def test_gauss_markov_biases():
    # eig of a diagonal F: NumPy gives its diagonal in order (kdsl sorted it, as eigh does, before porting25)
    check(gauss_markov_biases, np.array([50.0, 5.0, 200.0, 20.0]), np.array([0.1, 0.5, 0.05, 0.2]), 1.0, 300,
          rtol=1e-4, atol=1e-6)


def test_masked_sensor_log():
    rng = np.random.default_rng(2507)
    x = rng.normal(20, 2, (3, 15))
    x[0, [2, 9]] = 999.0
    x[2, :] = -50.0
    x[2, 4] = 21.0
    check(masked_sensor_log, x, 0.0, 100.0, rtol=1e-5, atol=1e-5)


def test_riccati():
    F = np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.1], [0.0, 0.0, 1.0]])
    H = np.array([[1.0, 0.0, 0.0]])
    check(riccati, F, H, 0.01 * np.eye(3), np.array([[0.5]]), 60, rtol=2e-3, atol=1e-4)
