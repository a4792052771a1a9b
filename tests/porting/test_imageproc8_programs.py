"""Image processing: convolution by sliding_window_view, Sobel gradients with non-maximum suppression and
hysteresis-like thresholds, histogram equalisation by cumsum+interp, morphology by max/min over windows,
Otsu thresholding, integral images, nearest/bilinear resize by indexing, colour conversion, gamma and
uint8 arithmetic (tests/porting)."""

import numpy as np
from harness import check


def _image(seed, shape=(16, 20)):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
    img = 120 + 80 * np.sin(xx / 4.0) * np.cos(yy / 5.0) + rng.normal(0, 10, shape)
    img[4:9, 6:12] += 60
    return np.clip(img, 0, 255).round().astype(np.uint8)


def conv_sliding(np, img_host):
    img = np.asarray(img_host).astype(np.float64) / 255.0
    k = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16
    win = np.lib.stride_tricks.sliding_window_view(np.pad(img, 1, mode="reflect"), (3, 3))
    blur = np.einsum("ijkl,kl->ij", win, k)
    blur2 = (win * k).sum(axis=(-2, -1))
    lap = np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]])
    edges = np.tensordot(win, lap, axes=([2, 3], [0, 1]))
    return {"blur": blur, "same": bool(np.allclose(blur, blur2)), "edges": edges, "shape": win.shape}


def sobel_canny(np, img_host):
    img = np.asarray(img_host, dtype=float)
    p = np.pad(img, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    q = (np.round(ang / 45) % 4).astype(int)
    offs = np.array([[0, 1], [1, 1], [1, 0], [1, -1]])
    H, W = mag.shape
    r, c = np.indices((H, W))
    dr, dc = offs[q, 0], offs[q, 1]
    mp = np.pad(mag, 1)
    n1 = mp[r + 1 + dr, c + 1 + dc]
    n2 = mp[r + 1 - dr, c + 1 - dc]
    nms = np.where((mag >= n1) & (mag >= n2), mag, 0)
    hi, lo = np.percentile(nms[nms > 0], [90, 60])
    strong = nms >= hi
    weak = (nms >= lo) & ~strong
    sp = np.pad(strong, 1)
    near = np.zeros_like(strong)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            near |= sp[1 + di : 1 + di + H, 1 + dj : 1 + dj + W]
    edges = strong | (weak & near)
    return {"mag": mag, "q": q, "nms": nms, "hi_lo": [float(hi), float(lo)], "edges": edges,
            "n_edges": int(edges.sum())}


def hist_equalise(np, img_host):
    img = np.asarray(img_host)
    hist, bins = np.histogram(img.flatten(), 256, [0, 256])
    cdf = hist.cumsum()
    cdf_normalized = cdf * float(hist.max()) / cdf.max()
    lut = np.interp(img.flatten(), bins[:-1], cdf / cdf[-1] * 255)
    eq = lut.reshape(img.shape).round().astype(np.uint8)
    nz = cdf[cdf > 0]
    lut2 = np.round((cdf - nz.min()) * 255 / (cdf.max() - nz.min())).clip(0, 255).astype("uint8")
    eq2 = lut2[img]
    return {"cdf_n": cdf_normalized, "eq": eq, "eq2": eq2, "hist_eq": np.bincount(eq2.ravel(), minlength=256),
            "spread": [int(eq2.min()), int(eq2.max())]}


def morphology(np, img_host):
    b = np.asarray(img_host) > 140
    W = np.lib.stride_tricks.sliding_window_view(np.pad(b, 1), (3, 3))
    dil = W.max(axis=(2, 3))
    ero = W.min(axis=(2, 3))
    opened = np.lib.stride_tricks.sliding_window_view(np.pad(ero, 1), (3, 3)).any(axis=(-1, -2))
    closed = np.lib.stride_tricks.sliding_window_view(np.pad(dil, 1, constant_values=True), (3, 3)).all(axis=(-1, -2))
    gray = np.asarray(img_host)
    gdil = np.lib.stride_tricks.sliding_window_view(np.pad(gray, 2, mode="edge"), (5, 5)).max(axis=(-2, -1))
    tophat = gray.astype(int) - np.lib.stride_tricks.sliding_window_view(
        np.pad(gray, 1, mode="edge"), (3, 3)).min(axis=(-2, -1))
    boundary = b & ~ero
    return {"dil": dil, "ero": ero, "opened": opened, "closed": closed, "gdil": gdil, "tophat": tophat,
            "boundary": np.count_nonzero(boundary), "dtype": str(gdil.dtype)}


def otsu(np, img_host):
    img = np.asarray(img_host)
    hist = np.bincount(img.ravel(), minlength=256).astype(float)
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = np.nan_to_num(sigma_b, nan=0.0, posinf=0.0)
    t = int(np.argmax(sigma_b))
    mask = img > t
    return {"t": t, "fg": int(mask.sum()), "mean_fg": float(img[mask].mean()), "mean_bg": float(img[~mask].mean()),
            "binary": mask.astype(np.uint8) * 255}


def integral_image(np, img_host):
    img = np.asarray(img_host).astype(np.int64)
    ii = img.cumsum(axis=0).cumsum(axis=1)
    ii = np.pad(ii, ((1, 0), (1, 0)))
    k = 4
    box = ii[k:, k:] - ii[:-k, k:] - ii[k:, :-k] + ii[:-k, :-k]
    direct = np.lib.stride_tricks.sliding_window_view(img, (k, k)).sum(axis=(2, 3))
    r0, c0, r1, c1 = 2, 3, 9, 15
    rect = ii[r1, c1] - ii[r0, c1] - ii[r1, c0] + ii[r0, c0]
    sq = np.pad((img**2).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    var = (sq[k:, k:] - sq[:-k, k:] - sq[k:, :-k] + sq[:-k, :-k]) / k**2 - (box / k**2) ** 2
    return {"box": box, "eq": bool(np.array_equal(box, direct)), "rect": int(rect),
            "rect_direct": int(img[r0:r1, c0:c1].sum()), "var": var, "ii_dtype": ii.dtype.kind}


def resize(np, img_host):
    img = np.asarray(img_host)
    H, W = img.shape
    nh, nw = 7, 33
    ri = (np.arange(nh) * H / nh).astype(int)
    ci = (np.arange(nw) * W / nw).astype(int)
    nearest = img[ri[:, None], ci]
    nearest2 = img[np.ix_(ri, ci)]
    up = img.repeat(2, axis=0).repeat(3, axis=1)
    down = img[::2, ::2]
    pooled = img.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))
    y = np.linspace(0, H - 1, nh)
    x = np.linspace(0, W - 1, nw)
    y0 = np.floor(y).astype(int)
    x0 = np.floor(x).astype(int)
    y1 = np.minimum(y0 + 1, H - 1)
    x1 = np.minimum(x0 + 1, W - 1)
    wy = (y - y0)[:, None]
    wx = (x - x0)[None, :]
    f = img.astype(float)
    bil = (f[y0][:, x0] * (1 - wy) * (1 - wx) + f[y0][:, x1] * (1 - wy) * wx
           + f[y1][:, x0] * wy * (1 - wx) + f[y1][:, x1] * wy * wx)
    return {"nearest": nearest, "same": bool((nearest == nearest2).all()), "up": up.shape, "down": down,
            "pooled": pooled, "bil": bil, "flip": np.flipud(np.fliplr(img))[0], "rot": np.rot90(img, 1)[:, 0]}


def colour_ops(np, rgb_host):
    rgb = np.asarray(rgb_host)
    gray = (rgb @ np.array([0.299, 0.587, 0.114])).astype(np.uint8)
    gray2 = np.dot(rgb[..., :3], [0.2989, 0.5870, 0.1140])
    f = rgb / 255.0
    gamma = (255 * f ** (1 / 2.2)).round().astype(np.uint8)
    brighter = np.clip(rgb.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    wrap = rgb + np.uint8(60)
    mx, mn = f.max(axis=-1), f.min(axis=-1)
    sat = np.where(mx > 0, (mx - mn) / np.where(mx > 0, mx, 1), 0)
    inv = 255 - rgb
    swapped = rgb[..., ::-1]
    chans = np.moveaxis(rgb, -1, 0)
    mean_c = rgb.reshape(-1, 3).mean(axis=0)
    return {"gray": gray, "gray2": gray2, "gamma": gamma, "brighter": brighter, "wrap": wrap, "sat": sat,
            "inv": inv, "swapped": swapped, "chans": chans.shape, "mean_c": mean_c, "dtype": str(inv.dtype)}


def saturate_and_mark(np, img_host):
    img = np.asarray(img_host)
    floor = np.clip(img, 30, 1000)  # an upper bound past uint8's range: NumPy drops it
    nodata = np.where(img > 200, img, 255)  # (-1 force-cast to 255 in NumPy 2.4, an error in 2.5)
    bands = np.select([img < 50, img > 200], [img, img // 2], -1)
    return {"floor": floor, "nodata": nodata, "bands": bands, "n255": int((nodata == 255).sum()),
            "dtypes": [str(floor.dtype), str(nodata.dtype), str(bands.dtype)]}


def test_convolution_sliding_window():
    check(conv_sliding, _image(811), rtol=1e-4, atol=1e-5)


def test_sobel_nms_hysteresis():
    check(sobel_canny, _image(812), rtol=1e-3, atol=1e-3)


def test_histogram_equalisation_cumsum_interp():
    check(hist_equalise, _image(813), rtol=1e-4, atol=1e-3)


def test_morphology_window_max_min():
    check(morphology, _image(814))


def test_otsu_threshold():
    check(otsu, _image(815), rtol=1e-4, atol=1e-4)


def test_integral_image():
    check(integral_image, _image(816), rtol=1e-4, atol=1e-3)


def test_resize_nearest_bilinear():
    check(resize, _image(817), rtol=1e-4, atol=1e-3)


def test_colour_conversion_uint8():
    check(colour_ops, np.random.default_rng(818).integers(0, 256, (5, 6, 3), dtype=np.uint8), rtol=1e-4, atol=1e-3)


def test_uint8_out_of_range_python_ints():
    check(saturate_and_mark, _image(819))
