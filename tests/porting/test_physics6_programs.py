"""Small physics and population models as NumPy scripts write them: an SIR epidemic by forward Euler into
preallocated arrays, the 1-D wave equation by leapfrog on slices, normal modes of a spring chain from eigh of a
tridiagonal stiffness matrix, projectiles with quadratic drag for a batch of launch angles, a Kepler orbit by
velocity Verlet with its energy drift, implicit (backward Euler) heat conduction by np.linalg.solve, Lotka-
Volterra by RK4 with the state as one array, and a damped driven oscillator's resonance curve (tests/porting)."""

import numpy as np
from harness import check


def sir_model(np, beta=0.3, gamma=0.1, days=120, dt=0.5):
    n = int(days / dt)
    S, I, R = np.zeros(n + 1), np.zeros(n + 1), np.zeros(n + 1)
    S[0], I[0] = 0.99, 0.01
    for k in range(n):
        new_inf = beta * S[k] * I[k] * dt
        new_rec = gamma * I[k] * dt
        S[k + 1] = S[k] - new_inf
        I[k + 1] = I[k] + new_inf - new_rec
        R[k + 1] = R[k] + new_rec
    t = np.arange(n + 1) * dt
    peak = np.argmax(I)
    return {"peak_day": float(t[peak]), "peak": float(I[peak]), "final_R": float(R[-1]),
            "conserved": float(np.abs(S + I + R - 1).max()), "weekly_I": I[:: int(7 / dt)]}


def wave_leapfrog(np, n=80, steps=120, c=1.0):
    x = np.linspace(0, 1, n)
    dx = x[1] - x[0]
    dt = 0.5 * dx / c
    r2 = (c * dt / dx) ** 2
    u_prev = np.exp(-200 * (x - 0.3) ** 2)
    u = u_prev.copy()
    u[1:-1] = u_prev[1:-1] + 0.5 * r2 * (u_prev[2:] - 2 * u_prev[1:-1] + u_prev[:-2])
    energy = []
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + r2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
        energy.append(float(np.sum(((u - u_prev) / dt) ** 2 + c**2 * np.gradient(u, dx) ** 2) * dx))
    return {"u": u, "peak_at": float(x[np.argmax(np.abs(u))]), "energy": energy[::20]}


def spring_chain_modes(np, masses_host, k=4.0):
    m = np.asarray(masses_host)
    n = len(m)
    K = 2 * k * np.eye(n) - k * np.eye(n, k=1) - k * np.eye(n, k=-1)
    Minv_sqrt = np.diag(1 / np.sqrt(m))
    A = Minv_sqrt @ K @ Minv_sqrt
    w2, V = np.linalg.eigh(A)
    freqs = np.sqrt(w2)
    modes = Minv_sqrt @ V
    modes /= np.abs(modes).max(axis=0) * np.sign(modes[0])
    nodes = (np.diff(np.sign(modes), axis=0) != 0).sum(axis=0)
    x0 = np.zeros(n)
    x0[0] = 1.0
    coeff = np.linalg.solve(modes, x0)
    t = np.linspace(0, 5, 6)
    x_t = modes @ (coeff[:, None] * np.cos(freqs[:, None] * t[None, :]))
    return {"freqs": freqs, "modes": modes, "nodes": nodes, "x_t": x_t}


def projectiles(np, angles_deg_host, v0=30.0, k=0.02, dt=0.025):
    th = np.radians(np.asarray(angles_deg_host))
    pos = np.zeros((len(th), 2))
    vel = v0 * np.column_stack([np.cos(th), np.sin(th)])
    flying = np.ones(len(th), dtype=bool)
    t_land = np.zeros(len(th))
    peak = np.zeros(len(th))
    t = 0.0
    while flying.any() and t < 10:
        speed = np.linalg.norm(vel, axis=1, keepdims=True)
        acc = -k * speed * vel + np.array([0.0, -9.81])
        vel = np.where(flying[:, None], vel + acc * dt, vel)
        pos = np.where(flying[:, None], pos + vel * dt, pos)
        peak = np.maximum(peak, pos[:, 1])
        t += dt
        landed = flying & (pos[:, 1] < 0)
        t_land[landed] = t
        flying &= ~landed
    best = np.argmax(pos[:, 0])
    return {"range": pos[:, 0], "peak": peak, "t_land": t_land, "best_angle": float(np.degrees(th[best]))}


def kepler_verlet(np, e=0.5, steps=200, dt=0.02):
    r = np.array([1 - e, 0.0])
    v = np.array([0.0, np.sqrt((1 + e) / (1 - e))])
    acc = -r / np.linalg.norm(r) ** 3
    traj = np.empty((steps, 2))
    energy = np.empty(steps)
    for i in range(steps):
        r = r + v * dt + 0.5 * acc * dt**2
        new_acc = -r / np.linalg.norm(r) ** 3
        v = v + 0.5 * (acc + new_acc) * dt
        acc = new_acc
        traj[i] = r
        energy[i] = 0.5 * v @ v - 1 / np.linalg.norm(r)
    step = traj[1:] - traj[:-1]
    L = step[:, 0] * traj[:-1, 1] - step[:, 1] * traj[:-1, 0]
    return {"traj": traj[::25], "drift": float(np.ptp(energy)), "E0": float(energy[0]),
            "rmax": float(np.linalg.norm(traj, axis=1).max()), "L_sign": int(np.sign(L).sum())}


def implicit_heat(np, n=30, steps=40, alpha=1.0):
    dx = 1.0 / (n + 1)
    dt = 0.5 * dx
    r = alpha * dt / dx**2
    A = (1 + 2 * r) * np.eye(n) - r * (np.eye(n, k=1) + np.eye(n, k=-1))
    x = np.linspace(dx, 1 - dx, n)
    u = np.where((x > 0.3) & (x < 0.6), 1.0, 0.0)
    total = [u.sum() * dx]
    for _ in range(steps):
        u = np.linalg.solve(A, u)
        total.append(u.sum() * dx)
    exact_decay = np.exp(-np.pi**2 * alpha * dt * steps)
    return {"u": u, "total": np.array(total)[::8], "max": float(u.max()), "exact_decay": float(exact_decay),
            "monotone": bool(np.all(np.diff(total) <= 1e-6))}


def lotka_volterra(np, steps=150, h=0.1):
    a, b, c, d = 1.1, 0.4, 0.4, 0.1

    def f(z):
        x, y = z
        return np.array([a * x - b * x * y, d * x * y - c * y])

    z = np.array([10.0, 5.0])
    out = np.empty((steps + 1, 2))
    out[0] = z
    for i in range(steps):
        k1 = f(z)
        k2 = f(z + h / 2 * k1)
        k3 = f(z + h / 2 * k2)
        k4 = f(z + h * k3)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out[i + 1] = z
    x, y = out.T
    V = d * x - c * np.log(x) + b * y - a * np.log(y)
    peaks = np.flatnonzero((x[1:-1] > x[:-2]) & (x[1:-1] > x[2:])) + 1
    return {"out": out[::15], "invariant_drift": float(np.ptp(V)), "peaks": peaks,
            "period": float(np.diff(peaks).mean() * h) if len(peaks) > 1 else 0.0}


def resonance(np, w0=2.0, zeta=0.1):
    w = np.linspace(0.1, 4, 400)
    H = 1 / (w0**2 - w**2 + 2j * zeta * w0 * w)
    amp = np.abs(H)
    phase = np.unwrap(np.angle(H))
    i = np.argmax(amp)
    half = amp >= amp[i] / np.sqrt(2)
    band = w[half]
    Q = w[i] / (band[-1] - band[0])
    return {"w_peak": float(w[i]), "amp_peak": float(amp[i]), "phase_at_w0": float(np.interp(w0, w, phase)),
            "Q": float(Q), "amp": amp[::40]}


def test_sir_model_forward_euler():
    check(sir_model)


def test_wave_equation_leapfrog_slices():
    check(wave_leapfrog, rtol=1e-3, atol=1e-4)


def test_spring_chain_normal_modes_eigh():
    check(spring_chain_modes, np.array([1.0, 2.0, 1.0, 3.0, 1.5, 1.0]), rtol=1e-3, atol=1e-4)


def test_projectiles_quadratic_drag_batch():
    check(projectiles, np.array([15.0, 30.0, 40.0, 45.0, 60.0, 75.0]), rtol=1e-3, atol=1e-3)


def test_kepler_orbit_velocity_verlet():
    check(kepler_verlet, rtol=1e-3, atol=1e-4)


def test_implicit_heat_backward_euler_solve():
    check(implicit_heat, rtol=1e-3, atol=1e-4)


def test_lotka_volterra_rk4_state_array():
    check(lotka_volterra, rtol=1e-3, atol=1e-3)


def test_damped_oscillator_resonance_curve():
    check(resonance, rtol=1e-3, atol=1e-4)
