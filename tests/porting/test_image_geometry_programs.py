"""Image programs with coordinate arithmetic: Otsu threshold, bilinear resize by fancy indexing, rotation by
inverse mapping, integral images, max pooling by reshape, one-hot colour quantisation."""

import numpy as np
from harness import check


def otsu_threshold(np, img_host):
    img = np.asarray(img_host)
    hist = np.bincount(img.ravel(), minlength=256).astype(np.float64)
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = np.nan_to_num(sigma_b, nan=0.0, posinf=0.0, neginf=0.0)
    t = int(np.argmax(sigma_b))
    binary = (img > t).astype(np.uint8)
    return {"t": t, "fg": int(binary.sum()), "binary": binary}


def bilinear_resize(np, img_host, out_h=7, out_w=9):
    img = np.asarray(img_host, dtype=np.float32)
    h, w = img.shape
    ys = np.linspace(0, h - 1, out_h)
    xs = np.linspace(0, w - 1, out_w)
    x, y = np.meshgrid(xs, ys)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    wx, wy = x - x0, y - y0
    top = img[y0, x0] * (1 - wx) + img[y0, x1] * wx
    bottom = img[y1, x0] * (1 - wx) + img[y1, x1] * wx
    out = top * (1 - wy) + bottom * wy
    return {"out": out, "corners": [float(out[0, 0]), float(out[-1, -1])], "mean": float(out.mean())}


def rotate_nearest(np, img_host, degrees=33.0):  # 30: sin = 0.5 puts pixels on .5 ties
    img = np.asarray(img_host)
    h, w = img.shape
    theta = np.deg2rad(degrees)
    cy, cx = (h - 1) / 2, (w - 1) / 2
    yy, xx = np.indices((h, w))
    src_x = np.cos(theta) * (xx - cx) + np.sin(theta) * (yy - cy) + cx
    src_y = -np.sin(theta) * (xx - cx) + np.cos(theta) * (yy - cy) + cy
    sx, sy = np.rint(src_x).astype(int), np.rint(src_y).astype(int)
    valid = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
    out = np.zeros_like(img)
    out[valid] = img[sy[valid], sx[valid]]
    return {"out": out, "valid": int(valid.sum())}


def integral_image_and_pooling(np, img_host):
    img = np.asarray(img_host).astype(np.int64)
    ii = img.cumsum(axis=0).cumsum(axis=1)
    ii = np.pad(ii, ((1, 0), (1, 0)))
    box = ii[3:, 3:] - ii[:-3, 3:] - ii[3:, :-3] + ii[:-3, :-3]
    h, w = img.shape
    pooled = img[: h // 2 * 2, : w // 2 * 2].reshape(h // 2, 2, w // 2, 2).max(axis=(1, 3))
    avg = img.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    return {"box": box, "pooled": pooled, "avg": avg, "total": int(ii[-1, -1])}


def colour_quantise(np, rgb_host, palette_host):
    rgb = np.asarray(rgb_host).astype(np.float32) / 255.0
    palette = np.asarray(palette_host, dtype=np.float32)
    pixels = rgb.reshape(-1, 3)
    d = ((pixels[:, None, :] - palette[None, :, :]) ** 2).sum(-1)
    idx = d.argmin(axis=1)
    quant = palette[idx].reshape(rgb.shape)
    onehot = np.eye(len(palette), dtype=np.float32)[idx]
    usage = onehot.sum(axis=0) / len(idx)
    err = np.sqrt(((quant - rgb) ** 2).mean())
    return {"idx": idx.reshape(rgb.shape[:2]), "usage": usage, "err": float(err), "quant": quant}


def test_otsu_threshold():
    # overlapping classes: no empty bins between them, whose flat stretch of between-class variance would make
    # argmax a tie that a parallel cumsum's rounding breaks another way than NumPy's sequential one
    rng = np.random.default_rng(0)
    img = np.concatenate([rng.normal(90, 25, 10000), rng.normal(170, 25, 10000)]).clip(0, 255).astype(np.uint8)
    check(otsu_threshold, img.reshape(100, 200), rtol=1e-5)


def test_bilinear_resize_fancy_indexing():
    check(bilinear_resize, np.arange(20, dtype=np.float32).reshape(4, 5) ** 1.5, rtol=1e-4, atol=1e-4)


def test_rotation_by_inverse_mapping():
    img = (np.arange(11 * 13).reshape(11, 13) % 17).astype(np.int32)
    check(rotate_nearest, img)


def test_integral_image_and_pooling():
    check(integral_image_and_pooling, np.random.default_rng(1).integers(0, 256, size=(8, 10)))


def test_colour_quantisation():
    rng = np.random.default_rng(2)
    check(colour_quantise, rng.integers(0, 256, size=(6, 5, 3)), rng.uniform(0, 1, size=(4, 3)), rtol=1e-4, atol=1e-5)
