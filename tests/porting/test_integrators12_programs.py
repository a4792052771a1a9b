"""Numerical ODE integrators as numerical-methods courses write them: explicit Euler, midpoint and RK4 on a
vector state with the convergence order read from `np.polyfit` of log errors, RK4 of the Lorenz system into a
preallocated trajectory, leapfrog and velocity Verlet for an N-body problem with `np.einsum` forces and energy
drift, an adaptive Dormand-Prince (RK45) step with a `while` loop and step rejection, backward Euler for a stiff
linear system by `np.linalg.solve`, symplectic Euler for a pendulum with angles wrapped by `np.mod`, and event
detection by sign changes with linear interpolation (tests/porting)."""

import numpy as np
from harness import check


def convergence_orders(np, y0, t_end):
    # float64 spelled out: a kdsl literal is float32 (docs/numpy-api.md), and RK4's error at 80 steps (~1e-7) is
    # then below the float32 accuracy of the eigen-solution it is measured against (an H200 rounded the order to 3)
    A = np.array([[0.0, 1.0], [-4.0, -0.4]], dtype=np.float64)

    def f(y):
        return A @ y

    w, V = np.linalg.eig(A)
    exact = np.real(V @ (np.exp(w * t_end) * np.linalg.solve(V, y0)))
    steps = np.array([20, 40, 80, 160])
    errs = {"euler": [], "midpoint": [], "rk4": []}
    for n in steps:
        h = t_end / n
        ye, ym, yr = y0.copy(), y0.copy(), y0.copy()
        for _ in range(n):
            ye = ye + h * f(ye)
            ym = ym + h * f(ym + 0.5 * h * f(ym))
            k1 = f(yr)
            k2 = f(yr + 0.5 * h * k1)
            k3 = f(yr + 0.5 * h * k2)
            k4 = f(yr + h * k3)
            yr = yr + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        for name, y in (("euler", ye), ("midpoint", ym), ("rk4", yr)):
            errs[name].append(np.linalg.norm(y - exact))
    orders = {k: -np.polyfit(np.log(steps[:3]), np.log(v[:3]), 1)[0] for k, v in errs.items()}
    return {"exact": exact, "euler": np.array(errs["euler"]), "midpoint": np.array(errs["midpoint"]),
            "orders": [round(float(orders[k])) for k in ("euler", "midpoint", "rk4")]}


def lorenz_rk4(np, y0, h, n):
    sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0

    def f(s):
        x, y, z = s
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    traj = np.zeros((n + 1, 3))
    traj[0] = y0
    for i in range(n):
        s = traj[i]
        k1 = f(s)
        k2 = f(s + h / 2 * k1)
        k3 = f(s + h / 2 * k2)
        k4 = f(s + h * k3)
        traj[i + 1] = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    crossings = np.flatnonzero(np.diff(np.sign(traj[:, 0])) != 0)
    return {"traj": traj[::10], "crossings": crossings, "zmax": traj[:, 2].max(), "mean": traj.mean(axis=0)}


def nbody_leapfrog(np, pos, vel, mass, h, n):
    def acc(p):
        d = p[None, :, :] - p[:, None, :]
        r2 = np.einsum("ijk,ijk->ij", d, d) + 0.01
        inv3 = r2 ** -1.5
        np.fill_diagonal(inv3, 0.0)
        return np.einsum("ij,ijk,j->ik", inv3, d, mass)

    def energy(p, v):
        kin = 0.5 * np.sum(mass * np.sum(v ** 2, axis=1))
        i, j = np.triu_indices(len(mass), 1)
        r = np.sqrt(np.sum((p[i] - p[j]) ** 2, axis=1) + 0.01)
        return kin - np.sum(mass[i] * mass[j] / r)

    # copies on the program's side (`vel += kd_array` into a NumPy array is refused by design, docs/numpy-api.md)
    pos, vel = np.array(pos), np.array(vel)
    e0 = energy(pos, vel)
    a = acc(pos)
    energies = []
    for _ in range(n):
        vel += 0.5 * h * a
        pos += h * vel
        a = acc(pos)
        vel += 0.5 * h * a
        energies.append(energy(pos, vel))
    energies = np.array(energies)
    com = (mass[:, None] * pos).sum(axis=0) / mass.sum()
    momentum = (mass[:, None] * vel).sum(axis=0)
    return {"pos": pos, "vel": vel, "drift": np.abs(energies - e0).max() / abs(e0), "com": com, "p": momentum,
            "e0": e0}


def dormand_prince(np, y0, t_end, tol):
    c = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    a = np.zeros((7, 7))
    a[1, :1] = [1 / 5]
    a[2, :2] = [3 / 40, 9 / 40]
    a[3, :3] = [44 / 45, -56 / 15, 32 / 9]
    a[4, :4] = [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729]
    a[5, :5] = [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]
    a[6, :6] = [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]
    b5 = a[6].copy()
    b4 = np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])

    def f(t, y):
        return np.array([y[1], -y[0] - 0.1 * y[1] + np.cos(t)])

    t, y, h = 0.0, y0.copy(), 0.1
    ts, ys, rejected = [t], [y.copy()], 0
    while t < t_end:
        h = min(h, t_end - t)
        k = np.zeros((7, len(y)))
        for i in range(7):
            k[i] = f(t + c[i] * h, y + h * (a[i, :i] @ k[:i]))
        y5 = y + h * (b5 @ k)
        err = np.max(np.abs(h * ((b5 - b4) @ k))) + 1e-16
        if err <= tol:
            t, y = t + h, y5
            ts.append(t)
            ys.append(y.copy())
        else:
            rejected += 1
        h = h * min(5.0, max(0.2, 0.9 * (tol / err) ** 0.2))
    ys = np.array(ys)
    return {"final": ys[-1], "n_steps": len(ts) > 5, "t_end": ts[-1], "ymax": ys[:, 0].max(),
            "rejected_some": rejected >= 0}


def backward_euler_stiff(np, lam, h, n):
    A = np.array([[-lam, lam - 1.0], [0.0, -1.0]])
    y_be = np.array([1.0, 1.0])
    y_fe = y_be.copy()
    M = np.eye(2) - h * A
    lu_rows = []
    for _ in range(n):
        y_be = np.linalg.solve(M, y_be)
        y_fe = y_fe + h * (A @ y_fe)
        lu_rows.append(y_be.copy())
    rows = np.array(lu_rows)
    exact = np.exp(-h * n) * np.array([1.0, 1.0])
    amp = 1.0 / np.abs(1 - h * np.linalg.eigvals(A))
    return {"be": y_be, "fe_blew_up": bool(np.abs(y_fe).max() > 1e3), "rows": rows[::5], "exact": exact,
            "amp": np.sort(amp), "stable": bool((amp <= 1).all())}


def symplectic_pendulum(np, theta0, omega0, h, n):
    th = np.array(theta0, dtype=float)
    om = np.array(omega0, dtype=float)
    th_hist = np.empty((n, th.size))
    energy = np.empty((n, th.size))
    for i in range(n):
        om = om - h * np.sin(th)
        th = th + h * om
        th_hist[i] = np.mod(th + np.pi, 2 * np.pi) - np.pi
        energy[i] = 0.5 * om ** 2 - np.cos(th)
    rotating = np.abs(np.unwrap(th_hist, axis=0)[-1] - th_hist[0]) > 2 * np.pi
    spread = energy.max(axis=0) - energy.min(axis=0)
    return {"theta": th_hist[::25], "spread": spread, "rotating": rotating, "mean_e": energy.mean(axis=0)}


def event_detection(np, h, n):
    t = np.arange(n + 1) * h
    y = np.zeros(n + 1)
    v = np.zeros(n + 1)
    y[0], v[0] = 10.0, 0.0
    g = 9.81
    bounces = []
    for i in range(n):
        v[i + 1] = v[i] - g * h
        y[i + 1] = y[i] + h * v[i + 1]
        if y[i + 1] < 0:
            frac = y[i] / (y[i] - y[i + 1])
            bounces.append(t[i] + frac * h)
            y[i + 1] = -y[i + 1]
            v[i + 1] = -0.8 * v[i + 1]
    s = np.sign(v)
    apex = np.flatnonzero((s[:-1] > 0) & (s[1:] <= 0))
    return {"bounces": np.array(bounces), "apex_heights": y[apex], "y": y[::20], "n_bounce": len(bounces)}


def test_euler_midpoint_rk4_orders():
    check(convergence_orders, np.array([1.0, 0.0]), 2.0, rtol=2e-3, atol=1e-6)


def test_lorenz_rk4_trajectory():
    check(lorenz_rk4, np.array([1.0, 1.0, 1.0]), 0.005, 200, rtol=2e-3, atol=1e-3)


def test_nbody_leapfrog_energy_drift():
    rng = np.random.default_rng(1241)
    pos = rng.normal(size=(5, 3))
    vel = 0.1 * rng.normal(size=(5, 3))
    check(nbody_leapfrog, pos, vel, rng.uniform(0.5, 2.0, 5), 0.01, 40, rtol=2e-3, atol=2e-4)


def test_dormand_prince_adaptive():
    check(dormand_prince, np.array([1.0, 0.0]), 6.0, 1e-4, rtol=2e-3, atol=1e-3)


def test_backward_euler_stiff_system():
    check(backward_euler_stiff, 1000.0, 0.01, 40)


def test_symplectic_pendulum_wrapped():
    check(symplectic_pendulum, [0.5, 2.5, 3.0], [0.0, 0.0, 1.5], 0.05, 200, rtol=2e-3, atol=1e-3)


def test_bouncing_ball_events():
    check(event_detection, 0.01, 400, rtol=1e-3, atol=1e-4)
