"""Colour science in plain NumPy: sRGB transfer functions by `where`/`piecewise` on uint8 images, RGB <-> XYZ <->
CIELAB by `einsum`/`tensordot` with a 3x3 matrix, CIEDE76/CIE94 differences, HSV conversion with `select` and
`divmod`-free hue sectors, gamut clipping towards the neutral axis, grey-world and white-patch white balance with
`percentile`, chromatic adaptation (Bradford) by `solve`, palette quantisation by nearest colour with
`argmin(keepdims=)` and `unique(return_counts=)`, and a 3-D LUT applied by trilinear interpolation with fancy
indexing, and Reinhard tone mapping on `np.float32(img)` / `np.uint8(...)` casts (tests/porting)."""

import numpy as np
from harness import check

M_RGB2XYZ = [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
WHITE_D65 = [0.95047, 1.0, 1.08883]


def srgb_to_linear(np, c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(np, c):
    return np.piecewise(c, [c <= 0.0031308, c > 0.0031308], [lambda v: 12.92 * v,
                                                              lambda v: 1.055 * v ** (1 / 2.4) - 0.055])


def transfer_roundtrip(np, img):
    img = np.asarray(img)  # uint8 (h, w, 3)
    c = img / 255.0
    lin = srgb_to_linear(np, c)
    back = linear_to_srgb(np, lin)
    out = np.clip(np.round(back * 255), 0, 255).astype(np.uint8)
    luminance = lin @ np.array([0.2126, 0.7152, 0.0722])
    grey = (linear_to_srgb(np, luminance) * 255 + 0.5).astype(np.uint8)
    return {"lin": lin, "same": bool(np.array_equal(out, img)), "grey": grey, "dtype": str(out.dtype),
            "mean_lum": luminance.mean(axis=(0, 1))}


def xyz_to_lab(np, xyz, white):
    t = xyz / white
    d = 6 / 29
    f = np.where(t > d**3, np.cbrt(t), t / (3 * d**2) + 4 / 29)
    L = 116 * f[..., 1] - 16
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([L, a, b], axis=-1)


def lab_pipeline(np, rgb, M, white):
    rgb, M, white = np.asarray(rgb), np.asarray(M), np.asarray(white)
    lin = srgb_to_linear(np, rgb)
    xyz = np.einsum("ij,...j->...i", M, lin)
    xyz2 = np.tensordot(lin, M, axes=([-1], [1]))
    lab = xyz_to_lab(np, xyz, white)
    C = np.hypot(lab[..., 1], lab[..., 2])
    h = np.degrees(np.arctan2(lab[..., 2], lab[..., 1])) % 360
    return {"xyz": xyz, "same": bool(np.allclose(xyz, xyz2)), "lab": lab, "C": C, "h": h,
            "inv": np.linalg.solve(M, xyz.reshape(-1, 3).T).T.reshape(lin.shape)}


def delta_e(np, lab1, lab2):
    l1, l2 = np.asarray(lab1), np.asarray(lab2)
    de76 = np.linalg.norm(l1 - l2, axis=-1)
    dL = l1[:, 0] - l2[:, 0]
    C1, C2 = np.hypot(l1[:, 1], l1[:, 2]), np.hypot(l2[:, 1], l2[:, 2])
    dC = C1 - C2
    dH2 = np.maximum((l1[:, 1] - l2[:, 1]) ** 2 + (l1[:, 2] - l2[:, 2]) ** 2 - dC**2, 0)
    SC, SH = 1 + 0.045 * C1, 1 + 0.015 * C1
    de94 = np.sqrt(dL**2 + (dC / SC) ** 2 + dH2 / SH**2)
    order = np.argsort(de94, kind="stable")
    jnd = np.count_nonzero(de76 < 2.3)
    return {"de76": de76, "de94": de94, "order": order, "jnd": jnd,
            "worst": np.max(de94, initial=0.0), "bands": np.digitize(de94, [1.0, 2.0, 5.0, 10.0])}


def rgb_to_hsv(np, rgb):
    rgb = np.asarray(rgb, dtype=np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    mx = rgb.max(axis=-1)
    mn = rgb.min(axis=-1)
    d = mx - mn
    safe = np.where(d == 0, 1, d)
    h = np.select([d == 0, mx == r, mx == g], [0.0, ((g - b) / safe) % 6, (b - r) / safe + 2],
                  default=(r - g) / safe + 4)
    h = h * 60
    s = np.divide(d, mx, out=np.zeros_like(mx), where=mx != 0)
    hsv = np.stack((h, s, mx), axis=-1)
    hi = (h // 60).astype(np.int32) % 6
    return {"hsv": hsv, "dtype": str(hsv.dtype), "sector": hi, "counts": np.bincount(hi.ravel(), minlength=6)}


def gamut_clip(np, rgb_lin):
    c = np.asarray(rgb_lin)
    out_of = np.any((c < 0) | (c > 1), axis=-1)
    lum = c @ np.array([0.2126, 0.7152, 0.0722])
    grey = np.repeat(np.clip(lum, 0, 1)[..., None], 3, axis=-1)
    d = c - grey
    with np.errstate(divide="ignore", invalid="ignore"):
        t_hi = np.where(d > 0, (1 - grey) / d, np.inf)
        t_lo = np.where(d < 0, (0 - grey) / d, np.inf)
    t = np.minimum(np.min(t_hi, axis=-1), np.min(t_lo, axis=-1))
    t = np.clip(t, 0, 1)
    clipped = grey + t[..., None] * d
    clipped[~out_of] = c[~out_of]
    return {"out": out_of, "n_out": int(out_of.sum()), "clipped": clipped, "hard": np.clip(c, 0.0, 1.0),
            "max_shift": np.abs(clipped - c).max(axis=-1)}


def white_balance(np, img):
    img = np.asarray(img).astype(np.float64)
    means = img.reshape(-1, 3).mean(axis=0)
    gw = img * (means.mean() / means)
    p = np.percentile(img, 99, axis=(0, 1))
    wp = np.clip(img / p * 255.0, 0, 255)
    gains = np.float64(255.0) / p
    out = np.clip(gw, 0, 255).astype(np.uint8)
    return {"means": means, "gw": gw, "p99": p, "wp": wp, "gains": gains, "u8": out,
            "cast": np.argmax(means)}


def bradford(np, xyz, src_white, dst_white):
    B = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    s = B @ np.asarray(src_white)
    d = B @ np.asarray(dst_white)
    M = np.linalg.solve(B, np.diag(d / s) @ B)
    adapted = np.asarray(xyz) @ M.T
    return {"M": M, "adapted": adapted, "white": M @ np.asarray(src_white), "det": np.linalg.det(M)}


def quantise(np, img, palette):
    img, pal = np.asarray(img).astype(np.int32), np.asarray(palette).astype(np.int32)
    px = img.reshape(-1, 3)
    d2 = ((px[:, None, :] - pal[None, :, :]) ** 2).sum(axis=-1)
    idx = np.argmin(d2, axis=1, keepdims=True)
    q = pal[idx[:, 0]].reshape(img.shape).astype(np.uint8)
    used, counts = np.unique(idx, return_counts=True)
    err = np.sqrt(np.take_along_axis(d2, idx, axis=1)).mean()
    return {"q": q, "used": used, "counts": counts, "err": err, "dominant": pal[used[np.argmax(counts)]]}


def apply_lut(np, rgb, lut):
    rgb, lut = np.asarray(rgb), np.asarray(lut)
    n = lut.shape[0]
    x = rgb * (n - 1)
    i0 = np.clip(np.floor(x).astype(int), 0, n - 2)
    f = x - i0
    out = np.zeros(rgb.shape)
    for dr in (0, 1):
        for dg in (0, 1):
            for db in (0, 1):
                w = ((f[..., 0] if dr else 1 - f[..., 0]) * (f[..., 1] if dg else 1 - f[..., 1])
                     * (f[..., 2] if db else 1 - f[..., 2]))
                out += w[..., None] * lut[i0[..., 0] + dr, i0[..., 1] + dg, i0[..., 2] + db]
    return {"out": out, "i0": i0}


def tone_map(np, img, gains, white):
    img, gains = np.asarray(img), np.asarray(gains)
    f = np.float32(img) / 255.0  # the cast idiom: np.float32(array) is np.asarray(array, np.float32)
    f **= 2.2
    f *= gains  # per-channel exposure (a kdsl array into the cast's result)
    lum = f @ np.float32([0.2126, 0.7152, 0.0722])
    mapped = lum * (1 + lum / white**2) / (1 + lum)
    scale = np.divide(mapped, lum, out=np.zeros_like(lum), where=lum > 0)
    out = f * scale[..., None]
    out = out ** (1 / 2.2)
    u8 = np.uint8(np.clip(out * 255 + 0.5, 0, 255))
    u8[lum == 0] = 0
    return {"f_dtype": str(f.dtype), "u8": u8, "u8_dtype": str(u8.dtype), "lum": lum, "clipped": int((out > 1).sum())}


def test_transfer_roundtrip():
    rng = np.random.default_rng(2521)
    img = rng.integers(0, 256, (6, 7, 3), dtype=np.uint8)
    img[0, 0] = [0, 10, 255]
    check(transfer_roundtrip, img, rtol=1e-4, atol=1e-6)


def test_lab_pipeline():
    rng = np.random.default_rng(2522)
    rgb = rng.uniform(0, 1, (4, 5, 3))
    rgb[0, 0] = [1.0, 1.0, 1.0]
    rgb[0, 1] = [0.0, 0.0, 0.0]
    check(lab_pipeline, rgb, np.array(M_RGB2XYZ), np.array(WHITE_D65), rtol=1e-3, atol=1e-3)


def test_delta_e():
    rng = np.random.default_rng(2523)
    lab1 = np.column_stack([rng.uniform(0, 100, 15), rng.uniform(-60, 60, (15, 2))])
    lab2 = lab1 + rng.normal(0, 2, lab1.shape)
    lab2[3] = lab1[3]
    check(delta_e, lab1, lab2, rtol=1e-4, atol=1e-4)


def test_rgb_to_hsv():
    rng = np.random.default_rng(2524)
    rgb = rng.uniform(0, 1, (5, 6, 3))
    rgb[0, 0] = [0.5, 0.5, 0.5]
    rgb[0, 1] = [0.0, 0.0, 0.0]
    rgb[0, 2] = [1.0, 0.2, 0.2]
    check(rgb_to_hsv, rgb, rtol=1e-4, atol=1e-4)


def test_gamut_clip():
    rng = np.random.default_rng(2525)
    check(gamut_clip, rng.uniform(-0.2, 1.3, (20, 3)), rtol=1e-4, atol=1e-5)


def test_white_balance():
    rng = np.random.default_rng(2526)
    img = np.clip(rng.normal([140, 120, 90], 30, (8, 9, 3)), 0, 255).astype(np.uint8)
    check(white_balance, img, rtol=1e-4, atol=1e-3)


def test_bradford():
    rng = np.random.default_rng(2527)
    check(bradford, rng.uniform(0, 1, (10, 3)), np.array([1.09850, 1.0, 0.35585]), np.array(WHITE_D65),
          rtol=1e-4, atol=1e-5)


def test_quantise():
    rng = np.random.default_rng(2528)
    img = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
    pal = np.array([[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 128, 128]])
    check(quantise, img, pal)


def test_tone_map():
    rng = np.random.default_rng(2530)
    img = rng.integers(0, 256, (6, 5, 3), dtype=np.uint8)
    img[0, 0] = 0
    check(tone_map, img, np.array([4.0, 3.5, 5.0], np.float32), 2.5, rtol=1e-4, atol=1e-5)


def test_apply_lut():
    rng = np.random.default_rng(2529)
    g = np.linspace(0, 1, 5)
    lut = np.stack(np.meshgrid(g, g, g, indexing="ij"), axis=-1) ** 1.2
    check(apply_lut, rng.uniform(0, 1, (7, 3)), lut, rtol=1e-4, atol=1e-5)
