"""More machine-learning programs: softmax regression by gradient descent, k-nearest neighbours with
argpartition voting, DBSCAN-lite on a distance matrix, decision stumps, a perceptron, k-means with einsum
distances and empty clusters, one-hot encoding and multiply.at feature products (tests/porting)."""

import numpy as np
from harness import check


def blobs(n=90, d=2, k=3, seed=61):
    rng = np.random.default_rng(seed)
    centers = np.array([[0.0, 0.0], [4.0, 1.0], [1.0, 4.0]])[:k, :d]
    y = np.arange(n) % k
    return (centers[y] + rng.normal(0, 0.7, size=(n, d))), y


def softmax_regression(np, X_host, y_host, lr=0.5, epochs=60):
    X, y = np.asarray(X_host), np.asarray(y_host)
    n, d = X.shape
    k = int(y.max()) + 1
    Y = np.eye(k)[y]
    Xb = np.hstack([X, np.ones((n, 1))])
    W = np.zeros((d + 1, k))
    losses = []
    for epoch in range(epochs):
        Z = Xb @ W
        Z -= Z.max(axis=1, keepdims=True)
        P = np.exp(Z)
        P /= P.sum(axis=1, keepdims=True)
        if epoch % 10 == 0:
            losses.append(float(-np.mean(np.log(P[range(n), y] + 1e-12))))
        G = P.copy()
        G[range(n), y] -= 1
        W -= lr * Xb.T @ G / n
    assert np.allclose(G, P - Y)
    pred = np.argmax(Xb @ W, axis=1)
    conf = np.zeros((k, k), dtype=int)
    np.add.at(conf, (y, pred), 1)
    return {"W": W, "losses": losses, "acc": float(np.mean(pred == y)), "conf": conf}


def knn_classify(np, X_host, y_host, k=5):
    X, y = np.asarray(X_host), np.asarray(y_host)
    test, train = X[::6], np.delete(X, np.s_[::6], axis=0)
    ytest, ytrain = y[::6], np.delete(y, np.s_[::6])
    d2 = (test**2).sum(1)[:, None] + (train**2).sum(1)[None, :] - 2 * test @ train.T
    d2 = np.maximum(d2, 0)
    nn = np.argpartition(d2, k, axis=1)[:, :k]
    votes = ytrain[nn]
    counts = np.apply_along_axis(np.bincount, 1, votes, minlength=3)
    pred = counts.argmax(axis=1)
    w = 1.0 / (np.sqrt(np.take_along_axis(d2, nn, axis=1)) + 1e-9)
    wvotes = np.zeros((len(test), 3))
    for c in range(3):
        wvotes[:, c] = (w * (votes == c)).sum(axis=1)
    return {"pred": pred, "wpred": wvotes.argmax(axis=1), "acc": float((pred == ytest).mean()),
            "counts": counts, "nn_sorted": np.sort(ytrain[nn], axis=1)}


def dbscan_lite(np, X_host, eps=0.9, min_pts=4):
    X = np.asarray(X_host)
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    nbr = D <= eps
    core = nbr.sum(axis=1) >= min_pts
    n = len(X)
    labels = np.full(n, -1)
    cluster = 0
    for i in np.flatnonzero(core):
        if labels[i] != -1:
            continue
        frontier = np.zeros(n, dtype=bool)
        frontier[i] = True
        members = frontier.copy()
        while frontier.any():
            reach = nbr[frontier & core].any(axis=0)
            frontier = reach & ~members
            members |= reach
        labels[members & (labels == -1)] = cluster
        cluster += 1
    sizes = np.bincount(labels[labels >= 0]) if cluster else np.zeros(0, int)
    return {"labels": labels, "n_clusters": cluster, "sizes": sizes, "noise": int((labels == -1).sum()),
            "core": core}


def decision_stump(np, X_host, y_host):
    X, y = np.asarray(X_host), (np.asarray(y_host) == 1).astype(int)
    best = (1.0, -1, 0.0)
    for f in range(X.shape[1]):
        order = np.argsort(X[:, f], kind="stable")
        xs, ys = X[order, f], y[order]
        left_pos = np.cumsum(ys)[:-1]
        n_left = np.arange(1, len(ys))
        right_pos = ys.sum() - left_pos
        n_right = len(ys) - n_left
        gini_l = 1 - (left_pos / n_left) ** 2 - (1 - left_pos / n_left) ** 2
        gini_r = 1 - (right_pos / n_right) ** 2 - (1 - right_pos / n_right) ** 2
        score = (n_left * gini_l + n_right * gini_r) / len(ys)
        valid = xs[1:] != xs[:-1]
        score = np.where(valid, score, np.inf)
        j = int(np.argmin(score))
        if score[j] < best[0]:
            best = (float(score[j]), f, float((xs[j] + xs[j + 1]) / 2))
    pred = (X[:, best[1]] > best[2]).astype(int)
    acc = max((pred == y).mean(), (pred != y).mean())
    return {"gini": best[0], "feature": best[1], "threshold": best[2], "acc": float(acc)}


def perceptron(np, X_host, y_host, epochs=10):
    X = np.asarray(X_host)
    t = np.where(np.asarray(y_host) == 0, -1, 1)
    Xb = np.c_[X, np.ones(len(X))]
    w = np.zeros(Xb.shape[1])
    mistakes = []
    for _ in range(epochs):
        m = 0
        for xi, ti in zip(Xb, t, strict=True):
            if ti * (xi @ w) <= 0:
                w += ti * xi
                m += 1
        mistakes.append(m)
    margin = t * (Xb @ w) / np.linalg.norm(w[:-1])
    return {"w": w, "mistakes": mistakes, "min_margin": float(margin.min()), "errors": int((margin <= 0).sum())}


def kmeans_einsum(np, X_host, k=4, iters=6):
    X = np.asarray(X_host)
    C = X[[0, 1, 2, 3]].copy()
    C[3] = [100.0, 100.0]
    history = []
    for _ in range(iters):
        diff = X[:, None, :] - C[None, :, :]
        d2 = np.einsum("nkd,nkd->nk", diff, diff)
        lab = d2.argmin(axis=1)
        counts = np.bincount(lab, minlength=k)
        sums = np.zeros_like(C)
        np.add.at(sums, lab, X)
        nonempty = counts > 0
        C[nonempty] = sums[nonempty] / counts[nonempty, None]
        history.append(float(d2[np.arange(len(X)), lab].sum()))
    return {"C": C, "counts": counts, "history": history, "empty": np.flatnonzero(~nonempty)}


def one_hot_interactions(np, cats_host, vals_host):
    cats, vals = np.asarray(cats_host), np.asarray(vals_host)
    k = cats.max() + 1
    onehot = np.zeros((len(cats), k), dtype=np.int8)
    onehot[np.arange(len(cats)), cats] = 1
    prod = np.ones(k)
    np.multiply.at(prod, cats, vals)
    geo = prod ** (1.0 / np.maximum(np.bincount(cats, minlength=k), 1))
    flags = np.zeros(k, dtype=np.int64)
    np.bitwise_or.at(flags, cats, 1 << (np.arange(len(cats)) % 5))
    inter = onehot[:, :, None] * onehot[:, None, :]
    return {"onehot_sum": onehot.sum(axis=0), "prod": prod, "geo": geo, "flags": flags,
            "inter": inter.sum(axis=0), "argmax_back": onehot.argmax(axis=1)}


def test_softmax_regression_gradient_descent():
    X, y = blobs()
    check(softmax_regression, X, y, rtol=1e-3, atol=1e-4)


def test_knn_argpartition_apply_along_axis_bincount():
    X, y = blobs(seed=62)
    check(knn_classify, X, y, rtol=1e-4, atol=1e-4)


def test_dbscan_lite_boolean_frontier():
    X, _ = blobs(n=45, seed=63)
    check(dbscan_lite, np.vstack([X, [[10.0, 10.0], [-8.0, 3.0]]]))


def test_decision_stump_gini_cumsum():
    X, y = blobs(seed=64)
    check(decision_stump, X, y, rtol=1e-4, atol=1e-5)


def test_perceptron_row_loop():
    X, y = blobs(n=40, k=2, seed=65)
    check(perceptron, X, y, rtol=1e-4, atol=1e-4)


def test_kmeans_einsum_empty_cluster():
    X, _ = blobs(seed=66)
    check(kmeans_einsum, X, rtol=1e-4, atol=1e-4)


def test_one_hot_multiply_at_bitwise_or_at():
    rng = np.random.default_rng(67)
    check(one_hot_interactions, rng.integers(0, 4, 25), rng.uniform(0.8, 1.3, 25), rtol=1e-4, atol=1e-5)
