"""Materials science as computational-materials course notebooks write it: crystal lattices built with
`np.meshgrid` and a basis added by broadcasting (fcc, bcc, diamond; `np.unique(axis=0)` after rounding wraps),
minimum-image distances in a periodic box (`d -= L * np.round(d / L)`, `np.triu_indices`), a radial distribution
function from `np.histogram` of pair distances normalised by shell volumes, coordination numbers by
`np.bincount` of neighbour pairs, Miller-index plane spacings and Bragg angles with `np.linalg.inv` of the
lattice matrix and `np.arcsin` under `np.errstate`, a Lennard-Jones energy and forces with `np.add.at` (and
`np.fill_diagonal` of an inf), a vacancy-diffusion random walk on host-drawn steps (mean squared displacement
by `np.cumsum`), and X-ray peak positions matched by `np.isclose` and `np.searchsorted` (tests/porting)."""

import numpy as np
from harness import check


def crystal_lattice(np, n, a, kind):
    i, j, k = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    cells = np.stack([i.ravel(), j.ravel(), k.ravel()], axis=1).astype(float)
    bases = {"sc": [[0, 0, 0]], "bcc": [[0, 0, 0], [0.5, 0.5, 0.5]],
             "fcc": [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]}
    basis = np.array(bases[kind])
    pos = (cells[:, None, :] + basis[None, :, :]).reshape(-1, 3) * a
    wrapped = np.round(np.mod(pos + 0.25 * a, n * a) / a, 3)
    unique_sites = np.unique(wrapped, axis=0)
    density = len(pos) / (n * a) ** 3
    com = pos.mean(axis=0)
    return {"pos": pos[:12], "n_atoms": len(pos), "unique": len(unique_sites), "density": density, "com": com,
            "extent": np.ptp(pos, axis=0)}


def minimum_image(np, pos, L, rc):
    pos = np.asarray(pos)  # loaded on the host: `d -= ...` below writes in place
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    r = np.sqrt((d ** 2).sum(axis=-1))
    iu = np.triu_indices(len(pos), k=1)
    pairs = r[iu]
    close = pairs < rc
    neighbours = np.zeros(len(pos), dtype=np.int64)
    np.add.at(neighbours, iu[0][close], 1)
    np.add.at(neighbours, iu[1][close], 1)
    nearest = np.where(np.eye(len(pos), dtype=bool), np.inf, r).min(axis=1)
    return {"pairs": np.sort(pairs)[:20], "neighbours": neighbours, "nearest": nearest,
            "max_component": np.abs(d).max() <= L / 2 + 1e-9, "n_close": int(close.sum())}


def radial_distribution(np, pos, L, nbins, rmax):
    pos = np.asarray(pos)  # loaded on the host: `d -= ...` below writes in place
    n = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d = d - L * np.rint(d / L)
    r = np.linalg.norm(d, axis=-1)[np.triu_indices(n, 1)]
    hist, edges = np.histogram(r, bins=nbins, range=(0.0, rmax))
    shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    rho = n / L ** 3
    g = 2.0 * hist / (n * rho * shell)
    centres = 0.5 * (edges[1:] + edges[:-1])
    first_peak = centres[np.argmax(g)]
    coord = 4 * np.pi * rho * np.cumsum(g * centres ** 2 * np.diff(edges))
    return {"g": g, "hist": hist, "peak": first_peak, "coord": coord}


def coordination(np, pos, L, rc):
    pos = np.asarray(pos)  # loaded on the host: `d -= ...` below writes in place
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    r2 = np.einsum("ijk,ijk->ij", d, d)
    np.fill_diagonal(r2, np.inf)
    i, j = np.nonzero(r2 < rc ** 2)
    cn = np.bincount(i, minlength=len(pos))
    hist = np.bincount(cn)
    values, counts = np.unique(cn, return_counts=True)
    return {"cn": cn, "hist": hist, "values": values, "counts": counts, "mean": cn.mean()}


def bragg_angles(np, lattice, hkl, wavelength):
    recip = np.linalg.inv(lattice).T
    g = hkl @ recip
    d = 1.0 / np.linalg.norm(g, axis=1)
    with np.errstate(invalid="ignore"):
        theta = np.degrees(np.arcsin(wavelength / (2 * d)))
    observable = ~np.isnan(theta)
    order = np.argsort(d)[::-1]
    vol = abs(np.linalg.det(lattice))
    return {"d": d, "two_theta": np.where(observable, 2 * theta, -1.0), "observable": observable,
            "order": order, "volume": vol, "recip": recip}


def lennard_jones(np, pos, L, eps, sigma):
    pos = np.asarray(pos)  # loaded on the host: `d -= ...` below writes in place
    n = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    inv6 = (sigma ** 2 / r2) ** 3
    energy = 2 * eps * np.sum(inv6 ** 2 - inv6)
    fmag = 24 * eps * (2 * inv6 ** 2 - inv6) / r2
    forces = (fmag[..., None] * d).sum(axis=1)
    iu = np.triu_indices(n, 1)
    f_pairs = fmag[iu][:, None] * d[iu]
    f2 = np.zeros((n, 3))
    np.add.at(f2, iu[0], f_pairs)
    np.add.at(f2, iu[1], -f_pairs)
    virial = np.sum(fmag[iu] * r2[iu])
    return {"energy": energy, "forces": forces, "scatter_same": bool(np.allclose(forces, f2, atol=1e-6)),
            "net": forces.sum(axis=0), "virial": virial}


def vacancy_walk(np, steps, L):
    moves = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
    disp = moves[steps]  # (walkers, t, 3)
    path = np.cumsum(disp, axis=1)
    msd = (path ** 2).sum(axis=-1).mean(axis=0)
    t = np.arange(1, steps.shape[1] + 1)
    D = np.polyfit(t, msd, 1)[0] / 6
    wrapped = np.mod(path[:, -1], L)
    visits = np.zeros((L, L, L), dtype=np.int64)
    np.add.at(visits, tuple(np.mod(path.reshape(-1, 3), L).T), 1)
    return {"msd": msd[::10], "D": D, "final": wrapped, "visits_max": visits.max(), "visits_sum": visits.sum(),
            "returns": int((np.abs(path).sum(axis=-1) == 0).sum())}


def xrd_match(np, observed, reference, tol):
    ref = np.sort(reference)
    idx = np.clip(np.searchsorted(ref, observed), 1, len(ref) - 1)
    left, right = ref[idx - 1], ref[idx]
    nearest = np.where(np.abs(observed - left) < np.abs(observed - right), left, right)
    matched = np.isclose(observed, nearest, atol=tol)
    all_close = np.isclose(observed[:, None], ref[None, :], atol=tol)
    return {"nearest": nearest, "matched": matched, "n": int(matched.sum()), "pairs": np.argwhere(all_close),
            "unmatched_ref": ref[~all_close.any(axis=0)], "ok": bool(np.allclose(nearest[matched],
                                                                                  observed[matched], atol=tol))}


def _fcc_jittered(rng, n, a, s):
    i, j, k = np.meshgrid(*[np.arange(n)] * 3, indexing="ij")
    cells = np.stack([i, j, k], -1).reshape(-1, 3)
    basis = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    pos = (cells[:, None] + basis).reshape(-1, 3) * a
    return pos + rng.normal(0, s, pos.shape)


def test_crystal_lattices():
    for kind in ("sc", "bcc", "fcc"):
        check(crystal_lattice, 3, 3.6, kind)


def test_minimum_image_distances():
    rng = np.random.default_rng(1452)
    check(minimum_image, rng.uniform(0, 10, (40, 3)), 10.0, 2.5, rtol=1e-4, atol=1e-4)


def test_radial_distribution_function():
    check(radial_distribution, _fcc_jittered(np.random.default_rng(1453), 3, 1.6, 0.05), 4.8, 30, 2.4,
          rtol=1e-3, atol=1e-4)


def test_coordination_numbers():
    check(coordination, _fcc_jittered(np.random.default_rng(1454), 3, 1.6, 0.03), 4.8, 1.3)


def test_bragg_angles_miller_indices():
    lattice = np.array([[4.05, 0, 0], [0, 4.05, 0], [0, 0, 4.05]]) + np.array([[0, 0.2, 0], [0, 0, 0], [0.1, 0, 0]])
    hkl = np.array([[1, 1, 1], [2, 0, 0], [2, 2, 0], [3, 1, 1], [2, 2, 2], [4, 0, 0], [5, 5, 5], [1, 0, 0]])
    check(bragg_angles, lattice, hkl, 1.5406, rtol=1e-4, atol=1e-5)


def test_lennard_jones_forces():
    check(lennard_jones, _fcc_jittered(np.random.default_rng(1456), 2, 1.6, 0.04), 3.2, 1.0, 1.0,
          rtol=1e-3, atol=1e-3)


def test_vacancy_random_walk():
    check(vacancy_walk, np.random.default_rng(1457).integers(0, 6, (30, 100)), 6, rtol=1e-4)


def test_xrd_peak_matching():
    ref = np.array([38.2, 44.4, 64.6, 77.5, 81.7, 98.1])
    obs = np.array([38.25, 44.31, 52.0, 64.62, 81.9, 98.09])
    check(xrd_match, obs, ref, 0.1)
