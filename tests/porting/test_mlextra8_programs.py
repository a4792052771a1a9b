"""More classic ML from scratch: Fisher LDA by eigh of Sw^-1 Sb, k-medoids on a distance matrix, a depth-2 tree by
recursive split search, one-vs-rest logistic regression, multinomial naive Bayes on counts, mini-batch SGD
linear regression with standardisation, and cross-validation folds by array_split (tests/porting)."""

import numpy as np
from harness import check


def blobs(n=60, seed=90):
    rng = np.random.default_rng(seed)
    centers = np.array([[0.0, 0.0, 1.0], [4.0, 1.0, 0.0], [1.0, 4.0, -1.0]])
    y = rng.permutation(np.arange(n) % 3)
    return centers[y] + rng.normal(0, 0.9, size=(n, 3)), y


def fisher_lda(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    mu = X.mean(axis=0)
    Sw = np.zeros((3, 3))
    Sb = np.zeros((3, 3))
    for c in np.unique(y):
        Xc = X[y == c]
        mc = Xc.mean(axis=0)
        Sw += (Xc - mc).T @ (Xc - mc)
        d = (mc - mu)[:, np.newaxis]
        Sb += len(Xc) * d @ d.T
    L = np.linalg.cholesky(Sw)
    Li = np.linalg.inv(L)
    w, V = np.linalg.eigh(Li @ Sb @ Li.T)
    W = Li.T @ V[:, ::-1][:, :2]
    Z = X @ W
    centroids = np.stack([Z[y == c].mean(0) for c in range(3)])
    pred = np.argmin(((Z[:, None, :] - centroids[None]) ** 2).sum(-1), axis=1)
    return {"w": w[::-1][:2], "acc": float(np.mean(pred == y)), "pred": pred,
            "sep": float(np.abs(np.diff(centroids, axis=0)).sum())}


def k_medoids(np, X_host, k=3, iters=10):
    X = np.asarray(X_host)
    D = np.sqrt(np.maximum(np.sum(X**2, 1)[:, None] + np.sum(X**2, 1)[None, :] - 2 * X @ X.T, 0))
    medoids = np.array([0, 1, 2])
    for _ in range(iters):
        labels = np.argmin(D[:, medoids], axis=1)
        new = medoids.copy()
        for c in range(k):
            members = np.flatnonzero(labels == c)
            costs = D[np.ix_(members, members)].sum(axis=1)
            new[c] = members[np.argmin(costs)]
        if np.array_equal(np.sort(new), np.sort(medoids)):
            break
        medoids = new
    cost = D[np.arange(len(X)), medoids[labels]].sum()
    return {"medoids": np.sort(medoids), "cost": float(cost), "sizes": np.sort(np.bincount(labels))}


def _split(np, X, y, n_classes):
    best = None
    for j in range(X.shape[1]):
        order = np.argsort(X[:, j], kind="stable")
        xs, ys = X[order, j], y[order]
        counts = np.cumsum(np.eye(n_classes, dtype=int)[ys], axis=0)
        total = counts[-1]
        nl = np.arange(1, len(y))
        left, right = counts[:-1], total - counts[:-1]
        gl = 1 - np.sum((left / nl[:, None]) ** 2, axis=1)
        gr = 1 - np.sum((right / (len(y) - nl)[:, None]) ** 2, axis=1)
        score = (nl * gl + (len(y) - nl) * gr) / len(y)
        valid = xs[1:] > xs[:-1]
        if not valid.any():
            continue
        score = np.where(valid, score, np.inf)
        i = int(score.argmin())
        if best is None or score[i] < best[0]:
            best = (float(score[i]), j, float((xs[i] + xs[i + 1]) / 2))
    return best


def depth2_tree(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    root = _split(np, X, y, 3)
    go_left = X[:, root[1]] <= root[2]
    kids = [_split(np, X[m], y[m], 3) for m in (go_left, ~go_left)]
    leaves = []
    pred = np.zeros(len(y), dtype=int)
    for side, m in enumerate((go_left, ~go_left)):
        s, j, t = kids[side]
        for mm in (m & (X[:, j] <= t), m & (X[:, j] > t)):
            label = int(np.bincount(y[mm], minlength=3).argmax())
            pred[mm] = label
            leaves.append(label)
    return {"root": list(root), "kids": [list(k) for k in kids], "leaves": leaves, "acc": float((pred == y).mean())}


def one_vs_rest(np, X_host, y_host, lr=0.5, epochs=100):
    X, y = np.asarray(X_host), np.asarray(y_host)
    Xs = (X - X.mean(0)) / X.std(0)
    Xb = np.c_[np.ones(len(X)), Xs]
    W = np.zeros((3, Xb.shape[1]))
    for c in range(3):
        t = (y == c).astype(float)
        w = W[c]
        for _ in range(epochs):
            p = 1 / (1 + np.exp(-(Xb @ w)))
            w -= lr * Xb.T @ (p - t) / len(t)
    scores = Xb @ W.T
    pred = scores.argmax(1)
    cm = np.zeros((3, 3), dtype=int)
    np.add.at(cm, (y, pred), 1)
    return {"W": W, "cm": cm, "precision": np.diag(cm) / cm.sum(axis=0).clip(1), "recall": np.diag(cm) / cm.sum(1)}


def multinomial_nb(np, counts_host, y_host, alpha=1.0):
    C, y = np.asarray(counts_host), np.asarray(y_host)
    classes, n_per = np.unique(y, return_counts=True)
    Y = (y[:, None] == classes[None, :]).astype(float)
    feat = Y.T @ C
    log_theta = np.log((feat + alpha) / (feat + alpha).sum(axis=1, keepdims=True))
    log_prior = np.log(n_per / n_per.sum())
    jll = C @ log_theta.T + log_prior
    log_norm = np.log(np.exp(jll - jll.max(1, keepdims=True)).sum(1)) + jll.max(1)
    proba = np.exp(jll - log_norm[:, np.newaxis])
    return {"log_theta": log_theta, "pred": classes[jll.argmax(1)], "proba": proba,
            "top_words": np.argsort(-log_theta, axis=1, kind="stable")[:, :3]}


def sgd_regression(np, X_host, y_host, perm_host, lr=0.05, epochs=5, batch=8):
    X, y, perm = np.asarray(X_host), np.asarray(y_host), np.asarray(perm_host)
    mean, std = X.mean(axis=0), X.std(axis=0, ddof=0)
    Xs = (X - mean) / std
    w, b = np.zeros(X.shape[1]), 0.0
    hist = []
    for _ in range(epochs):
        for start in range(0, len(y), batch):
            idx = perm[start : start + batch]
            err = Xs[idx] @ w + b - y[idx]
            w -= lr * 2 * Xs[idx].T @ err / len(idx)
            b -= lr * 2 * err.mean()
        hist.append(float(np.mean((Xs @ w + b - y) ** 2)))
    w_orig = w / std
    b_orig = b - np.sum(w * mean / std)
    return {"w": w_orig, "b": float(b_orig), "hist": hist}


def cross_validation(np, X_host, y_host, k=5, lam=0.1):
    X, y = np.asarray(X_host), np.asarray(y_host).astype(float)
    folds = np.array_split(np.arange(len(y)), k)
    errs = []
    for i, test in enumerate(folds):
        train = np.concatenate([f for j, f in enumerate(folds) if j != i])
        A = X[train]
        w = np.linalg.solve(A.T @ A + lam * np.eye(X.shape[1]), A.T @ y[train])
        errs.append(float(np.mean((X[test] @ w - y[test]) ** 2)))
    errs = np.array(errs)
    return {"errs": errs, "mean": float(errs.mean()), "std": float(errs.std(ddof=1)), "sizes": [len(f) for f in folds]}


def test_fisher_lda():
    X, y = blobs(seed=91)
    check(fisher_lda, X, y, rtol=1e-3, atol=1e-4)


def test_k_medoids():
    X, _ = blobs(seed=92)
    check(k_medoids, X, rtol=1e-4, atol=1e-4)


def test_depth2_tree():
    X, y = blobs(seed=93)
    check(depth2_tree, np.round(X, 2), y, rtol=1e-4, atol=1e-4)


def test_one_vs_rest_logistic():
    X, y = blobs(seed=94)
    check(one_vs_rest, X, y, rtol=1e-3, atol=1e-4)


def test_multinomial_naive_bayes():
    rng = np.random.default_rng(95)
    y = np.arange(30) % 3
    rates = np.array([[5, 1, 1, 0.5, 2], [1, 5, 1, 2, 0.5], [1, 1, 5, 0.5, 0.5]])
    check(multinomial_nb, rng.poisson(rates[y]), y, rtol=1e-4, atol=1e-5)


def test_minibatch_sgd_regression():
    rng = np.random.default_rng(96)
    X = rng.normal([1, 10, -3], [1, 5, 0.5], size=(40, 3))
    y = X @ np.array([2.0, -0.5, 1.0]) + 4 + rng.normal(0, 0.1, 40)
    check(sgd_regression, X, y, rng.permutation(40), rtol=1e-3, atol=1e-4)


def test_cross_validation_array_split():
    rng = np.random.default_rng(97)
    X = rng.normal(size=(23, 4))
    check(cross_validation, X, X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(0, 0.2, 23), rtol=1e-3, atol=1e-5)
