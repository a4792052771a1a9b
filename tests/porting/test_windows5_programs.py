"""Window and einsum programs: rolling mean/std/z-scores from cumulative sums (the Stack Overflow
``moving_average`` with ``ret[n:] = ret[n:] - ret[:-n]``), rolling extrema and medians with sliding_window_view,
Toeplitz and Hankel matrices with as_strided, exponential moving averages by a loop and by powers, einsum idioms
(batched traces and bilinear forms, pairwise squared distances, attention weights, outer products per row) and
np.convolve smoothing with edge handling (tests/porting)."""

import numpy as np
from harness import check


def rolling_cumsum(np, x_host, n=5):
    x = np.asarray(x_host)
    ret = np.cumsum(x, dtype=float)
    ret[n:] = ret[n:] - ret[:-n]
    mean = ret[n - 1 :] / n
    c1 = np.cumsum(np.insert(x, 0, 0))
    c2 = np.cumsum(np.insert(x**2, 0, 0))
    s1 = c1[n:] - c1[:-n]
    s2 = c2[n:] - c2[:-n]
    var = s2 / n - (s1 / n) ** 2
    std = np.sqrt(np.maximum(var, 0))
    z = (x[n - 1 :] - mean) / np.where(std > 0, std, 1)
    conv = np.convolve(x, np.ones(n) / n, mode="valid")
    return {"mean": mean, "std": std, "z": z, "same": bool(np.allclose(mean, conv, atol=1e-4))}


def rolling_windows(np, x_host, w=4):
    x = np.asarray(x_host)
    win = np.lib.stride_tricks.sliding_window_view(x, w)
    roll_max = win.max(axis=1)
    roll_min = win.min(axis=1)
    roll_med = np.median(win, axis=1)
    roll_rank = (win < win[:, -1:]).sum(axis=1)
    breakout = np.flatnonzero(x[w:] > roll_max[:-1]) + w
    m2 = np.lib.stride_tricks.sliding_window_view(x.reshape(4, -1), (2, 3))
    return {"max": roll_max, "min": roll_min, "med": roll_med, "rank": roll_rank, "breakout": breakout,
            "m2": m2.mean(axis=(-1, -2)), "shape": m2.shape}


def toeplitz_hankel(np, c_host):
    c = np.asarray(c_host)
    n = len(c)
    padded = np.concatenate([c[::-1], c[1:]])
    T = np.lib.stride_tricks.as_strided(padded[n - 1 :], shape=(n, n), strides=(-padded.strides[0],
                                                                                padded.strides[0]))
    T = T.copy()
    H = np.lib.stride_tricks.as_strided(np.concatenate([c, np.zeros(n - 1)]), shape=(n, n),
                                        strides=(c.strides[0], c.strides[0])).copy()
    i, j = np.indices((n, n))
    T2 = c[np.abs(i - j)]
    H2 = np.where(i + j < n, c[np.minimum(i + j, n - 1)], 0)
    b = np.arange(1.0, n + 1)
    sol = np.linalg.solve(T + n * np.eye(n), b)
    return {"T": T, "H": H, "T_same": bool(np.array_equal(T, T2)), "H_same": bool(np.array_equal(H, H2)),
            "sol": sol, "sym": bool(np.allclose(T, T.T))}


def ema(np, x_host, alpha=0.3):
    x = np.asarray(x_host)
    out = np.empty_like(x)
    out[0] = x[0]
    for t in range(1, len(x)):
        out[t] = alpha * x[t] + (1 - alpha) * out[t - 1]
    n = len(x)
    powers = (1 - alpha) ** np.arange(n)
    W = np.tril(powers[np.subtract.outer(np.arange(n), np.arange(n)).clip(0)])
    W[:, 1:] *= alpha
    direct = W @ x
    crossings = np.flatnonzero(np.diff(np.sign(x - out)) != 0)
    return {"loop": out, "direct": direct, "crossings": crossings}


def einsum_idioms(np, A_host, B_host, X_host):
    A, B, X = np.asarray(A_host), np.asarray(B_host), np.asarray(X_host)
    traces = np.einsum("bii->b", A)
    bilinear = np.einsum("bi,bij,bj->b", X[:, :3], A, X[:, :3])
    d2 = np.einsum("ij,ij->i", X, X)[:, None] + np.einsum("ij,ij->i", X, X)[None, :] - 2 * np.einsum("ik,jk->ij",
                                                                                                      X, X)
    scores = np.einsum("qd,kd->qk", X, X) / np.sqrt(X.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    attended = np.einsum("qk,kd->qd", weights, X)
    outer_rows = np.einsum("ni,nj->nij", X[:2], X[:2])
    batched = np.einsum("bij,bjk->bik", A, B)
    frob = np.sqrt(np.einsum("bij,bij->b", A, A))
    return {"traces": traces, "bilinear": bilinear, "d2": np.maximum(d2, 0), "attended": attended,
            "outer_rows": outer_rows, "batched": batched, "frob": frob,
            "check": bool(np.allclose(batched, A @ B, atol=1e-4))}


def smoothing(np, x_host):
    x = np.asarray(x_host)
    w = np.hanning(7)
    w /= w.sum()
    same = np.convolve(x, w, mode="same")
    padded = np.pad(x, 3, mode="reflect")
    reflected = np.convolve(padded, w, mode="valid")
    edges = np.convolve(np.ones_like(x), w, mode="same")
    normalised = same / edges
    kernel = np.exp(-0.5 * (np.arange(-3, 4) / 1.5) ** 2)
    gauss = np.convolve(x, kernel / kernel.sum(), mode="same")
    peaks = np.flatnonzero((gauss[1:-1] > gauss[:-2]) & (gauss[1:-1] > gauss[2:])) + 1
    return {"same": same, "reflected": reflected, "normalised": normalised, "peaks": peaks}


def test_rolling_mean_std_zscore_by_cumsum():
    check(rolling_cumsum, np.random.default_rng(601).normal(10, 2, 40).round(3), rtol=1e-3, atol=1e-3)


def test_rolling_extrema_median_rank_windows():
    check(rolling_windows, np.random.default_rng(602).normal(size=24).cumsum().round(3))


def test_toeplitz_hankel_as_strided():
    check(toeplitz_hankel, np.array([4.0, 1.0, 0.5, 0.25, 0.125]), rtol=1e-4, atol=1e-5)


def test_exponential_moving_average_loop_and_matrix():
    check(ema, np.random.default_rng(603).normal(size=30).cumsum().round(3), rtol=1e-3, atol=1e-4)


def test_einsum_idioms_traces_bilinear_attention():
    rng = np.random.default_rng(604)
    check(einsum_idioms, rng.normal(size=(4, 3, 3)), rng.normal(size=(4, 3, 2)), rng.normal(size=(4, 5)),
          rtol=1e-3, atol=1e-4)


def test_convolve_smoothing_edges_and_peaks():
    x = np.sin(np.linspace(0, 4 * np.pi, 50)) + np.random.default_rng(605).normal(0, 0.1, 50)
    check(smoothing, x, rtol=1e-3, atol=1e-4)
