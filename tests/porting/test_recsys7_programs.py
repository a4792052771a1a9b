"""Recommender systems as NumPy scripts write them: alternating least squares with per-user solves on masked
ratings, SGD matrix factorisation with biases over (user, item, rating) triples, item-item cosine similarity
with top-k by argpartition, user-based k-NN prediction with mean centering, implicit-feedback popularity and
recall@k with np.isin, and an RMSE/precision report on a held-out split (tests/porting)."""

import numpy as np
from harness import check


def _ratings(seed, users=12, items=9, rank=2, density=0.5):
    rng = np.random.default_rng(seed)
    U, V = rng.normal(size=(users, rank)), rng.normal(size=(items, rank))
    R = np.clip(np.round(3 + U @ V.T), 1, 5)
    mask = rng.random((users, items)) < density
    mask[np.arange(users), rng.integers(0, items, users)] = True
    return np.where(mask, R, 0.0), rng


def als(np, R_host, U0_host, V0_host, lam=0.1, iters=10):
    R = np.asarray(R_host)
    M = R > 0
    n_u, n_i = R.shape
    U, V = np.array(U0_host), np.array(V0_host)
    k = U.shape[1]
    losses = []
    for _ in range(iters):
        for u in range(n_u):
            Vi = V[M[u]]
            U[u] = np.linalg.solve(Vi.T @ Vi + lam * np.eye(k), Vi.T @ R[u, M[u]])
        for i in range(n_i):
            Uu = U[M[:, i]]
            V[i] = np.linalg.solve(Uu.T @ Uu + lam * np.eye(k), Uu.T @ R[M[:, i], i])
        err = (R - U @ V.T)[M]
        losses.append(float(np.sqrt(np.mean(err**2))))
    return {"rmse": losses[-1], "decreasing": bool(np.all(np.diff(losses) <= 1e-4)),
            "pred_shape": (U @ V.T).shape}


def sgd_mf_biases(np, R_host, order_host, P0_host, Q0_host, lr=0.05, reg=0.05, epochs=4):
    R = np.asarray(R_host)
    users, items = np.nonzero(R)
    ratings = R[users, items]
    mu = ratings.mean()
    P, Q = np.array(P0_host), np.array(Q0_host)
    bu = np.zeros(R.shape[0])
    bi = np.zeros(R.shape[1])
    hist = []
    for ep in range(epochs):
        for j in order_host[ep % len(order_host)][: len(ratings)]:
            u, i = users[j], items[j]
            e = ratings[j] - (mu + bu[u] + bi[i] + P[u] @ Q[i])
            bu[u] += lr * (e - reg * bu[u])
            bi[i] += lr * (e - reg * bi[i])
            P[u], Q[i] = P[u] + lr * (e * Q[i] - reg * P[u]), Q[i] + lr * (e * P[u] - reg * Q[i])
        pred = mu + bu[users] + bi[items] + np.sum(P[users] * Q[items], axis=1)
        hist.append(float(np.sqrt(np.mean((ratings - pred) ** 2))))
    return {"rmse": np.array(hist), "bu": bu, "bi": bi}


def item_cosine_topk(np, R_host, k=3):
    R = np.asarray(R_host)
    norms = np.linalg.norm(R, axis=0, keepdims=True)
    norms[norms == 0] = 1
    S = (R / norms).T @ (R / norms)
    np.fill_diagonal(S, -np.inf)
    part = np.argpartition(-S, k, axis=1)[:, :k]
    top = np.take_along_axis(S, part, axis=1)
    order = np.argsort(-top, axis=1, kind="stable")
    best = np.take_along_axis(part, order, axis=1)
    return {"S_diag_inf": bool(np.isinf(np.diag(S)).all()), "top_scores": np.sort(top, axis=1)[:, ::-1],
            "best1": best[:, 0]}


def user_knn_predict(np, R_host, k=3):
    R = np.asarray(R_host, dtype=float)
    M = R > 0
    means = np.where(M.any(1), R.sum(1) / np.maximum(M.sum(1), 1), 0)
    C = np.where(M, R - means[:, None], 0.0)
    num = C @ C.T
    den = np.sqrt(np.outer((C**2).sum(1), (C**2).sum(1)))
    sim = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    np.fill_diagonal(sim, 0)
    nbrs = np.argsort(-sim, axis=1, kind="stable")[:, :k]
    w = np.take_along_axis(sim, nbrs, axis=1)
    pred = means[:, None] + np.einsum("uk,uki->ui", w, C[nbrs]) / (np.abs(w).sum(1, keepdims=True) + 1e-9)
    pred[M] = R[M]
    return {"means": means, "pred": np.round(pred, 4), "nbrs0": nbrs[0]}


def implicit_recall_at_k(np, clicks_host, test_host, k=3):
    X = np.asarray(clicks_host)  # users x items, 0/1
    pop = X.sum(axis=0)
    scores = np.tile(pop.astype(float), (X.shape[0], 1))
    scores[X > 0] = -np.inf
    rec = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    hits = np.array([np.isin(test_host[u], rec[u]).sum() for u in range(X.shape[0])])
    recall = hits / np.array([max(len(t), 1) for t in test_host])
    coverage = len(np.unique(rec)) / X.shape[1]
    return {"rec": rec, "hits": hits, "recall": float(recall.mean()), "coverage": coverage}


def holdout_report(np, R_host, test_frac_host):
    R = np.asarray(R_host)
    u, i = np.nonzero(R)
    test = test_frac_host[: len(u)] < 0.2
    train = R.copy()
    train[u[test], i[test]] = 0
    item_mean = train.sum(0) / np.maximum((train > 0).sum(0), 1)
    global_mean = train[train > 0].mean()
    item_mean[item_mean == 0] = global_mean
    pred = item_mean[i[test]]
    rmse = np.sqrt(np.mean((R[u[test], i[test]] - pred) ** 2))
    mae = np.abs(R[u[test], i[test]] - pred).mean()
    liked = R[u[test], i[test]] >= 4
    said = pred >= 3.5
    prec = (liked & said).sum() / max(said.sum(), 1)
    return {"n_test": int(test.sum()), "rmse": f"{rmse:.3f}", "mae": round(float(mae), 3), "precision": float(prec)}


def cooccurrence_jaccard(np, baskets_host, n_items=8):
    X = np.zeros((len(baskets_host), n_items), dtype=bool)
    for u, items in enumerate(baskets_host):
        X[u, items] = True
    C = X.T.astype(int) @ X.astype(int)
    support = np.diag(C).copy()
    union = support[:, None] + support[None, :] - C
    J = np.divide(C, union, out=np.zeros(C.shape), where=union > 0)
    np.fill_diagonal(J, 0)
    lift = C / len(X) / np.maximum(np.outer(support, support) / len(X) ** 2, 1e-12)
    i, j = np.unravel_index(np.argmax(J), J.shape)
    also = np.argsort(-J[0], kind="stable")[:3]
    return {"C": C, "J": np.round(J, 4), "best_pair": sorted((int(i), int(j))), "also_bought_0": also,
            "lift01": float(lift[0, 1])}


def test_als_masked_per_user_solves():
    R, rng = _ratings(0)
    check(als, R, rng.normal(scale=0.1, size=(12, 2)), rng.normal(scale=0.1, size=(9, 2)), rtol=2e-3, atol=1e-3)


def test_sgd_matrix_factorisation_biases():
    R, rng = _ratings(1)
    n = int((R > 0).sum())
    check(sgd_mf_biases, R, [rng.permutation(n) for _ in range(3)], rng.normal(scale=0.1, size=(12, 3)),
          rng.normal(scale=0.1, size=(9, 3)), rtol=2e-3, atol=1e-3)


def test_item_cosine_similarity_argpartition_topk():
    R, _ = _ratings(2)
    check(item_cosine_topk, R, rtol=1e-4, atol=1e-5)


def test_user_knn_mean_centered_prediction():
    R, _ = _ratings(3)
    check(user_knn_predict, R, rtol=1e-3, atol=1e-3)


def test_implicit_popularity_recall_at_k():
    rng = np.random.default_rng(4)
    X = (rng.random((8, 10)) < 0.3).astype(int)
    test = [rng.choice(np.flatnonzero(X[u] == 0), 2, replace=False) for u in range(8)]
    check(implicit_recall_at_k, X, test)


def test_cooccurrence_jaccard_lift():
    rng = np.random.default_rng(6)
    baskets = [rng.choice(8, size=rng.integers(1, 5), replace=False) for _ in range(30)]
    check(cooccurrence_jaccard, baskets, rtol=1e-4, atol=1e-5)


def test_holdout_item_mean_baseline_report():
    R, rng = _ratings(5)
    check(holdout_report, R, rng.random(R.size), rtol=1e-4, atol=1e-4)
