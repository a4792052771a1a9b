"""Physics simulations as lecture notebooks write them: gravitational N-body accelerations by broadcasting
(`r[:, None, :] - r[None, :, :]`, `np.fill_diagonal`, softening) and energy drift under leapfrog, the 1-D heat
equation by explicit slices updated in place and by `np.roll`, a 2-D heat plate with `np.pad(mode="edge")`
insulation, the wave equation by leapfrog with a CFL check, normal modes of a spring chain by `eigh`, a projectile
with quadratic drag stepped until it lands, the electric field of point charges on a `meshgrid` with `np.einsum`,
and a 1-D elastic collision sweep with `np.argsort` (tests/porting)."""

import numpy as np
from harness import check


def nbody(np, pos, vel, mass, dt, steps):
    pos, vel, mass = np.array(pos), np.array(vel), np.asarray(mass)
    G, eps = 1.0, 0.05

    def accel(r):
        d = r[None, :, :] - r[:, None, :]
        dist2 = (d ** 2).sum(axis=-1) + eps ** 2
        inv3 = dist2 ** -1.5
        np.fill_diagonal(inv3, 0.0)
        return G * np.einsum("ijk,ij,j->ik", d, inv3, mass)

    def energy(r, v):
        kin = 0.5 * np.sum(mass[:, None] * v ** 2)
        d = np.linalg.norm(r[:, None] - r[None], axis=-1)
        i, j = np.triu_indices(len(mass), 1)
        pot = -G * np.sum(mass[i] * mass[j] / np.sqrt(d[i, j] ** 2 + eps ** 2))
        return kin + pot

    e0 = energy(pos, vel)
    a = accel(pos)
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
    com = (mass[:, None] * pos).sum(axis=0) / mass.sum()
    p = (mass[:, None] * vel).sum(axis=0)
    return {"pos": pos, "vel": vel, "drift": abs((energy(pos, vel) - e0) / e0) < 1e-2, "com": com, "p": p}


def heat_1d(np, u0, alpha, dx, dt, steps):
    u = np.array(u0, dtype=float)
    r = alpha * dt / dx ** 2
    stable = r <= 0.5
    v = u.copy()
    for _ in range(steps):
        u[1:-1] += r * (u[2:] - 2 * u[1:-1] + u[:-2])  # the right side is evaluated before the write
        v = v + r * (np.roll(v, -1) - 2 * v + np.roll(v, 1))
        v[0] = v[-1] = 0.0
    return {"u": u, "v": v, "stable": stable, "same": np.allclose(u, v, atol=1e-5), "peak": int(np.argmax(u)),
            "heat": u.sum() * dx}


def heat_plate(np, T0, steps):
    T = np.asarray(T0).astype(np.float32)
    history = []
    for k in range(steps):
        P = np.pad(T, 1, mode="edge")  # insulated borders
        T = T + 0.2 * (P[:-2, 1:-1] + P[2:, 1:-1] + P[1:-1, :-2] + P[1:-1, 2:] - 4 * T)
        T[0, :3] = 100.0  # a heater on the top-left edge
        if k % 10 == 0:
            history.append(float(T.mean()))
    gy, gx = np.gradient(T)
    return {"T": T, "history": history, "hot": np.unravel_index(np.argmax(T[1:, :]), T[1:, :].shape),
            "flux": np.hypot(gx, gy).max(), "dtype": str(T.dtype)}


def wave_1d(np, n, c, steps):
    x = np.linspace(0, 1, n)
    dx = x[1] - x[0]
    dt = 0.9 * dx / c
    courant = (c * dt / dx) ** 2
    u_prev = np.exp(-200 * (x - 0.5) ** 2)
    u_prev[[0, -1]] = 0
    u = u_prev.copy()
    u[1:-1] = u_prev[1:-1] + 0.5 * courant * (u_prev[2:] - 2 * u_prev[1:-1] + u_prev[:-2])
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + courant * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    peaks = np.flatnonzero((u[1:-1] > u[:-2]) & (u[1:-1] > u[2:]) & (u[1:-1] > 0.2)) + 1
    return {"u": u, "cfl": np.sqrt(courant), "peaks": peaks, "energy": np.sum(u ** 2) * dx}


def spring_chain(np, masses, k):
    m = np.asarray(masses, dtype=float)
    n = len(m)
    K = 2 * k * np.eye(n) - k * np.eye(n, k=1) - k * np.eye(n, k=-1)
    Minv_sqrt = np.diag(1 / np.sqrt(m))
    w2, modes = np.linalg.eigh(Minv_sqrt @ K @ Minv_sqrt)
    omega = np.sqrt(w2)
    modes = Minv_sqrt @ modes
    modes /= np.sign(modes[0])  # the first mass moves positively in every mode
    nodes = (np.diff(np.sign(modes), axis=0) != 0).sum(axis=0)
    exact = 2 * np.sqrt(k / m[0]) * np.sin(np.arange(1, n + 1) * np.pi / (2 * (n + 1)))
    return {"omega": omega, "nodes": nodes, "exact": exact, "modes": modes}


def projectile_drag(np, v0, angle_deg, k, dt):
    theta = np.deg2rad(angle_deg)
    state = np.array([0.0, 0.0, v0 * np.cos(theta), v0 * np.sin(theta)])
    g = np.array([0.0, -9.81])
    path = [state[:2].copy()]
    while state[1] >= 0:
        v = state[2:]
        a = g - k * np.linalg.norm(v) * v
        state[2:] += a * dt
        state[:2] += state[2:] * dt
        path.append(state[:2].copy())
    path = np.array(path)
    top = path[:, 1].argmax()
    return {"steps": len(path), "range": path[-2, 0], "top": path[top], "path": path[::10]}


def point_charges(np, q, xy, n):
    xs = np.linspace(-2, 2, n)
    X, Y = np.meshgrid(xs, xs)
    grid = np.stack([X, Y], axis=-1)
    d = grid[:, :, None, :] - xy[None, None, :, :]
    r = np.linalg.norm(d, axis=-1)
    r = np.maximum(r, 0.1)
    E = np.einsum("c,ijcd,ijc->ijd", q, d, 1 / r ** 3)
    V = (q / r).sum(axis=-1)
    mag = np.hypot(E[..., 0], E[..., 1])
    return {"E": E[::3, ::3], "V": V, "zero_line": int((np.abs(V) < 0.05).sum()), "max": mag.max(),
            "where": np.unravel_index(mag.argmax(), mag.shape)}


def collisions_1d(np, x, v, m, t_end, dt):
    x, v, m = np.array(x), np.array(v), np.asarray(m)
    n_hits = 0
    for _ in range(int(round(t_end / dt))):
        x += v * dt
        order = np.argsort(x, kind="stable")
        x, v, m = x[order], v[order], m[order]
        hit = np.flatnonzero((np.diff(x) < 0.05) & (v[:-1] > v[1:]))
        for i in hit.tolist():
            m1, m2, u1, u2 = m[i], m[i + 1], v[i], v[i + 1]
            v[i] = ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2)
            v[i + 1] = ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2)
            n_hits += 1
        wall = (x < 0) | (x > 10)
        v[wall] *= -1
    return {"x": x, "v": v, "hits": n_hits, "momentum_abs": np.abs(m * v).sum(), "ke": 0.5 * (m * v ** 2).sum()}


def test_nbody_leapfrog():
    rng = np.random.default_rng(1331)
    check(nbody, rng.normal(size=(6, 2)), rng.normal(scale=0.3, size=(6, 2)), rng.uniform(0.5, 2, 6), 0.01, 40,
          rtol=2e-3, atol=2e-4)


def test_heat_equation_1d():
    x = np.linspace(0, 1, 41)
    check(heat_1d, np.where(np.abs(x - 0.3) < 0.1, 1.0, 0.0), 1.0, x[1] - x[0], 0.0002, 150, atol=1e-5)


def test_heat_plate_padded():
    check(heat_plate, np.zeros((12, 14)), 60, rtol=1e-3, atol=1e-3)


def test_wave_equation_leapfrog():
    check(wave_1d, 81, 1.0, 40, rtol=1e-3, atol=1e-4)


def test_spring_chain_modes():
    check(spring_chain, np.ones(6), 4.0, rtol=1e-3, atol=1e-4)


def test_projectile_with_drag():
    check(projectile_drag, 30.0, 40.0, 0.01, 0.02, rtol=1e-3, atol=1e-3)


def test_point_charges_field():
    check(point_charges, np.array([1.0, -1.0, 0.5]), np.array([[-0.5, 0.0], [0.5, 0.0], [0.0, 1.0]]), 25,
          rtol=1e-3, atol=1e-3)


def test_elastic_collisions_sorted():
    rng = np.random.default_rng(1338)
    check(collisions_1d, np.sort(rng.uniform(1, 9, 5)), rng.normal(0, 1, 5), rng.choice([1.0, 2.0, 3.0], 5), 2.0,
          0.05, rtol=1e-3, atol=1e-3)
