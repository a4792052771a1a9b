"""More image processing: template matching by normalised cross-correlation, a Gaussian pyramid, unsharp masking,
a median filter by sorting windows, a chamfer distance transform, image moments, a Hough line vote with add.at,
Harris corners, local binary patterns and adaptive thresholding by integral images (tests/porting)."""

import numpy as np
from harness import check


def _image(seed, shape=(18, 22)):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
    img = 100 + 60 * np.cos(xx / 3.0) * np.sin(yy / 4.0) + rng.normal(0, 8, shape)
    img[5:11, 7:14] += 70
    return np.clip(img, 0, 255).round().astype(np.uint8)


def template_match(np, img_host):
    img = np.asarray(img_host).astype(np.float64)
    tpl = img[6:10, 8:13].copy()
    win = np.lib.stride_tricks.sliding_window_view(img, tpl.shape)
    wz = win - win.mean(axis=(-2, -1), keepdims=True)
    tz = tpl - tpl.mean()
    num = np.einsum("ijkl,kl->ij", wz, tz)
    den = np.sqrt((wz**2).sum(axis=(-2, -1)) * (tz**2).sum())
    ncc = num / np.where(den == 0, 1, den)
    best = np.unravel_index(np.argmax(ncc), ncc.shape)
    ssd = ((win - tpl) ** 2).sum(axis=(2, 3))
    return {"ncc": ncc, "best": [int(b) for b in best], "peak": float(ncc.max()),
            "ssd_min": np.argwhere(ssd == ssd.min())}


def gaussian_pyramid(np, img_host):
    img = np.asarray(img_host) / 255.0
    k1 = np.array([1, 4, 6, 4, 1]) / 16.0
    levels = [img]
    for _ in range(2):
        cur = levels[-1]
        p = np.pad(cur, 2, mode="reflect")
        rows = sum(k1[i] * p[i : i + cur.shape[0], 2:-2] for i in range(5))
        p2 = np.pad(rows, ((0, 0), (2, 2)), mode="reflect")
        both = sum(k1[j] * p2[:, j : j + cur.shape[1]] for j in range(5))
        levels.append(both[::2, ::2])
    up = np.repeat(np.repeat(levels[1], 2, axis=0), 2, axis=1)[: img.shape[0], : img.shape[1]]
    lap = img - up
    return {"shapes": [lv.shape for lv in levels], "l1": levels[1], "l2": levels[2],
            "lap_energy": float((lap**2).sum()), "means": [float(lv.mean()) for lv in levels]}


def unsharp_and_median(np, img_host):
    img = np.asarray(img_host).astype(float)
    p = np.pad(img, 1, mode="edge")
    box = sum(p[i : i + img.shape[0], j : j + img.shape[1]] for i in range(3) for j in range(3)) / 9
    sharp = np.clip(img + 2.0 * (img - box), 0, 255).round().astype(np.uint8)
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3)).reshape(*img.shape, 9)
    med = np.sort(win, axis=-1)[..., 4]
    med2 = np.median(win, axis=-1)
    noisy = img.copy()
    noisy[::5, ::4] = 255
    pn = np.pad(noisy, 1, mode="edge")
    cleaned = np.median(np.lib.stride_tricks.sliding_window_view(pn, (3, 3)), axis=(2, 3))
    return {"sharp": sharp, "med": med, "same": bool(np.array_equal(med, med2)),
            "cleaned_err": float(np.abs(cleaned - med).mean()), "n_salt": int((noisy == 255).sum())}


def chamfer_distance(np, img_host):
    fg = np.asarray(img_host) > 150
    H, W = fg.shape
    big = H + W
    d = np.where(fg, 0, big).astype(np.int64)
    for _ in range(H + W):
        p = np.pad(d, 1, constant_values=big)
        nb = np.minimum.reduce([p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]]) + 1
        new = np.minimum(d, nb)
        if np.array_equal(new, d):
            break
        d = new
    return {"d": d, "max": int(d.max()), "hist": np.bincount(d.ravel())}


def moments(np, img_host):
    img = np.asarray(img_host).astype(np.float64)
    y, x = np.indices(img.shape)
    m00 = img.sum()
    cx, cy = (x * img).sum() / m00, (y * img).sum() / m00
    mu20 = ((x - cx) ** 2 * img).sum() / m00
    mu02 = ((y - cy) ** 2 * img).sum() / m00
    mu11 = ((x - cx) * (y - cy) * img).sum() / m00
    theta = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)
    cov = np.array([[mu20, mu11], [mu11, mu02]])
    evals = np.linalg.eigvalsh(cov)
    mask = img > 150
    rows, cols = np.nonzero(mask)
    return {"centroid": [float(cx), float(cy)], "theta": float(theta), "evals": evals,
            "bbox": [int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())],
            "area": int(mask.sum()), "ecc": float(np.sqrt(1 - evals[0] / evals[1]))}


def hough_lines(np, pts_host):
    pts = np.asarray(pts_host)
    thetas = np.deg2rad(np.arange(0, 180, 5))
    diag = 30
    rhos = np.round(pts[:, 0:1] * np.cos(thetas) + pts[:, 1:2] * np.sin(thetas)).astype(int) + diag
    acc = np.zeros((2 * diag + 1, len(thetas)), dtype=int)
    np.add.at(acc, (rhos, np.broadcast_to(np.arange(len(thetas)), rhos.shape)), 1)
    r, t = np.unravel_index(acc.argmax(), acc.shape)
    top = np.argsort(acc.ravel(), kind="stable")[::-1][:3]
    return {"acc_max": int(acc.max()), "rho": int(r) - diag, "theta_deg": int(np.rad2deg(thetas[t]).round()),
            "top": acc.ravel()[top], "votes": acc.sum(axis=0)}


def harris(np, img_host, k=0.05):
    img = np.asarray(img_host, dtype=np.float64) / 255
    Iy, Ix = np.gradient(img)
    def box(a):
        p = np.pad(a, 1, mode="edge")
        return np.lib.stride_tricks.sliding_window_view(p, (3, 3)).sum(axis=(-1, -2))
    Sxx, Syy, Sxy = box(Ix * Ix), box(Iy * Iy), box(Ix * Iy)
    R = Sxx * Syy - Sxy**2 - k * (Sxx + Syy) ** 2
    pr = np.pad(R, 1, constant_values=-np.inf)
    local_max = R == np.lib.stride_tricks.sliding_window_view(pr, (3, 3)).max(axis=(2, 3))
    corners = np.argwhere(local_max & (R > 0.1 * R.max()))
    return {"R": R, "corners": corners, "n": len(corners)}


def lbp_and_adaptive(np, img_host):
    img = np.asarray(img_host).astype(np.int32)
    c = img[1:-1, 1:-1]
    offs = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    code = np.zeros_like(c)
    for bit, (dy, dx) in enumerate(offs):
        nb = img[1 + dy : img.shape[0] - 1 + dy, 1 + dx : img.shape[1] - 1 + dx]
        code |= (nb >= c).astype(np.int32) << bit
    hist = np.bincount(code.ravel(), minlength=256)
    ii = np.pad(img.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    r = 3
    H, W = img.shape
    y0 = np.clip(np.arange(H) - r, 0, H)
    y1 = np.clip(np.arange(H) + r + 1, 0, H)
    x0 = np.clip(np.arange(W) - r, 0, W)
    x1 = np.clip(np.arange(W) + r + 1, 0, W)
    s = ii[y1][:, x1] - ii[y0][:, x1] - ii[y1][:, x0] + ii[y0][:, x0]
    area = np.outer(y1 - y0, x1 - x0)
    thresh = img * area < s * 0.9
    return {"code": code, "hist_nz": np.flatnonzero(hist), "uniform": int((hist > 0).sum()), "thresh": thresh,
            "frac": float(thresh.mean())}


def test_template_matching_ncc():
    check(template_match, _image(821), rtol=1e-4, atol=1e-4)


def test_gaussian_pyramid():
    check(gaussian_pyramid, _image(822), rtol=1e-4, atol=1e-5)


def test_unsharp_mask_and_median_filter():
    check(unsharp_and_median, _image(823), rtol=1e-4, atol=1e-4)


def test_chamfer_distance_transform():
    check(chamfer_distance, _image(824))


def test_image_moments():
    check(moments, _image(825), rtol=1e-4, atol=1e-4)


def test_hough_line_votes():
    t = np.arange(12.0)
    check(hough_lines, np.column_stack([t + 2, 0.5 * t + 3]))


def test_harris_corners():
    check(harris, _image(826), rtol=1e-3, atol=1e-5)


def test_local_binary_patterns_adaptive_threshold():
    check(lbp_and_adaptive, _image(827))
