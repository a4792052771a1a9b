"""Image processing programs: morphology by padding and windows, Sobel, equalisation, flood thresholds,
rotations with index arrays (tests/porting)."""

import numpy as np
from harness import check


def shapes_image(h=20, w=24, seed=31):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    img = ((xx - 7) ** 2 + (yy - 8) ** 2 < 20).astype(np.float32) * 0.8
    img[12:17, 14:21] = 0.6
    img += 0.1 * rng.random((h, w), dtype=np.float32)
    return img


def morphology(np, img_host, r=1):
    img = np.asarray(img_host) > 0.5
    padded = np.pad(img, r, mode="constant", constant_values=False)
    win = np.lib.stride_tricks.sliding_window_view(padded, (2 * r + 1, 2 * r + 1))
    dil = win.any(axis=(-2, -1))
    ero = win.all(axis=(-2, -1))
    opening = np.lib.stride_tricks.sliding_window_view(np.pad(ero, r), (3, 3)).any(axis=(2, 3))
    boundary = img & ~ero
    # the same dilation by shifted ORs of slices
    acc = np.zeros_like(img)
    H, W = img.shape
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            acc |= padded[r + dy:r + dy + H, r + dx:r + dx + W]
    gray = np.asarray(img_host)
    gp = np.pad(gray, 1, mode="edge")
    gmax = np.max(np.stack([gp[i:i + H, j:j + W] for i in range(3) for j in range(3)]), axis=0)
    return {"dil": dil, "ero": ero, "open": opening, "boundary": int(boundary.sum()), "same": bool((acc == dil).all()),
            "gmax": gmax, "tophat": gray - np.minimum(gray, gmax)}


def sobel_edges(np, img_host):
    img = np.asarray(img_host, dtype=np.float32)
    kx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=np.float32)
    ky = kx.T
    p = np.pad(img, 1, mode="reflect")
    H, W = img.shape
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    for i in range(3):
        for j in range(3):
            patch = p[i:i + H, j:j + W]
            gx += kx[i, j] * patch
            gy += ky[i, j] * patch
    mag = np.hypot(gx, gy)
    ang = np.rad2deg(np.arctan2(gy, gx)) % 180
    q = (np.round(ang / 45) % 4).astype(int)
    thr = mag > 0.5 * mag.max()
    ys, xs = np.nonzero(thr)
    gy2, gx2 = np.gradient(img)
    lap = np.roll(img, 1, 0) + np.roll(img, -1, 0) + np.roll(img, 1, 1) + np.roll(img, -1, 1) - 4 * img
    return {"mag": mag, "dirs": np.bincount(q[thr], minlength=4), "n_edge": len(ys),
            "bbox": [int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())], "grad": np.stack([gy2, gx2]),
            "lap_abs_mean": float(np.abs(lap).mean())}


def equalise_and_stretch(np, img_host):
    img = (np.asarray(img_host) * 255).clip(0, 255).astype(np.uint8)
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0][0]
    lut = np.round((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).clip(0, 255).astype(np.uint8)
    eq = lut[img]
    lo, hi = np.percentile(img, [2, 98])
    stretched = np.clip((img.astype(np.float32) - lo) / (hi - lo), 0, 1)
    gamma = stretched ** 0.5
    h2, edges = np.histogram(eq, bins=8, range=(0, 256))
    inv = 255 - img
    return {"eq": eq, "lut": lut, "stretched": stretched, "gamma": gamma, "h2": h2, "edges": edges,
            "inv_sum": int(inv.astype(np.int64).sum()), "dtype": str(eq.dtype)}


def flood_threshold(np, img_host, seed=(8, 7), tol=0.25):
    img = np.asarray(img_host)
    target = img[seed]
    ok = np.abs(img - target) < tol
    region = np.zeros(img.shape, dtype=bool)
    region[seed] = True
    for it in range(100):  # noqa: B007 (the count is reported)
        grown = region.copy()
        grown[1:] |= region[:-1]
        grown[:-1] |= region[1:]
        grown[:, 1:] |= region[:, :-1]
        grown[:, :-1] |= region[:, 1:]
        grown &= ok
        if np.array_equal(grown, region):
            break
        region = grown
    ys, xs = np.where(region)
    centroid = (ys.mean(), xs.mean())
    masked = np.where(region, img, np.nan)
    labelled = np.zeros(img.shape, dtype=np.int32)
    labelled[region] = 1
    labelled[(img > 0.5) & ~region] = 2
    return {"region": region, "iters": it, "area": int(region.sum()), "centroid": [float(c) for c in centroid],
            "mean_in": float(np.nanmean(masked)), "labels": np.bincount(labelled.ravel())}


def rotations_index_arrays(np, img_host):
    img = np.asarray(img_host)
    H, W = img.shape
    r90 = np.rot90(img)
    r90_idx = img[:, ::-1].T
    ii, jj = np.indices((W, H))
    by_index = img[jj, W - 1 - ii]
    flipped = np.flip(img, axis=(0, 1))
    transposed = np.transpose(img[None], (1, 2, 0))[..., 0]
    rolled = np.roll(img, shift=(2, -3), axis=(0, 1))
    cy, cx = (H - 1) / 2, (W - 1) / 2
    t = np.deg2rad(20.0)
    yy, xx = np.mgrid[0:H, 0:W]
    sy = np.cos(t) * (yy - cy) - np.sin(t) * (xx - cx) + cy
    sx = np.sin(t) * (yy - cy) + np.cos(t) * (xx - cx) + cx
    si, sj = np.rint(sy).astype(int), np.rint(sx).astype(int)
    valid = (si >= 0) & (si < H) & (sj >= 0) & (sj < W)
    rot = np.zeros_like(img)
    rot[valid] = img[si[valid], sj[valid]]
    crop = img[H // 4: 3 * H // 4, W // 4: 3 * W // 4]
    tiles = img.reshape(H // 4, 4, W // 4, 4).swapaxes(1, 2).reshape(-1, 16)
    return {"r90": r90, "same": bool(np.array_equal(r90, r90_idx)), "by_index": by_index, "flip": flipped,
            "T": transposed, "roll": rolled, "rot": rot, "valid": int(valid.sum()), "crop": crop.shape,
            "tile_means": tiles.mean(axis=1), "k3": np.rot90(img, k=3, axes=(0, 1))}


def rgb_processing(np, rgb_host):
    rgb = np.asarray(rgb_host)
    gray = rgb @ np.array([0.299, 0.587, 0.114], dtype=rgb.dtype)
    gray2 = np.dot(rgb[..., :3], [0.2989, 0.5870, 0.1140])
    mx, mn = rgb.max(axis=-1), rgb.min(axis=-1)
    delta = mx - mn
    s = np.where(mx > 0, delta / np.where(mx > 0, mx, 1), 0)
    r, g, b = np.moveaxis(rgb, -1, 0)
    safe = np.where(delta == 0, 1, delta)
    h = np.select([delta == 0, mx == r, mx == g], [0, ((g - b) / safe) % 6, (b - r) / safe + 2], (r - g) / safe + 4)
    h = h * 60
    alpha = np.ones(rgb.shape[:2] + (1,), dtype=rgb.dtype)
    rgba = np.concatenate([rgb, alpha], axis=-1)
    channels_first = rgba.transpose(2, 0, 1)
    u8 = (rgb * 255).round().astype(np.uint8)
    packed = (u8[..., 0].astype(np.uint32) << 16) | (u8[..., 1].astype(np.uint32) << 8) | u8[..., 2]
    unpacked = np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255], axis=-1).astype(np.uint8)
    return {"gray": gray, "gray2": gray2, "s": s, "h": h, "cf": channels_first.shape, "packed": packed,
            "roundtrip": bool((unpacked == u8).all()), "mean_rgb": rgb.reshape(-1, 3).mean(axis=0)}


def test_binary_morphology_windows_and_slices():
    check(morphology, shapes_image())


def test_sobel_gradient_laplacian():
    check(sobel_edges, shapes_image(), rtol=1e-3, atol=1e-4)


def test_histogram_equalisation_uint8_lut():
    check(equalise_and_stretch, shapes_image(), rtol=1e-3, atol=1e-4)


def test_region_growing_flood_fill():
    check(flood_threshold, shapes_image())


def test_rotations_flips_tiles_index_arrays():
    check(rotations_index_arrays, shapes_image(h=16, w=20))


def test_rgb_to_gray_hsv_packing():
    rgb = np.random.default_rng(32).random((6, 7, 3)).astype(np.float32)
    check(rgb_processing, rgb, rtol=1e-3, atol=1e-4)
