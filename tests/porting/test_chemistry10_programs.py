"""Chemistry and molecular geometry: bond lengths/angles/dihedrals of a small molecule from xyz coordinates,
centre of mass and the inertia tensor's principal moments (np.linalg.eigh), Kabsch superposition with RMSD by SVD,
a Lennard-Jones energy and forces over np.triu_indices pairs, radial distribution function by np.histogram of pair
distances, molar mass from an element-count table by fancy indexing, and balancing a reaction by the null space of its
composition matrix (tests/porting)."""

import numpy as np
from harness import check


def internal_coordinates(np, xyz, bonds, angles, dihedrals):
    bonds, angles, dihedrals = np.asarray(bonds), np.asarray(angles), np.asarray(dihedrals)
    lengths = np.linalg.norm(xyz[bonds[:, 0]] - xyz[bonds[:, 1]], axis=1)
    v1 = xyz[angles[:, 0]] - xyz[angles[:, 1]]
    v2 = xyz[angles[:, 2]] - xyz[angles[:, 1]]
    cosang = np.einsum("ij,ij->i", v1, v2) / (np.linalg.norm(v1, axis=1) * np.linalg.norm(v2, axis=1))
    theta = np.degrees(np.arccos(np.clip(cosang, -1.0, 1.0)))
    p0, p1, p2, p3 = (xyz[dihedrals[:, k]] for k in range(4))
    b0, b1, b2 = p0 - p1, p2 - p1, p3 - p2
    b1n = b1 / np.linalg.norm(b1, axis=1)[:, None]
    v = b0 - np.sum(b0 * b1n, axis=1)[:, None] * b1n
    w = b2 - np.sum(b2 * b1n, axis=1)[:, None] * b1n
    x = np.sum(v * w, axis=1)
    y = np.sum(np.cross(b1n, v) * w, axis=1)
    phi = np.degrees(np.arctan2(y, x))
    table = [f"{i}-{j}: {d:.3f} A" for (i, j), d in zip(bonds.tolist(), lengths.tolist(), strict=False)]
    return {"lengths": lengths, "theta": theta, "phi": phi, "table": table}


def inertia(np, xyz, masses):
    m = np.asarray(masses)
    com = (m[:, None] * xyz).sum(axis=0) / m.sum()
    r = xyz - com
    I = np.zeros((3, 3))
    for mi, ri in zip(m, r, strict=False):
        I += mi * (np.dot(ri, ri) * np.eye(3) - np.outer(ri, ri))
    I_vec = np.einsum("i,ij,ik->jk", m, r, r)
    I2 = np.trace(I_vec) * np.eye(3) - I_vec
    moments, axes = np.linalg.eigh(I)
    shape = "linear" if moments[0] < 1e-3 * moments[-1] else ("symmetric top" if np.isclose(moments[1], moments[2],
                                                                                            rtol=1e-3) else "asym")
    return {"com": com, "I": I, "same": bool(np.allclose(I, I2, atol=1e-4)), "moments": moments,
            "abs_axis0": np.abs(axes[:, 0]), "shape": shape}


def kabsch(np, P, Q):
    Pc = P - P.mean(axis=0)
    Qc = Q - Q.mean(axis=0)
    H = Pc.T @ Qc
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0, 1.0, d])
    R = Vt.T @ D @ U.T
    aligned = Pc @ R.T
    rmsd = np.sqrt(np.mean(np.sum((aligned - Qc) ** 2, axis=1)))
    before = np.sqrt(((Pc - Qc) ** 2).sum(-1).mean())
    return {"R": R, "rmsd": rmsd, "before": before, "det": np.linalg.det(R), "S": S}


def lennard_jones(np, pos, eps, sigma):
    i, j = np.triu_indices(len(pos), k=1)
    d = pos[i] - pos[j]
    r = np.linalg.norm(d, axis=1)
    sr6 = (sigma / r) ** 6
    energy = np.sum(4 * eps * (sr6 ** 2 - sr6))
    fmag = 24 * eps * (2 * sr6 ** 2 - sr6) / r ** 2
    fij = fmag[:, None] * d
    F = np.zeros_like(pos)
    np.add.at(F, i, fij)
    np.subtract.at(F, j, fij)
    closest = np.unravel_index(np.argmin(r), r.shape)[0]
    return {"E": energy, "F": F, "net": F.sum(axis=0), "rmin": r.min(), "pair": (int(i[closest]), int(j[closest]))}


def radial_distribution(np, pos, box, nbins):
    # `d -= ...` below writes in place: with NumPy data and kdsl's np.round that would be a kdsl write into a NumPy
    # array (refused by design, docs/numpy-api.md: 'No writes into NumPy arrays by kdsl'), so the data goes first
    pos = np.asarray(pos)
    n = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.round(d / box)
    r = np.sqrt((d ** 2).sum(-1))[np.triu_indices(n, 1)]
    hist, edges = np.histogram(r, bins=nbins, range=(0, box / 2))
    shell = 4 / 3 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    rho = n / box ** 3
    g = hist / (shell * rho * n / 2)
    centers = 0.5 * (edges[1:] + edges[:-1])
    return {"hist": hist, "g": g, "centers": centers, "peak": float(centers[np.argmax(g)])}


def molar_masses(np, formulas):
    elements = ["H", "C", "N", "O", "S"]
    weights = np.array([1.008, 12.011, 14.007, 15.999, 32.06])
    counts = np.zeros((len(formulas), len(elements)), dtype=np.int64)
    for r, f in enumerate(formulas):
        for el, k in f.items():
            counts[r, elements.index(el)] = k
    M = counts @ weights
    frac = counts * weights / M[:, None]
    heavy = counts[:, 1:].sum(axis=1)
    carbon_pct = np.round(100 * frac[:, 1], 2)
    lines = [f"{m:8.3f} g/mol" for m in M]
    return {"M": M, "frac": frac, "heavy": heavy, "pct": carbon_pct, "lines": lines,
            "heaviest": int(np.argmax(M))}


def balance_reaction(np, composition):
    A = np.asarray(composition, dtype=float)
    U, S, Vt = np.linalg.svd(A)
    v = Vt[-1]
    v = v / v[np.argmax(np.abs(v) > 1e-8)]
    for k in range(1, 20):
        c = v * k
        if np.allclose(c, np.round(c), atol=1e-4):
            break
    coeffs = np.round(np.abs(c)).astype(int)
    check_zero = A @ (np.round(c))
    return {"coeffs": coeffs, "resid": np.abs(check_zero).max() < 1e-6, "rank": int(np.linalg.matrix_rank(A)),
            "sum": int(coeffs.sum())}


WATER_ETC = np.array([[0.0, 0.0, 0.0], [0.9572, 0.0, 0.0], [-0.2400, 0.9266, 0.0], [0.5, 1.5, 1.1],
                      [1.4, 1.9, 0.3]])


def test_bonds_angles_dihedrals():
    check(internal_coordinates, WATER_ETC, [[0, 1], [0, 2], [2, 3], [3, 4]], [[1, 0, 2], [0, 2, 3], [2, 3, 4]],
          [[1, 0, 2, 3], [0, 2, 3, 4]], rtol=1e-4, atol=1e-3)


def test_inertia_tensor_principal_moments():
    check(inertia, WATER_ETC, [15.999, 1.008, 12.011, 14.007, 1.008], rtol=1e-4, atol=1e-4)


def test_kabsch_rmsd():
    rng = np.random.default_rng(1401)
    P = rng.normal(size=(8, 3))
    t = 0.7
    R = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    check(kabsch, P, P @ R.T + 0.05 * rng.normal(size=(8, 3)) + 3.0, rtol=1e-3, atol=1e-4)


def test_lennard_jones_forces():
    rng = np.random.default_rng(1402)
    pos = np.stack(np.meshgrid(np.arange(3), np.arange(2), np.arange(2), indexing="ij"), -1).reshape(-1, 3) * 1.2
    check(lennard_jones, pos + 0.05 * rng.normal(size=pos.shape), 1.0, 1.0, rtol=1e-3, atol=1e-3)


def test_radial_distribution_function():
    rng = np.random.default_rng(1403)
    check(radial_distribution, rng.random((40, 3)) * 5.0, 5.0, 10, rtol=1e-4, atol=1e-4)


def test_molar_masses():
    check(molar_masses, [{"C": 6, "H": 12, "O": 6}, {"H": 2, "O": 1}, {"C": 2, "H": 6, "O": 1},
                         {"C": 3, "H": 7, "N": 1, "O": 2, "S": 1}, {"N": 2}], rtol=1e-5, atol=1e-5)


def test_balance_reaction_null_space():
    # C3H8 + O2 -> CO2 + H2O (rows C, H, O; products negative)
    check(balance_reaction, [[3, 0, -1, 0], [8, 0, 0, -2], [0, 2, -2, -1]])
