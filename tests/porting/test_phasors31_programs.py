"""Complex-valued engineering programs as power and control notebooks write them in NumPy: a Gauss-Seidel and a
Newton load flow on complex128 admittance matrices (`np.ix_` blocks, `np.conj`, `np.angle(deg=True)`,
`np.linalg.solve`), symmetrical components with the Fortescue matrix, a short-circuit study from `np.linalg.inv(Y)`,
an AC ladder network by nodal analysis over frequencies (a stacked complex solve), a Kalman filter with a
Rauch-Tung-Striebel smoother on a constant-velocity model, and printed phasors (tests/porting)."""

import numpy as np
from harness import check


def ybus(np, n, lines):
    # complex128 stated: kdsl's `dtype=complex` is complex64 (docs/numpy-api.md), and Newton's 1e-9 needs double
    Y = np.zeros((n, n), dtype=np.complex128)
    for f, t, r, x, b in lines:
        y = 1 / complex(r, x)
        Y[f, f] += y + 1j * b / 2
        Y[t, t] += y + 1j * b / 2
        Y[f, t] -= y
        Y[t, f] -= y
    return Y


def gauss_seidel(np, lines, P, Q, iters):
    Y = ybus(np, len(P), lines)
    S = np.asarray(P, dtype=np.float64) + 1j * np.asarray(Q, dtype=np.float64)
    V = np.ones(len(P), dtype=np.complex128)
    mism = []
    for _ in range(iters):
        for i in range(1, len(V)):
            sigma = Y[i] @ V - Y[i, i] * V[i]
            V[i] = (np.conj(S[i] / V[i]) - sigma) / Y[i, i]
        Scalc = V * np.conj(Y @ V)
        mism.append(np.abs(Scalc[1:] - S[1:]).max())
    return {"V": V, "Vmag": np.abs(V), "Vang": np.angle(V, deg=True), "slack": Scalc[0], "mism": np.array(mism),
            "losses": Scalc.sum().real}


def newton_raphson(np, lines, P, Q, tol):
    Y = ybus(np, len(P), lines)
    G, B = Y.real, Y.imag
    n = len(P)
    pq = np.arange(1, n)
    th, vm = np.zeros(n, dtype=np.float64), np.ones(n, dtype=np.float64)
    its = 0
    while True:
        V = vm * np.exp(1j * th)
        Sc = V * np.conj(Y @ V)
        dP = np.asarray(P, dtype=np.float64)[pq] - Sc.real[pq]
        dQ = np.asarray(Q, dtype=np.float64)[pq] - Sc.imag[pq]
        if max(np.abs(dP).max(), np.abs(dQ).max()) < tol or its > 20:
            break
        dS_dVa = 1j * np.diag(V) @ np.conj(np.diag(Y @ V) - Y @ np.diag(V))
        dS_dVm = np.diag(V) @ np.conj(Y @ np.diag(V / np.abs(V))) + np.diag(np.conj(Y @ V) * V / np.abs(V))
        J = np.block([[dS_dVa.real[np.ix_(pq, pq)], dS_dVm.real[np.ix_(pq, pq)]],
                      [dS_dVa.imag[np.ix_(pq, pq)], dS_dVm.imag[np.ix_(pq, pq)]]])
        dx = np.linalg.solve(J, np.concatenate([dP, dQ]))
        th[pq] += dx[: len(pq)]
        vm[pq] += dx[len(pq):]
        its += 1
    return {"vm": vm, "deg": np.rad2deg(th), "its": its, "cond": np.linalg.cond(J), "G_sum": G.sum(),
            "B_diag": np.diag(B)}


def symmetrical_components(np, Vabc):
    a = np.exp(np.complex128(2j * np.pi / 3))
    A = np.array([[1, 1, 1], [1, a**2, a], [1, a, a**2]])
    V012 = np.linalg.solve(A, np.asarray(Vabc))
    Ainv = np.linalg.inv(A)
    unbalance = np.abs(V012[2]) / np.abs(V012[1]) * 100
    back = A @ V012
    return {"V012": V012, "Ainv": Ainv, "same": bool(np.allclose(Ainv, np.conj(A.T) / 3)),
            "unbalance": unbalance, "back": back, "mag": np.abs(V012), "ang": np.angle(V012, deg=True)}


def short_circuit(np, lines, n, zf):
    Y = ybus(np, n, lines)
    Y[0, 0] += 1 / 0.05j  # the source behind its reactance
    Z = np.linalg.inv(Y)
    Vpre = np.ones(n, dtype=np.complex128)
    If = Vpre / (np.diag(Z) + zf)
    Vpost = Vpre[None, :] - Z * If[None, :]  # column k: voltages for a fault at bus k
    return {"Zdiag": np.diag(Z), "If": np.abs(If), "Vpost": np.abs(Vpost), "worst": int(np.argmax(np.abs(If))),
            "sym": bool(np.allclose(Z, Z.T))}


def ladder_network(np, R, L, C, freqs):
    w = 2 * np.pi * np.asarray(freqs)
    n = 3
    zs = R + 1j * w[:, None] * L  # series impedance of each section, per frequency
    yp = 1j * w * C
    Y = np.zeros((len(w), n, n), dtype=np.complex128)
    for k in range(n):
        ys = 1 / zs[:, k]
        Y[:, k, k] += ys + yp
        if k > 0:
            Y[:, k - 1, k - 1] += ys
            Y[:, k - 1, k] -= ys
            Y[:, k, k - 1] -= ys
    src = np.zeros((len(w), n), dtype=np.complex128)
    src[:, 0] = 1 / zs[:, 0]  # a 1 V source through the first section's impedance, as a Norton current
    Y[:, 0, 0] += 0  # (the first section already counted)
    V = np.linalg.solve(Y, src[..., None])[..., 0]
    H = V[:, -1]
    gain_db = 20 * np.log10(np.abs(H))
    return {"H": H, "gain_db": gain_db, "phase": np.unwrap(np.angle(H)), "f3db": freqs[np.argmax(gain_db <
            gain_db[0] - 3)]}


def kalman_rts(np, z, dt, q, r):
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    R = np.array([[r]])
    n = len(z)
    xf = np.zeros((n, 2))
    Pf = np.zeros((n, 2, 2))
    xp = np.zeros((n, 2))
    Pp = np.zeros((n, 2, 2))
    x, P = np.array([z[0], 0.0]), np.eye(2) * 10
    loglik = 0.0
    for k in range(n):
        if k:
            x, P = F @ x, F @ P @ F.T + Q
        xp[k], Pp[k] = x, P
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        innov = z[k] - H @ x
        x = x + K @ innov
        P = (np.eye(2) - K @ H) @ P
        xf[k], Pf[k] = x, P
        sign, logdet = np.linalg.slogdet(2 * np.pi * S)
        loglik -= 0.5 * (logdet + innov @ np.linalg.solve(S, innov))
    xs, Ps = xf.copy(), Pf.copy()
    for k in range(n - 2, -1, -1):
        G = Pf[k] @ F.T @ np.linalg.inv(Pp[k + 1])
        xs[k] = xf[k] + G @ (xs[k + 1] - xp[k + 1])
        Ps[k] = Pf[k] + G @ (Ps[k + 1] - Pp[k + 1]) @ G.T
    var_f = np.einsum("kii->ki", Pf)
    var_s = np.diagonal(Ps, axis1=1, axis2=2)
    return {"xf": xf, "xs": xs, "loglik": loglik, "var_f": var_f, "var_s": var_s,
            "shrunk": bool(np.all(var_s <= var_f + 1e-12))}


def printed_phasors(np, V):
    V = np.asarray(V)
    lines = []
    for k, v in enumerate(V):
        lines.append(f"bus {k}: {abs(v):.4f} /_ {np.degrees(np.angle(v)):+7.2f} deg")
    with np.printoptions(precision=3, suppress=True):
        lines.append(str(V))
        lines.append(np.array2string(np.abs(V), separator=", "))
    lines.append(f"{V.sum().real:.3f}")
    return {"text": "\n".join(lines)}


LINES = [(0, 1, 0.02, 0.06, 0.06), (0, 2, 0.08, 0.24, 0.05), (1, 2, 0.06, 0.18, 0.04), (1, 3, 0.06, 0.18, 0.04),
         (2, 3, 0.01, 0.03, 0.02)]


def test_gauss_seidel():
    check(gauss_seidel, LINES, [0.0, -0.45, -0.4, -0.6], [0.0, -0.15, -0.05, -0.1], 30, rtol=1e-5, atol=1e-7)


def test_newton_raphson():
    check(newton_raphson, LINES, [0.0, -0.45, -0.4, -0.6], [0.0, -0.15, -0.05, -0.1], 1e-9, rtol=1e-5, atol=1e-6)


def test_symmetrical_components():
    Vabc = np.array([1.0, 0.9 * np.exp(-1j * np.deg2rad(125)), 1.05 * np.exp(1j * np.deg2rad(118))])
    check(symmetrical_components, Vabc, rtol=1e-6, atol=1e-9)


def test_short_circuit():
    check(short_circuit, LINES, 4, 0.01, rtol=1e-6, atol=1e-9)


def test_ladder_network():
    check(ladder_network, np.array([10.0, 10.0, 10.0]), np.array([1e-3, 1e-3, 1e-3]), 1e-6,
          np.geomspace(100, 100000, 25), rtol=1e-5, atol=1e-6)


def test_kalman_rts():
    rng = np.random.default_rng(3201)
    t = np.arange(40) * 0.5
    z = 2.0 + 1.3 * t + 0.05 * t**2 + rng.normal(0, 1.0, t.size)
    check(kalman_rts, z, 0.5, 0.1, 1.0)  # float32 matrices (Python float literals)


def test_printed_phasors():
    V = np.array([1.0 + 0j, 0.97 * np.exp(-0.05j), 0.952 * np.exp(-0.0812j)])
    check(printed_phasors, V)
