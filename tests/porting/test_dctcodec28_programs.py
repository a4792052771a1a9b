"""Block-transform image coding and matrix factorisations in plain NumPy: a JPEG-like codec (8x8 blocks by
reshape/swapaxes, the orthonormal DCT matrix, quality-scaled quantisation tables, zig-zag order by `lexsort`,
run-lengths of zeros, `int8`/`int16` coefficients and the `uint8` reconstruction), the DCT by `np.fft.fft` of a
mirrored signal (`norm="ortho"`), chroma subsampling with `np.pad(mode="edge")` and block means, NMF by
multiplicative updates (Frobenius and KL), topic models by NMF on a term-document count matrix with top words by
`argsort`, and kernel ridge regression with RBF/Laplacian kernels, hyper-parameter search by leave-one-out
(tests/porting)."""

import numpy as np
from harness import check

LUMA = np.array([
    [16, 11, 10, 16, 24, 40, 51, 61], [12, 12, 14, 19, 26, 58, 60, 55],
    [14, 13, 16, 24, 40, 57, 69, 56], [14, 17, 22, 29, 51, 87, 80, 62],
    [18, 22, 37, 56, 68, 109, 103, 77], [24, 35, 55, 64, 81, 104, 113, 92],
    [49, 64, 78, 87, 103, 121, 120, 101], [72, 92, 95, 98, 112, 100, 103, 99]])


def dct_matrix(np, n):
    k = np.arange(n)
    C = np.cos(np.pi * (2 * k[None, :] + 1) * k[:, None] / (2 * n))
    C *= np.sqrt(2.0 / n)
    C[0, :] = np.sqrt(1.0 / n)
    return C


def zigzag(np, n):
    i, j = np.indices((n, n))
    s = i + j
    # odd diagonals run down (by row), even ones up (by column)
    minor = np.where(s % 2 == 1, i, j)
    return np.lexsort((minor.ravel(), s.ravel()))


def jpeg_roundtrip(np, img, quality):
    img = np.asarray(img)
    h, w = img.shape
    scale = 5000 / quality if quality < 50 else 200 - 2 * quality
    Q = np.clip(np.floor((LUMA * scale + 50) / 100), 1, 255).astype(np.uint8)
    C = dct_matrix(np, 8)
    blocks = img.astype(np.float64).reshape(h // 8, 8, w // 8, 8).swapaxes(1, 2) - 128
    coef = C @ blocks @ C.T
    q = np.round(coef / Q).astype(np.int16)
    zz = zigzag(np, 8)
    scan = q.reshape(h // 8, w // 8, 64)[..., zz]
    last_nz = 63 - np.argmax(scan[..., ::-1] != 0, axis=-1)
    rec = C.T @ (q * Q.astype(np.float64)) @ C + 128
    out = np.clip(np.round(rec), 0, 255).astype(np.uint8).swapaxes(1, 2).reshape(h, w)
    mse = np.mean((out.astype(np.int32) - img) ** 2)
    return {"Q": Q, "q00": q[0, 0], "dc": q[..., 0, 0], "zz": zz[:16], "last_nz": last_nz, "out": out,
            "psnr": 10 * np.log10(255.0**2 / mse), "nnz": np.count_nonzero(q), "dc_diff": np.diff(q[..., 0, 0].ravel())}


def dct_by_fft(np, x):
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-1]
    v = np.concatenate([x[..., ::2], x[..., 1::2][..., ::-1]], axis=-1)
    V = np.fft.fft(v, axis=-1)
    k = np.arange(n)
    X = np.real(V * np.exp(-1j * np.pi * k / (2 * n))) * np.sqrt(2.0 / n)
    X[..., 0] /= np.sqrt(2)
    direct = x @ dct_matrix(np, n).T
    spec = np.fft.fft(x, norm="ortho")
    return {"X": X, "direct": direct, "same": np.allclose(X, direct, atol=1e-5),
            "energy": np.sum(X**2, axis=-1), "parseval": np.sum(np.abs(spec) ** 2, axis=-1)}


def chroma_subsample(np, rgb):
    rgb = np.asarray(rgb).astype(np.float32)
    M = np.array([[0.299, 0.587, 0.114], [-0.168736, -0.331264, 0.5], [0.5, -0.418688, -0.081312]])
    ycc = rgb @ M.T.astype(np.float32) + np.array([0, 128, 128], dtype=np.float32)
    h, w, _ = ycc.shape
    padded = np.pad(ycc, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
    H, W = padded.shape[:2]
    cbcr = padded[..., 1:].reshape(H // 2, 2, W // 2, 2, 2).mean(axis=(1, 3))
    up = np.repeat(np.repeat(cbcr, 2, axis=0), 2, axis=1)[:h, :w]
    back = np.concatenate([ycc[..., :1], up], axis=-1) - np.array([0, 128, 128], dtype=np.float32)
    rgb2 = back @ np.linalg.inv(M).T.astype(np.float32)
    err = np.abs(rgb2 - rgb).max(axis=(0, 1))
    return {"ycc": ycc, "cbcr": cbcr, "rgb2": np.clip(np.rint(rgb2), 0, 255).astype(np.uint8), "err": err,
            "dtype": str(ycc.dtype), "bytes": ycc[..., 0].size + cbcr.size}


def nmf_frobenius(np, V, W, H, iters):
    V, W, H = np.array(V), np.array(W), np.array(H)
    eps = np.finfo(float).eps
    errs = []
    for _ in range(iters):
        H *= (W.T @ V) / (W.T @ W @ H + eps)
        W *= (V @ H.T) / (W @ (H @ H.T) + eps)
        errs.append(np.linalg.norm(V - W @ H, "fro") / np.linalg.norm(V))
    scale = W.max(axis=0)
    W, H = W / scale, H * scale[:, None]
    return {"W": W, "H": H, "errs": np.array(errs), "monotone": bool(np.all(np.diff(errs) <= 1e-9)),
            "sparsity": np.mean(H < 1e-3, axis=1)}


def nmf_kl(np, V, W, H, iters):
    V, W, H = np.array(V), np.array(W), np.array(H)
    div = []
    for _ in range(iters):
        WH = W @ H
        H *= (W.T @ (V / WH)) / W.sum(axis=0)[:, None]
        WH = W @ H
        W *= ((V / WH) @ H.T) / H.sum(axis=1)
        WH = W @ H
        mask = V > 0
        kl = np.sum(V[mask] * np.log(V[mask] / WH[mask])) - V.sum() + WH.sum()
        div.append(kl)
    return {"div": np.array(div), "W_col": W.sum(0), "recon": W @ H}


def topics(np, counts, W, H, iters, n_top):
    X = np.asarray(counts, dtype=np.float64)
    idf = np.log((1 + X.shape[0]) / (1 + np.count_nonzero(X, axis=0))) + 1
    tfidf = X * idf
    tfidf /= np.linalg.norm(tfidf, axis=1, keepdims=True)
    W, H = np.array(W), np.array(H)
    for _ in range(iters):
        H *= (W.T @ tfidf) / (W.T @ W @ H + 1e-12)
        W *= (tfidf @ H.T) / (W @ H @ H.T + 1e-12)
    top = np.argsort(-H, axis=1, kind="stable")[:, :n_top]
    doc_topic = W / W.sum(axis=1, keepdims=True)
    dominant = doc_topic.argmax(axis=1)
    sizes = np.bincount(dominant, minlength=H.shape[0])
    overlap = np.array([[len(np.intersect1d(a, b)) for b in top] for a in top])
    return {"idf": idf, "top": top, "dominant": dominant, "sizes": sizes, "overlap": overlap,
            "purity": np.max(doc_topic, axis=1).mean()}


def kernel_ridge(np, X, y, Xt, gammas, lams):
    X, y, Xt = np.asarray(X), np.asarray(y), np.asarray(Xt)
    sq = np.einsum("ij,ij->i", X, X)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    D1 = np.abs(X[:, None, :] - X[None, :, :]).sum(-1)
    scores = np.empty((len(gammas), len(lams)))
    for a, g in enumerate(gammas):
        K = np.exp(-g * D2)
        w, V = np.linalg.eigh(K)
        Vy = V.T @ y
        for b, lam in enumerate(lams):
            Hdiag = np.einsum("ij,j,ij->i", V, w / (w + lam), V)
            fit = V @ (w / (w + lam) * Vy)
            scores[a, b] = np.mean(((y - fit) / (1 - Hdiag)) ** 2)
    ga, lb = np.unravel_index(np.argmin(scores), scores.shape)
    K = np.exp(-gammas[ga] * D2)
    alpha = np.linalg.solve(K + lams[lb] * np.eye(len(X)), y)
    Kt = np.exp(-gammas[ga] * ((Xt[:, None, :] - X[None]) ** 2).sum(-1))
    lap = np.linalg.solve(np.exp(-D1) + 0.1 * np.eye(len(X)), y)
    return {"scores": scores, "best": (int(ga), int(lb)), "alpha": alpha, "pred": Kt @ alpha,
            "lap": lap, "psd": bool(np.linalg.eigvalsh(K).min() > -1e-6)}


def _image(h, w):
    yy, xx = np.mgrid[0:h, 0:w]
    return (128 + 60 * np.sin(xx / 5.0) + 40 * np.cos(yy / 7.0) + (xx > w // 2) * 20).astype(np.uint8)


def test_jpeg_roundtrip():
    img = _image(16, 24)
    for quality in (10, 50, 90):
        check(jpeg_roundtrip, img, quality, rtol=1e-3, atol=1e-3)


def test_dct_by_fft():
    rng = np.random.default_rng(2851)
    check(dct_by_fft, rng.normal(size=(3, 16)), rtol=1e-4, atol=1e-5)
    check(dct_by_fft, np.ones(1))


def test_chroma_subsample():
    rng = np.random.default_rng(2852)
    check(chroma_subsample, rng.integers(0, 256, (7, 10, 3)).astype(np.uint8), rtol=1e-4, atol=2e-3)


def _nmf_data(seed, m, n, r):
    rng = np.random.default_rng(seed)
    V = rng.uniform(0.1, 1, (m, r)) @ rng.uniform(0.1, 1, (r, n)) + 0.01
    return V, rng.uniform(0.1, 1, (m, r)), rng.uniform(0.1, 1, (r, n))


def test_nmf_frobenius():
    check(nmf_frobenius, *_nmf_data(2853, 12, 10, 3), 40, rtol=2e-3, atol=1e-4)


def test_nmf_kl():
    check(nmf_kl, *_nmf_data(2854, 9, 11, 2), 25, rtol=2e-3, atol=1e-4)


def test_topics():
    rng = np.random.default_rng(2855)
    topic_words = np.zeros((3, 15))
    topic_words[0, :5] = topic_words[1, 5:10] = topic_words[2, 10:] = 1
    mix = rng.dirichlet([0.3] * 3, size=20)
    counts = rng.poisson(8 * mix @ topic_words + 0.1)
    check(topics, counts, rng.uniform(0.1, 1, (20, 3)), rng.uniform(0.1, 1, (3, 15)), 60, 4, rtol=2e-3, atol=1e-4)


def test_kernel_ridge():
    rng = np.random.default_rng(2856)
    X = rng.uniform(-2, 2, (25, 2))
    y = np.sin(X[:, 0]) * np.cos(X[:, 1]) + rng.normal(0, 0.05, 25)
    check(kernel_ridge, X, y, rng.uniform(-2, 2, (6, 2)), np.array([0.3, 1.0, 3.0]), np.array([1e-2, 1e-1, 1.0]),
          rtol=5e-3, atol=1e-3)


def svd_compress(np, img, ranks):
    A = np.asarray(img, dtype=np.float64)
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    energy = np.cumsum(s**2) / np.sum(s**2)
    out = {}
    for k in ranks:
        Ak = (U[:, :k] * s[:k]) @ Vt[:k]
        q = np.clip(np.rint(Ak), 0, 255).astype(np.uint8)
        out[k] = {"err": np.linalg.norm(A - Ak) / np.linalg.norm(A), "bound": np.sqrt(np.sum(s[k:] ** 2)),
                  "img": q, "ratio": k * (A.shape[0] + A.shape[1] + 1) / A.size}
    return {"s": s[:10], "k90": int(np.searchsorted(energy, 0.9) + 1), "rank": np.linalg.matrix_rank(A),
            "cond": np.linalg.cond(A[:, :20]), "ranks": out}


def test_svd_compress():
    # 144 columns: from 128 on, lavapipe once swept a round per dispatch (14 s for 200 x 200)
    img = _image(128, 144).astype(float)
    img[40:60, 30:90] = 255
    check(svd_compress, img, [1, 5, 20], rtol=2e-3, atol=1e-2)


def gp_posterior(np, X, y, Xs, length, noise):
    X, y, Xs = np.asarray(X), np.asarray(y), np.asarray(Xs)

    def rbf(a, b):
        d2 = np.sum(a**2, 1)[:, None] + np.sum(b**2, 1)[None, :] - 2 * a @ b.T
        return np.exp(-0.5 * np.maximum(d2, 0) / length**2)

    K = rbf(X, X) + noise**2 * np.eye(len(X))
    K_inv = np.linalg.inv(K)
    Ks = rbf(Xs, X)
    mean = Ks @ K_inv @ y
    var = 1.0 - np.einsum("ij,jk,ik->i", Ks, K_inv, Ks)
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    nll = 0.5 * y @ alpha + 0.5 * logdet + 0.5 * len(X) * np.log(2 * np.pi)
    return {"mean": mean, "std": np.sqrt(np.clip(var, 0, None)), "same": np.allclose(K_inv @ y, alpha, atol=1e-6),
            "nll": nll, "sign": sign, "sym": np.abs(K_inv - K_inv.T).max() < 1e-6}


def test_gp_posterior():
    # 200 training points: inv of 200 x 200 (past one dispatch's loop budget: 1.8 s on lavapipe before)
    rng = np.random.default_rng(2858)
    X = rng.uniform(-3, 3, (200, 1))
    y = np.sin(2 * X[:, 0]) + rng.normal(0, 0.1, 200)
    check(gp_posterior, X, y, np.linspace(-3.5, 3.5, 15)[:, None], 0.8, 0.1, rtol=5e-3, atol=1e-3)
