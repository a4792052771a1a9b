"""Histogram equalisation and spectral cleaning ported from NumPy scripts: uint8 equalisation by a `cumsum`
lookup table from `np.histogram(density=)`, CLAHE-style tiles with clip limits, joint histograms by
`np.histogram2d`/`np.histogramdd` and their mutual information, tone curves by `np.interp(left=, right=,
period=)`, colour quantisation by `np.digitize` with `np.unique(axis=0)` palettes, and spectra edited in place
through `np.real(z)`/`np.imag(z)` views (tests/porting)."""

import numpy as np
from harness import check


def equalise(np, img):
    img = np.asarray(img, dtype=np.uint8)
    hist, edges = np.histogram(img, bins=256, range=(0, 256))
    cdf = hist.cumsum()
    cdf_m = np.ma.masked_equal(cdf, 0)
    lut = np.ma.filled((cdf_m - cdf_m.min()) * 255 // (cdf_m.max() - cdf_m.min()), 0).astype(np.uint8)
    out = lut[img]
    dens, _ = np.histogram(img, bins=8, density=True)
    return {"out": out, "lut_nz": np.count_nonzero(lut), "dens": dens, "flat": np.histogram(out, bins=4)[0],
            "edges": edges[[0, 1, -1]]}


def tiled_equalise(np, img, clip):
    img = np.asarray(img, dtype=np.uint8)
    tiles = img.reshape(2, img.shape[0] // 2, 2, img.shape[1] // 2).swapaxes(1, 2)
    out = np.empty_like(tiles)
    for i, j in np.ndindex(2, 2):
        h = np.bincount(tiles[i, j].ravel(), minlength=256)
        excess = np.maximum(h - clip, 0).sum()
        h = np.minimum(h, clip) + excess // 256
        cdf = np.cumsum(h)
        out[i, j] = np.round(255 * cdf[tiles[i, j]] / cdf[-1]).astype(np.uint8)
    return {"out": out.swapaxes(1, 2).reshape(img.shape), "means": out.mean(axis=(2, 3))}


def mutual_information(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    joint, xe, ye = np.histogram2d(a, b, bins=[6, 5], range=[[0, 1], [0, 1]])
    p = joint / joint.sum()
    px, py = p.sum(axis=1, keepdims=True), p.sum(axis=0, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p / (px * py)), 0.0)
    dens, _, _ = np.histogram2d(a, b, bins=4, density=True)
    cube, edges = np.histogramdd(np.stack([a, b, (a + b) / 2], axis=1), bins=(2, 3, 2))
    return {"mi": terms.sum(), "joint": joint, "xe": xe, "dens": dens, "cube": cube, "e2": edges[2]}


def tone_curves(np, x):
    x = np.asarray(x)
    knots = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    gamma = knots ** 0.6
    curve = np.interp(x, knots, gamma, left=-1.0, right=2.0)
    hue = np.interp(np.array([350.0, 5, 185, -10]), np.array([0.0, 120, 240]), np.array([0.0, 1, 2]), period=360)
    lut = np.interp(np.arange(256), [0, 64, 192, 255], [0, 32, 224, 255]).astype(np.uint8)
    return {"curve": curve, "hue": hue, "lut": lut[::17], "inv": np.interp(curve.clip(0, 1), gamma, knots)}


def palette_quantise(np, rgb):
    rgb = np.asarray(rgb, dtype=np.uint8).reshape(-1, 3)
    levels = np.array([64, 128, 192])
    q = np.digitize(rgb, levels, right=True)
    palette, inv, counts = np.unique(q, axis=0, return_inverse=True, return_counts=True)
    centres = np.array([32, 96, 160, 224], dtype=np.uint8)
    return {"palette": palette, "inv": inv.ravel(), "counts": counts, "recon": centres[q],
            "err": np.abs(centres[q].astype(np.int16) - rgb).mean(), "top": palette[np.argmax(counts)]}


def spectral_clean(np, x):
    x = np.asarray(x)
    Z = np.fft.rfft(x)
    keep = np.abs(Z) > 0.2 * np.abs(Z).max()
    np.imag(Z)[~keep] = 0  # writes through NumPy's view into Z
    np.real(Z)[~keep] *= 0.1
    zr = Z.copy()
    zr.real[0] = 0  # remove the mean
    y = np.fft.irfft(zr, n=x.size)
    return {"Z": Z, "y": y, "kept": np.flatnonzero(keep), "phase": np.angle(Z[keep])}


def test_equalise():
    rng = np.random.default_rng(2341)
    check(equalise, np.clip(rng.normal(100, 20, (12, 10)), 0, 255).astype(np.uint8))


def test_tiled_equalise():
    rng = np.random.default_rng(2342)
    check(tiled_equalise, rng.integers(40, 120, (8, 10)), 3)


def test_mutual_information():
    rng = np.random.default_rng(2343)
    a = rng.uniform(size=60)
    check(mutual_information, a, np.clip(a + rng.normal(0, 0.2, 60), 0, 0.999), rtol=1e-3, atol=1e-4)


def test_tone_curves():
    check(tone_curves, np.array([-0.1, 0.0, 0.1, 0.5, 0.9, 1.0, 1.2]), atol=1e-4)


def test_palette_quantise():
    rng = np.random.default_rng(2344)
    check(palette_quantise, rng.integers(0, 256, (6, 5, 3)))


def test_spectral_clean():
    t = np.arange(32)
    check(spectral_clean, np.sin(2 * np.pi * 3 * t / 32) + 0.5 * np.cos(2 * np.pi * 7 * t / 32) + 0.3 +
          0.05 * np.random.default_rng(2345).normal(size=32), rtol=1e-3, atol=1e-4)
