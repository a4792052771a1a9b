"""N-body particles in plain NumPy: pairwise gravity by broadcasting with `fill_diagonal(inf)`, leapfrog and velocity
Verlet steps with energy and angular-momentum checks (`cross`, `einsum`), the centre-of-mass frame, softened forces
over `triu_indices` pairs with `np.add.at`/`np.subtract.at`, a cell list by `floor_divide`/`ravel_multi_index`/
`argsort`/`bincount`, Lennard-Jones with a cutoff and periodic minimum images by `np.round`, close encounters by
`argpartition`, and a radial distribution function by `histogram` (tests/porting)."""

import numpy as np
from harness import check


def accelerations(np, pos, mass, G=1.0, eps=0.0):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = np.sum(d * d, axis=-1) + eps**2
    np.fill_diagonal(r2, np.inf)
    inv3 = r2 ** -1.5
    return G * np.einsum("ij,ijk,j->ik", inv3, d, mass)


def energy(np, pos, vel, mass, G=1.0, eps=0.0):
    ke = 0.5 * np.sum(mass * np.sum(vel**2, axis=1))
    i, j = np.triu_indices(len(mass), k=1)
    r = np.sqrt(np.sum((pos[i] - pos[j]) ** 2, axis=1) + eps**2)
    pe = -G * np.sum(mass[i] * mass[j] / r)
    return ke, pe


def leapfrog(np, pos, vel, mass, dt, steps):
    pos, vel, mass = np.array(pos), np.array(vel), np.asarray(mass)
    com_v = (mass[:, None] * vel).sum(axis=0) / mass.sum()
    vel -= com_v
    ke0, pe0 = energy(np, pos, vel, mass, eps=0.05)
    L0 = np.sum(mass[:, None] * np.cross(pos, vel), axis=0)
    a = accelerations(np, pos, mass, eps=0.05)
    traj = [pos.copy()]
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accelerations(np, pos, mass, eps=0.05)
        vel += 0.5 * dt * a
        traj.append(pos.copy())
    ke, pe = energy(np, pos, vel, mass, eps=0.05)
    L = np.sum(mass[:, None] * np.cross(pos, vel), axis=0)
    return {"pos": pos, "vel": vel, "dE": abs((ke + pe - ke0 - pe0) / (ke0 + pe0)) < 1e-2,
            "dL": np.allclose(L, L0, atol=1e-3), "traj": np.stack(traj)[:, 0, :],
            "com": np.average(pos, axis=0, weights=mass)}


def pair_forces(np, pos, q):
    pos, q = np.asarray(pos), np.asarray(q)
    n = len(q)
    i, j = np.triu_indices(n, 1)
    d = pos[j] - pos[i]
    r = np.linalg.norm(d, axis=1)
    fmag = q[i] * q[j] / r**2
    fvec = fmag[:, None] * d / r[:, None]
    F = np.zeros_like(pos)
    np.subtract.at(F, i, fvec)
    np.add.at(F, j, fvec)
    return {"F": F, "net": F.sum(axis=0), "r_min": r.min(), "closest": (i[np.argmin(r)], j[np.argmin(r)])}


def cell_list(np, pos, box, rc):
    pos = np.asarray(pos)
    ncell = int(box // rc)
    cell = np.floor_divide(pos, box / ncell).astype(np.int64)
    cell = np.minimum(cell, ncell - 1)
    flat = np.ravel_multi_index(cell.T, (ncell, ncell))
    order = np.argsort(flat, kind="stable")
    counts = np.bincount(flat, minlength=ncell * ncell)
    start = np.concatenate(([0], np.cumsum(counts)[:-1]))
    occupied = np.unravel_index(np.flatnonzero(counts), (ncell, ncell))
    return {"cell": cell, "flat": flat, "order": order, "counts": counts.reshape(ncell, ncell),
            "start": start, "occupied": np.stack(occupied, axis=1), "max": counts.max()}


def lennard_jones(np, pos, box, rc):
    pos = np.asarray(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r2 = (d**2).sum(-1)
    mask = (r2 < rc**2) & ~np.eye(len(pos), dtype=bool)
    inv6 = np.zeros_like(r2)
    inv6[mask] = 1.0 / r2[mask] ** 3
    e = 4 * (inv6**2 - inv6)
    shift = 4 * (rc**-12 - rc**-6)
    e = np.where(mask, e - shift, 0.0)
    coef = np.where(mask, 24 * (2 * inv6**2 - inv6) / np.where(mask, r2, 1.0), 0.0)
    F = (coef[..., None] * d).sum(axis=1)
    virial = np.sum(coef * r2) / 2
    return {"E": e.sum() / 2, "F": F, "neighbours": mask.sum(axis=1), "virial": virial,
            "p": (len(pos) * 1.0 + virial / 2) / box**2}


def encounters(np, pos, k):
    pos = np.asarray(pos)
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
    d[np.diag_indices_from(d)] = np.inf
    near = np.argpartition(d, k, axis=1)[:, :k]
    nd = np.take_along_axis(d, near, axis=1)
    order = np.argsort(nd, axis=1)
    near = np.take_along_axis(near, order, axis=1)
    mutual = near[near[:, 0], 0] == np.arange(len(pos))
    return {"near": near, "nd": np.sort(nd, axis=1), "mutual": mutual, "nn_mean": nd.min(axis=1).mean()}


def rdf(np, pos, box, nbins):
    pos = np.asarray(pos)
    n = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d = d - box * np.rint(d / box)
    r = np.sqrt((d**2).sum(axis=-1))[np.triu_indices(n, 1)]
    hist, edges = np.histogram(r, bins=nbins, range=(0.0, box / 2))
    centres = 0.5 * (edges[1:] + edges[:-1])
    shell = np.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
    density = n / box**2
    g = hist / (shell * density * n / 2)
    return {"hist": hist, "g": g, "centres": centres, "peak": centres[np.argmax(g)]}


def kepler_orbit(np, e, a, n):
    M = np.linspace(0, 2 * np.pi, n, endpoint=False)
    E = M.copy()
    for _ in range(30):
        E = E - (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
    x = a * (np.cos(E) - e)
    y = a * np.sqrt(1 - e**2) * np.sin(E)
    r = np.hypot(x, y)
    area = 0.5 * np.abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return {"E": E, "xy": np.column_stack((x, y)), "peri": r.min(), "apo": r.max(), "area": area}


def test_leapfrog():
    rng = np.random.default_rng(2531)
    pos = rng.uniform(-1, 1, (6, 3))
    vel = rng.normal(0, 0.2, (6, 3))
    check(leapfrog, pos, vel, rng.uniform(0.5, 2.0, 6), 0.01, 20, rtol=2e-3, atol=1e-4)


def test_pair_forces():
    rng = np.random.default_rng(2532)
    check(pair_forces, rng.uniform(0, 5, (8, 2)), rng.choice([-1.0, 1.0, 2.0], 8), rtol=1e-3, atol=1e-4)


def test_cell_list():
    rng = np.random.default_rng(2533)
    pos = rng.uniform(0, 10, (40, 2))
    pos[0] = [10.0 - 1e-12, 0.0]
    check(cell_list, pos, 10.0, 2.5)


def test_lennard_jones():
    g = np.stack(np.meshgrid(np.arange(4), np.arange(4)), -1).reshape(-1, 2) * 1.2 + 0.3
    rng = np.random.default_rng(2534)
    check(lennard_jones, g + rng.normal(0, 0.05, g.shape), 4.8, 2.5, rtol=1e-3, atol=1e-3)


def test_encounters():
    rng = np.random.default_rng(2535)
    check(encounters, rng.uniform(0, 1, (15, 3)), 3, rtol=1e-4, atol=1e-6)


def test_rdf():
    rng = np.random.default_rng(2536)
    check(rdf, rng.uniform(0, 6, (30, 2)), 6.0, 12, rtol=1e-4, atol=1e-5)


def test_kepler_orbit():
    check(kepler_orbit, 0.3, 2.0, 64, rtol=1e-4, atol=1e-5)
