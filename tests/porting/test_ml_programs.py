"""Machine-learning programs as students write them in NumPy, ported by ``np`` -> ``kd`` (tests/porting/harness.py)."""

import numpy as np
import pytest
from harness import check


def blobs(n=60, k=3, d=2, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.uniform(-6, 6, size=(k, d))
    y = rng.integers(0, k, size=n)
    X = centers[y] + rng.normal(size=(n, d))
    return X.astype(np.float32), y


def kmeans(np, X_host, k=3, iters=10):
    X = np.asarray(X_host)
    centroids = X[:k].copy()
    for _ in range(iters):
        dists = np.sum((X[:, np.newaxis, :] - centroids[np.newaxis, :, :]) ** 2, axis=2)
        labels = np.argmin(dists, axis=1)
        new = np.zeros_like(centroids)
        for j in range(k):
            members = X[labels == j]
            if len(members) > 0:
                new[j] = members.mean(axis=0)
            else:
                new[j] = centroids[j]
        shift = np.linalg.norm(new - centroids)
        centroids = new
        if shift < 1e-6:
            break
    inertia = float(((X - centroids[labels]) ** 2).sum())
    counts = np.bincount(labels, minlength=k)
    return {"centroids": centroids, "labels": labels, "inertia": inertia, "counts": counts.tolist()}


def knn(np, X_host, y_host, k=5):
    X, y = np.array(X_host), np.array(y_host)
    train, test = X[:40], X[40:]
    ytr, yte = y[:40], y[40:]
    d = np.sqrt(((test[:, None, :] - train[None, :, :]) ** 2).sum(-1))
    nearest = np.argsort(d, axis=1)[:, :k]
    part = np.argpartition(d, k, axis=1)[:, :k]
    votes = ytr[nearest]
    pred = np.array([np.bincount(v, minlength=3).argmax() for v in votes])
    acc = (pred == yte).mean()
    same_set = np.sort(part, axis=1) == np.sort(nearest, axis=1)
    return {"pred": pred, "acc": float(acc), "same": bool(same_set.all()), "dmin": d.min(axis=1)}


def pca(np, X_host, n_components=2):
    X = np.asarray(X_host, dtype=np.float64)
    mu = X.mean(axis=0, keepdims=True)
    Xc = X - mu
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    explained = S**2 / (len(X) - 1)
    ratio = explained / explained.sum()
    cov = np.cov(Xc, rowvar=False)
    w, V = np.linalg.eigh(cov)
    order = np.argsort(w)[::-1]
    w = w[order]
    Z = Xc @ Vt[:n_components].T
    # components are defined up to sign: compare absolute projections
    return {"ratio": ratio, "eig": w, "explained": explained, "absZ": np.abs(Z), "total_var": float(np.trace(cov))}


def linear_regression(np, X_host, y_host):
    X = np.asarray(X_host)
    y = np.asarray(y_host)
    A = np.hstack([X, np.ones((X.shape[0], 1), dtype=X.dtype)])
    coef, residuals, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    normal = np.linalg.solve(A.T @ A, A.T @ y)
    pinv = np.linalg.pinv(A) @ y
    pred = A @ coef
    r2 = 1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    print(f"R^2 = {r2:.4f}, rank = {rank}")
    return {"coef": coef, "normal": normal, "pinv": pinv, "r2": float(r2), "rank": int(rank), "sv": sv}


def logistic_regression(np, X_host, y_host, lr=0.1, epochs=50):
    X = np.asarray(X_host)
    y = (np.asarray(y_host) == 0).astype(np.float32)
    w = np.zeros(X.shape[1], dtype=np.float32)
    b = 0.0
    losses = []
    for epoch in range(epochs):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        grad_w = X.T @ (p - y) / len(y)
        grad_b = np.mean(p - y)
        w -= lr * grad_w
        b -= lr * grad_b
        if epoch % 10 == 0:
            eps = 1e-7
            loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
            losses.append(float(loss))
    acc = ((X @ w + b > 0) == (y > 0.5)).mean()
    return {"w": w, "b": float(b), "losses": losses, "acc": float(acc)}


def softmax_classifier(np, X_host, y_host, K=3, lr=0.5, steps=40):
    X = np.asarray(X_host)
    y = np.asarray(y_host)
    Y = np.eye(K)[y]
    W = np.zeros((X.shape[1], K))
    b = np.zeros(K)
    for _ in range(steps):
        logits = X @ W + b
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        grad = (probs - Y) / X.shape[0]
        W -= lr * X.T @ grad
        b -= lr * grad.sum(axis=0)
    pred = probs.argmax(1)
    loss = -np.log(probs[np.arange(len(y)), y]).mean()
    return {"W": W, "b": b, "loss": loss.item(), "acc": (pred == y).mean(), "Y": Y}


def mlp(np, X_host, y_host, W1_host, W2_host, perm_host, hidden=8, lr=0.1, epochs=3, batch=16):
    X = np.asarray(X_host)
    y = np.asarray(y_host)
    W1 = np.array(W1_host)
    b1 = np.zeros(hidden, dtype=np.float32)
    W2 = np.array(W2_host)
    b2 = np.zeros(3, dtype=np.float32)
    n = X.shape[0]
    perm = np.asarray(perm_host)
    history = []
    for _epoch in range(epochs):
        for i in range(0, n, batch):
            idx = perm[i:i + batch]
            xb, yb = X[idx], y[idx]
            h = np.maximum(0, xb @ W1 + b1)
            out = h @ W2 + b2
            out = out - out.max(axis=1, keepdims=True)
            p = np.exp(out) / np.exp(out).sum(axis=1, keepdims=True)
            d_out = p.copy()
            d_out[np.arange(len(yb)), yb] -= 1
            d_out /= len(yb)
            dW2 = h.T @ d_out
            db2 = d_out.sum(axis=0)
            dh = d_out @ W2.T
            dh[h <= 0] = 0
            dW1 = xb.T @ dh
            db1 = dh.sum(axis=0)
            W1 -= lr * dW1
            b1 -= lr * db1
            W2 -= lr * dW2
            b2 -= lr * db2
        logits = np.maximum(0, X @ W1 + b1) @ W2 + b2
        history.append(float((logits.argmax(axis=1) == y).mean()))
    return {"W1": W1, "W2": W2, "b1": b1, "b2": b2, "history": history}


def test_kmeans():
    X, _ = blobs()
    check(kmeans, X)


def test_knn_argsort_argpartition():
    X, y = blobs()
    check(knn, X, y)


def test_pca_svd_eigh():
    X, _ = blobs(n=50, d=4)
    check(pca, X, rtol=1e-3, atol=1e-4)


def test_linear_regression_lstsq_normal_equations():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3)).astype(np.float32)
    y = (X @ np.array([1.5, -2.0, 0.5], np.float32) + 0.3 + 0.01 * rng.normal(size=30)).astype(np.float32)
    check(linear_regression, X, y, rtol=1e-3, atol=1e-4)


def test_logistic_regression_gradient_descent():
    X, y = blobs()
    check(logistic_regression, X, y, rtol=1e-3, atol=1e-5)


def test_softmax_classifier_one_hot_eye():
    X, y = blobs()
    check(softmax_classifier, X, y, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("batch", [16, 7])
def test_mlp_minibatches(batch):
    X, y = blobs(n=48)
    rng = np.random.default_rng(2)
    W1 = (0.5 * rng.normal(size=(2, 8))).astype(np.float32)
    W2 = (0.5 * rng.normal(size=(8, 3))).astype(np.float32)
    perm = rng.permutation(len(X))
    check(mlp, X, y, W1, W2, perm, batch=batch, rtol=1e-3, atol=1e-5)
