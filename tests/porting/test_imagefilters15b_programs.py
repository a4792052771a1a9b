"""Image filters written by hand on float and uint8 arrays as image-processing course notebooks write them:
a separable Gaussian blur by `sliding_window_view` and `tensordot`, a 3x3 median filter by `np.median` over
windows, Sobel gradients with non-maximum suppression by angle bins (`np.digitize`) and double thresholds, binary
morphology (erosion/dilation/opening) by shifted slices of an `np.pad`ded mask, uint8 contrast stretching and
histogram equalisation by `cumsum` lookup tables, and saturating uint8 arithmetic with `np.clip` of wider
types (tests/porting)."""

import numpy as np
from harness import check


def separable_blur(np, img, sigma):
    img = np.asarray(img)
    r = int(3 * sigma)
    x = np.arange(-r, r + 1)
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    k /= k.sum()
    p = np.pad(img, r, mode="reflect")
    rows = np.lib.stride_tricks.sliding_window_view(p, 2 * r + 1, axis=1) @ k
    out = np.tensordot(np.lib.stride_tricks.sliding_window_view(rows, 2 * r + 1, axis=0), k, axes=([2], [0]))
    return {"out": out, "mean_kept": np.isclose(out.mean(), img.mean(), rtol=0.05), "kernel": k}


def median_filter(np, img):
    img = np.asarray(img)
    p = np.pad(img, 1, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3))
    med = np.median(win.reshape(*img.shape, 9), axis=-1)
    noisy = img.copy()
    noisy[::7, ::5] = 255
    pn = np.pad(noisy, 1, mode="edge")
    cleaned = np.median(np.lib.stride_tricks.sliding_window_view(pn, (3, 3)), axis=(-2, -1)).astype(np.uint8)
    return {"med": med, "cleaned": cleaned, "fixed": int((cleaned == 255).sum())}


def sobel_canny(np, img, lo, hi):
    img = np.asarray(img)
    gx_k = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=float)
    p = np.pad(img.astype(float), 1, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3))
    gx = np.einsum("ijkl,kl->ij", win, gx_k)
    gy = np.einsum("ijkl,kl->ij", win, gx_k.T)
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    sector = np.digitize(ang, [22.5, 67.5, 112.5, 157.5]) % 4
    offs = np.array([[0, 1], [1, 1], [1, 0], [1, -1]])
    mp = np.pad(mag, 1)
    h, w = mag.shape
    ii, jj = np.indices((h, w))
    di, dj = offs[sector, 0], offs[sector, 1]
    n1 = mp[ii + 1 + di, jj + 1 + dj]
    n2 = mp[ii + 1 - di, jj + 1 - dj]
    nms = np.where((mag >= n1) & (mag >= n2), mag, 0)
    strong = nms >= hi
    weak = (nms >= lo) & ~strong
    return {"mag": mag, "sector": sector, "strong": strong, "weak": int(weak.sum()), "nms_max": nms.max()}


def morphology(np, mask):
    mask = np.asarray(mask)
    def dilate(m):
        p = np.pad(m, 1)
        out = np.zeros_like(m)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                out |= p[1 + di:1 + di + m.shape[0], 1 + dj:1 + dj + m.shape[1]]
        return out

    def erode(m):
        return ~dilate(~m)

    opened = dilate(erode(mask))
    closed = erode(dilate(mask))
    boundary = mask & ~erode(mask)
    return {"opened": opened, "closed": closed, "boundary": boundary,
            "areas": np.array([mask.sum(), opened.sum(), closed.sum()])}


def equalize_uint8(np, img):
    img = np.asarray(img)
    lo, hi = np.percentile(img, [2, 98])
    stretched = np.clip((img.astype(np.float32) - lo) * 255.0 / (hi - lo), 0, 255).astype(np.uint8)
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0][0]
    lut = np.round((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).astype(np.uint8)
    eq = lut[img]
    return {"stretched": stretched, "lut": lut, "eq": eq, "eq_hist": np.bincount(eq.ravel(), minlength=256)}


def saturating_uint8(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    wrap = a + b
    sat = np.clip(a.astype(np.int16) + b.astype(np.int16), 0, 255).astype(np.uint8)
    diff = np.abs(a.astype(np.int16) - b).astype(np.uint8)
    blend = ((a.astype(np.uint16) * 3 + b) >> 2).astype(np.uint8)
    inv = 255 - a
    thr = np.where(a > 127, np.uint8(255), np.uint8(0))
    return {"wrap": wrap, "sat": sat, "diff": diff, "blend": blend, "inv": inv, "thr": thr,
            "wrapped": int((wrap < a).sum())}


def _image(seed, h, w):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    base = 100 + 80 * np.sin(xx / 5.0) * np.cos(yy / 7.0) + (xx > w // 2) * 50
    return np.clip(base + rng.normal(0, 8, (h, w)), 0, 255).astype(np.uint8)


def test_separable_gaussian_blur():
    check(separable_blur, _image(1511, 24, 31).astype(float), 1.2, rtol=1e-3, atol=1e-3)


def test_median_filter_uint8():
    check(median_filter, _image(1512, 20, 22))


def test_sobel_and_canny_steps():
    check(sobel_canny, _image(1513, 26, 26).astype(float) / 255, 0.3, 0.8, rtol=1e-3, atol=1e-4)


def test_morphology_by_shifts():
    rng = np.random.default_rng(1514)
    check(morphology, rng.random((18, 23)) < 0.55)


def test_histogram_equalisation_uint8():
    check(equalize_uint8, _image(1515, 30, 28))


def test_saturating_uint8_arithmetic():
    rng = np.random.default_rng(1516)
    check(saturating_uint8, rng.integers(0, 256, (9, 13), dtype=np.uint8),
          rng.integers(0, 256, (9, 13), dtype=np.uint8))
