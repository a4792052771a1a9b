"""Compressed sensing and tomography in plain NumPy: ISTA and FISTA for the lasso with soft thresholding and a
step from `np.linalg.norm(A, 2)`, orthogonal matching pursuit by `lstsq` on a growing support, a sparse spike
train recovered in a DCT basis, a parallel-beam Radon transform by rotating pixel centres and `np.add.at`, its
unfiltered and ramp-filtered back-projection (`rfft`/`irfft` with `n=` and `axis=`), an ART (Kaczmarz) sweep, and
the support-recovery statistics of several solvers (tests/porting)."""

import numpy as np
from harness import check


def soft(np, x, t):
    return np.sign(x) * np.maximum(np.abs(x) - t, 0.0)


def ista(np, A, y, lam, iters):
    A = np.asarray(A)
    y = np.asarray(y)
    L = np.linalg.norm(A, 2) ** 2
    x = np.zeros(A.shape[1])
    history = []
    for _ in range(iters):
        grad = A.T @ (A @ x - y)
        x = soft(np, x - grad / L, lam / L)
        history.append(0.5 * np.sum((A @ x - y) ** 2) + lam * np.abs(x).sum())
    support = np.flatnonzero(np.abs(x) > 1e-3)
    return {"x": x, "L": L, "obj": np.array(history), "support": support,
            "monotone": bool(np.all(np.diff(history) <= 1e-6)), "nnz": np.count_nonzero(x)}


def fista(np, A, y, lam, iters):
    A = np.asarray(A, dtype=np.float64)
    L = np.linalg.norm(A, ord=2) ** 2
    x = z = np.zeros(A.shape[1])
    t = 1.0
    for _ in range(iters):
        x_new = soft(np, z - A.T @ (A @ z - y) / L, lam / L)
        t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2
        z = x_new + ((t - 1) / t_new) * (x_new - x)
        x, t = x_new, t_new
    resid = np.linalg.norm(A @ x - y)
    order = np.argsort(-np.abs(x), kind="stable")[:5]
    return {"x": x, "t": t, "resid": resid, "top": order, "top_vals": x[order],
            "l1": np.linalg.norm(x, 1), "linf": np.linalg.norm(x, np.inf)}


def omp(np, A, y, k):
    A = np.asarray(A)
    A = A / np.linalg.norm(A, axis=0, keepdims=True)
    r = np.asarray(y).copy()
    support = []
    coef = np.zeros(0)
    norms = [np.linalg.norm(r)]
    for _ in range(k):
        corr = np.abs(A.T @ r)
        corr[support] = 0
        j = int(np.argmax(corr))
        support.append(j)
        coef, *_ = np.linalg.lstsq(A[:, support], y, rcond=None)
        r = y - A[:, support] @ coef
        norms.append(np.linalg.norm(r))
    x = np.zeros(A.shape[1])
    x[support] = coef
    return {"support": sorted(support), "x": x, "norms": np.array(norms), "resid": norms[-1],
            "order": np.array(support)}


def dct_recovery(np, n, spikes, rows):
    k = np.arange(n)
    # orthonormal DCT-II matrix
    C = np.cos(np.pi * (2 * k[None, :] + 1) * k[:, None] / (2 * n)) * np.sqrt(2.0 / n)
    C[0] /= np.sqrt(2.0)
    s = np.zeros(n)
    s[spikes[:, 0].astype(int)] = spikes[:, 1]
    signal = C.T @ s
    A = C.T[rows]
    y = signal[rows]
    L = np.linalg.norm(A, 2) ** 2
    x = np.zeros(n)
    for _ in range(300):
        x = soft(np, x - A.T @ (A @ x - y) / L, 0.01 / L)
    err = np.linalg.norm(x - s) / np.linalg.norm(s)
    return {"orth": np.allclose(C @ C.T, np.eye(n), atol=1e-5), "y": y, "x": np.round(x, 3), "err": err,
            "found": np.sort(np.argpartition(-np.abs(x), len(spikes))[:len(spikes)])}


def radon(np, img, angles_deg):
    img = np.asarray(img, dtype=np.float64)
    n = img.shape[0]
    c = (n - 1) / 2.0
    yy, xx = np.mgrid[0:n, 0:n]
    xs, ys = xx.ravel() - c, c - yy.ravel()
    theta = np.deg2rad(np.asarray(angles_deg))
    # detector coordinate of every pixel centre at every angle, nearest bin
    t = np.outer(np.cos(theta), xs) + np.outer(np.sin(theta), ys)
    bins = np.clip(np.rint(t + c).astype(int), 0, n - 1)
    sino = np.zeros((len(theta), n))
    rows = np.repeat(np.arange(len(theta)), xs.size)
    np.add.at(sino, (rows, bins.ravel()), np.tile(img.ravel(), len(theta)))
    mass = sino.sum(axis=1)
    return {"sino": sino, "mass": mass, "conserved": np.allclose(mass, img.sum()),
            "peak_bin": sino.argmax(axis=1), "centroid": (sino * np.arange(n)).sum(axis=1) / mass}


def backprojection(np, sino, angles_deg, filtered):
    sino = np.asarray(sino)
    n_ang, n = sino.shape
    if filtered:
        size = 2 ** int(np.ceil(np.log2(2 * n)))
        freqs = np.fft.rfftfreq(size)
        ramp = 2 * np.abs(freqs)
        spec = np.fft.rfft(sino, n=size, axis=1) * ramp
        sino = np.fft.irfft(spec, n=size, axis=1)[:, :n]
    c = (n - 1) / 2.0
    yy, xx = np.mgrid[0:n, 0:n]
    xs, ys = xx - c, c - yy
    rec = np.zeros((n, n))
    for row, th in zip(sino, np.deg2rad(angles_deg), strict=True):
        t = xs * np.cos(th) + ys * np.sin(th) + c
        i0 = np.clip(np.floor(t).astype(int), 0, n - 2)
        w = np.clip(t - i0, 0, 1)
        rec += (1 - w) * row[i0] + w * row[i0 + 1]
    rec *= np.pi / (2 * n_ang)
    return {"rec": rec, "argmax": np.unravel_index(np.argmax(rec), rec.shape), "mean": rec.mean(),
            "row_profile": rec[n // 2]}


def kaczmarz(np, A, b, sweeps, relax):
    A = np.asarray(A)
    row_norms = np.einsum("ij,ij->i", A, A)
    x = np.zeros(A.shape[1])
    errs = []
    for _ in range(sweeps):
        for i in range(A.shape[0]):
            if row_norms[i] == 0:
                continue
            x += relax * (b[i] - A[i] @ x) / row_norms[i] * A[i]
        np.clip(x, 0, None, out=x)
        errs.append(np.linalg.norm(A @ x - b) / np.linalg.norm(b))
    return {"x": x, "errs": errs, "nonneg": bool((x >= 0).all()), "row_norms": row_norms}


def support_stats(np, truth, estimates, tol):
    truth = np.asarray(truth)
    est = np.asarray(estimates)
    t_sup = np.abs(truth) > tol
    e_sup = np.abs(est) > tol
    tp = np.sum(e_sup & t_sup, axis=1)
    fp = np.sum(e_sup & ~t_sup, axis=1)
    fn = np.sum(~e_sup & t_sup, axis=1)
    precision = np.divide(tp, tp + fp, out=np.zeros(tp.shape), where=(tp + fp) > 0)
    recall = tp / np.maximum(tp + fn, 1)
    err = np.linalg.norm(est - truth, axis=1, keepdims=True)
    best = np.argmin(err, axis=0)
    mag = np.abs(est).max(axis=1, where=t_sup, initial=0.0)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "err": err,
            "best": best, "mag": mag, "rank": np.argsort(err.ravel(), kind="stable")}


def _problem(seed, m=24, n=48, k=4):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(m, n)) / np.sqrt(m)
    x = np.zeros(n)
    x[rng.choice(n, k, replace=False)] = rng.choice([-1.0, 1.0], k) * rng.uniform(1, 2, k)
    return A, x, A @ x + 0.01 * rng.normal(size=m)


def test_ista():
    A, _, y = _problem(2801)
    check(ista, A, y, 0.05, 60, rtol=2e-3, atol=2e-4)


def test_fista():
    A, _, y = _problem(2802)
    check(fista, A, y, 0.02, 80, rtol=2e-3, atol=2e-4)


def test_omp():
    A, _, y = _problem(2803, m=30, n=60, k=5)
    check(omp, A, y, 5, rtol=1e-3, atol=1e-4)


def test_dct_recovery():
    rng = np.random.default_rng(2804)
    rows = np.sort(rng.choice(32, 20, replace=False))
    spikes = np.array([[3, 1.0], [11, -0.7], [20, 0.5]])
    check(dct_recovery, 32, spikes, rows, rtol=2e-3, atol=2e-3)


def test_radon():
    img = np.zeros((15, 15))
    img[4:8, 5:10] = 1.0
    img[10, 3] = 2.0
    check(radon, img, np.arange(0, 180, 22.5))


def test_backprojection():
    n = 16
    img = np.zeros((n, n))
    img[5:9, 6:11] = 1.0
    angles = np.arange(0, 180, 15.0)
    sino = radon(np, img, angles)["sino"]
    for filtered in (False, True):
        check(backprojection, sino, angles, filtered, rtol=1e-3, atol=1e-4)


def test_kaczmarz():
    rng = np.random.default_rng(2807)
    A = (rng.uniform(size=(20, 12)) < 0.3).astype(float)
    A[5] = 0
    x = rng.uniform(0, 1, 12)
    check(kaczmarz, A, A @ x, 4, 0.8, rtol=1e-3, atol=1e-5)


def test_support_stats():
    rng = np.random.default_rng(2808)
    truth = np.zeros(20)
    truth[[2, 7, 15]] = [1.0, -2.0, 0.5]
    est = truth + rng.normal(0, 0.05, (4, 20))
    est[1, 3] = 0.9
    est[2] = 0
    check(support_stats, truth, est, 0.2)
