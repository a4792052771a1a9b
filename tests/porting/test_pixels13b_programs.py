"""uint8 image processing as tutorials write it, overflow traps included: brightening with and without widening
(`img + 100` wraps, `np.clip(img.astype(np.int16) + 100, 0, 255).astype(np.uint8)` saturates), histogram
equalisation by `np.bincount` and a cumulative lookup table, RGB to grey with integer and float weights and to
HSV by `np.where` chains, ordered (Bayer) and Floyd-Steinberg dithering, alpha blending and gamma lookup tables
indexed by the image, channel statistics and contrast stretching by percentiles, and bit-plane slicing with
`np.unpackbits` (tests/porting)."""

import numpy as np
from harness import check


def brighten(np, img):
    img = np.asarray(img)
    wrapped = img + 100
    widened = np.clip(img.astype(np.int16) + 100, 0, 255).astype(np.uint8)
    darker = np.where(img < 50, 0, img - 50).astype(np.uint8)
    inverted = 255 - img
    diff = np.abs(img.astype(np.int16) - inverted.astype(np.int16)).astype(np.uint8)
    bad_diff = img - inverted  # wraps around
    mean = img.mean()
    total = img.sum()  # promoted: no uint8 overflow
    return {"wrapped": wrapped, "widened": widened, "darker": darker, "inv": inverted, "diff": diff,
            "bad": bad_diff, "mean": mean, "total": int(total), "dtype": str(wrapped.dtype),
            "n_wrapped": int(np.count_nonzero(wrapped < img))}


def equalise(np, img):
    img = np.asarray(img)
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[np.nonzero(cdf)[0][0]]
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255).clip(0, 255).astype(np.uint8)
    out = lut[img]
    h2, edges = np.histogram(out, bins=16, range=(0, 256))
    cdf_m = np.ma.masked_equal(cdf, 0)
    cdf_m = (cdf_m - cdf_m.min()) * 255 / (cdf_m.max() - cdf_m.min())
    lut2 = np.ma.filled(cdf_m, 0).astype(np.uint8)
    return {"lut": lut, "out": out, "h2": h2, "edges": edges, "lut2": lut2, "span": (int(out.min()), int(out.max()))}


def colour_convert(np, rgb):
    rgb = np.asarray(rgb)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    grey_int = ((77 * r.astype(np.uint16) + 150 * g.astype(np.uint16) + 29 * b.astype(np.uint16)) >> 8).astype(np.uint8)
    grey_f = np.dot(rgb[..., :3], [0.299, 0.587, 0.114])
    x = rgb.astype(np.float32) / 255.0
    mx, mn = x.max(axis=-1), x.min(axis=-1)
    delta = mx - mn
    safe = np.where(delta == 0, 1, delta)
    rr, gg, bb = x[..., 0], x[..., 1], x[..., 2]
    h = np.where(mx == rr, (gg - bb) / safe % 6, np.where(mx == gg, (bb - rr) / safe + 2, (rr - gg) / safe + 4))
    h = np.where(delta == 0, 0, h * 60)
    s = np.where(mx == 0, 0, delta / np.where(mx == 0, 1, mx))
    swapped = rgb[..., ::-1].copy()
    return {"grey_int": grey_int, "grey_f": np.round(grey_f, 3), "h": h, "s": s, "v": mx, "bgr": swapped,
            "chan_mean": rgb.reshape(-1, 3).mean(axis=0)}


def bayer_dither(np, grey):
    grey = np.asarray(grey)
    bayer = np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]])
    h, w = grey.shape
    thresh = (np.tile(bayer, (h // 4 + 1, w // 4 + 1))[:h, :w] + 0.5) * 16
    out = (grey > thresh).astype(np.uint8) * 255
    levels = np.round(grey / 255 * 3).astype(np.uint8) * 85
    return {"out": out, "ones": int((out == 255).sum()), "levels": levels, "thresh": thresh[:4, :4]}


def floyd_steinberg(np, grey):
    grey = np.asarray(grey)
    img = grey.astype(np.float64)
    h, w = img.shape
    for y in range(h):
        for x in range(w):
            old = img[y, x]
            new = 255.0 if old >= 128 else 0.0
            img[y, x] = new
            err = old - new
            if x + 1 < w:
                img[y, x + 1] += err * 7 / 16
            if y + 1 < h:
                if x > 0:
                    img[y + 1, x - 1] += err * 3 / 16
                img[y + 1, x] += err * 5 / 16
                if x + 1 < w:
                    img[y + 1, x + 1] += err / 16
    out = img.astype(np.uint8)
    return {"out": out, "mean_in": grey.mean(), "mean_out": out.mean()}


def blend_and_gamma(np, a, b, alpha):
    a, b = np.asarray(a), np.asarray(b)
    blended = (alpha * a + (1 - alpha) * b).astype(np.uint8)
    a16 = a.astype(np.uint16)
    b16 = b.astype(np.uint16)
    avg = ((a16 + b16 + 1) // 2).astype(np.uint8)
    wrong_avg = (a + b) // 2  # uint8 wraps before the division
    gamma = 2.2
    lut = (255 * (np.arange(256) / 255) ** (1 / gamma) + 0.5).astype(np.uint8)
    corrected = np.take(lut, a)
    return {"blended": blended, "avg": avg, "wrong": wrong_avg, "lut": lut, "corrected": corrected,
            "mismatch": int(np.count_nonzero(avg != wrong_avg))}


def stretch_and_stats(np, rgb):
    rgb = np.asarray(rgb)
    lo, hi = np.percentile(rgb, [2, 98], axis=(0, 1))
    x = (rgb.astype(np.float32) - lo) / (hi - lo)
    out = (np.clip(x, 0, 1) * 255).round().astype(np.uint8)
    stats = np.stack([rgb.min(axis=(0, 1)), rgb.max(axis=(0, 1)), np.median(rgb, axis=(0, 1))])
    sat = np.count_nonzero((out == 0) | (out == 255), axis=(0, 1))
    return {"lo": lo, "hi": hi, "out": out, "stats": stats, "sat": sat}


def bit_planes(np, grey):
    grey = np.asarray(grey)
    planes = np.unpackbits(grey[..., None], axis=-1)
    msb = planes[..., 0]
    top4 = np.packbits(np.concatenate([planes[..., :4], np.zeros(grey.shape + (4,), np.uint8)], axis=-1), axis=-1)
    top4 = top4[..., 0]
    same = np.array_equal(top4, grey & 0xF0)
    noise_floor = (grey & 1).mean()
    counts = planes.reshape(-1, 8).sum(axis=0)
    return {"msb": msb, "top4": top4, "same": bool(same), "floor": noise_floor, "counts": counts,
            "shifted": (grey >> 4) << 4, "xor": np.bitwise_xor(grey, 0b10101010)}


def _img(seed, shape):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=shape, dtype=np.uint8)


def test_brighten_overflow():
    check(brighten, _img(1321, (12, 16)))


def test_histogram_equalisation():
    rng = np.random.default_rng(1322)
    img = np.clip(rng.normal(90, 20, (24, 24)), 0, 255).astype(np.uint8)
    check(equalise, img)


def test_rgb_to_grey_and_hsv():
    check(colour_convert, _img(1323, (8, 10, 3)), atol=1e-4)


def test_ordered_dither():
    rng = np.random.default_rng(1324)
    grey = (np.linspace(0, 255, 18)[None, :] + rng.normal(0, 10, (10, 18))).clip(0, 255).astype(np.uint8)
    check(bayer_dither, grey)


def test_floyd_steinberg():
    rng = np.random.default_rng(1325)
    grey = (np.linspace(10, 240, 6)[None, :] + rng.normal(0, 5, (5, 6))).clip(0, 255).astype(np.uint8)
    check(floyd_steinberg, grey)


def test_alpha_blend_gamma_lut():
    check(blend_and_gamma, _img(1326, (6, 9)), _img(1327, (6, 9)), 0.25)


def test_contrast_stretch_percentiles():
    rng = np.random.default_rng(1328)
    rgb = np.clip(rng.normal([80, 120, 160], [10, 20, 30], (10, 12, 3)), 0, 255).astype(np.uint8)
    check(stretch_and_stats, rgb)


def test_bit_planes():
    check(bit_planes, _img(1329, (7, 9)))
