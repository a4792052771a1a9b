"""Control systems without SciPy, as course notebooks write them: transfer-function poles and zeros by np.roots
(conjugate pairs picked with `.imag > 0`, a damping ratio table), a Bode plot by np.polyval at `1j * w` with
unwrapped phase and margins, per-channel polynomial fits (np.polyfit of a 2-d y, np.polyval of its columns),
state-space discretisation by a truncated Taylor series of the matrix exponential and a step response by a Python
loop, controllability/observability rank tests, pole placement by Ackermann's formula (np.poly of the desired
poles, matrix_power), a discrete PID loop with anti-windup written into preallocated arrays, and a 1-D Kalman
filter over a batch of sensors (tests/porting)."""

import numpy as np
from harness import check


def poles_and_damping(np, num, den):
    zeros = np.roots(num)
    poles = np.roots(den)
    upper = poles[poles.imag > 0]
    real_poles = poles[np.isreal(poles)].real
    wn = np.abs(upper)
    zeta = -upper.real / wn
    order = np.argsort(wn)
    table = [f"wn={w:.3f} zeta={z:.3f}" for w, z in zip(wn[order].tolist(), zeta[order].tolist(), strict=True)]
    pairs_ok = bool(np.all(np.isin(poles, np.conj(poles))))
    dc_gain = np.polyval(num, 0) / np.polyval(den, 0)
    return {"zeros": np.sort_complex(zeros), "poles": np.sort_complex(poles), "wn": wn[order], "zeta": zeta[order],
            "table": table, "n_real": len(real_poles), "pairs": pairs_ok, "stable": bool(np.all(poles.real < 0)),
            "dc": float(dc_gain), "back": np.real_if_close(np.poly(poles))}


def bode(np, num, den, w):
    s = 1j * w
    H = np.polyval(num, s) / np.polyval(den, s)
    mag_db = 20 * np.log10(np.abs(H))
    phase = np.degrees(np.unwrap(np.angle(H)))
    k = np.flatnonzero(np.diff(np.sign(mag_db)) != 0)
    wc = w[k[0]] if len(k) else np.nan
    pm = 180 + phase[k[0]] if len(k) else np.inf
    k180 = np.flatnonzero(np.diff(np.sign(phase + 180)) != 0)
    gm = -mag_db[k180[0]] if len(k180) else np.inf
    bw = w[np.argmax(mag_db < mag_db[0] - 3)]
    return {"mag": mag_db, "phase": phase, "wc": wc, "pm": round(float(pm), 1), "gm": round(float(gm), 1),
            "bw": bw, "peak": mag_db.max()}


def discretise_step(np, A, B, C, dt, steps):
    n = A.shape[0]
    # e^{A dt} and its integral by a truncated Taylor series
    Ad = np.eye(n)
    term = np.eye(n)
    Bd_int = np.eye(n) * dt
    term_int = np.eye(n) * dt
    for k in range(1, 15):
        term = term @ A * dt / k
        Ad = Ad + term
        term_int = term_int @ A * dt / (k + 1)
        Bd_int = Bd_int + term_int
    Bd = Bd_int @ B
    x = np.zeros((n, 1))
    y = np.empty(steps)
    for k in range(steps):
        y[k] = (C @ x).item()
        x = Ad @ x + Bd * 1.0
    final = -C @ np.linalg.solve(A, B)
    overshoot = (y.max() - final.item()) / final.item() * 100
    settle = np.flatnonzero(np.abs(y - final.item()) > 0.02 * abs(final.item()))
    return {"Ad": Ad, "Bd": Bd, "y": y, "final": final.item(), "overshoot": round(float(overshoot), 2),
            "settle": int(settle[-1] + 1) if len(settle) else 0, "eig_radius": np.abs(np.linalg.eigvals(Ad)).max()}


def ctrb_obsv(np, A, B, C):
    n = A.shape[0]
    Wc = np.hstack([np.linalg.matrix_power(A, k) @ B for k in range(n)])
    Wo = np.vstack([C @ np.linalg.matrix_power(A, k) for k in range(n)])
    rc, ro = np.linalg.matrix_rank(Wc), np.linalg.matrix_rank(Wo)
    sv = np.linalg.svd(Wc, compute_uv=False)
    A2 = A.copy()
    A2[:, -1] = 0
    A2[-1, :] = 0
    rank2 = np.linalg.matrix_rank(np.hstack([np.linalg.matrix_power(A2, k) @ B for k in range(n)]))
    return {"Wc": Wc, "Wo": Wo, "rank_c": int(rc), "rank_o": int(ro), "controllable": bool(rc == n),
            "cond": sv[0] / sv[-1], "rank2": int(rank2)}


def ackermann(np, A, B, poles):
    n = A.shape[0]
    coeffs = np.real(np.poly(poles))
    Wc = np.column_stack([np.linalg.matrix_power(A, k) @ B for k in range(n)])
    phiA = sum(c * np.linalg.matrix_power(A, n - i) for i, c in enumerate(coeffs))
    e_n = np.zeros((1, n))
    e_n[0, -1] = 1.0
    K = e_n @ np.linalg.inv(Wc) @ phiA
    closed = np.linalg.eigvals(A - B @ K)
    try:
        np.linalg.inv(np.zeros((n, n)))
        singular = "no error"
    except np.linalg.LinAlgError as e:
        singular = type(e).__name__
    return {"coeffs": coeffs, "K": K, "closed": np.sort_complex(closed), "singular": singular,
            "match": bool(np.allclose(np.sort_complex(closed), np.sort_complex(np.asarray(poles)), atol=1e-6))}


def pid_loop(np, setpoint, kp, ki, kd_, dt, steps, umax):
    y = np.zeros(steps)
    u = np.zeros(steps)
    e_int = 0.0
    e_prev = 0.0
    x = 0.0
    for k in range(1, steps):
        e = setpoint[k] - y[k - 1]
        e_int_new = e_int + e * dt
        deriv = (e - e_prev) / dt
        u_raw = kp * e + ki * e_int_new + kd_ * deriv
        u[k] = np.clip(u_raw, -umax, umax)
        if abs(u_raw) <= umax:  # anti-windup: integrate only when not saturated
            e_int = e_int_new
        e_prev = e
        x = x + dt * (-x + u[k])
        y[k] = x
    err = setpoint - y
    iae = np.sum(np.abs(err)) * dt
    sat = np.count_nonzero(np.abs(u) >= umax)
    rise = np.argmax(y >= 0.9 * setpoint[-1])
    return {"y": y, "u": u, "iae": iae, "sat": int(sat), "rise": int(rise),
            "summary": f"IAE={iae:.3f} sat={sat} final={y[-1]:.3f}"}


def kalman_batch(np, z, q, r):
    n_sensors, T = z.shape
    x = np.zeros(n_sensors)
    P = np.ones(n_sensors)
    est = np.empty_like(z)
    gains = np.empty_like(z)
    for t in range(T):
        P = P + q
        K = P / (P + r)
        x = x + K * (z[:, t] - x)
        P = (1 - K) * P
        est[:, t] = x
        gains[:, t] = K
    resid = z - est
    return {"est": est, "gain_final": gains[:, -1], "P": P, "rms": np.sqrt(np.mean(resid ** 2, axis=1)),
            "best": int(np.argmin(np.var(resid, axis=1)))}


def identify_steps(np, t, Y, deg):
    # one polynomial per output channel (columns of Y), fitted at once and evaluated at once
    P = np.polyfit(t, Y, deg)
    fitted = np.polyval(P, t[:, None])
    resid = Y - fitted
    rms = np.sqrt(np.mean(resid ** 2, axis=0))
    slope0 = np.polyval(np.polyder(P[:, 0]), t[0])
    dc = np.polyval(P, t[-1])
    worst = int(np.argmax(rms))
    return {"P": P, "fitted": fitted, "rms": rms, "slope0": slope0, "dc": dc, "worst": worst,
            "report": [f"ch{i}: rms={r:.4f}" for i, r in enumerate(rms.tolist())]}


def test_poles_zeros_and_damping():
    # (s + 2) / ((s^2 + 2s + 5)(s^2 + 0.4s + 4)(s + 3))
    den = np.polymul(np.polymul([1, 2, 5], [1, 0.4, 4]), [1, 3])
    check(poles_and_damping, np.array([1.0, 2.0]), den, rtol=1e-4, atol=1e-6)


def test_bode_margins():
    w = np.logspace(-2, 2, 200)
    check(bode, np.array([10.0]), np.array([1.0, 3.0, 3.0, 1.0]), w, rtol=1e-3, atol=1e-3)


def test_discretised_step_response():
    A = np.array([[0.0, 1.0], [-4.0, -1.2]])
    B = np.array([[0.0], [4.0]])
    C = np.array([[1.0, 0.0]])
    check(discretise_step, A, B, C, 0.05, 120, rtol=1e-3, atol=1e-4)


def test_controllability_observability():
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-6.0, -11.0, -6.0]])
    check(ctrb_obsv, A, np.array([[0.0], [0.0], [1.0]]), np.array([[1.0, 0.0, 0.0]]), rtol=1e-4, atol=1e-5)


def test_pole_placement_by_ackermann():
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, -2.0, 0.5]])
    check(ackermann, A, np.array([[0.0], [0.0], [1.0]]), [-2.0, -1 + 1j, -1 - 1j], rtol=1e-4, atol=1e-5)


def test_pid_with_anti_windup():
    sp = np.r_[np.zeros(5), np.ones(75)]
    check(pid_loop, sp, 4.0, 3.0, 0.05, 0.05, 80, 2.5, rtol=1e-3, atol=1e-4)


def test_kalman_over_sensors():
    rng = np.random.default_rng(1141)
    truth = np.cumsum(rng.normal(0, 0.1, 60))
    z = truth + rng.normal(0, [[0.2], [0.5], [1.0], [0.3]], (4, 60))
    check(kalman_batch, z, 0.01, np.array([0.04, 0.25, 1.0, 0.09]), rtol=1e-4, atol=1e-5)


def test_identify_channels_by_column_polyfit():
    rng = np.random.default_rng(1142)
    t = np.linspace(0, 2, 25)
    Y = np.stack([1 - np.exp(-2 * t), 0.5 * t ** 2, np.sin(t)], axis=1) + rng.normal(0, 0.01, (25, 3))
    check(identify_steps, t, Y, 3, rtol=1e-3, atol=1e-4)
