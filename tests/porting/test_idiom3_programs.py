"""Idioms this batch found broken, each in the program that met it: lengths computed from data
(``k = y.max() + 1`` in shapes, ``np.eye(k)``, ``np.split(x, k)``, ``axis=np.int64``), weighted covariance,
``np.add.at`` with a slice in its index, ``np.multiply.at``, percentiles at ``np.arange`` q, pad statistics
(tests/porting)."""

import numpy as np
from harness import check


def label_matrices(np, y_host, X_host):
    y, X = np.asarray(y_host), np.asarray(X_host)
    k = y.max() + 1
    onehot = np.eye(k)[y]
    counts = np.zeros((k,), dtype=int)
    np.add.at(counts, y, 1)
    M = np.zeros((k, X.shape[1]))
    np.add.at(M, y, X)
    centroids = M / counts[:, None]
    best_axis = np.argmax(X.var(axis=0))
    spread = np.ptp(X[:, best_axis])
    short = np.argmin(X.shape)
    totals = X.sum(axis=short)
    chunks = np.array_split(np.sort(X[:, best_axis]), k)
    hist, _ = np.histogram(X[:, 0], bins=k)
    T = np.linalg.matrix_power(np.full((k, k), 1.0 / k), k)
    return {"k": int(k), "onehot": onehot, "counts": counts, "centroids": centroids, "spread": float(spread),
            "totals": totals, "chunk_means": [float(c.mean()) for c in chunks], "hist": hist, "T": T,
            "tri": np.tri(k, dtype=int), "tiles": np.tile(np.arange(2), k)}


def weighted_survey(np, X_host, w_host, n_host):
    X, w, n = np.asarray(X_host), np.asarray(w_host), np.asarray(n_host)
    C_a = np.cov(X, rowvar=False, aweights=w)
    C_f = np.cov(X, rowvar=False, fweights=n)
    C_both = np.cov(X.T, fweights=n, aweights=w, ddof=0)
    expanded = np.repeat(X, n, axis=0)
    C_rep = np.cov(expanded, rowvar=False)
    mean_w = np.average(X, axis=0, weights=w)
    sd = np.sqrt(np.diag(C_a))
    corr = C_a / np.outer(sd, sd)
    deciles = np.percentile(X[:, 0], np.arange(10, 100, 10))
    qs = np.quantile(X[:, 1], np.linspace(0, 1, 5))
    return {"C_a": C_a, "C_f": C_f, "same_as_repeat": bool(np.allclose(C_f, C_rep, atol=1e-5)), "C_both": C_both,
            "mean_w": mean_w, "corr": corr, "deciles": deciles, "qs": qs}


def column_updates(np, A_host, cols_host):
    A = np.asarray(A_host)
    cols = np.asarray(cols_host)
    B = A.copy()
    np.add.at(B, (slice(None), cols), 1.0)
    C = np.ones_like(A)
    np.multiply.at(C, (slice(None), cols), 2.0)
    D = A.copy()
    np.maximum.at(D, (0, slice(1, 3)), 50.0)
    E = A.copy()
    np.subtract.at(E, A > 0.5, 0.25)
    F = A.copy()
    np.add.at(F, (Ellipsis, cols[:2]), A[:, :2])
    scale = np.ones(A.shape[1])
    np.multiply.at(scale, cols, 1.5)
    return {"B": B, "C": C, "D": D, "E": E, "F": F, "scale": scale}


def padded_features(np, x_host):
    x = np.asarray(x_host)
    lead = np.pad(x, (3, 0), mode="mean", stat_length=3)
    trail = np.pad(x, (0, 2), mode="median")
    env = np.pad(x, 2, mode="maximum", stat_length=4)
    ramp = np.pad(x, (4, 4), mode="linear_ramp", end_values=(0, 0))
    roll_mean = np.convolve(np.pad(x, (2, 2), mode="edge"), np.ones(5) / 5, mode="valid")
    M = x[:12].reshape(3, 4)
    Mp = np.pad(M, ((1, 1), (2, 0)), mode="minimum")
    Mi = np.pad((M * 10).astype(int), 1, mode="mean")
    return {"lead": lead, "trail": trail, "env": env, "ramp": ramp, "roll_mean": roll_mean, "Mp": Mp, "Mi": Mi}


def test_lengths_from_data_eye_zeros_split_hist():
    rng = np.random.default_rng(381)
    check(label_matrices, rng.integers(0, 4, 40), rng.normal(size=(40, 3)), rtol=1e-4, atol=1e-5)


def test_cov_aweights_fweights_percentile_arange():
    rng = np.random.default_rng(382)
    X = rng.normal(size=(25, 3)) @ np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 1.0]])
    check(weighted_survey, X, rng.uniform(0.2, 2.0, 25), rng.integers(1, 4, 25), rtol=1e-4, atol=1e-5)


def test_ufunc_at_slices_masks_multiply():
    rng = np.random.default_rng(383)
    check(column_updates, rng.random((4, 5)), np.array([0, 3, 3, 4, 0, 0]))


def test_pad_mean_median_maximum_linear_ramp():
    check(padded_features, np.random.default_rng(384).normal(size=16).round(2), rtol=1e-4, atol=1e-5)
