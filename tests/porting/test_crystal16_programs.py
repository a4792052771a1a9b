"""Crystallography and materials as solid-state course notebooks write them: lattice vectors from cell parameters
with the metric tensor, `det` volume and reciprocal lattice by `inv(A).T`, d-spacings by `einsum`; Miller
indices by `np.meshgrid` with Bragg angles under `np.errstate`, multiplicities by `np.unique(return_counts=True)`
and FCC/BCC extinction rules by masks; structure factors of NaCl and CsCl with complex exponentials
(`exp(2j*pi*hkl @ xyz.T)`); a radial distribution function by minimum-image distances, `triu_indices` and
`np.histogram` over shell volumes; supercells by broadcast offsets with duplicates removed by
`np.unique(axis=0)` and coordination numbers; a powder pattern by Gaussian broadening through `np.subtract.outer`
with local maxima; and a cubic stiffness tensor from Voigt notation (fancy indices, `einsum` of a 4th-rank
tensor, principal stresses by `eigh`) (tests/porting)."""

import numpy as np
from harness import check


def lattice(np, a, b, c, alpha, beta, gamma, hkl):
    al, be, ga = np.radians([alpha, beta, gamma])
    cx = c * np.cos(be)
    cy = c * (np.cos(al) - np.cos(be) * np.cos(ga)) / np.sin(ga)
    cz = np.sqrt(c ** 2 - cx ** 2 - cy ** 2)
    A = np.array([[a, 0, 0], [b * np.cos(ga), b * np.sin(ga), 0], [cx, cy, cz]])
    G = A @ A.T
    V = np.linalg.det(A)
    V2 = np.sqrt(np.linalg.det(G))
    R = 2 * np.pi * np.linalg.inv(A).T
    ortho = R @ A.T / (2 * np.pi)
    Gs = np.linalg.inv(G)
    d = 1 / np.sqrt(np.einsum("ij,jk,ik->i", hkl, Gs, hkl))
    lengths = np.linalg.norm(A, axis=1)
    cosang = np.array([A[1] @ A[2], A[0] @ A[2], A[0] @ A[1]]) / (lengths[[1, 0, 0]] * lengths[[2, 2, 1]])
    return {"A": A, "G": G, "V": V, "V2": V2, "recip": R, "ortho": np.allclose(ortho, np.eye(3), atol=1e-5),
            "d": d, "angles": np.degrees(np.arccos(cosang)), "lengths": lengths}


def miller_indices(np, a, wavelength, hmax):
    r = np.arange(-hmax, hmax + 1)
    h, k, l = np.meshgrid(r, r, r, indexing="ij")
    hkl = np.stack([h.ravel(), k.ravel(), l.ravel()], axis=1)
    hkl = hkl[np.any(hkl != 0, axis=1)]
    s = (hkl ** 2).sum(axis=1)
    d = a / np.sqrt(s)
    with np.errstate(invalid="ignore"):
        two_theta = 2 * np.degrees(np.arcsin(wavelength / (2 * d)))
    observable = ~np.isnan(two_theta)
    parity = hkl % 2
    fcc = np.all(parity == parity[:, :1], axis=1)
    bcc = hkl.sum(axis=1) % 2 == 0
    s_fcc, mult_fcc = np.unique(s[fcc & observable], return_counts=True)
    s_bcc, mult_bcc = np.unique(s[bcc & observable], return_counts=True)
    fam = np.sort(np.abs(hkl), axis=1)[:, ::-1]
    fams, inv = np.unique(fam, axis=0, return_inverse=True)
    order = np.lexsort((fams[:, 2], fams[:, 1], fams[:, 0]))
    return {"n": len(hkl), "s_fcc": s_fcc, "m_fcc": mult_fcc, "s_bcc": s_bcc, "m_bcc": mult_bcc,
            "tt_fcc": np.unique(np.round(two_theta[fcc & observable], 3))[:6], "observable": int(observable.sum()),
            "families": fams[order][:10], "fam_counts": np.bincount(inv.ravel())[order][:10]}


def structure_factors(np, hkl, xyz_a, xyz_b, fa, fb):
    phase_a = np.exp(2j * np.pi * hkl @ xyz_a.T)
    phase_b = np.exp(2j * np.pi * hkl @ xyz_b.T)
    F = fa * phase_a.sum(axis=1) + fb * phase_b.sum(axis=1)
    I = np.abs(F) ** 2
    absent = np.isclose(np.abs(F), 0, atol=1e-4)
    strong = np.argsort(-I, kind="stable")[:5]
    Fc = (fa - fb) * np.ones(len(hkl))
    friedel = fa * np.exp(-2j * np.pi * hkl @ xyz_a.T).sum(axis=1) \
        + fb * np.exp(-2j * np.pi * hkl @ xyz_b.T).sum(axis=1)
    return {"F_abs": np.abs(F), "I": I, "absent": absent, "strong": strong,
            "phase": np.round(np.angle(F[~absent]) / np.pi) % 2,
            "friedel": np.allclose(friedel, np.conj(F), atol=1e-3), "real": np.allclose(F.imag, 0, atol=1e-3),
            "Fc": Fc, "ratio": I.max() / I[~absent].min()}


def radial_distribution(np, pos, L, nbins, rmax):
    pos = np.asarray(pos)  # `d -= ...` below writes into d: a kdsl array (docs/numpy-api.md, no writes into NumPy's)
    n = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.round(d / L)
    r = np.sqrt((d ** 2).sum(axis=-1))
    i, j = np.triu_indices(n, k=1)
    pair = r[i, j]
    hist, edges = np.histogram(pair, bins=nbins, range=(0, rmax))
    rc = 0.5 * (edges[1:] + edges[:-1])
    shell = 4 / 3 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    rho = n / L ** 3
    g = 2 * hist / (n * rho * shell)
    peak = rc[np.argmax(g)]
    coord = 4 * np.pi * rho * np.cumsum(g * rc ** 2 * np.diff(edges))
    return {"hist": hist, "g": g, "peak": peak, "coord": coord[::5], "min_dist": pair.min(),
            "close": int((pair < 1.0).sum())}


def supercell(np, basis, A, reps, cutoff):
    n1, n2, n3 = reps
    offs = np.indices((n1, n2, n3)).reshape(3, -1).T
    frac = (offs[:, None, :] + basis[None, :, :]).reshape(-1, 3) / np.array(reps)
    frac = np.round(frac % 1.0, 6) % 1.0
    uniq, idx = np.unique(frac, axis=0, return_index=True)
    cart = uniq @ (A * np.array(reps)[:, None])
    box = A * np.array(reps)[:, None]
    d = uniq[:, None, :] - uniq[None, :, :]
    d -= np.round(d)
    dist = np.linalg.norm(d @ box, axis=-1)
    np.fill_diagonal(dist, np.inf)
    cn = (dist < cutoff).sum(axis=1)
    nearest = dist.min(axis=1)
    return {"n": len(uniq), "dups": len(frac) - len(uniq), "cn": np.bincount(cn), "nearest": nearest.min(),
            "first": idx[:8], "centroid": cart.mean(axis=0), "density": len(uniq) / abs(np.linalg.det(box))}


def powder_pattern(np, peaks_2theta, intensities, fwhm, grid):
    sigma = fwhm / (2 * np.sqrt(2 * np.log(2)))
    diff = np.subtract.outer(grid, peaks_2theta)
    y = (intensities * np.exp(-0.5 * (diff / sigma) ** 2)).sum(axis=1)
    y /= y.max() / 100
    is_max = np.r_[False, (y[1:-1] > y[:-2]) & (y[1:-1] >= y[2:]), False] & (y > 5)
    found = grid[is_max]
    wl = 1.5406
    d = wl / (2 * np.sin(np.radians(found / 2)))
    scherrer = 0.9 * wl / (np.radians(fwhm) * np.cos(np.radians(found / 2)))
    area = np.trapezoid(y, grid)
    return {"y": y[::25], "found": found, "d": d, "size": scherrer, "area": area,
            "n_peaks": int(is_max.sum()), "argmax": int(np.argmax(y))}


def cubic_stiffness(np, c11, c12, c44, stress):
    C = np.zeros((6, 6))
    C[:3, :3] = c12
    C[np.arange(3), np.arange(3)] = c11
    C[np.arange(3, 6), np.arange(3, 6)] = c44
    S = np.linalg.inv(C)
    voigt = np.array([[0, 5, 4], [5, 1, 3], [4, 3, 2]])
    C4 = C[voigt[:, :, None, None], voigt[None, None, :, :]]
    dirs = np.array([[1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=float)
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    w = np.where(np.arange(6) < 3, 1.0, 2.0)
    ij, kl = voigt[:, :, None, None], voigt[None, None, :, :]
    S4 = S[ij, kl] / np.outer(w, w)[ij, kl]
    inv_E = np.einsum("ni,nj,nk,nl,ijkl->n", dirs, dirs, dirs, dirs, S4)
    E = 1 / inv_E
    anis = 2 * c44 / (c11 - c12)
    K = (c11 + 2 * c12) / 3
    principal, axes = np.linalg.eigh(stress)
    von_mises = np.sqrt(0.5 * ((principal[0] - principal[1]) ** 2 + (principal[1] - principal[2]) ** 2
                               + (principal[2] - principal[0]) ** 2))
    return {"S": S, "C4_sym": np.allclose(C4, C4.transpose(2, 3, 0, 1)), "E": E, "A": anis, "K": K,
            "principal": principal, "vm": von_mises, "trace": np.trace(stress), "C1111": C4[0, 0, 0, 0]}


def test_lattice_metric_and_reciprocal():
    hkl = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1], [2, 0, 1], [1, -1, 2]])
    check(lattice, 5.2, 6.1, 7.4, 82.0, 95.5, 104.0, hkl, rtol=1e-4, atol=1e-5)


def test_miller_indices_by_meshgrid():
    check(miller_indices, 4.05, 1.5406, 3, rtol=1e-4, atol=1e-3)


def test_structure_factors_nacl():
    r = np.arange(0, 4)
    h, k, l = np.meshgrid(r, r, r, indexing="ij")
    hkl = np.stack([h.ravel(), k.ravel(), l.ravel()], 1)[1:].astype(float)
    fcc = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    check(structure_factors, hkl, fcc, fcc + 0.5, 17.0, 11.0, rtol=1e-3, atol=1e-3)


def test_radial_distribution_function():
    rng = np.random.default_rng(1604)
    g = (np.indices((5, 5, 5)).reshape(3, -1).T + 0.5) * 1.2
    pos = g + rng.normal(0, 0.08, g.shape)
    check(radial_distribution, pos, 6.0, 30, 3.0, rtol=1e-3, atol=1e-4)


def test_supercell_coordination():
    fcc = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5], [1.0, 0, 0]])
    check(supercell, fcc, np.eye(3) * 3.6, (2, 2, 3), 2.6, rtol=1e-4, atol=1e-4)


def test_powder_pattern_peaks():
    check(powder_pattern, np.array([38.2, 44.4, 64.6, 77.5, 81.7]), np.array([100.0, 47, 22, 24, 7]), 0.3,
          np.linspace(30, 90, 1201), rtol=1e-3, atol=1e-3)


def test_cubic_stiffness_voigt():
    stress = np.array([[120.0, 30, 0], [30, -40, 10], [0, 10, 60]])
    check(cubic_stiffness, 168.4, 121.4, 75.4, stress, rtol=1e-3, atol=1e-5)
