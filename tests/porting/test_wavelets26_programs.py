"""Wavelets in plain NumPy: a multi-level Haar transform by strided slices and its inverse by interleaved
assignment, the Daubechies-4 lifting scheme with `np.roll` (periodic boundaries), a 2-D Haar decomposition of an
image with soft thresholding and subband energies, denoising by the universal threshold from the median absolute
deviation, filter-bank analysis by `np.convolve` after `np.pad(mode="symmetric"/"wrap")`, the orthogonal Haar
matrix built by `np.kron`, an undecimated a-trous transform with dilated kernels, and best-k compression by
`argpartition` with PSNR (tests/porting)."""

import numpy as np
from harness import check


def haar_multilevel(np, x, levels):
    x = np.asarray(x, dtype=np.float64)
    coeffs = []
    a = x.copy()
    for _ in range(levels):
        even, odd = a[::2], a[1::2]
        d = (even - odd) / np.sqrt(2)
        a = (even + odd) / np.sqrt(2)
        coeffs.append(d)
    rec = a.copy()
    for d in reversed(coeffs):
        out = np.empty(2 * rec.size)
        out[::2] = (rec + d) / np.sqrt(2)
        out[1::2] = (rec - d) / np.sqrt(2)
        rec = out
    energy = np.array([np.sum(d**2) for d in coeffs] + [np.sum(a**2)])
    return {"approx": a, "details": coeffs, "rec": rec, "err": np.max(np.abs(rec - x)),
            "energy": energy, "share": energy / energy.sum(), "parseval": np.isclose(energy.sum(), x @ x)}


def db4_lifting(np, x):
    s = np.asarray(x, dtype=np.float64)
    sq3 = np.sqrt(3.0)
    even, odd = s[0::2].copy(), s[1::2].copy()
    # forward lifting steps of Daubechies' D4 (periodic)
    even = even + sq3 * odd
    odd = odd - sq3 / 4 * even - (sq3 - 2) / 4 * np.roll(even, 1)
    even = even - np.roll(odd, -1)
    even = even * (sq3 - 1) / np.sqrt(2)
    odd = odd * (sq3 + 1) / np.sqrt(2)
    a, d = even, odd
    # inverse
    e = a / ((sq3 - 1) / np.sqrt(2))
    o = d / ((sq3 + 1) / np.sqrt(2))
    e = e + np.roll(o, -1)
    o = o + sq3 / 4 * e + (sq3 - 2) / 4 * np.roll(e, 1)
    e = e - sq3 * o
    rec = np.zeros_like(s)
    rec[0::2], rec[1::2] = e, o
    return {"a": a, "d": d, "rec": rec, "small": int(np.count_nonzero(np.abs(d) < 1e-2)),
            "ratio": np.linalg.norm(d) / np.linalg.norm(a)}


def haar2d_threshold(np, img, thr):
    img = np.asarray(img, dtype=np.float32)
    a = (img[0::2, :] + img[1::2, :]) / 2
    d = (img[0::2, :] - img[1::2, :]) / 2
    LL, LH = (a[:, 0::2] + a[:, 1::2]) / 2, (a[:, 0::2] - a[:, 1::2]) / 2
    HL, HH = (d[:, 0::2] + d[:, 1::2]) / 2, (d[:, 0::2] - d[:, 1::2]) / 2
    bands = np.stack([LH, HL, HH])
    soft = np.sign(bands) * np.maximum(np.abs(bands) - thr, 0)
    kept = np.count_nonzero(soft, axis=(1, 2))
    LH, HL, HH = soft
    a2 = np.empty_like(a)
    d2 = np.empty_like(d)
    a2[:, 0::2], a2[:, 1::2] = LL + LH, LL - LH
    d2[:, 0::2], d2[:, 1::2] = HL + HH, HL - HH
    rec = np.empty_like(img)
    rec[0::2], rec[1::2] = a2 + d2, a2 - d2
    return {"LL": LL, "energy": (bands**2).sum(axis=(1, 2)), "kept": kept, "rec": rec,
            "mse": np.mean((rec - img) ** 2), "dtype": str(rec.dtype)}


def mad_denoise(np, noisy, levels):
    y = np.asarray(noisy)
    n = y.size
    a, ds = y, []
    for _ in range(levels):
        ds.append((a[0::2] - a[1::2]) / np.sqrt(2))
        a = (a[0::2] + a[1::2]) / np.sqrt(2)
    sigma = np.median(np.abs(ds[0] - np.median(ds[0]))) / 0.6745
    thr = sigma * np.sqrt(2 * np.log(n))
    ds = [np.where(np.abs(d) > thr, d - np.copysign(thr, d), 0.0) for d in ds]
    for d in reversed(ds):
        up = np.zeros(2 * a.size)
        up[0::2], up[1::2] = (a + d) / np.sqrt(2), (a - d) / np.sqrt(2)
        a = up
    zeroed = sum(int((d == 0).sum()) for d in ds)
    return {"sigma": sigma, "thr": thr, "clean": a, "zeroed": zeroed,
            "snr": 10 * np.log10(np.sum(a**2) / np.sum((y - a) ** 2))}


def filter_bank(np, x, mode):
    x = np.asarray(x)
    h = np.array([0.48296291314453416, 0.8365163037378079, 0.2241438680420134, -0.12940952255126037])
    g = h[::-1] * np.array([1, -1, 1, -1])
    padded = np.pad(x, (len(h) - 1, len(h) - 1), mode=mode)
    lo = np.convolve(padded, h, mode="valid")[1::2]
    hi = np.convolve(padded, g, mode="valid")[1::2]
    return {"lo": lo, "hi": hi, "orth": np.dot(h, g), "norm": np.sum(h**2),
            "lo_sum": lo.sum(), "energy": (lo**2).sum() + (hi**2).sum()}


def haar_matrix(np, n_log2, signal):
    H = np.array([[1.0]])  # kdsl: float32 (its default), so orthogonality is checked to float32 precision
    for _ in range(n_log2):
        top = np.kron(H, [1.0, 1.0])
        bottom = np.kron(np.eye(H.shape[0]), [1.0, -1.0])
        H = np.vstack([top, bottom]) / np.sqrt(2)
    coef = H @ np.asarray(signal)
    order = np.argsort(-np.abs(coef), kind="stable")
    keep = np.zeros_like(coef)
    keep[order[:4]] = coef[order[:4]]
    return {"H": H, "orth": np.allclose(H @ H.T, np.eye(H.shape[0]), atol=1e-6), "coef": coef, "approx": H.T @ keep,
            "order": order[:6], "det": abs(np.linalg.det(H))}


def a_trous(np, x, levels):
    c = np.asarray(x, dtype=np.float64)
    base = np.array([1, 4, 6, 4, 1]) / 16.0
    planes = []
    for j in range(levels):
        step = 2**j
        smooth = sum(w * np.roll(c, (k - 2) * step) for k, w in enumerate(base))
        planes.append(c - smooth)
        c = smooth
    planes = np.array(planes)
    return {"planes": planes, "residual": c, "rec": planes.sum(axis=0) + c,
            "std": planes.std(axis=1), "peak": np.argmax(np.abs(planes), axis=1)}


def best_k(np, img, fraction):
    img = np.asarray(img)
    n = img.shape[0]
    coef = img.astype(np.float64)
    rows = []
    size = n
    while size > 1:
        blk = coef[:size, :size]
        a = (blk[:, 0::2] + blk[:, 1::2]) / 2
        d = (blk[:, 0::2] - blk[:, 1::2]) / 2
        blk = np.hstack([a, d])
        a = (blk[0::2] + blk[1::2]) / 2
        d = (blk[0::2] - blk[1::2]) / 2
        coef[:size, :size] = np.vstack([a, d])
        rows.append(size)
        size //= 2
    flat = np.abs(coef).ravel()
    k = int(fraction * flat.size)
    cut = np.partition(flat, -k)[-k]
    idx = np.argpartition(flat, -k)[-k:]
    kept = np.zeros(flat.size, dtype=bool)
    kept[idx] = True
    compressed = np.where(kept.reshape(coef.shape), coef, 0)
    return {"coef_abs_sorted": np.sort(flat)[::-1][:10], "cut": cut, "n_kept": kept.sum(),
            "energy_kept": (compressed**2).sum() / (coef**2).sum(), "sizes": rows,
            "psnr_bound": 10 * np.log10(255.0**2 / max(((coef - compressed) ** 2).mean(), 1e-12))}


def test_haar_multilevel():
    rng = np.random.default_rng(2601)
    x = np.cumsum(rng.normal(size=64))
    check(haar_multilevel, x, 4)


def test_haar_multilevel_size_one_levels():
    check(haar_multilevel, np.array([3.0, -1.0]), 1)


def test_db4_lifting():
    t = np.linspace(0, 1, 32, endpoint=False)
    check(db4_lifting, 2 * t + np.sin(6 * np.pi * t))


def test_haar2d_threshold():
    rng = np.random.default_rng(2603)
    img = rng.integers(0, 256, (16, 12)).astype(np.uint8)
    check(haar2d_threshold, img, 8.0, rtol=1e-5, atol=1e-4)


def test_mad_denoise():
    rng = np.random.default_rng(2604)
    t = np.linspace(0, 1, 128)
    clean = np.where(t < 0.4, 1.0, -0.5) + np.sin(4 * np.pi * t)
    check(mad_denoise, clean + rng.normal(0, 0.2, t.size), 3)


def test_filter_bank():
    x = np.sin(np.arange(20) * 0.7) + np.arange(20) * 0.1
    for mode in ("symmetric", "wrap", "reflect"):
        check(filter_bank, x, mode)


def test_haar_matrix():
    rng = np.random.default_rng(2606)
    check(haar_matrix, 3, np.repeat(rng.normal(size=4), 2))


def test_a_trous():
    x = np.zeros(40)
    x[[5, 17, 30]] = [3.0, -2.0, 1.0]
    check(a_trous, x + np.linspace(0, 1, 40), 3)


def test_best_k():
    yy, xx = np.mgrid[0:16, 0:16]
    img = (128 + 100 * np.sin(xx / 3.0) * np.cos(yy / 5.0)).astype(np.uint8)
    check(best_k, img, 0.1)
