"""Collaborative filtering and word embeddings in plain NumPy: alternating least squares on a masked rating matrix
(per-user normal equations by `np.linalg.solve` on stacked systems and by `einsum`), implicit-feedback ALS with
confidence weights, top-k recommendation with already-seen items masked by `np.where(..., -np.inf, ...)` and
`argpartition`, co-occurrence counts by `np.add.at` over sliding windows, PPMI with `np.errstate`, truncated `svd`
embeddings, cosine nearest neighbours by normalised dot products and analogies by vector arithmetic
(tests/porting)."""

import numpy as np
from harness import check


def als_explicit(np, R, mask, k, lam, iters, U0, V0):
    R, mask = np.asarray(R, dtype=float), np.asarray(mask, dtype=bool)
    U, V = np.array(U0), np.array(V0)
    n_users, n_items = R.shape
    losses = []
    for _ in range(iters):
        for u in range(n_users):
            Vu = V[mask[u]]
            U[u] = np.linalg.solve(Vu.T @ Vu + lam * np.eye(k), Vu.T @ R[u, mask[u]])
        W = mask.astype(float)
        A = np.einsum("ui,uk,ul->ikl", W, U, U) + lam * np.eye(k)
        b = np.einsum("ui,ui,uk->ik", W, R, U)
        V = np.linalg.solve(A, b[..., None])[..., 0]
        err = np.where(mask, R - U @ V.T, 0.0)
        losses.append(np.sum(err**2) + lam * (np.sum(U**2) + np.sum(V**2)))
    pred = np.clip(U @ V.T, 1, 5)
    return {"loss": np.array(losses), "rmse": np.sqrt(np.mean((pred - R)[mask] ** 2)),
            "monotone": bool(np.all(np.diff(losses) <= 1e-6 * np.abs(losses[0]))),
            "pred_unseen": np.round(pred[~mask][:10], 4)}


def als_implicit(np, counts, alpha, k, lam, iters, X0, Y0):
    C = 1 + alpha * np.asarray(counts, dtype=float)
    P = (np.asarray(counts) > 0).astype(float)
    X, Y = np.array(X0), np.array(Y0)
    for _ in range(iters):
        YtY = Y.T @ Y
        for u in range(X.shape[0]):
            Cu = C[u]
            A = YtY + (Y.T * (Cu - 1)) @ Y + lam * np.eye(k)
            X[u] = np.linalg.solve(A, (Y.T * Cu) @ P[u])
        XtX = X.T @ X
        for i in range(Y.shape[0]):
            Ci = C[:, i]
            Y[i] = np.linalg.solve(XtX + (X.T * (Ci - 1)) @ X + lam * np.eye(k), (X.T * Ci) @ P[:, i])
    scores = X @ Y.T
    return {"scores": scores, "loss": np.sum(C * (P - scores) ** 2), "X_norm": np.linalg.norm(X, axis=1)}


def recommend_top_k(np, scores, seen, k):
    scores = np.asarray(scores, dtype=np.float32)
    masked = np.where(np.asarray(seen), -np.inf, scores)
    part = np.argpartition(-masked, k, axis=1)[:, :k]
    top_scores = np.take_along_axis(masked, part, axis=1)
    order = np.argsort(-top_scores, axis=1, kind="stable")
    top = np.take_along_axis(part, order, axis=1)
    hits = np.zeros(scores.shape[1], dtype=np.int64)
    np.add.at(hits, top.ravel(), 1)
    coverage = np.count_nonzero(hits) / scores.shape[1]
    ranks = np.argsort(np.argsort(-masked, axis=1, kind="stable"), axis=1, kind="stable")
    return {"top": top, "top_scores": np.take_along_axis(masked, top, axis=1), "hits": hits,
            "coverage": coverage, "rank_of_0": ranks[:, 0], "dtype": masked.dtype.kind}


def cooccurrence(np, tokens, vocab_size, window):
    tokens = np.asarray(tokens)
    C = np.zeros((vocab_size, vocab_size))
    for off in range(1, window + 1):
        left, right = tokens[:-off], tokens[off:]
        np.add.at(C, (left, right), 1.0 / off)
        np.add.at(C, (right, left), 1.0 / off)
    wins = np.lib.stride_tricks.sliding_window_view(tokens, 2 * window + 1)
    center = wins[:, window]
    bag = np.zeros((vocab_size, vocab_size), dtype=np.int64)
    for j in range(wins.shape[1]):
        if j != window:
            np.add.at(bag, (center, wins[:, j]), 1)
    return {"C": C, "sym": bool(np.allclose(C, C.T)), "bag_rows": bag.sum(axis=1),
            "freq": np.bincount(tokens, minlength=vocab_size), "diag": np.trace(C)}


def ppmi_svd(np, C, dim):
    C = np.asarray(C, dtype=float)
    total = C.sum()
    pw = C.sum(axis=1, keepdims=True) / total
    pc = C.sum(axis=0, keepdims=True) / total
    pc_smooth = pc**0.75 / np.sum(pc**0.75)
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log(C / total / (pw * pc_smooth))
    ppmi = np.maximum(np.nan_to_num(pmi, nan=0.0, neginf=0.0), 0)
    U, s, Vt = np.linalg.svd(ppmi)
    emb = U[:, :dim] * np.sqrt(s[:dim])
    recon = (U[:, :dim] * s[:dim]) @ Vt[:dim]
    return {"ppmi": ppmi, "s": s, "recon_err": np.linalg.norm(ppmi - recon) / np.linalg.norm(ppmi),
            "gram": emb @ emb.T, "nnz": np.count_nonzero(ppmi, axis=0)}


def nearest_neighbours(np, E, queries, k):
    E = np.asarray(E, dtype=np.float32)
    norms = np.linalg.norm(E, axis=1, keepdims=True)
    En = E / np.maximum(norms, 1e-8)
    sims = En[queries] @ En.T
    sims[np.arange(len(queries)), queries] = -np.inf
    nn = np.argsort(-sims, axis=1)[:, :k]
    best = np.max(sims, axis=1)
    analogy = En[queries[0]] - En[queries[1]] + En[queries[2]]
    analogy /= np.linalg.norm(analogy)
    a_sims = En @ analogy
    a_sims[queries[:3]] = -np.inf
    return {"nn": nn, "best": best, "analogy": int(np.argmax(a_sims)), "a_best": a_sims.max(),
            "mean_sim": np.mean(sims, where=np.isfinite(sims), axis=1)}


def embedding_drift(np, E1, E2):
    E1, E2 = np.asarray(E1), np.asarray(E2)
    # orthogonal Procrustes: rotate E2 onto E1
    U, _, Vt = np.linalg.svd(E2.T @ E1)
    Q = U @ Vt
    aligned = E2 @ Q
    cos = np.sum(aligned * E1, axis=1) / (np.linalg.norm(aligned, axis=1) * np.linalg.norm(E1, axis=1))
    order = np.argsort(cos)
    return {"orth": np.allclose(Q.T @ Q, np.eye(len(Q)), atol=1e-5), "cos": cos, "most_changed": order[:3],
            "det": np.linalg.det(Q), "resid": np.linalg.norm(aligned - E1)}


def _ratings():
    rng = np.random.default_rng(2920)
    U, V = rng.normal(size=(12, 3)), rng.normal(size=(15, 3))
    R = np.clip(np.round(3 + U @ V.T), 1, 5)
    mask = rng.uniform(size=R.shape) < 0.5
    mask[:, 0] = True
    mask[0, :] = True
    return R, mask, rng


def test_als_explicit():
    R, mask, rng = _ratings()
    check(als_explicit, R, mask, 3, 0.5, 4, rng.normal(0, 0.1, (12, 3)), rng.normal(0, 0.1, (15, 3)),
          rtol=2e-3, atol=1e-3)


def test_als_implicit():
    rng = np.random.default_rng(2921)
    counts = rng.poisson(0.6, (10, 14))
    check(als_implicit, counts, 5.0, 3, 0.1, 2, rng.normal(0, 0.1, (10, 3)), rng.normal(0, 0.1, (14, 3)),
          rtol=2e-3, atol=1e-3)


def test_recommend_top_k():
    rng = np.random.default_rng(2922)
    check(recommend_top_k, rng.normal(size=(6, 20)), rng.uniform(size=(6, 20)) < 0.3, 4)


def _corpus():
    rng = np.random.default_rng(2923)
    topics = [np.array([0, 1, 2, 3, 4]), np.array([5, 6, 7, 8]), np.array([9, 10, 11, 12, 13])]
    toks = np.concatenate([rng.choice(topics[rng.integers(3)], 12) for _ in range(20)])
    return toks


def test_cooccurrence():
    check(cooccurrence, _corpus(), 14, 2)


def test_ppmi_svd():
    C = cooccurrence(np, _corpus(), 14, 2)["C"]
    r = check(ppmi_svd, C, 4, rtol=2e-3, atol=1e-4)
    assert r["s"][0] > r["s"][-1]


def test_nearest_neighbours():
    rng = np.random.default_rng(2924)
    check(nearest_neighbours, rng.normal(size=(30, 8)), np.array([3, 7, 11, 20]), 5)


def test_embedding_drift():
    rng = np.random.default_rng(2925)
    E1 = rng.normal(size=(25, 4))
    Q, _ = np.linalg.qr(rng.normal(size=(4, 4)))
    E2 = E1 @ Q.T + 0.05 * rng.normal(size=E1.shape)
    check(embedding_drift, E1, E2, rtol=1e-3, atol=1e-4)
