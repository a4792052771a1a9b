"""Image compositing and pixel pipelines in plain NumPy: uint8 arithmetic that wraps against saturating `clip` +
`astype`, Porter-Duff "over" in float32 on straight and premultiplied alpha, channel stacks by `np.dstack`,
`np.moveaxis` and luminance by `np.einsum("hwc,c->hw")`, blend modes (multiply, screen, overlay by `np.where`),
masks written through `np.copyto(where=)`, `np.putmask` and `np.place`, sprite sheets cut by `np.array_split`,
tiles by `np.tile` and `np.repeat` with arrays of repeats, palette lookups by `np.take` and `np.unique(axis=0)`,
gamma curves with `np.power` on a lookup table, rows of a burst by `b[:, mask, :, 0]` (NumPy puts the
selection's axis first there), and a checkerboard by `np.indices` (tests/porting)."""

import numpy as np
from harness import check


def uint8_math(np, a, b):
    a, b = np.asarray(a, dtype=np.uint8), np.asarray(b, dtype=np.uint8)
    wrap_add, wrap_sub = a + b, a - b
    sat_add = np.clip(a.astype(np.int16) + b, 0, 255).astype(np.uint8)
    sat_sub = np.where(a > b, a - b, 0).astype(np.uint8)
    avg = ((a.astype(np.uint16) + b + 1) >> 1).astype(np.uint8)
    diff = np.abs(a.astype(int) - b.astype(int))
    return {"wrap_add": wrap_add, "wrap_sub": wrap_sub, "sat_add": sat_add, "sat_sub": sat_sub, "avg": avg,
            "diff": diff, "scaled": (a * 1.5).astype(np.uint8), "inverted": ~a, "neg": 255 - a}


def over(np, fg_rgba, bg_rgb):
    fg = np.asarray(fg_rgba).astype(np.float32) / 255
    bg = np.asarray(bg_rgb).astype(np.float32) / 255
    alpha = fg[..., 3:]
    out = fg[..., :3] * alpha + bg * (1 - alpha)
    premul = fg[..., :3] * alpha
    out2 = premul + bg * (1 - alpha)
    as8 = np.clip(np.round(out * 255), 0, 255).astype(np.uint8)
    return {"out": out, "same": bool(np.allclose(out, out2)), "as8": as8, "dtype": str(out.dtype),
            "opaque": np.count_nonzero(alpha[..., 0] == 1)}


def channels(np, img):
    img = np.asarray(img)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    rgb = np.dstack([r, g, b])
    chw = np.moveaxis(img, -1, 0)
    luma = np.einsum("hwc,c->hw", img.astype(np.float32), np.array([0.299, 0.587, 0.114], dtype=np.float32))
    bgr = img[..., ::-1]
    return {"same": bool(np.array_equal(rgb, img)), "chw": chw, "luma": luma, "bgr": bgr,
            "means": img.reshape(-1, 3).mean(axis=0), "back": np.moveaxis(chw, 0, -1).shape}


def blend_modes(np, a, b):
    a = np.asarray(a, dtype=np.float32) / 255
    b = np.asarray(b, dtype=np.float32) / 255
    multiply = a * b
    screen = 1 - (1 - a) * (1 - b)
    overlay = np.where(a < 0.5, 2 * a * b, 1 - 2 * (1 - a) * (1 - b))
    dodge = np.minimum(1, np.divide(a, 1 - b, out=np.ones_like(a), where=b < 1))
    return {"multiply": multiply, "screen": screen, "overlay": overlay, "dodge": dodge,
            "to8": (overlay * 255 + 0.5).astype(np.uint8)}


def mask_writes(np, img, mask, fill):
    out = np.array(img, copy=True)
    np.copyto(out, np.asarray(fill, dtype=out.dtype), where=np.asarray(mask)[..., None])
    flat = np.asarray(img).copy()
    np.putmask(flat, flat > 200, np.array([0, 1], dtype=flat.dtype))
    placed = np.asarray(img).copy()
    np.place(placed, placed < 30, [7, 8, 9])
    return {"out": out, "flat": flat, "placed": placed, "picked": np.extract(np.asarray(mask), np.asarray(img)[..., 0])}


def sprite_sheet(np, sheet, n_cols):
    sheet = np.asarray(sheet)
    cols = np.array_split(sheet, n_cols, axis=1)
    widths = [c.shape[1] for c in cols]
    frames = np.stack([c[:, :min(widths)] for c in cols])
    halves = np.split(sheet, [2], axis=0)
    return {"widths": widths, "frames": frames, "top": halves[0], "bottom_sum": halves[1].sum(),
            "max_frame": int(np.argmax(frames.sum(axis=(1, 2))))}


def tiling(np, tile, reps):
    t = np.asarray(tile)
    tiled = np.tile(t, (2, 3))
    stretched = np.repeat(np.repeat(t, np.asarray(reps), axis=0), 2, axis=1)
    nearest = t[np.arange(6) * t.shape[0] // 6][:, np.arange(4) * t.shape[1] // 4]
    return {"tiled": tiled, "stretched": stretched, "nearest": nearest, "kron": np.kron(t, np.ones((2, 2), int))}


def palette(np, img):
    px = np.asarray(img).reshape(-1, 3)
    colours, idx, counts = np.unique(px, axis=0, return_inverse=True, return_counts=True)
    idx = idx.reshape(np.asarray(img).shape[:2])
    rebuilt = np.take(colours, idx, axis=0)
    top = colours[np.argsort(-counts, kind="stable")[:2]]
    return {"colours": colours, "idx": idx, "ok": bool(np.array_equal(rebuilt, img)), "top": top,
            "counts": counts}


def gamma_lut(np, img, gamma):
    lut = (np.power(np.arange(256) / 255.0, 1 / gamma) * 255).round().astype(np.uint8)
    out = lut[np.asarray(img)]
    inverse = np.searchsorted(lut, np.arange(256))
    return {"lut": lut, "out": out, "inverse": inverse, "monotone": bool(np.all(np.diff(lut.astype(int)) >= 0))}


def checkerboard(np, h, w, size):
    i, j = np.indices((h, w))
    board = ((i // size + j // size) % 2).astype(np.uint8) * 255
    rgb = np.stack([board, np.zeros_like(board), 255 - board], axis=-1)
    return {"board": board, "rgb_sum": rgb.sum(axis=(0, 1)), "rolled": np.roll(board, size, axis=1),
            "same": bool(np.array_equal(np.roll(board, size, axis=1), 255 - board))}


def burst_rows(np, burst, bright_rows):
    b = np.asarray(burst).astype(np.float32)  # (frame, row, col, channel)
    keep = np.asarray(bright_rows)
    red = b[:, keep, :, 0]  # mask and int apart: NumPy puts the selected rows first, (rows, frames, cols)
    red[:, 0] = 0  # a copy: the burst is unchanged
    b[:, keep, :, 2] = 255  # written through the same key
    return {"red": red, "shape": red.shape, "row_means": red.mean(axis=(1, 2)), "blue": b[..., 2].sum(axis=0)}


def test_uint8_math():
    rng = np.random.default_rng(2241)
    check(uint8_math, rng.integers(0, 256, (3, 5)), rng.integers(0, 256, (3, 5)))


def test_over():
    rng = np.random.default_rng(2242)
    fg = rng.integers(0, 256, (3, 4, 4))
    fg[0, :, 3] = 255
    check(over, fg, rng.integers(0, 256, (3, 4, 3)))


def test_channels():
    rng = np.random.default_rng(2243)
    check(channels, rng.integers(0, 256, (3, 4, 3), dtype=np.uint8))


def test_blend_modes():
    rng = np.random.default_rng(2244)
    b = rng.integers(0, 256, (4, 5))
    b[0, 0] = 255
    check(blend_modes, rng.integers(0, 256, (4, 5)), b)


def test_mask_writes():
    rng = np.random.default_rng(2245)
    check(mask_writes, rng.integers(0, 256, (3, 4, 3), dtype=np.uint8), rng.random((3, 4)) < 0.4, [255, 0, 128])


def test_sprite_sheet():
    check(sprite_sheet, np.arange(50).reshape(5, 10), 3)


def test_tiling():
    check(tiling, np.array([[1, 2], [3, 4]]), np.array([1, 3]))


def test_palette():
    rng = np.random.default_rng(2246)
    pal = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255], [9, 9, 9]], dtype=np.uint8)
    check(palette, pal[rng.integers(0, 4, (4, 5))])


def test_gamma_lut():
    rng = np.random.default_rng(2247)
    check(gamma_lut, rng.integers(0, 256, (4, 4), dtype=np.uint8), 2.2)


def test_burst_rows():
    rng = np.random.default_rng(2248)
    check(burst_rows, rng.integers(0, 256, (3, 5, 4, 3), dtype=np.uint8), np.array([True, False, True, True, False]))


def test_checkerboard():
    check(checkerboard, 6, 8, 2)
