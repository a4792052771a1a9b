"""Acoustics and vibration in plain NumPy: room modes from `meshgrid` of mode indices (`unique` frequencies,
`argsort` with `take_along_axis`), Sabine and Eyring reverberation with `log1p`, decibel sums by
`log10(sum(10**(L/10)))`, A-weighting from its closed form, octave bands by `logspace`/`geomspace` and
`searchsorted`, a frequency response function of a 2-DOF system by complex `solve` at every frequency, modal
superposition via `eigh` of `M^-1/2 K M^-1/2`, a sound-level meter's Leq by `cumsum` windows, and a complex
transfer function's phase by `angle`/`unwrap` (tests/porting)."""

import numpy as np
from harness import check


def room_modes(np, L, W, H, c, fmax):
    n = np.arange(0, 5)
    nx, ny, nz = np.meshgrid(n, n, n, indexing="ij")
    f = c / 2 * np.sqrt((nx / L) ** 2 + (ny / W) ** 2 + (nz / H) ** 2)
    keep = (f > 0) & (f <= fmax)
    idx = np.stack([nx[keep], ny[keep], nz[keep]], axis=1)
    order = np.argsort(f[keep], kind="stable")
    kind = (idx > 0).sum(axis=1)
    freqs = f[keep][order]
    gaps = np.diff(freqs)
    return {"f": freqs, "idx": idx[order], "kind": kind[order], "count": np.bincount(kind, minlength=4),
            "schroeder": 2000 * np.sqrt(0.5 / (L * W * H)), "max_gap": gaps.max(),
            "n_unique": np.unique(np.round(freqs, 3)).size}


def reverberation(np, areas, alphas, volume):
    S, a = np.asarray(areas), np.asarray(alphas)  # (surfaces,), (surfaces, bands)
    A = S @ a
    Stot = S.sum()
    mean_a = A / Stot
    sabine = 0.161 * volume / A
    eyring = 0.161 * volume / (-Stot * np.log1p(-mean_a))
    worst = np.argmax(sabine)
    return {"A": A, "sabine": sabine, "eyring": eyring, "ratio": eyring / sabine, "worst": worst}


def db_sum(np, levels):
    L = np.asarray(levels)
    total = 10 * np.log10(np.sum(10 ** (L / 10), axis=-1))
    avg = 10 * np.log10(np.mean(10 ** (L / 10), axis=-1))
    diff = L.max(axis=-1) - np.sort(L, axis=-1)[..., -2]
    return {"total": total, "avg": avg, "diff": diff, "loudest": np.argmax(L, axis=-1)}


def a_weighting(np, f):
    f = np.asarray(f, dtype=float)
    f2 = f**2
    ra = 12194.0**2 * f2**2 / ((f2 + 20.6**2) * np.sqrt((f2 + 107.7**2) * (f2 + 737.9**2)) * (f2 + 12194.0**2))
    A = 20 * np.log10(ra) + 2.0
    return {"A": A, "at_1k": A[np.argmin(np.abs(f - 1000))], "neg": np.count_nonzero(A < 0)}


def octave_bands(np, spectrum_f, spectrum_L):
    f, L = np.asarray(spectrum_f), np.asarray(spectrum_L)
    centres = 1000 * 2.0 ** np.arange(-5, 5)
    edges = np.concatenate([centres / np.sqrt(2), centres[-1:] * np.sqrt(2)])
    g = np.geomspace(edges[0], edges[-1], 11)
    band = np.searchsorted(edges, f, side="right") - 1
    ok = (band >= 0) & (band < centres.size)
    energy = np.bincount(band[ok], weights=10 ** (L[ok] / 10), minlength=centres.size)
    with np.errstate(divide="ignore"):
        band_L = np.where(energy > 0, 10 * np.log10(energy), -np.inf)
    return {"centres": centres, "edges_ok": bool(np.allclose(g, edges)), "band_L": band_L, "band": band}


def frf_2dof(np, m, k, c, freqs):
    M = np.diag(m)
    K = np.array([[k[0] + k[1], -k[1]], [-k[1], k[1]]])
    C = np.array([[c[0] + c[1], -c[1]], [-c[1], c[1]]])
    w = 2 * np.pi * np.asarray(freqs)
    Z = K[None] - (w**2)[:, None, None] * M[None] + 1j * w[:, None, None] * C[None]
    F = np.array([1.0, 0.0])
    X = np.linalg.solve(Z, np.broadcast_to(F, (len(w), 2))[..., None])[..., 0]
    mag = np.abs(X)
    peaks = np.flatnonzero((mag[1:-1, 0] > mag[:-2, 0]) & (mag[1:-1, 0] > mag[2:, 0])) + 1
    return {"mag": mag, "phase": np.unwrap(np.angle(X[:, 0])), "peaks": peaks, "dtype": X.dtype.kind}


def modal(np, m, K, x0, t):
    m, K = np.asarray(m), np.asarray(K)
    Mi = np.diag(1 / np.sqrt(m))
    w2, Phi = np.linalg.eigh(Mi @ K @ Mi)
    wn = np.sqrt(w2)
    modes = Mi @ Phi
    q0 = Phi.T @ (np.sqrt(m) * np.asarray(x0))
    q = q0[:, None] * np.cos(wn[:, None] * np.asarray(t)[None, :])
    x = modes @ q
    mass_n = np.einsum("ik,i,ik->k", modes, m, modes)
    return {"wn": wn, "x": x.T, "mass_n": mass_n, "energy": 0.5 * np.sum(w2 * q0**2)}


def leq(np, p, fs, window_s):
    p = np.asarray(p)
    p2 = p**2
    n = int(window_s * fs)
    c = np.cumsum(np.insert(p2, 0, 0.0))
    mean_sq = (c[n:] - c[:-n]) / n
    leq_w = 10 * np.log10(mean_sq / 20e-6**2)
    total = 10 * np.log10(np.mean(p2) / 20e-6**2)
    return {"leq": leq_w[::n], "total": total, "l10": np.percentile(leq_w, 90), "l90": np.percentile(leq_w, 10)}


def test_room_modes():
    check(room_modes, 5.0, 4.0, 3.0, 343.0, 120.0, rtol=1e-5, atol=1e-6)


def test_reverberation():
    S = np.array([20.0, 20.0, 15.0, 15.0, 12.0, 12.0])
    a = np.array([[0.02, 0.03, 0.04], [0.3, 0.6, 0.8], [0.1, 0.1, 0.1], [0.05, 0.04, 0.03], [0.2, 0.4, 0.5],
                  [0.02, 0.02, 0.02]])
    check(reverberation, S, a, 60.0, rtol=1e-5, atol=1e-6)


def test_db_sum():
    check(db_sum, np.array([[80.0, 85.0, 79.5, 60.0], [40.0, 40.0, 40.0, 40.0]]), rtol=1e-5, atol=1e-5)


def test_a_weighting():
    check(a_weighting, np.array([20.0, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]), rtol=1e-4, atol=1e-4)


def test_octave_bands():
    rng = np.random.default_rng(2581)
    f = np.sort(rng.uniform(20, 20000, 60))
    check(octave_bands, f, rng.uniform(30, 80, 60), rtol=1e-5, atol=1e-5)


def test_frf_2dof():
    check(frf_2dof, np.array([2.0, 1.0]), np.array([2000.0, 1000.0]), np.array([1.0, 0.5]),
          np.linspace(1, 15, 120), rtol=1e-3, atol=1e-6)


def test_modal():
    K = np.array([[300.0, -100, 0], [-100, 200, -100], [0, -100, 100]])
    check(modal, np.array([1.0, 2.0, 1.5]), K, np.array([0.01, 0.0, -0.02]), np.linspace(0, 1, 9),
          rtol=1e-3, atol=1e-6)


def test_leq():
    rng = np.random.default_rng(2582)
    fs = 1000
    p = 0.02 * rng.standard_normal(4000) * np.repeat([1.0, 3.0, 0.5, 1.5], 1000)
    check(leq, p, fs, 0.25, rtol=1e-4, atol=1e-4)
