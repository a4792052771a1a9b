"""Block-DCT image compression and tomography in plain NumPy: an orthonormal DCT-II matrix by `np.cos` of an outer
product, 8x8 blocks by `reshape`/`transpose`/`swapaxes`, JPEG-style quantisation with `np.round(...).astype(int)`,
zig-zag orders by `np.lexsort` of anti-diagonals, run-length coding of zero runs by `np.diff`/`flatnonzero`, PSNR
on uint8 images; a parallel-beam forward projection by binning rotated coordinates with `np.add.at`, unfiltered
and ramp-filtered back-projection with bilinear sampling by `floor` and weights (`np.fft.rfft`/`irfft` with `n=`),
and Kaczmarz (ART) sweeps over a dense system matrix (tests/porting)."""

import numpy as np
from harness import check

Q50 = np.array([[16, 11, 10, 16, 24, 40, 51, 61], [12, 12, 14, 19, 26, 58, 60, 55],
                [14, 13, 16, 24, 40, 57, 69, 56], [14, 17, 22, 29, 51, 87, 80, 62],
                [18, 22, 37, 56, 68, 109, 103, 77], [24, 35, 55, 64, 81, 104, 113, 92],
                [49, 64, 78, 87, 103, 121, 120, 101], [72, 92, 95, 98, 112, 100, 103, 99]])


def dct_matrix(np, n):
    k = np.arange(n)[:, None]
    i = np.arange(n)[None, :]
    C = np.sqrt(2.0 / n) * np.cos(np.pi * (2 * i + 1) * k / (2 * n))
    C[0, :] = np.sqrt(1.0 / n)
    return C


def block_dct(np, img, Q, quality):
    img = np.asarray(img)
    h, w = img.shape
    C = dct_matrix(np, 8)
    x = img.astype(np.float64) - 128
    blocks = x.reshape(h // 8, 8, w // 8, 8).swapaxes(1, 2)  # (bh, bw, 8, 8)
    coef = C @ blocks @ C.T
    scale = 5000 / quality if quality < 50 else 200 - 2 * quality
    q = np.clip(np.floor((np.asarray(Q) * scale + 50) / 100), 1, 255)
    quant = np.round(coef / q).astype(np.int32)
    rec_blocks = C.T @ (quant * q) @ C
    rec = np.clip(np.round(rec_blocks.swapaxes(1, 2).reshape(h, w) + 128), 0, 255).astype(np.uint8)
    mse = np.mean((rec.astype(float) - img) ** 2)
    return {"q": q, "dc": quant[..., 0, 0], "nz": np.count_nonzero(quant, axis=(2, 3)), "rec": rec,
            "psnr": 10 * np.log10(255**2 / mse), "orth": np.allclose(C @ C.T, np.eye(8), atol=1e-6),
            "energy_dc": (coef[..., 0, 0] ** 2).sum() / (coef**2).sum()}


def zigzag_rle(np, block):
    block = np.asarray(block)
    n = block.shape[0]
    i, j = np.indices((n, n))
    s = (i + j).ravel()
    key2 = np.where(s % 2 == 0, -i.ravel(), i.ravel())
    order = np.lexsort((key2, s))
    zz = block.ravel()[order]
    nz = np.flatnonzero(zz)
    runs = np.diff(np.concatenate([[-1], nz])) - 1
    pairs = np.stack([runs, zz[nz]], axis=1)
    last = nz[-1] if nz.size else -1
    inverse = np.empty_like(order)
    inverse[order] = np.arange(order.size)
    return {"order": order, "zz": zz, "pairs": pairs, "eob": last + 1, "inverse": inverse.reshape(n, n),
            "back": np.array_equal(zz[inverse].reshape(n, n), block)}


def forward_project(np, img, angles, n_det):
    img = np.asarray(img)
    n = img.shape[0]
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n]
    xs, ys = (xx - c).ravel(), (c - yy).ravel()
    vals = img.ravel()
    sino = np.zeros((len(angles), n_det))
    for a, th in enumerate(np.deg2rad(angles)):
        t = xs * np.cos(th) + ys * np.sin(th)
        pos = t + (n_det - 1) / 2
        lo = np.floor(pos).astype(int)
        frac = pos - lo
        ok = (lo >= 0) & (lo < n_det - 1)
        np.add.at(sino[a], lo[ok], vals[ok] * (1 - frac[ok]))
        np.add.at(sino[a], lo[ok] + 1, vals[ok] * frac[ok])
    return sino


def back_project(np, img, angles, n_det):
    sino = forward_project(np, img, angles, n_det)
    n = np.asarray(img).shape[0]
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n]
    freqs = np.fft.rfftfreq(2 * n_det)
    ramp = 2 * np.abs(freqs)
    filt = np.fft.irfft(np.fft.rfft(sino, n=2 * n_det, axis=1) * ramp, n=2 * n_det, axis=1)[:, :n_det]
    plain = np.zeros((n, n))
    fbp = np.zeros((n, n))
    for a, th in enumerate(np.deg2rad(angles)):
        t = (xx - c) * np.cos(th) + (c - yy) * np.sin(th) + (n_det - 1) / 2
        lo = np.clip(np.floor(t).astype(int), 0, n_det - 2)
        f = t - lo
        plain += (1 - f) * sino[a, lo] + f * sino[a, lo + 1]
        fbp += (1 - f) * filt[a, lo] + f * filt[a, lo + 1]
    fbp *= np.pi / (2 * len(angles))
    return {"sino": sino, "mass": sino.sum(axis=1), "plain": plain / len(angles), "fbp": fbp,
            "peak": np.unravel_index(np.argmax(fbp), fbp.shape), "freqs": freqs[:5]}


def kaczmarz(np, A, b, sweeps, relax):
    A, b = np.asarray(A), np.asarray(b)
    x = np.zeros(A.shape[1])
    norms = np.einsum("ij,ij->i", A, A)
    rows = np.flatnonzero(norms > 0)
    res = []
    for _ in range(sweeps):
        for i in rows:
            x += relax * (b[i] - A[i] @ x) / norms[i] * A[i]
        np.clip(x, 0, None, out=x)
        res.append(np.linalg.norm(A @ x - b))
    return {"x": x, "res": np.array(res), "decreasing": bool(np.all(np.diff(res) <= 1e-9)), "rows": rows.size}


def _phantom(n):
    yy, xx = np.mgrid[0:n, 0:n]
    c = (n - 1) / 2
    img = ((xx - c) ** 2 / (0.4 * n) ** 2 + (yy - c) ** 2 / (0.3 * n) ** 2 <= 1).astype(float)
    img[(xx - c - 2) ** 2 + (yy - c + 1) ** 2 <= 4] = 2.0
    return img


def test_block_dct():
    yy, xx = np.mgrid[0:16, 0:24]
    img = (128 + 60 * np.sin(xx / 4.0) + 40 * np.cos(yy / 3.0) + (xx * yy) % 7).astype(np.uint8)
    check(block_dct, img, Q50, 50, rtol=1e-4, atol=1e-6)
    check(block_dct, img, Q50, 90, rtol=1e-4, atol=1e-6)


def test_zigzag_rle():
    blk = np.zeros((8, 8), dtype=np.int32)
    blk[0, :3] = [-26, -3, 1]
    blk[1, :2] = [0, -2]
    blk[2, 0] = -6
    blk[3, 2] = 4
    check(zigzag_rle, blk)
    check(zigzag_rle, np.eye(4, dtype=np.int64))


def test_forward_project():
    check(forward_project, _phantom(12), np.arange(0, 180, 30.0), 17, rtol=1e-4, atol=1e-5)


def test_back_project():
    check(back_project, _phantom(12), np.arange(0, 180, 20.0), 17, rtol=1e-3, atol=1e-4)


def test_kaczmarz():
    rng = np.random.default_rng(2675)
    A = rng.uniform(0, 1, (14, 9))
    A[3] = 0
    x_true = rng.uniform(0, 2, 9)
    check(kaczmarz, A, A @ x_true, 6, 1.0, rtol=1e-4, atol=1e-5)
