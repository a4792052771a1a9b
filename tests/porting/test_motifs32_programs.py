"""Time-series motif and discord search as analysts prototype it in NumPy before reaching for stumpy: sliding
windows by `sliding_window_view`, z-normalised Euclidean distances from dot products (the MASS formula), a brute
matrix profile with exclusion zones written into rows in place, top-k motifs by `argsort` with suppression of
trivial matches, discords by `argmax`, SAX words by `searchsorted` on Gaussian breakpoints counted with
`np.unique(axis=0, return_counts=True)`, a left/right profile by `np.minimum.accumulate`, and float32 series mixed
with Python and NumPy float64 scalars (tests/porting)."""

import numpy as np
from harness import check


def znorm_windows(np, x, m):
    x = np.asarray(x, dtype=np.float32)
    W = np.lib.stride_tricks.sliding_window_view(x, m)
    mu = W.mean(axis=1, keepdims=True)
    sd = W.std(axis=1, keepdims=True)
    flat = (sd < 1e-6).ravel()
    sd[sd < 1e-6] = 1.0
    Z = (W - mu) / sd
    return {"Z": Z, "mu": mu[:, 0], "sd": sd.ravel(), "flat": np.flatnonzero(flat), "dtype": Z.dtype.name,
            "n": len(W), "norms": np.linalg.norm(Z, axis=1) ** 2 / m}


def mass_profile(np, x, q):
    x, q = np.asarray(x), np.asarray(q)
    m = len(q)
    W = np.lib.stride_tricks.sliding_window_view(x, m)
    mu, sd = W.mean(axis=1), W.std(axis=1)
    qz = (q - q.mean()) / q.std()
    QT = W @ qz
    d2 = 2 * m * (1 - QT / (m * sd))
    d = np.sqrt(np.clip(d2, 0, None))
    best = np.argsort(d)[:5]
    return {"d": d, "best": best, "min": d.min(), "within": int((d < 0.25 * d.max()).sum()),
            "mu_at_best": mu[best]}


def matrix_profile(np, x, m):
    x = np.asarray(x)
    W = np.lib.stride_tricks.sliding_window_view(x, m)
    Z = (W - W.mean(axis=1, keepdims=True)) / W.std(axis=1, keepdims=True)
    n = len(Z)
    excl = int(np.ceil(m / 4))
    P = np.full(n, np.inf)
    I = np.zeros(n, dtype=np.int64)
    for i in range(n):
        row = np.sqrt(np.maximum(2 * m - 2 * (Z @ Z[i]), 0.0))
        lo, hi = max(0, i - excl), min(n, i + excl + 1)
        row[lo:hi] = np.inf
        j = np.argmin(row)
        P[i] = row[j]
        I[i] = j
    motif = int(np.argmin(P))
    discord = int(np.argmax(P))
    return {"P": P, "I": I, "motif": (motif, int(I[motif])), "discord": discord, "excl": excl,
            "mutual": int(np.sum(I[I] == np.arange(n)))}


def top_motifs(np, x, m, k):
    x = np.asarray(x, dtype=np.float32)
    W = np.lib.stride_tricks.sliding_window_view(x, m)
    Z = (W - W.mean(axis=-1)[:, None]) / W.std(axis=-1)[:, None]
    D = np.sqrt(np.maximum(2 * m * (1 - (Z @ Z.T) / m), 0))
    n = len(D)
    idx = np.arange(n)
    D[np.abs(idx[:, None] - idx[None, :]) < m // 2] = np.inf
    P = D.min(axis=1)
    order = np.argsort(P, kind="stable")
    taken = np.zeros(n, dtype=bool)
    found = []
    for i in order:
        if taken[i]:
            continue
        j = int(np.argmin(D[i]))
        found.append((int(i), j))
        taken[max(0, i - m):i + m] = True
        taken[max(0, j - m):j + m] = True
        if len(found) == k:
            break
    return {"found": found, "P": P, "dists": np.array([D[i, j] for i, j in found]), "covered": int(taken.sum())}


def sax_words(np, x, m, w, a):
    x = np.asarray(x)
    W = np.lib.stride_tricks.sliding_window_view(x, m)[::2]
    Z = (W - W.mean(axis=1, keepdims=True)) / W.std(axis=1, keepdims=True)
    paa = Z.reshape(len(Z), w, m // w).mean(axis=2)
    breaks = np.array([-0.67448975, 0.0, 0.67448975])[: a - 1]
    sym = np.searchsorted(breaks, paa)
    words, inv, counts = np.unique(sym, axis=0, return_inverse=True, return_counts=True)
    codes = sym @ (a ** np.arange(w)[::-1])
    common = words[np.argmax(counts)]
    rare = np.flatnonzero(counts[inv.ravel()] == 1)
    return {"sym": sym, "words": words, "counts": counts, "codes": codes, "common": common, "rare": rare,
            "nwords": len(words)}


def left_right_profile(np, x, m):
    x = np.asarray(x, dtype=np.float32)
    W = np.lib.stride_tricks.sliding_window_view(x, m)
    Z = (W - W.mean(1, keepdims=True)) / W.std(1, keepdims=True)
    n = len(Z)
    D = np.sqrt(np.maximum(2.0 * m - 2.0 * Z @ Z.T, np.float32(0)))
    i, j = np.indices(D.shape)
    left = np.where(j < i - m // 4, D, np.inf).min(axis=1)
    right = np.where(j > i + m // 4, D, np.inf).min(axis=1)
    arc = np.zeros(n, dtype=np.int64)
    nn = np.where(np.abs(i - j) > m // 4, D, np.inf).argmin(axis=1)
    lo, hi = np.minimum(np.arange(n), nn), np.maximum(np.arange(n), nn)
    np.add.at(arc, lo, 1)
    np.add.at(arc, hi, -1)
    crossings = np.cumsum(arc)
    regime = int(np.argmin(crossings[m:-m])) + m
    running = np.minimum.accumulate(left[m:])
    return {"left": left[np.isfinite(left)], "right": right[np.isfinite(right)], "crossings": crossings,
            "regime": regime, "running": running, "chain_end": int(np.argmax(left[np.isfinite(left)]))}


def multi_dim_profile(np, X, m):
    X = np.asarray(X)
    d, T = X.shape
    W = np.lib.stride_tricks.sliding_window_view(X, m, axis=1)
    Z = (W - W.mean(axis=-1, keepdims=True)) / W.std(axis=-1, keepdims=True)
    D = np.sqrt(np.maximum(2 * m - 2 * np.einsum("dik,djk->dij", Z, Z), 0))
    n = D.shape[1]
    band = np.abs(np.subtract.outer(np.arange(n), np.arange(n))) <= m // 4
    D[:, band] = np.inf
    Ds = np.sort(D, axis=0)
    cum = np.cumsum(Ds, axis=0) / np.arange(1, d + 1)[:, None, None]
    P = cum.min(axis=2)
    I = cum.argmin(axis=2)
    return {"P": P, "I": I, "best_k": np.argmin(P.min(axis=1)), "shape": W.shape}


def _series(seed, n, motif_at=(40, 160)):
    rng = np.random.default_rng(seed)
    x = np.cumsum(rng.normal(0, 0.3, n))
    pattern = np.sin(np.linspace(0, 3 * np.pi, 24)) * 3
    for s in motif_at:
        if s + 24 <= n:
            x[s:s + 24] += pattern
    return x, rng


def test_znorm_windows():
    x, _ = _series(3201, 120)
    x[50:70] = 2.0
    check(znorm_windows, x, 16, rtol=1e-3, atol=1e-3)


def test_mass_profile():
    x, _ = _series(3202, 300)
    check(mass_profile, x, x[40:64].copy(), rtol=1e-3, atol=1e-3)


def test_matrix_profile():
    x, _ = _series(3203, 160, motif_at=(20, 110))
    check(matrix_profile, x, 24, rtol=1e-3, atol=1e-3)


def test_top_motifs():
    x, _ = _series(3204, 260)
    check(top_motifs, x, 24, 3, rtol=2e-3, atol=2e-3)


def test_sax_words():
    x, _ = _series(3205, 200)
    check(sax_words, x, 16, 4, 4)


def test_left_right_profile():
    x, rng = _series(3206, 150, motif_at=(10, 100))
    x[75:] += np.sin(np.arange(75) * 0.9) * 2
    check(left_right_profile, x, 16, rtol=2e-3, atol=2e-3)


def test_multi_dim_profile():
    rng = np.random.default_rng(3207)
    X = np.cumsum(rng.normal(0, 1, (3, 90)), axis=1)
    X[:, 10:22] += np.sin(np.arange(12))[None] * 4
    X[:, 60:72] += np.sin(np.arange(12))[None] * 4
    check(multi_dim_profile, X, 12, rtol=1e-3, atol=1e-3)
