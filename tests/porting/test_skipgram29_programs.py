"""Training and using word vectors in plain NumPy, with every random choice passed in: skip-gram with negative
sampling by SGD (gradients scattered into embedding rows with `np.add.at`, a stable log-sigmoid by
`np.logaddexp`), frequent-word subsampling with passed-in uniforms, a unigram^0.75 noise table sampled by
`searchsorted` on its `cumsum`, document vectors by `np.add.reduceat` over document offsets, t-SNE-style
affinities with a vectorised bisection on the precision per row, and k-means of the vectors with `np.bincount`
centroid updates (tests/porting)."""

import numpy as np
from harness import check


def noise_table(np, counts, u):
    p = np.asarray(counts, dtype=float) ** 0.75
    p /= p.sum()
    cdf = np.cumsum(p)
    draws = np.searchsorted(cdf, np.asarray(u), side="right")
    draws = np.minimum(draws, len(p) - 1)
    freq = np.bincount(draws.ravel(), minlength=len(p)) / draws.size
    return {"p": p, "draws": draws, "freq": freq, "tv": 0.5 * np.abs(freq - p).sum()}


def subsample(np, tokens, counts, u, t):
    tokens = np.asarray(tokens)
    f = np.asarray(counts, dtype=float) / np.sum(counts)
    keep_p = np.minimum(1.0, np.sqrt(t / f) + t / f)
    keep = np.asarray(u) < keep_p[tokens]
    kept = tokens[keep]
    return {"keep_p": keep_p, "kept": kept, "ratio": keep.mean(), "per_word": np.bincount(kept, minlength=len(f))}


def sgns(np, pairs, negatives, W0, C0, lr, epochs):
    W, C = np.array(W0), np.array(C0)
    centre, context = np.asarray(pairs)[:, 0], np.asarray(pairs)[:, 1]
    neg = np.asarray(negatives)  # (pairs, k)
    losses = []
    for _ in range(epochs):
        w = W[centre]                      # (P, d)
        c_pos = C[context]                 # (P, d)
        c_neg = C[neg]                     # (P, k, d)
        s_pos = np.sum(w * c_pos, axis=1)
        s_neg = np.einsum("pd,pkd->pk", w, c_neg)
        loss = np.logaddexp(0, -s_pos).sum() + np.logaddexp(0, s_neg).sum()
        g_pos = -1 / (1 + np.exp(s_pos))            # d loss / d s_pos
        g_neg = 1 / (1 + np.exp(-s_neg))            # d loss / d s_neg
        gW = g_pos[:, None] * c_pos + np.einsum("pk,pkd->pd", g_neg, c_neg)
        gCpos = g_pos[:, None] * w
        gCneg = g_neg[..., None] * w[:, None, :]
        np.add.at(W, centre, -lr * gW)
        np.add.at(C, context, -lr * gCpos)
        np.add.at(C, neg.ravel(), -lr * gCneg.reshape(-1, W.shape[1]))
        losses.append(loss / len(centre))
    return {"loss": np.array(losses), "W": W, "decreasing": bool(losses[-1] < losses[0]),
            "norms": np.linalg.norm(W, axis=1)}


def doc_vectors(np, E, tokens, offsets):
    E = np.asarray(E)
    tokens, offsets = np.asarray(tokens), np.asarray(offsets)
    sums = np.add.reduceat(E[tokens], offsets, axis=0)
    lengths = np.diff(np.append(offsets, len(tokens)))
    means = sums / lengths[:, None]
    normed = means / np.linalg.norm(means, axis=1, keepdims=True)
    sim = normed @ normed.T
    np.fill_diagonal(sim, -np.inf)
    return {"means": means, "lengths": lengths, "nearest": np.argmax(sim, axis=1), "max_sim": sim.max(axis=1)}


def affinities(np, X, perplexity, iters):
    X = np.asarray(X)
    D = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
    n = len(X)
    lo = np.full(n, 1e-10)
    hi = np.full(n, 1e4)
    target = np.log(perplexity)
    mask = ~np.eye(n, dtype=bool)
    for _ in range(iters):
        beta = np.sqrt(lo * hi)
        P = np.where(mask, np.exp(-(D - np.min(np.where(mask, D, np.inf), axis=1, keepdims=True)) * beta[:, None]), 0)
        P /= P.sum(axis=1, keepdims=True)
        H = -np.sum(np.where(P > 0, P * np.log(np.where(P > 0, P, 1)), 0), axis=1)
        too_flat = H > target
        lo = np.where(too_flat, beta, lo)
        hi = np.where(too_flat, hi, beta)
    Psym = (P + P.T) / (2 * n)
    return {"beta": np.log10(beta), "H": H, "Psym_sum": Psym.sum(), "row_max": P.max(axis=1),
            "err": np.abs(H - target).max()}


def kmeans_vectors(np, X, init_idx, iters):
    X = np.asarray(X)
    C = X[np.asarray(init_idx)].copy()
    k = len(C)
    for _ in range(iters):
        d2 = (X**2).sum(1)[:, None] - 2 * X @ C.T + (C**2).sum(1)[None, :]
        lab = np.argmin(d2, axis=1)
        counts = np.bincount(lab, minlength=k)
        for j in range(X.shape[1]):
            C[:, j] = np.bincount(lab, weights=X[:, j], minlength=k) / np.maximum(counts, 1)
    inertia = np.sum(np.min(d2, axis=1))
    return {"labels": lab, "counts": counts, "C": C, "inertia": inertia,
            "sizes_sorted": np.sort(counts)[::-1]}


def _vocab(seed=3010):
    rng = np.random.default_rng(seed)
    counts = np.sort(rng.zipf(1.6, 30))[::-1] + 1
    return rng, counts


def test_noise_table():
    rng, counts = _vocab()
    check(noise_table, counts, rng.uniform(size=(50, 5)))


def test_subsample():
    rng, counts = _vocab(3011)
    tokens = np.searchsorted(np.cumsum(counts / counts.sum()), rng.uniform(size=200))
    check(subsample, np.minimum(tokens, 29), counts, rng.uniform(size=200), 1e-2)


def test_sgns():
    rng = np.random.default_rng(3012)
    V, d, P = 20, 6, 60
    pairs = rng.integers(0, V, (P, 2))
    check(sgns, pairs, rng.integers(0, V, (P, 3)), rng.normal(0, 0.3, (V, d)), rng.normal(0, 0.3, (V, d)), 0.1, 5,
          rtol=1e-3, atol=1e-4)


def test_doc_vectors():
    rng = np.random.default_rng(3013)
    check(doc_vectors, rng.normal(size=(25, 4)), rng.integers(0, 25, 40), np.array([0, 7, 15, 16, 30]))


def test_affinities():
    check(affinities, np.random.default_rng(3014).normal(size=(15, 3)), 5.0, 40, rtol=2e-3, atol=1e-4)


def test_kmeans_vectors():
    rng = np.random.default_rng(3015)
    X = np.vstack([rng.normal(m, 0.4, (20, 3)) for m in (-2.0, 0.0, 2.5)])
    check(kmeans_vectors, X, [0, 25, 45], 6)
