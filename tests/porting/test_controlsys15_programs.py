"""Control of dynamical systems as control-course notebooks write it: zero-order-hold discretisation by a matrix
exponential series with scaling and squaring (the augmented `[[A, B], [0, 0]]` block), discrete LQR by Riccati
iteration until `allclose`, step responses with rise time, overshoot and settling time from boolean masks,
controllability and observability by `matrix_power` and `matrix_rank`, a PID loop with anti-windup `clip` on a
delayed plant, Bode data from `polyval` at `1j * w` with `unwrap` and margins by sign changes, and a steady-state
Kalman filter by the dual Riccati iteration (tests/porting)."""

import numpy as np
from harness import check


def expm_series(np, M, terms=20):
    norm = np.linalg.norm(M, 1)
    s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
    A = M / 2 ** s
    E = np.eye(M.shape[0])
    term = np.eye(M.shape[0])
    for k in range(1, terms):
        term = term @ A / k
        E = E + term
    for _ in range(s):
        E = E @ E
    return E


def c2d(np, A, B, dt):
    n, m = B.shape
    M = np.zeros((n + m, n + m))
    M[:n, :n] = A * dt
    M[:n, n:] = B * dt
    E = expm_series(np, M)
    Ad, Bd = E[:n, :n], E[:n, n:]
    euler = np.eye(n) + A * dt
    eig_c = np.sort_complex(np.linalg.eigvals(A))
    eig_d = np.sort_complex(np.linalg.eigvals(Ad))
    return {"Ad": Ad, "Bd": Bd, "euler_err": np.abs(Ad - euler).max(), "eig_map": np.allclose(
        np.sort_complex(np.exp(eig_c * dt)), eig_d, atol=1e-8), "rho": np.abs(eig_d).max()}


def dlqr(np, A, B, Q, R, tol):
    P = Q.copy()
    for it in range(5000):
        iters = it + 1
        BtP = B.T @ P
        K = np.linalg.solve(R + BtP @ B, BtP @ A)
        P_next = Q + A.T @ P @ (A - B @ K)
        if np.allclose(P_next, P, rtol=0, atol=tol):
            P = P_next
            break
        P = P_next
    K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    cl = np.linalg.eigvals(A - B @ K)
    x = np.array([1.0, 0.0, 0.5, 0.0])[:A.shape[0]]
    cost = 0.0
    for _ in range(200):
        u = -K @ x
        cost += x @ Q @ x + u @ R @ u
        x = A @ x + B @ u
    return {"K": K, "P": P, "iters": iters, "stable": bool(np.all(np.abs(cl) < 1)),
            "cl_radius": np.abs(cl).max(), "cost": cost, "x0Px0": np.array([1.0, 0.0, 0.5, 0.0])[:A.shape[0]] @ P
            @ np.array([1.0, 0.0, 0.5, 0.0])[:A.shape[0]], "symmetric": bool(np.allclose(P, P.T))}


def step_response(np, wn, zeta, dt, T):
    A = np.array([[0.0, 1.0], [-wn ** 2, -2 * zeta * wn]])
    B = np.array([[0.0], [wn ** 2]])
    n = int(T / dt)
    Ad = expm_series(np, A * dt)
    Bd = np.linalg.solve(A, (Ad - np.eye(2)) @ B)
    x = np.zeros((n + 1, 2))
    for k in range(n):
        x[k + 1] = Ad @ x[k] + Bd[:, 0]
    y = x[:, 0]
    t = np.arange(n + 1) * dt
    final = y[-1]
    rise = t[np.argmax(y >= 0.9 * final)] - t[np.argmax(y >= 0.1 * final)]
    overshoot = max(0.0, (y.max() - final) / final * 100)
    outside = np.abs(y - final) > 0.02 * abs(final)
    settle = t[np.flatnonzero(outside)[-1] + 1] if outside.any() else 0.0
    peaks = np.flatnonzero((y[1:-1] > y[:-2]) & (y[1:-1] >= y[2:])) + 1
    return {"y": y[::20], "rise": rise, "overshoot": overshoot, "settle": settle, "peaks": peaks,
            "theory_os": 100 * np.exp(-zeta * np.pi / np.sqrt(1 - zeta ** 2)) if zeta < 1 else 0.0}


def controllability(np, A, B, C):
    n = A.shape[0]
    ctrb = np.hstack([np.linalg.matrix_power(A, k) @ B for k in range(n)])
    obsv = np.vstack([C @ np.linalg.matrix_power(A, k) for k in range(n)])
    sv = np.linalg.svd(ctrb, compute_uv=False)
    with np.errstate(divide="ignore"):
        cond = sv[0] / sv[-1]
    gram = sum(np.linalg.matrix_power(A, k) @ B @ B.T @ np.linalg.matrix_power(A, k).T for k in range(60))
    return {"ctrb": ctrb, "rank_c": int(np.linalg.matrix_rank(ctrb)), "rank_o": int(np.linalg.matrix_rank(obsv)),
            "cond": cond, "gram_eig": np.linalg.eigvalsh(gram)}


def pid_loop(np, kp, ki, kd, dt, steps, delay, setpoints, u_max):
    y = 0.0
    integ = 0.0
    prev_err = 0.0
    u_hist = np.zeros(steps + delay)
    ys = np.empty(steps)
    us = np.empty(steps)
    for k in range(steps):
        err = setpoints[k] - y
        integ += err * dt
        deriv = (err - prev_err) / dt
        u = kp * err + ki * integ + kd * deriv
        u_sat = np.clip(u, -u_max, u_max)
        if u != u_sat:
            integ -= err * dt  # anti-windup: stop integrating while saturated
        u_hist[k + delay] = u_sat
        y += dt * (-y + 2.0 * u_hist[k]) / 3.0
        prev_err = err
        ys[k], us[k] = y, u_sat
    err = setpoints - ys
    return {"y": ys[::10], "u": us[::10], "iae": np.abs(err).sum() * dt, "ise": (err ** 2).sum() * dt,
            "saturated": int((np.abs(us) >= u_max).sum())}


def bode(np, num, den, w):
    s = 1j * w
    H = np.polyval(num, s) / np.polyval(den, s)
    mag_db = 20 * np.log10(np.abs(H))
    phase = np.rad2deg(np.unwrap(np.angle(H)))
    cross = np.flatnonzero(np.diff(np.sign(mag_db)) != 0)
    wc = w[cross[0]] if cross.size else np.nan
    pm = 180 + phase[cross[0]] if cross.size else np.inf
    pcross = np.flatnonzero(np.diff(np.sign(phase + 180)) != 0)
    gm = -mag_db[pcross[0]] if pcross.size else np.inf
    bw = w[np.argmax(mag_db < mag_db[0] - 3)]
    return {"mag": mag_db[::15], "phase": phase[::15], "wc": wc, "pm": pm, "gm": gm, "bw": bw,
            "poles": np.sort_complex(np.roots(den))}


def kalman_steady(np, A, C, Qn, Rn, zs, x0):
    P = np.eye(A.shape[0])
    for _ in range(500):
        Pp = A @ P @ A.T + Qn
        S = C @ Pp @ C.T + Rn
        K = Pp @ C.T @ np.linalg.inv(S)
        P = (np.eye(A.shape[0]) - K @ C) @ Pp
    x = x0.copy()
    est = []
    innov = []
    for z in zs:
        x = A @ x
        nu = z - C @ x
        x = x + K @ nu
        est.append(x.copy())
        innov.append(nu)
    est = np.array(est)
    innov = np.array(innov)
    return {"K": K, "P": P, "est": est[::10], "nis": np.einsum("ti,ij,tj->t", innov, np.linalg.inv(S), innov).mean()}


def test_c2d_by_matrix_exponential_series():
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-6.0, -11.0, -6.0]])
    B = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    for dt in (0.01, 0.1, 0.7):
        # rtol: np.zeros((n + m, n + m)) is float32 in kdsl (docs/numpy-api.md, "Deliberate differences")
        check(c2d, A, B, dt, rtol=2e-4, atol=1e-7)


def test_discrete_lqr_riccati():
    dt = 0.05
    A = np.array([[1, dt, 0, 0], [0, 1, -0.5 * dt, 0], [0, 0, 1, dt], [0, 0, 12 * dt, 1]])
    B = np.array([[0.0], [dt], [0.0], [-1.2 * dt]])
    check(dlqr, A, B, np.diag([10.0, 1.0, 10.0, 1.0]), np.array([[0.1]]), 1e-9, rtol=1e-5, atol=1e-7)


def test_step_response_metrics():
    for zeta in (0.2, 0.5, 0.9):
        # float32 tolerance: np.array([[0.0, 1.0], ...]) of Python floats is float32 in kdsl
        check(step_response, 3.0, zeta, 0.01, 6.0, rtol=2e-4, atol=1e-6)


def test_controllability_observability():
    A = np.array([[0.9, 0.1, 0.0], [0.0, 0.8, 0.2], [0.0, 0.0, 0.7]])
    check(controllability, A, np.array([[0.0], [0.0], [1.0]]), np.array([[1.0, 0.0, 0.0]]), rtol=1e-5)
    check(controllability, A, np.array([[1.0], [0.0], [0.0]]), np.array([[0.0, 0.0, 1.0]]), rtol=1e-5, atol=1e-9)


def test_pid_with_anti_windup():
    sp = np.concatenate([np.zeros(20), np.ones(200), 0.5 * np.ones(180)])
    check(pid_loop, 2.0, 0.8, 0.1, 0.05, 400, 6, sp, 1.5, rtol=1e-6)


def test_bode_margins():
    w = np.logspace(-2, 2, 300)
    check(bode, np.array([10.0]), np.array([1.0, 6.0, 11.0, 6.0]), w, rtol=1e-6)


def test_steady_state_kalman():
    rng = np.random.default_rng(1547)
    dt = 0.1
    A = np.array([[1, dt], [0, 1]])
    C = np.array([[1.0, 0.0]])
    truth = np.cumsum(np.full(150, 0.5 * dt)) + rng.normal(0, 0.05, 150).cumsum() * dt
    zs = (truth + rng.normal(0, 0.3, 150))[:, None]
    check(kalman_steady, A, C, np.diag([1e-4, 1e-3]), np.array([[0.09]]), zs, np.zeros(2), rtol=1e-6)
