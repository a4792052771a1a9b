"""Mass-spring systems and rigid bodies in plain NumPy: a spring network whose forces are scattered onto particles
by `np.add.at`/`np.subtract.at` over an edge list, a pinned cloth by Verlet integration with constraint passes and
boolean pin masks, a chain of oscillators whose normal modes come from `eigh` of the stiffness matrix, the
inertia tensor of a point cloud by `einsum` and its principal axes, torque-free rotation with quaternions updated by
the exponential map (`np.cross`, `np.linalg.norm(..., axis=-1, keepdims=True)`), bouncing balls with
restitution by `np.where` on boolean masks, and a damped driven oscillator's resonance curve by broadcasting
(tests/porting)."""

import numpy as np
from harness import check


def spring_network(np, pos, edges, rest, k, damping, dt, steps):
    x = np.array(pos, dtype=float)
    v = np.zeros_like(x)
    e = np.asarray(edges)
    i, j = e[:, 0], e[:, 1]
    energy = []
    for _ in range(steps):
        d = x[j] - x[i]
        L = np.linalg.norm(d, axis=1, keepdims=True)
        f = k * (L - rest[:, None]) * d / L
        F = np.zeros_like(x)
        np.add.at(F, i, f)
        np.subtract.at(F, j, f)
        F[:, 1] -= 9.81 * 0.01
        v = (1 - damping) * v + dt * F
        v[0] = 0  # node 0 is anchored
        x += dt * v
        energy.append(0.5 * np.sum(v**2) + 0.5 * k * np.sum((L[:, 0] - rest) ** 2))
    strain = (np.linalg.norm(x[j] - x[i], axis=1) - rest) / rest
    return {"x": x, "energy": np.array(energy)[::10], "strain": strain, "most": int(np.argmax(np.abs(strain)))}


def verlet_cloth(np, nx, ny, spacing, dt, steps, iters):
    gy, gx = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    p = np.stack([gx.ravel() * spacing, -gy.ravel() * spacing], axis=1).astype(np.float32)
    prev = p.copy()
    pinned = np.zeros(len(p), dtype=bool)
    pinned[[0, nx - 1]] = True
    idx = np.arange(nx * ny).reshape(ny, nx)
    links = np.concatenate([np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], 1),
                            np.stack([idx[:-1, :].ravel(), idx[1:, :].ravel()], 1)])
    a, b = links[:, 0], links[:, 1]
    anchor = p[pinned].copy()
    for _ in range(steps):
        nxt = 2 * p - prev + np.array([0.0, -9.81], dtype=np.float32) * dt**2
        prev, p = p, nxt
        for _ in range(iters):
            d = p[b] - p[a]
            dist = np.sqrt((d**2).sum(axis=1))
            corr = (0.5 * (dist - spacing) / dist)[:, None] * d
            np.add.at(p, a, corr * 0.5)
            np.add.at(p, b, -corr * 0.5)
            p[pinned] = anchor
    sag = p[:, 1].min()
    # the row of the lowest point: the cloth hangs symmetrically, so which of two mirror points is lowest is a
    # matter of rounding (a GPU's add.at sums in another order than NumPy's loop)
    return {"p": p, "sag": sag, "dtype": p.dtype.name, "stretch": (dist / spacing).max(),
            "lowest_row": int(np.argmin(p[:, 1])) // nx}


def normal_modes(np, masses, springs):
    m = np.asarray(masses, dtype=float)
    ks = np.asarray(springs, dtype=float)  # n + 1 springs, walls at both ends
    K = np.diag(ks[:-1] + ks[1:]) - np.diag(ks[1:-1], 1) - np.diag(ks[1:-1], -1)
    Minv_sqrt = np.diag(1 / np.sqrt(m))
    w2, V = np.linalg.eigh(Minv_sqrt @ K @ Minv_sqrt)
    modes = Minv_sqrt @ V
    modes = modes / modes[np.argmax(np.abs(modes), axis=0), np.arange(len(m))]
    nodes = np.count_nonzero(np.diff(np.sign(modes), axis=0), axis=0)
    return {"freq": np.sqrt(w2) / (2 * np.pi), "modes": modes, "nodes": nodes,
            "orth": np.allclose(modes.T @ np.diag(m) @ modes, np.diag(np.diag(modes.T @ np.diag(m) @ modes)),
                                atol=1e-6)}


def inertia_tensor(np, pts, mass):
    r = np.asarray(pts, dtype=float)
    mass = np.asarray(mass, dtype=float)
    com = np.average(r, axis=0, weights=mass)
    r = r - com
    r2 = np.einsum("i,ij,ij->", mass, r, r)
    I = r2 * np.eye(3) - np.einsum("i,ij,ik->jk", mass, r, r)
    I_loop = sum(mi * (ri @ ri * np.eye(3) - np.outer(ri, ri)) for mi, ri in zip(mass, r, strict=True))
    w, axes = np.linalg.eigh(I)
    aligned = r @ axes
    return {"com": com, "I": I, "same": np.allclose(I, I_loop), "principal": w,
            "extent": np.ptp(aligned, axis=0), "sym": bool(np.allclose(I, I.T))}


def quat_mul(np, q, p):
    w1, v1 = q[..., :1], q[..., 1:]
    w2, v2 = p[..., :1], p[..., 1:]
    return np.concatenate([w1 * w2 - np.sum(v1 * v2, axis=-1, keepdims=True),
                           w1 * v2 + w2 * v1 + np.cross(v1, v2)], axis=-1)


def torque_free(np, I_diag, omega0, dt, steps):
    I = np.asarray(I_diag, dtype=float)
    w = np.asarray(omega0, dtype=float)
    q = np.array([1.0, 0, 0, 0])
    L0 = I * w
    ens = []
    for _ in range(steps):
        dw = -np.cross(w, I * w) / I
        w = w + dt * dw
        theta = np.linalg.norm(w) * dt
        axis = w / np.linalg.norm(w)
        dq = np.concatenate([[np.cos(theta / 2)], np.sin(theta / 2) * axis])
        q = quat_mul(np, q, dq)
        q /= np.linalg.norm(q)
        ens.append(0.5 * np.sum(I * w**2))
    return {"w": w, "q": q, "L_drift": np.linalg.norm(I * w) / np.linalg.norm(L0) - 1, "energy": np.array(ens)[::20],
            "unit": np.isclose(np.linalg.norm(q), 1.0)}


def bouncing_balls(np, y0, vy0, radius, e, dt, steps):
    y, vy = np.array(y0, dtype=float), np.array(vy0, dtype=float)
    bounces = np.zeros(len(y), dtype=np.int64)
    apex = y.copy()
    for _ in range(steps):
        vy -= 9.81 * dt
        y += vy * dt
        hit = (y < radius) & (vy < 0)
        y = np.where(hit, radius, y)
        vy[hit] *= -e
        bounces += hit
        apex = np.maximum(apex, np.where(vy > 0, y, -np.inf))
    return {"y": y, "vy": vy, "bounces": bounces, "apex": apex, "resting": np.flatnonzero(np.abs(vy) < 0.05)}


def resonance(np, omegas, w0, zetas, F0):
    w = np.asarray(omegas)[:, None]
    z = np.asarray(zetas)[None, :]
    amp = F0 / np.sqrt((w0**2 - w**2) ** 2 + (2 * z * w0 * w) ** 2)
    phase = np.arctan2(2 * z * w0 * w, w0**2 - w**2)
    peak = np.argmax(amp, axis=0)
    half = amp >= amp.max(axis=0) / np.sqrt(2)
    first = np.argmax(half, axis=0)
    last = len(omegas) - 1 - np.argmax(half[::-1], axis=0)
    Q = np.asarray(omegas)[peak] / (np.asarray(omegas)[last] - np.asarray(omegas)[first])
    return {"amp_peak": amp.max(axis=0), "w_peak": np.asarray(omegas)[peak], "Q": Q,
            "phase_at_w0": phase[np.argmin(np.abs(np.asarray(omegas) - w0))], "deg": np.degrees(phase[::20])}


def test_spring_network():
    pos = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [1.0, -1.0], [2.0, -1.0], [0.5, -0.5]])
    edges = np.array([[0, 1], [1, 2], [1, 3], [2, 4], [3, 4], [0, 5], [5, 3], [1, 4]])
    rest = np.linalg.norm(pos[edges[:, 1]] - pos[edges[:, 0]], axis=1)
    check(spring_network, pos, edges, rest, 20.0, 0.02, 0.02, 150, rtol=1e-3, atol=1e-5)


def test_verlet_cloth():
    check(verlet_cloth, 6, 5, 0.2, 0.02, 30, 4, rtol=1e-3, atol=1e-4)


def test_normal_modes():
    check(normal_modes, [1.0, 2.0, 1.5, 1.0, 3.0], [10.0, 5.0, 8.0, 12.0, 6.0, 9.0], rtol=1e-3, atol=1e-5)


def test_inertia_tensor():
    rng = np.random.default_rng(2995)
    pts = rng.normal(size=(40, 3)) * [3.0, 1.0, 0.5]
    check(inertia_tensor, pts, rng.uniform(0.5, 2.0, 40), rtol=1e-3, atol=1e-4)


def test_torque_free():
    check(torque_free, [1.0, 2.0, 3.0], [0.1, 2.0, 0.05], 0.005, 200, rtol=2e-3, atol=1e-4)


def test_bouncing_balls():
    check(bouncing_balls, [1.0, 2.0, 0.5, 3.0], [0.0, 1.0, -2.0, 0.0], 0.1, 0.8, 0.005, 400, rtol=1e-3, atol=1e-4)


def test_resonance():
    check(resonance, np.linspace(0.1, 3.0, 200), 1.0, [0.05, 0.1, 0.3], 1.0)
