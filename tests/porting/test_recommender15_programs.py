"""Recommender-system basics as course notebooks write them: a user-item matrix from rating triplets by fancy
assignment, item-item cosine similarity with `fill_diagonal` and top-k neighbours by `argpartition`, user-based
prediction over mean-centred ratings with NaN for missing (`nanmean`), implicit-feedback ALS steps solved per user
with confidences, SGD matrix factorisation updating factor rows in place in a loop over passed-in orders,
precision@k/recall@k/NDCG by `isin` and log2 discounts, and basket co-occurrence with lift by `triu_indices`
and `lexsort` (tests/porting)."""

import numpy as np
from harness import check


def item_cosine_topk(np, users, items, ratings, n_users, n_items, k):
    R = np.zeros((n_users, n_items))
    R[users, items] = ratings
    norms = np.linalg.norm(R, axis=0)
    norms[norms == 0] = 1.0
    S = (R.T @ R) / np.outer(norms, norms)
    np.fill_diagonal(S, -np.inf)
    part = np.argpartition(-S, k, axis=1)[:, :k]
    top_scores = np.take_along_axis(S, part, axis=1)
    order = np.argsort(-top_scores, axis=1, kind="stable")
    neighbours = np.take_along_axis(part, order, axis=1)
    return {"R_nnz": np.count_nonzero(R, axis=0), "S": np.where(np.isinf(S), 0, S),
            "top_scores": np.sort(top_scores, axis=1)[:, ::-1], "best": neighbours[:, 0],
            "density": (R > 0).mean()}


def user_based_predict(np, R, target_user, k):
    mu = np.nanmean(R, axis=1)
    C = R - mu[:, None]
    C0 = np.nan_to_num(C)
    norms = np.sqrt((C0 ** 2).sum(axis=1))
    sim = C0 @ C0[target_user] / (norms * norms[target_user] + 1e-12)
    sim[target_user] = -np.inf
    nbrs = np.argsort(sim)[::-1][:k]
    w = sim[nbrs]
    rated = ~np.isnan(R[nbrs])
    num = (np.where(rated, C0[nbrs], 0) * w[:, None]).sum(axis=0)
    den = (np.abs(w)[:, None] * rated).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        pred = mu[target_user] + num / den
    unseen = np.isnan(R[target_user])
    recs = np.flatnonzero(unseen)[np.argsort(-np.nan_to_num(pred[unseen], nan=-np.inf), kind="stable")]
    return {"mu": mu, "sim": np.round(sim[nbrs], 6), "nbrs": nbrs, "pred": pred, "recs": recs[:5]}


def implicit_als(np, counts, factors, reg, alpha, iters, X0, Y0):
    C = 1 + alpha * counts
    P = (counts > 0).astype(float)
    X, Y = X0.copy(), Y0.copy()
    I = np.eye(factors)
    losses = []
    for _ in range(iters):
        YtY = Y.T @ Y
        for u in range(X.shape[0]):
            Cu = C[u]
            A = YtY + (Y.T * (Cu - 1)) @ Y + reg * I
            X[u] = np.linalg.solve(A, (Y.T * Cu) @ P[u])
        XtX = X.T @ X
        for i in range(Y.shape[0]):
            Ci = C[:, i]
            Y[i] = np.linalg.solve(XtX + (X.T * (Ci - 1)) @ X + reg * I, (X.T * Ci) @ P[:, i])
        losses.append((C * (P - X @ Y.T) ** 2).sum() + reg * ((X ** 2).sum() + (Y ** 2).sum()))
    scores = X @ Y.T
    scores[counts > 0] = -np.inf
    return {"losses": np.array(losses), "top": np.argsort(-scores, axis=1)[:, :3], "X": X @ Y.T}


def sgd_factorise(np, users, items, ratings, P0, Q0, lr, reg, orders):
    P, Q = np.array(P0), np.array(Q0)  # the factors live on the device (a NumPy copy refuses kdsl's in-place +=)
    mu = ratings.mean()
    bu = np.zeros(P.shape[0])
    bi = np.zeros(Q.shape[0])
    rmse = []
    for order in orders:
        for j in order:
            u, i = users[j], items[j]
            err = ratings[j] - (mu + bu[u] + bi[i] + P[u] @ Q[i])
            bu[u] += lr * (err - reg * bu[u])
            bi[i] += lr * (err - reg * bi[i])
            pu = P[u].copy()
            P[u] += lr * (err * Q[i] - reg * P[u])
            Q[i] += lr * (err * pu - reg * Q[i])
        pred = mu + bu[users] + bi[items] + np.einsum("ij,ij->i", P[users], Q[items])
        rmse.append(np.sqrt(np.mean((ratings - pred) ** 2)))
    return {"rmse": np.array(rmse), "bu": bu, "bi": bi, "P": P}


def ranking_metrics(np, scores, relevant, k):
    topk = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    hits = np.array([np.isin(topk[u], relevant[u]) for u in range(len(topk))])
    n_rel = np.array([len(r) for r in relevant])
    precision = hits.sum(axis=1) / k
    recall = hits.sum(axis=1) / np.maximum(n_rel, 1)
    discounts = 1 / np.log2(np.arange(2, k + 2))
    dcg = (hits * discounts).sum(axis=1)
    ideal = np.array([discounts[:min(n, k)].sum() for n in n_rel])
    ndcg = np.divide(dcg, ideal, out=np.zeros_like(dcg), where=ideal > 0)
    first = np.where(hits.any(axis=1), hits.argmax(axis=1) + 1, 0)
    mrr = np.where(first > 0, 1 / np.maximum(first, 1), 0.0).mean()
    return {"topk": topk, "precision": precision, "recall": recall, "ndcg": ndcg, "map_like": ndcg.mean(),
            "mrr": mrr}


def cooccurrence_lift(np, baskets, n_items, top):
    X = np.zeros((len(baskets), n_items), dtype=np.int32)
    for b, items in enumerate(baskets):
        X[b, items] = 1
    co = X.T @ X
    support = np.diag(co) / len(baskets)
    iu, ju = np.triu_indices(n_items, k=1)
    pair_support = co[iu, ju] / len(baskets)
    with np.errstate(divide="ignore", invalid="ignore"):
        lift = pair_support / (support[iu] * support[ju])
    lift = np.nan_to_num(lift)
    order = np.lexsort((iu, -pair_support, -lift))[:top]
    return {"co": co, "support": support, "pairs": np.column_stack([iu[order], ju[order]]),
            "lift": lift[order], "conf": pair_support[order] / support[iu[order]]}


def test_item_cosine_top_k():
    rng = np.random.default_rng(1521)
    nu, ni = 50, 30
    cells = rng.choice(nu * ni, 400, replace=False)
    check(item_cosine_topk, cells // ni, cells % ni, rng.integers(1, 6, 400).astype(float), nu, ni, 4, rtol=1e-5)


def test_user_based_prediction():
    rng = np.random.default_rng(1522)
    R = rng.integers(1, 6, (25, 18)).astype(float)
    R[rng.random(R.shape) < 0.55] = np.nan
    check(user_based_predict, R, 3, 6, rtol=1e-5)


def test_implicit_als_steps():
    rng = np.random.default_rng(1523)
    counts = rng.poisson(0.4, (20, 15)).astype(float)
    check(implicit_als, counts, 4, 0.1, 10.0, 3, rng.normal(0, 0.1, (20, 4)), rng.normal(0, 0.1, (15, 4)),
          rtol=2e-4, atol=1e-6)


def test_sgd_matrix_factorisation():
    rng = np.random.default_rng(1524)
    n = 150
    users, items = rng.integers(0, 12, n), rng.integers(0, 10, n)
    ratings = rng.integers(1, 6, n).astype(float)
    orders = [rng.permutation(n) for _ in range(3)]
    check(sgd_factorise, users, items, ratings, rng.normal(0, 0.1, (12, 3)), rng.normal(0, 0.1, (10, 3)),
          0.02, 0.05, orders, rtol=1e-5)


def test_ranking_metrics():
    rng = np.random.default_rng(1525)
    scores = rng.random((12, 40))
    relevant = [rng.choice(40, rng.integers(0, 6), replace=False) for _ in range(12)]
    check(ranking_metrics, scores, relevant, 5, rtol=1e-6)


def test_cooccurrence_lift():
    rng = np.random.default_rng(1526)
    baskets = [rng.choice(12, rng.integers(1, 6), replace=False) for _ in range(200)]
    check(cooccurrence_lift, baskets, 12, 10, rtol=1e-6)
