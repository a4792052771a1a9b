"""Classic machine learning from scratch: k-means++, a Gaussian mixture by EM, PCA by SVD and by eigh, Gaussian
naive Bayes, a tree split search with argsort+cumsum, kNN with argpartition, a linear SVM by subgradient, a
perceptron, softmax regression with one-hot rows of eye[y], logistic regression and ridge (tests/porting)."""

import numpy as np
from harness import check


def blobs(n=60, seed=80):
    rng = np.random.default_rng(seed)
    centers = np.array([[0.0, 0.0], [5.0, 1.0], [1.0, 5.0]])
    y = rng.permutation(np.arange(n) % 3)
    return centers[y] + rng.normal(0, 0.8, size=(n, 2)), y


def kmeans_pp(np, X_host, u_host, k=3, iters=10):
    X, u = np.asarray(X_host), np.asarray(u_host)
    n = X.shape[0]
    centers = np.empty((k, X.shape[1]))
    centers[0] = X[int(u[0] * n)]
    for j in range(1, k):
        d2 = ((X[:, np.newaxis, :] - centers[np.newaxis, :j, :]) ** 2).sum(axis=-1).min(axis=1)
        cdf = np.cumsum(d2 / d2.sum())
        centers[j] = X[np.searchsorted(cdf, u[j])]
    for _ in range(iters):
        d = np.linalg.norm(X[:, None] - centers[None], axis=2)
        labels = d.argmin(axis=1)
        new = np.array([X[labels == c].mean(axis=0) for c in range(k)])
        if np.allclose(new, centers):
            break
        centers = new
    inertia = np.sum((X - centers[labels]) ** 2)
    return {"centers": centers[np.lexsort(centers.T[::-1])], "inertia": float(inertia),
            "sizes": np.sort(np.bincount(labels, minlength=k))}


def gmm_em(np, X_host, iters=15):
    X = np.asarray(X_host)
    n, d = X.shape
    k = 3
    mu = X[[0, 1, 2]].copy()
    cov = np.array([np.eye(d)] * k)
    pi = np.full(k, 1 / k)
    ll_hist = []
    for _ in range(iters):
        diff = X[:, None, :] - mu[None, :, :]
        inv = np.linalg.inv(cov)
        maha = np.einsum("nkd,kde,nke->nk", diff, inv, diff)
        logdet = np.log(np.linalg.det(cov))
        logp = -0.5 * (maha + logdet + d * np.log(2 * np.pi)) + np.log(pi)
        m = logp.max(axis=1, keepdims=True)
        lse = m + np.log(np.exp(logp - m).sum(axis=1, keepdims=True))
        R = np.exp(logp - lse)
        ll_hist.append(float(lse.sum()))
        Nk = R.sum(axis=0)
        mu = (R.T @ X) / Nk[:, np.newaxis]
        diff = X[:, None, :] - mu[None]
        cov = np.einsum("nk,nkd,nke->kde", R, diff, diff) / Nk[:, None, None] + 1e-6 * np.eye(d)
        pi = Nk / n
    order = np.argsort(mu[:, 0] + 10 * mu[:, 1])
    return {"mu": mu[order], "pi": pi[order], "ll": ll_hist[-1],
            "monotone": bool(np.all(np.diff(ll_hist) > -1e-3)), "hard": np.bincount(R.argmax(1), minlength=3)[order]}


def pca_svd_eigh(np, X_host):
    X = np.asarray(X_host)
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    explained = S**2 / (len(X) - 1)
    C = np.cov(Xc, rowvar=False)
    w, V = np.linalg.eigh(C)
    w, V = w[::-1], V[:, ::-1]
    signs = np.sign(V[0]) * np.sign(Vt[:, 0])
    ratio = explained / explained.sum()
    proj = Xc @ Vt[:2].T
    recon = proj @ Vt[:2] + X.mean(axis=0)
    return {"explained": explained, "w": w, "agree": bool(np.allclose(V * signs, Vt.T, atol=1e-4)),
            "ratio": np.round(ratio, 4), "cum": np.cumsum(ratio), "k95": int(np.argmax(np.cumsum(ratio) >= 0.95) + 1),
            "recon_err": float(np.mean((X - recon) ** 2)), "proj_abs": np.abs(proj)}


def gaussian_nb(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    var = np.array([X[y == c].var(axis=0) for c in classes]) + 1e-9
    prior = np.array([np.mean(y == c) for c in classes])
    ll = -0.5 * (np.log(2 * np.pi * var)[None] + (X[:, None, :] - means[None]) ** 2 / var[None]).sum(axis=2)
    post = ll + np.log(prior)
    post -= post.max(axis=1, keepdims=True)
    prob = np.exp(post)
    prob /= prob.sum(axis=1, keepdims=True)
    pred = classes[post.argmax(axis=1)]
    return {"means": means, "var": var, "prior": prior, "pred": pred, "acc": float((pred == y).mean()),
            "prob_max": np.round(prob.max(axis=1), 3)}


def best_split(np, X_host, y_host):
    X, y = np.asarray(X_host), np.asarray(y_host)
    n, d = X.shape
    best = (np.inf, -1, 0.0)
    gains = []
    for j in range(d):
        order = np.argsort(X[:, j], kind="stable")
        xs, ys = X[order, j], y[order]
        onehot = np.eye(3)[ys]
        left = np.cumsum(onehot, axis=0)[:-1]
        right = onehot.sum(axis=0) - left
        nl = np.arange(1, n)[:, None]
        gini_l = 1 - ((left / nl) ** 2).sum(axis=1)
        gini_r = 1 - ((right / (n - nl)) ** 2).sum(axis=1)
        score = (nl[:, 0] * gini_l + (n - nl[:, 0]) * gini_r) / n
        score[xs[1:] == xs[:-1]] = np.inf
        i = int(np.argmin(score))
        gains.append(float(score[i]))
        if score[i] < best[0]:
            best = (float(score[i]), j, float((xs[i] + xs[i + 1]) / 2))
    return {"best": list(best), "gains": gains}


def knn_argpartition(np, X_host, y_host, k=5):
    X, y = np.asarray(X_host), np.asarray(y_host)
    Xtr, ytr, Xte, yte = X[:45], y[:45], X[45:], y[45:]
    D = np.sum(Xte**2, axis=1, keepdims=True) + np.sum(Xtr**2, axis=1) - 2 * Xte @ Xtr.T
    idx = np.argpartition(D, k, axis=1)[:, :k]
    nd = np.take_along_axis(D, idx, axis=1)
    idx = np.take_along_axis(idx, np.argsort(nd, axis=1), axis=1)
    votes = np.zeros((len(Xte), 3), dtype=int)
    np.add.at(votes, (np.arange(len(Xte))[:, None], ytr[idx]), 1)
    pred = votes.argmax(axis=1)
    return {"idx": np.sort(idx, axis=1), "votes": votes, "pred": pred, "acc": float(np.mean(pred == yte))}


def linear_svm(np, X_host, y_host, lam=0.01, epochs=80, lr=0.1):
    X = np.asarray(X_host)
    y = np.where(np.asarray(y_host) == 0, -1.0, 1.0)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        margins = y * (X @ w + b)
        viol = margins < 1
        gw = lam * w - (y[viol, None] * X[viol]).sum(axis=0) / len(y)
        gb = -y[viol].sum() / len(y)
        w -= lr * gw
        b -= lr * gb
    hinge = np.maximum(0, 1 - y * (X @ w + b)).mean()
    return {"w": w, "b": float(b), "hinge": float(hinge), "acc": float(np.mean(np.sign(X @ w + b) == y)),
            "n_sv": int(np.count_nonzero(y * (X @ w + b) <= 1))}


def perceptron(np, X_host, y_host, epochs=5):
    X = np.c_[np.asarray(X_host), np.ones(len(X_host))]
    y = np.asarray(y_host) * 2 - 1
    w = np.zeros(X.shape[1])
    mistakes = []
    for _ in range(epochs):
        m = 0
        for xi, yi in zip(X, y, strict=True):
            if yi * np.dot(w, xi) <= 0:
                w += yi * xi
                m += 1
        mistakes.append(m)
    return {"w": w, "mistakes": mistakes, "acc": float(np.mean(np.sign(X @ w) == y))}


def softmax_regression(np, X_host, y_host, lr=0.3, epochs=50):
    X, y = np.asarray(X_host), np.asarray(y_host)
    n = len(y)
    Y = np.eye(3)[y]
    X = np.hstack([X, np.ones((n, 1))])
    W = np.zeros((3, 3))
    for _ in range(epochs):
        Z = X @ W
        P = np.exp(Z - Z.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        W -= lr * X.T @ (P - Y) / n
    loss = -np.sum(Y * np.log(P)) / n
    return {"W": W, "loss": float(loss), "pred": P.argmax(1), "conf": np.round(P.max(1), 2).min()}


def logistic_ridge(np, X_host, y_host, lam=0.5):
    X, y = np.asarray(X_host), (np.asarray(y_host) == 1).astype(float)
    Xb = np.column_stack([np.ones(len(X)), X])
    w = np.zeros(Xb.shape[1])
    for _ in range(8):
        p = 1 / (1 + np.exp(-Xb @ w))
        H = Xb.T @ (Xb * (p * (1 - p))[:, np.newaxis]) + lam * np.eye(3)
        w -= np.linalg.solve(H, Xb.T @ (p - y) + lam * w)
    ridge = np.linalg.solve(Xb.T @ Xb + lam * np.identity(3), Xb.T @ y)
    return {"w": w, "ridge": ridge, "auc_like": float(np.mean(p[y == 1][:, None] > p[y == 0][None, :]))}


def test_kmeans_plus_plus():
    X, _ = blobs(seed=81)
    check(kmeans_pp, X, np.array([0.3, 0.6, 0.2]), rtol=1e-4, atol=1e-4)


def test_gmm_em_einsum():
    X, _ = blobs(seed=82)
    check(gmm_em, X, rtol=2e-3, atol=2e-3)


def test_pca_svd_and_eigh():
    rng = np.random.default_rng(83)
    X = rng.normal(size=(40, 4)) @ np.array([[3, 0, 0, 0], [1, 1, 0, 0], [0, 0, 0.5, 0], [0, 0, 0, 0.1]])
    check(pca_svd_eigh, X, rtol=1e-3, atol=1e-4)


def test_gaussian_naive_bayes():
    X, y = blobs(seed=84)
    check(gaussian_nb, X, y, rtol=1e-4, atol=1e-5)


def test_tree_split_search_argsort_cumsum():
    X, y = blobs(seed=85)
    check(best_split, np.round(X, 1), y, rtol=1e-4, atol=1e-5)


def test_knn_argpartition_add_at_votes():
    X, y = blobs(seed=86)
    check(knn_argpartition, X, y, rtol=1e-4, atol=1e-4)


def test_linear_svm_subgradient():
    X, y = blobs(seed=87)
    keep = y < 2
    check(linear_svm, X[keep], y[keep], rtol=1e-3, atol=1e-4)


def test_perceptron_zip_rows():
    X, y = blobs(n=30, seed=88)
    keep = y < 2
    check(perceptron, X[keep], y[keep], rtol=1e-4, atol=1e-4)


def test_softmax_regression_eye_onehot():
    X, y = blobs(seed=89)
    check(softmax_regression, X, y, rtol=1e-3, atol=1e-4)


def test_logistic_newton_and_ridge():
    X, y = blobs(seed=90)
    keep = y < 2
    check(logistic_ridge, X[keep] / 3, y[keep], rtol=1e-3, atol=1e-4)
