"""Image pyramids, stitching and optical flow in plain NumPy: Gaussian pyramids by a separable 5-tap kernel with
`np.pad(mode="reflect")` and `[::2, ::2]`, Laplacian pyramids with upsampling by zero insertion, pyramid blending
of two `uint8` images under a mask and reconstruction back to `uint8` with `np.clip` and `astype`, a homography
by the DLT (`svd` of the stacked constraints) and inverse warping with fancy indexing and an in-bounds mask,
Lucas-Kanade flow from `np.gradient` and window sums by `sliding_window_view` and by integral images with
`cumsum`, a batched 2x2 `np.linalg.solve` with an eigenvalue test from `eigvalsh`, and image registration by
phase-free brute force over shifts with `np.roll` (tests/porting)."""

import numpy as np
from harness import check

KERNEL = [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16]


def _blur(np, img):
    k = np.asarray(KERNEL)
    p = np.pad(img, ((2, 2), (0, 0)), mode="reflect")
    v = sum(k[i] * p[i: i + img.shape[0]] for i in range(5))
    p = np.pad(v, ((0, 0), (2, 2)), mode="reflect")
    return sum(k[i] * p[:, i: i + img.shape[1]] for i in range(5))


def _up(np, img, shape):
    up = np.zeros(shape, dtype=img.dtype)
    up[::2, ::2] = img
    return 4 * _blur(np, up)


def gaussian_pyramid(np, img, levels):
    g = np.asarray(img).astype(np.float32) / 255
    pyr = [g]
    for _ in range(levels):
        g = _blur(np, g)[::2, ::2]
        pyr.append(g)
    return {"shapes": [p.shape for p in pyr], "means": np.array([p.mean() for p in pyr]),
            "top": pyr[-1], "dtype": pyr[-1].dtype.kind, "energy": [float(np.sum(p**2)) for p in pyr]}


def laplacian_roundtrip(np, img, levels):
    g = np.asarray(img, dtype=np.float64)
    gauss = [g]
    for _ in range(levels):
        gauss.append(_blur(np, gauss[-1])[::2, ::2])
    lap = [gauss[i] - _up(np, gauss[i + 1], gauss[i].shape) for i in range(levels)] + [gauss[-1]]
    rec = lap[-1]
    for band in reversed(lap[:-1]):
        rec = band + _up(np, rec, band.shape)
    return {"rec_err": np.abs(rec - g).max(), "band_std": np.array([b.std() for b in lap]),
            "band0": lap[0][:4, :4], "zero_mean": np.array([abs(b.mean()) < 5 for b in lap[:-1]])}


def pyramid_blend(np, a, b, mask, levels):
    def lap_pyr(img):
        gs = [img]
        for _ in range(levels):
            gs.append(_blur(np, gs[-1])[::2, ::2])
        return [gs[i] - _up(np, gs[i + 1], gs[i].shape) for i in range(levels)] + [gs[-1]]

    la = lap_pyr(np.asarray(a).astype(np.float32))
    lb = lap_pyr(np.asarray(b).astype(np.float32))
    m = np.asarray(mask).astype(np.float32)
    gm = [m]
    for _ in range(levels):
        gm.append(_blur(np, gm[-1])[::2, ::2])
    blended = [gm_i * x + (1 - gm_i) * y for gm_i, x, y in zip(gm, la, lb, strict=True)]
    out = blended[-1]
    for band in reversed(blended[:-1]):
        out = band + _up(np, out, band.shape)
    out8 = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    seam = out8[:, a.shape[1] // 2 - 2: a.shape[1] // 2 + 2].astype(np.int16)
    return {"out": out8, "seam_grad": np.abs(np.diff(seam, axis=1)).max(), "hist": np.bincount(out8.ravel() // 32,
            minlength=8), "dtype": out8.dtype.name}


def homography_warp(np, src_pts, dst_pts, img):
    src, dst = np.asarray(src_pts, dtype=float), np.asarray(dst_pts, dtype=float)
    n = len(src)
    A = np.zeros((2 * n, 9))
    A[0::2, 0:2], A[0::2, 2] = src, 1
    A[0::2, 6:8] = -dst[:, :1] * src
    A[0::2, 8] = -dst[:, 0]
    A[1::2, 3:5], A[1::2, 5] = src, 1
    A[1::2, 6:8] = -dst[:, 1:] * src
    A[1::2, 8] = -dst[:, 1]
    _, s, Vt = np.linalg.svd(A)
    H = Vt[-1].reshape(3, 3)
    H = H / H[2, 2]
    h, w = img.shape
    ys, xs = np.mgrid[0:h, 0:w]
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)])
    back = np.linalg.inv(H) @ pts
    bx, by = back[0] / back[2], back[1] / back[2]
    ix, iy = np.rint(bx).astype(int), np.rint(by).astype(int)
    inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    out = np.zeros(h * w, dtype=img.dtype)
    out[inside] = np.asarray(img)[iy[inside], ix[inside]]
    proj = H @ np.vstack([src.T, np.ones(n)])
    return {"H": H, "smallest_sv": s[-1], "reproj": np.abs(proj[:2] / proj[2] - dst.T).max(),
            "warped": out.reshape(h, w), "coverage": inside.mean()}


def lucas_kanade(np, f0, f1, win):
    I0, I1 = np.asarray(f0, dtype=np.float32), np.asarray(f1, dtype=np.float32)
    Iy, Ix = np.gradient(I0)
    It = I1 - I0
    swv = np.lib.stride_tricks.sliding_window_view
    def wsum(a):
        return swv(a, (win, win)).sum(axis=(-2, -1))
    Sxx, Sxy, Syy = wsum(Ix * Ix), wsum(Ix * Iy), wsum(Iy * Iy)
    Sxt, Syt = wsum(Ix * It), wsum(Iy * It)
    M = np.stack([np.stack([Sxx, Sxy], -1), np.stack([Sxy, Syy], -1)], -2)
    lam_min = np.linalg.eigvalsh(M)[..., 0]
    good = lam_min > 1e-2 * lam_min.max()
    b = -np.stack([Sxt, Syt], -1)
    M_safe = np.where(good[..., None, None], M, np.eye(2))
    flow = np.linalg.solve(M_safe, b[..., None])[..., 0]
    flow[~good] = 0
    det = Sxx * Syy - Sxy**2
    with np.errstate(divide="ignore", invalid="ignore"):
        u_closed = np.where(good, (-Syy * Sxt + Sxy * Syt) / det, 0.0)
    return {"flow_mean": flow[good].mean(axis=0), "good": good.sum(), "u_closed": u_closed,
            "agree": bool(np.allclose(u_closed, flow[..., 0], rtol=1e-3, atol=1e-3)),
            "lam_min": lam_min.max()}


def integral_image_flow(np, f0, f1, win):
    I0, I1 = np.asarray(f0, dtype=float), np.asarray(f1, dtype=float)
    Ix = np.gradient(I0, axis=1)
    Iy = np.gradient(I0, axis=0)
    It = I1 - I0

    def box(a):
        S = np.pad(a.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
        return S[win:, win:] - S[:-win, win:] - S[win:, :-win] + S[:-win, :-win]

    a, b, c = box(Ix * Ix), box(Ix * Iy), box(Iy * Iy)
    d, e = box(Ix * It), box(Iy * It)
    det = a * c - b * b
    ok = det > 1e-6 * det.max()
    u = np.divide(-(c * d - b * e), det, out=np.zeros_like(det), where=ok)
    v = np.divide(-(a * e - b * d), det, out=np.zeros_like(det), where=ok)
    mag = np.hypot(u, v)
    ang = np.degrees(np.arctan2(v, u)) % 360
    hist, _ = np.histogram(ang[ok], bins=8, range=(0, 360), weights=mag[ok])
    return {"u": u, "v": v, "median_u": np.median(u[ok]), "hist": hist, "ok": ok}


def register_by_shift(np, ref, moving, max_shift):
    ref, mov = np.asarray(ref, dtype=np.float32), np.asarray(moving, dtype=np.float32)
    shifts = np.arange(-max_shift, max_shift + 1)
    scores = np.empty((len(shifts), len(shifts)))
    for i, dy in enumerate(shifts):
        for j, dx in enumerate(shifts):
            diff = np.roll(mov, (dy, dx), axis=(0, 1)) - ref
            scores[i, j] = np.mean(diff[max_shift:-max_shift, max_shift:-max_shift] ** 2)
    bi, bj = np.unravel_index(np.argmin(scores), scores.shape)
    return {"scores": scores, "best": (int(shifts[bi]), int(shifts[bj])), "min": scores.min(),
            "second": np.partition(scores.ravel(), 1)[1]}


def _image(seed, h=32, w=40):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    img = 120 + 60 * np.sin(x / 5.0) * np.cos(y / 7.0) + 20 * rng.normal(size=(h, w))
    return np.clip(img, 0, 255).astype(np.uint8)


def test_gaussian_pyramid():
    check(gaussian_pyramid, _image(2940), 3)


def test_laplacian_roundtrip():
    check(laplacian_roundtrip, _image(2941), 3, rtol=1e-3, atol=1e-4)


def test_pyramid_blend():
    a, b = _image(2942), 255 - _image(2943)
    mask = np.zeros(a.shape, dtype=bool)
    mask[:, : a.shape[1] // 2] = True
    r = check(pyramid_blend, a, b, mask, 3, atol=1.01)  # uint8 rounding of float32 sums: off by one at most
    assert r["dtype"] == "uint8"


def test_homography_warp():
    src = np.array([[2, 3], [30, 4], [28, 25], [5, 27], [15, 15]], dtype=float)
    H = np.array([[1.02, 0.05, 1.5], [-0.03, 0.98, -2.0], [1e-4, 2e-4, 1.0]])
    p = H @ np.vstack([src.T, np.ones(5)])
    dst = (p[:2] / p[2]).T
    check(homography_warp, src, dst, _image(2944), rtol=1e-3, atol=1e-4)


def _flow_pair(seed, shift=(0.6, -0.4)):
    h, w = 24, 28
    y, x = np.mgrid[0:h, 0:w].astype(float)
    f = lambda xx, yy: np.sin(xx / 3.0) + np.cos(yy / 4.0) + 0.5 * np.sin((xx + yy) / 5.0)  # noqa: E731
    return f(x, y), f(x - shift[0], y - shift[1])


def test_lucas_kanade():
    f0, f1 = _flow_pair(2945)
    check(lucas_kanade, f0, f1, 5, rtol=2e-3, atol=2e-4)


def test_integral_image_flow():
    f0, f1 = _flow_pair(2946, (-0.3, 0.5))
    check(integral_image_flow, f0, f1, 4, rtol=2e-3, atol=2e-4)


def test_register_by_shift():
    ref = _image(2947)
    moving = np.roll(ref, (-2, 3), axis=(0, 1))
    r = check(register_by_shift, ref, moving, 4)
    assert r["best"] == (2, -3)
