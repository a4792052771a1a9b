"""More machine-learning programs: Newton's logistic regression, naive Bayes, ridge, k-means++ style
updates with bincount, confusion matrices with np.add.at, cross-validation splits (tests/porting)."""

import numpy as np
from harness import check


def dataset(n=80, d=3, k=3, seed=41):
    rng = np.random.default_rng(seed)
    centers = rng.normal(0, 3, size=(k, d))
    y = rng.integers(0, k, size=n)
    X = centers[y] + rng.normal(size=(n, d))
    return X.astype(np.float32), y, rng.permutation(n)


def newton_logistic(np, X_host, y_host, iters=8, lam=1e-2):
    X = np.asarray(X_host, dtype=np.float64)
    y = (np.asarray(y_host) == 1).astype(np.float64)
    X1 = np.c_[np.ones(len(X)), X]
    w = np.zeros(X1.shape[1])
    nll = []
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(X1 @ w)))
        g = X1.T @ (p - y) + lam * w
        H = (X1.T * (p * (1 - p))) @ X1 + lam * np.eye(len(w))
        w -= np.linalg.solve(H, g)
        p = np.clip(1 / (1 + np.exp(-(X1 @ w))), 1e-12, 1 - 1e-12)
        nll.append(float(-(y * np.log(p) + (1 - y) * np.log1p(-p)).sum()))
    pred = (X1 @ w > 0).astype(int)
    return {"w": w, "nll": nll, "acc": float((pred == y).mean()), "decreasing": bool(np.all(np.diff(nll) <= 1e-9))}


def gaussian_naive_bayes(np, X_host, y_host, perm_host):
    X, y, perm = np.asarray(X_host), np.asarray(y_host), np.asarray(perm_host)
    n_test = len(X) // 4
    test, train = perm[:n_test], perm[n_test:]
    Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
    classes = np.unique(ytr)
    priors = np.array([(ytr == c).mean() for c in classes])
    mu = np.array([Xtr[ytr == c].mean(axis=0) for c in classes])
    var = np.array([Xtr[ytr == c].var(axis=0) for c in classes]) + 1e-9
    ll = -0.5 * (np.log(2 * np.pi * var)[None] + (Xte[:, None, :] - mu[None]) ** 2 / var[None]).sum(axis=2)
    log_post = ll + np.log(priors)
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    post /= post.sum(axis=1, keepdims=True)
    pred = classes[np.argmax(post, axis=1)]
    K = len(classes)
    cm = np.zeros((K, K), dtype=int)
    np.add.at(cm, (yte, pred), 1)
    precision = np.diag(cm) / np.maximum(cm.sum(axis=0), 1)
    recall = np.diag(cm) / np.maximum(cm.sum(axis=1), 1)
    f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall + 1e-12), 0)
    return {"priors": priors, "mu": mu, "var": var, "post": post, "pred": pred, "cm": cm, "f1": f1,
            "acc": float(np.trace(cm) / cm.sum())}


def ridge_paths(np, X_host, y_host):
    X = np.asarray(X_host, dtype=np.float64)
    beta_true = np.arange(1, X.shape[1] + 1, dtype=np.float64)
    y = X @ beta_true + np.asarray(y_host, dtype=np.float64) * 0.1
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    lambdas = np.logspace(-3, 2, 6)
    coefs = np.array([np.linalg.solve(Xc.T @ Xc + lam * np.eye(X.shape[1]), Xc.T @ yc) for lam in lambdas])
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    d = s / (s**2 + lambdas[:, None])
    coefs_svd = (d * (U.T @ yc)) @ Vt
    aug = np.vstack([Xc, np.sqrt(lambdas[2]) * np.eye(X.shape[1])])
    yaug = np.concatenate([yc, np.zeros(X.shape[1])])
    lst = np.linalg.lstsq(aug, yaug, rcond=None)[0]
    dof = (s**2 / (s**2 + lambdas[:, None])).sum(axis=1)
    norms = np.linalg.norm(coefs, axis=1)
    return {"coefs": coefs, "same": bool(np.allclose(coefs, coefs_svd)), "lst": lst, "dof": dof,
            "shrinks": bool(np.all(np.diff(norms) < 0))}


def kmeans_bincount(np, X_host, k=3, iters=8):
    X = np.asarray(X_host)
    n = len(X)
    # farthest-point initialisation
    idx = [0]
    d2 = ((X - X[0]) ** 2).sum(axis=1)
    for _ in range(1, k):
        nxt = int(d2.argmax())
        idx.append(nxt)
        d2 = np.minimum(d2, ((X - X[nxt]) ** 2).sum(axis=1))
    C = X[idx]
    history = []
    for _ in range(iters):
        D = (X**2).sum(1, keepdims=True) - 2 * X @ C.T + (C**2).sum(1)
        lab = D.argmin(axis=1)
        counts = np.bincount(lab, minlength=k)
        sums = np.zeros_like(C)
        np.add.at(sums, lab, X)
        C = sums / np.maximum(counts, 1)[:, None]
        history.append(float(D[np.arange(n), lab].sum()))
    onehot = np.eye(k, dtype=bool)[lab]
    spread = np.array([X[onehot[:, j]].std(axis=0).mean() for j in range(k)])
    return {"C": C, "lab": lab, "counts": counts, "history": history, "spread": spread, "seeds": idx}


def crossval_split_and_metrics(np, X_host, y_host, perm_host, folds=4):
    X, y, perm = np.asarray(X_host), np.asarray(y_host), np.asarray(perm_host)
    parts = np.array_split(perm, folds)
    scores = []
    for f in range(folds):
        te = parts[f]
        tr = np.concatenate([parts[g] for g in range(folds) if g != f])
        mu = X[tr].mean(axis=0)
        sd = X[tr].std(axis=0)
        Ztr, Zte = (X[tr] - mu) / sd, (X[te] - mu) / sd
        cent = np.stack([Ztr[y[tr] == c].mean(axis=0) for c in range(3)])
        pred = np.argmin(np.linalg.norm(Zte[:, None] - cent[None], axis=2), axis=1)
        scores.append(float(np.mean(pred == y[te])))
    in_test = np.zeros(len(X), dtype=int)
    for p in parts:
        in_test[p] += 1
    mask = np.isin(np.arange(len(X)), parts[0])
    strat = [np.flatnonzero(y == c) for c in range(3)]
    sizes = [len(s) for s in strat]
    return {"scores": scores, "mean": float(np.mean(scores)), "std": float(np.std(scores)), "fold_sizes":
            [len(p) for p in parts], "each_once": bool((in_test == 1).all()), "mask": mask, "sizes": sizes}


def softmax_cross_entropy(np, logits_host, y_host):
    z = np.asarray(logits_host)
    y = np.asarray(y_host)
    n, K = z.shape
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    onehot = np.eye(K)[y]
    ce = -(onehot * logp).sum(axis=1)
    ce2 = -logp[np.arange(n), y]
    smooth = 0.1
    target = onehot * (1 - smooth) + smooth / K
    ce_smooth = -(target * logp).sum(axis=1).mean()
    grad = np.exp(logp) - onehot
    top2 = np.argsort(-z, axis=1)[:, :2]
    top2_acc = np.any(top2 == y[:, None], axis=1).mean()
    entropy = -(np.exp(logp) * logp).sum(axis=1)
    calib = np.histogram(np.exp(logp.max(axis=1)), bins=5, range=(0, 1))[0]
    return {"ce": ce, "same": bool(np.allclose(ce, ce2)), "smooth": float(ce_smooth), "grad": grad,
            "grad_sum": np.abs(grad.sum(axis=1)).max() < 1e-5, "top2": float(top2_acc), "entropy": entropy,
            "calib": calib}


def pca_whitening(np, X_host):
    X = np.asarray(X_host, dtype=np.float64)
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / (len(X) - 1)
    evals, evecs = np.linalg.eigh(C)
    idx = evals.argsort()[::-1]
    evals, evecs = evals[idx], evecs[:, idx]
    evecs *= np.sign(evecs[0])  # a fixed sign per component
    W = evecs / np.sqrt(evals + 1e-8)
    Z = Xc @ W
    cumvar = np.cumsum(evals) / evals.sum()
    k = int(np.searchsorted(cumvar, 0.9) + 1)
    recon = Z[:, :k] * np.sqrt(evals[:k]) @ evecs[:, :k].T + X.mean(axis=0)
    err = np.mean((recon - X) ** 2)
    return {"evals": evals, "evecs": evecs, "cov_Z": np.cov(Z, rowvar=False), "k": k, "err": float(err),
            "cumvar": cumvar}


def test_logistic_regression_newton_steps():
    X, y, _ = dataset()
    check(newton_logistic, X, y, rtol=1e-3, atol=1e-4)


def test_gaussian_naive_bayes_confusion_add_at():
    X, y, perm = dataset()
    check(gaussian_naive_bayes, X, y, perm, rtol=1e-3, atol=1e-4)


def test_ridge_solve_svd_lstsq_paths():
    X, _, _ = dataset(n=40, d=4)
    noise = np.random.default_rng(42).normal(size=40)
    check(ridge_paths, X, noise, rtol=1e-3, atol=1e-4)


def test_kmeans_farthest_point_add_at():
    X, _, _ = dataset(n=60, d=2, seed=43)
    check(kmeans_bincount, X, rtol=1e-3, atol=1e-3)


def test_cross_validation_array_split():
    X, y, perm = dataset()
    check(crossval_split_and_metrics, X, y, perm, rtol=1e-3, atol=1e-4)


def test_softmax_cross_entropy_label_smoothing():
    rng = np.random.default_rng(44)
    check(softmax_cross_entropy, rng.normal(0, 2, size=(20, 5)).astype(np.float32), rng.integers(0, 5, 20),
          rtol=1e-3, atol=1e-4)


def test_pca_whitening_eigh():
    rng = np.random.default_rng(45)
    X = rng.normal(size=(50, 4)) @ rng.normal(size=(4, 4))
    check(pca_whitening, X, rtol=1e-3, atol=1e-3)
