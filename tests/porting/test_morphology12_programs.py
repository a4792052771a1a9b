"""Image morphology and filtering by hand, as image-processing course notebooks write them without SciPy: binary
dilation and erosion by shifted slices of a padded image and by `sliding_window_view` with a structuring element,
opening/closing to remove specks, boundary extraction and hit-or-miss corners, connected components labelled by
iterated min-propagation over 4-neighbours with `np.unique(return_counts=True)`, grayscale top-hat from min/max
filters, a chamfer distance transform in two raster passes, 2-d convolution with `np.pad(mode="reflect")` and
`np.einsum` over windows, and a median filter with histogram equalisation of a uint8 image (tests/porting)."""

import numpy as np
from harness import check


def dilate_erode(np, img, se):
    r = se.shape[0] // 2
    padded = np.pad(img, r, mode="constant", constant_values=False)
    win = np.lib.stride_tricks.sliding_window_view(padded, se.shape)
    dil = np.any(win & se, axis=(-2, -1))
    ero = np.all(win | ~se, axis=(-2, -1))
    shifted = np.zeros_like(img)
    for dy, dx in zip(*np.nonzero(se), strict=True):
        shifted |= padded[dy:dy + img.shape[0], dx:dx + img.shape[1]]
    opened = np.any(np.lib.stride_tricks.sliding_window_view(np.pad(ero, r), se.shape) & se, axis=(-2, -1))
    boundary = img & ~ero
    return {"dil": dil, "ero": ero, "same": bool(np.array_equal(dil, shifted)), "opened": opened,
            "boundary": boundary, "areas": [int(img.sum()), int(dil.sum()), int(ero.sum()), int(opened.sum())]}


def open_close_specks(np, img):
    def shift_or(a, op):
        p = np.pad(a, 1, constant_values=(op is np.logical_and))
        out = p[1:-1, 1:-1].copy()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                out = op(out, p[1 + dy:p.shape[0] - 1 + dy, 1 + dx:p.shape[1] - 1 + dx])
        return out

    opened = shift_or(shift_or(img, np.logical_and), np.logical_or)
    closed = shift_or(shift_or(img, np.logical_or), np.logical_and)
    removed = img & ~opened
    filled = closed & ~img
    return {"opened": opened, "closed": closed, "removed": np.argwhere(removed), "filled": int(filled.sum())}


def hit_or_miss_corners(np, img):
    hit = np.array([[0, 0, 0], [0, 1, 1], [0, 1, 0]], bool)
    miss = np.array([[1, 1, 1], [1, 0, 0], [1, 0, 0]], bool)
    p = np.pad(img, 1)
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3))
    corners = np.all(win[..., hit], axis=-1) & ~np.any(win[..., miss], axis=-1)
    rot = [np.rot90(hit, k) for k in range(4)]
    rot_miss = [np.rot90(miss, k) for k in range(4)]
    all_corners = np.zeros_like(img)
    for h, m in zip(rot, rot_miss, strict=True):
        all_corners |= np.all(win[..., h], axis=-1) & ~np.any(win[..., m], axis=-1)
    return {"tl": np.argwhere(corners), "all": np.argwhere(all_corners), "count": int(all_corners.sum())}


def label_components(np, img):
    h, w = img.shape
    labels = np.where(img, np.arange(1, h * w + 1).reshape(h, w), 0)
    big = h * w + 1
    for _ in range(h * w):
        p = np.pad(np.where(labels > 0, labels, big), 1, constant_values=big)
        nb = np.minimum.reduce([p[1:-1, 1:-1], p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]])
        new = np.where(img, nb, 0)
        if np.array_equal(new, labels):
            break
        labels = new
    ids, sizes = np.unique(labels[labels > 0], return_counts=True)
    relabel = np.zeros(labels.max() + 1, dtype=np.int64)
    relabel[ids] = np.arange(1, len(ids) + 1)
    compact = relabel[labels]
    rows, cols = np.nonzero(compact)
    cy = np.bincount(compact[rows, cols], weights=rows)[1:] / sizes
    cx = np.bincount(compact[rows, cols], weights=cols)[1:] / sizes
    return {"labels": compact, "n": len(ids), "sizes": sizes, "centroids": np.column_stack([cy, cx]),
            "largest": int(np.argmax(sizes)) + 1}


def tophat_and_distance(np, gray, mask):
    def filt(a, fn):
        p = np.pad(a, 1, mode="edge")
        return fn(np.lib.stride_tricks.sliding_window_view(p, (3, 3)), axis=(-2, -1))

    opened = filt(filt(gray, np.min), np.max)
    tophat = gray - opened
    h, w = mask.shape
    big = 10 ** 6
    d = np.where(mask, big, 0).astype(np.int64)
    for y in range(h):
        for x in range(w):
            if d[y, x]:
                up = d[y - 1, x] + 1 if y > 0 else big
                left = d[y, x - 1] + 1 if x > 0 else big
                d[y, x] = min(d[y, x], up, left)
    for y in range(h - 1, -1, -1):
        for x in range(w - 1, -1, -1):
            if d[y, x]:
                down = d[y + 1, x] + 1 if y < h - 1 else big
                right = d[y, x + 1] + 1 if x < w - 1 else big
                d[y, x] = min(d[y, x], down, right)
    return {"tophat": tophat, "bright": np.argwhere(tophat > 0.5), "dist": d, "max_d": int(d.max()),
            "skeleton_like": np.argwhere(d == d.max())}


def convolve_by_hand(np, img):
    gx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=float)
    gauss = np.outer([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]) / 256.0
    p = np.pad(img, 2, mode="reflect")
    win5 = np.lib.stride_tricks.sliding_window_view(p, (5, 5))
    smooth = np.einsum("ijkl,kl->ij", win5, gauss)
    p1 = np.pad(smooth, 1, mode="edge")
    win3 = np.lib.stride_tricks.sliding_window_view(p1, (3, 3))
    sx = np.einsum("ijkl,kl->ij", win3, gx[::-1, ::-1])
    sy = np.einsum("ijkl,kl->ij", win3, gx.T[::-1, ::-1])
    mag = np.hypot(sx, sy)
    angle = np.rad2deg(np.arctan2(sy, sx)) % 180
    q = (np.round(angle / 45).astype(int) % 4)
    edges = mag > np.percentile(mag, 80)
    return {"smooth": smooth, "mag": mag, "q_counts": np.bincount(q[edges], minlength=4),
            "edges": int(edges.sum()), "sep": bool(np.allclose(np.linalg.matrix_rank(gauss), 1))}


def median_and_equalize(np, img):
    p = np.pad(img, 1, mode="edge")
    med = np.median(np.lib.stride_tricks.sliding_window_view(p, (3, 3)).reshape(*img.shape, 9), axis=-1)
    med = med.astype(np.uint8)
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[np.nonzero(cdf)[0][0]]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255).clip(0, 255).astype(np.uint8)
    eq = lut[img]
    noise = np.abs(img.astype(np.int16) - med.astype(np.int16))
    return {"med": med, "eq": eq, "lut_head": lut[:40], "noise_px": int((noise > 60).sum()),
            "eq_hist_nonzero": int(np.count_nonzero(np.bincount(eq.ravel(), minlength=256)))}


def _blobs(rng, shape, n):
    img = np.zeros(shape, bool)
    for _ in range(n):
        y, x = rng.integers(0, shape[0] - 3), rng.integers(0, shape[1] - 4)
        img[y:y + rng.integers(2, 4), x:x + rng.integers(2, 5)] = True
    return img


def test_dilate_erode_windows_and_shifts():
    rng = np.random.default_rng(1251)
    se = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    check(dilate_erode, _blobs(rng, (14, 16), 5), se)


def test_open_close_removes_specks():
    rng = np.random.default_rng(1252)
    img = _blobs(rng, (15, 15), 4)
    img[rng.integers(0, 15, 6), rng.integers(0, 15, 6)] = True
    check(open_close_specks, img)


def test_hit_or_miss_corners():
    check(hit_or_miss_corners, _blobs(np.random.default_rng(1253), (12, 12), 3))


def test_connected_components_min_propagation():
    check(label_components, _blobs(np.random.default_rng(1254), (12, 14), 5))


def test_tophat_and_chamfer_distance():
    rng = np.random.default_rng(1255)
    gray = rng.random((10, 10)) * 0.2
    gray[[2, 7], [3, 6]] = 1.0
    mask = np.zeros((9, 11), bool)
    mask[1:8, 2:10] = True
    check(tophat_and_distance, gray, mask)


def test_gaussian_sobel_by_einsum():
    rng = np.random.default_rng(1256)
    img = np.zeros((16, 16))
    img[4:12, 5:11] = 1.0
    check(convolve_by_hand, img + 0.05 * rng.random((16, 16)), rtol=1e-3, atol=1e-4)


def test_median_filter_and_equalisation():
    rng = np.random.default_rng(1257)
    img = (rng.normal(100, 20, (12, 12))).clip(0, 255).astype(np.uint8)
    img[rng.integers(0, 12, 8), rng.integers(0, 12, 8)] = 255
    check(median_and_equalize, img)
