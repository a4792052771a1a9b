"""Orbits, image pyramids and sliding windows ported from NumPy scripts: two-body propagation with `np.cross` of
stacked vectors, anomalies by `np.arctan2` in every quadrant, ground tracks by `np.unwrap(period=)`,
`np.deg2rad`/`np.rad2deg`/`np.hypot`, pyramids by reshape-mean downsampling, `np.kron`/`np.repeat` upsampling and
`np.block`, cellular automata on tori by `np.roll` with tuple shifts and `np.pad` modes, and window statistics by
`sliding_window_view(axis=)`, `np.convolve` modes and `np.correlate` (tests/porting)."""

import numpy as np
from harness import check


def orbital_elements(np, r, v, mu):
    r, v = np.asarray(r), np.asarray(v)
    h = np.cross(r, v)
    hn = np.linalg.norm(h, axis=1)
    rn = np.linalg.norm(r, axis=1)
    e_vec = np.cross(v, h) / mu - r / rn[:, None]
    ecc = np.linalg.norm(e_vec, axis=1)
    inc = np.rad2deg(np.arccos(h[:, 2] / hn))
    node = np.cross(np.array([0.0, 0.0, 1.0]), h)
    raan = np.rad2deg(np.arctan2(node[:, 1], node[:, 0])) % 360
    energy = np.einsum("ij,ij->i", v, v) / 2 - mu / rn
    return {"h": h, "ecc": ecc, "inc": inc, "raan": raan, "a": -mu / (2 * energy)}


def quadrants(np, y, x):
    y, x = np.asarray(y), np.asarray(x)
    ang = np.arctan2(y, x)
    return {"ang": ang, "deg": np.degrees(ang), "signs": np.arctan2([0.0, -0.0, 0.0, -0.0], [1.0, 1.0, -1.0, -1.0]),
            "inf": np.arctan2([np.inf, -np.inf, 1.0], [np.inf, 1.0, -np.inf]), "hyp": np.hypot(y, x),
            "back": np.deg2rad(np.rad2deg(ang)), "hyp_inf": np.hypot(np.inf, np.nan)}


def kepler_propagate(np, M0, ecc, n_steps):
    M = np.deg2rad(np.asarray(M0))[:, None] + np.linspace(0, 2 * np.pi, n_steps)[None, :]
    E = M.copy()
    for _ in range(8):  # Newton on Kepler's equation, all orbits at once
        E = E - (E - ecc * np.sin(E) - M) / (1 - ecc * np.cos(E))
    nu = 2 * np.arctan2(np.sqrt(1 + ecc) * np.sin(E / 2), np.sqrt(1 - ecc) * np.cos(E / 2))
    return {"nu": np.unwrap(nu, axis=1), "r": 1 - ecc * np.cos(E), "res": np.abs(E - ecc * np.sin(E) - M).max()}


def ground_track(np, lon_deg):
    lon = np.asarray(lon_deg)
    wrapped = (lon + 180) % 360 - 180
    un = np.unwrap(wrapped, period=360)
    un_rad = np.unwrap(np.deg2rad(wrapped))
    disc = np.unwrap(wrapped, discont=270, period=360)
    ints = np.unwrap(np.array([0, 3, 6, 1, 4, 7]), period=8)
    return {"wrapped": wrapped, "un": un, "un_rad": un_rad, "disc": disc, "ints": ints}


def pyramid(np, img):
    img = np.asarray(img)
    levels = [img]
    while min(levels[-1].shape) >= 2:
        a = levels[-1]
        h, w = a.shape[0] // 2 * 2, a.shape[1] // 2 * 2
        levels.append(a[:h, :w].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3)))
    up = np.kron(levels[1], np.ones((2, 2)))
    rep = levels[1].repeat(2, axis=0).repeat(2, axis=1)
    lap = img[: up.shape[0], : up.shape[1]] - up
    return {"shapes": [lv.shape for lv in levels], "top": levels[-1], "up": up, "same": np.array_equal(up, rep),
            "lap_energy": np.sum(lap ** 2), "means": [float(lv.mean()) for lv in levels]}


def mosaic(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    m = np.block([[a, np.zeros((a.shape[0], b.shape[1]))], [np.ones((b.shape[0], a.shape[1])), b]])
    k = np.kron(np.eye(2, dtype=int), np.array([[1, 2], [3, 4]]))
    v = np.block([np.arange(3), 10, np.array([20, 30])])
    return {"m": m, "k": k, "v": v, "tiles": np.tile(a[:1], (2, 3)), "rep": np.repeat(b, [1, 2], axis=0)}


def life_torus(np, board, steps):
    g = np.asarray(board).astype(np.int8)
    for _ in range(steps):
        n = sum(np.roll(g, (dy, dx), axis=(0, 1)) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
        g = ((n == 3) | ((g == 1) & (n == 2))).astype(np.int8)
    padded = np.pad(g, 1, mode="wrap")
    n2 = sum(padded[1 + dy: padded.shape[0] - 1 + dy, 1 + dx: padded.shape[1] - 1 + dx]
             for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - g
    return {"g": g, "alive": int(g.sum()), "n2": n2, "shift": np.roll(g, 2), "shift_ax": np.roll(g, -1, axis=1)}


def pad_modes(np, a):
    a = np.asarray(a)
    out = {m: np.pad(a, ((1, 2), (2, 1)), mode=m) for m in ["wrap", "reflect", "symmetric", "edge"]}
    out["ramp"] = np.pad(a, 2, mode="linear_ramp", end_values=((0, 5), (1, -1)))
    out["max"] = np.pad(a, (1, 2), mode="maximum")
    out["mean"] = np.pad(a, 1, mode="mean", stat_length=2)
    out["const"] = np.pad(a, ((0, 1), (1, 0)), constant_values=(-1, 9))
    out["odd"] = np.pad(a, 1, mode="reflect", reflect_type="odd")
    return out


def rule30(np, width, steps):
    row = np.zeros(width, dtype=np.uint8)
    row[width // 2] = 1
    rule = np.array([(30 >> i) & 1 for i in range(8)], dtype=np.uint8)
    hist = [row]
    for _ in range(steps):
        idx = (np.roll(row, 1) << 2) | (row << 1) | np.roll(row, -1)
        row = rule[idx]
        hist.append(row)
    h = np.array(hist)
    return {"h": h, "center": h[:, width // 2], "density": h.mean(axis=1), "packed": np.packbits(h, axis=1)}


def window_stats(np, x):
    x = np.asarray(x)
    from numpy.lib.stride_tricks import sliding_window_view as swv
    w = swv(x, 5)
    med = np.median(w, axis=-1)
    X = x.reshape(4, -1)
    w2 = swv(X, 3, axis=1)
    w3 = swv(X, (2, 2))
    return {"mean": w.mean(axis=1), "med": med, "std": w.std(axis=1, ddof=1), "w2_max": w2.max(axis=-1),
            "w3_sum": w3.sum(axis=(-1, -2)), "w_rows": swv(X, 2, axis=0).min(axis=-1), "shape": w3.shape}


def convolve_modes(np, x, k):
    x, k = np.asarray(x), np.asarray(k)
    out = {m: np.convolve(x, k, mode=m) for m in ["full", "same", "valid"]}
    out.update({"c_" + m: np.correlate(x, k, mode=m) for m in ["full", "same", "valid"]})
    out["swap"] = np.convolve(k, x, mode="same")
    out["cplx"] = np.correlate(np.array([1 + 1j, 2, 3j]), np.array([1j, 1]), mode="full")
    out["int"] = np.convolve(np.array([1, 2, 3]), np.array([0, 1, 0.5]))
    return out


def sprite_borders(np, sprite):
    sprite = np.asarray(sprite, dtype=np.int8)
    framed = np.pad(sprite, 1, constant_values=-1)
    halo = np.pad(sprite, ((1, 0), (0, 1)), constant_values=((1, 2), (3, 4)))
    refused = []
    for v in (200, np.nan, 127):  # values int8 cannot hold: NumPy refuses them
        try:
            np.pad(sprite, 1, constant_values=v)
            refused.append("ok")
        except (OverflowError, ValueError) as e:
            refused.append(type(e).__name__)
    u = np.pad(sprite.astype(np.uint8), 1, constant_values=-1)  # wraps to 255 in an unsigned array
    return {"framed": framed, "halo": halo, "refused": refused, "u": u, "trunc": np.pad(sprite, 1, constant_values=2.9)}


def test_orbital_elements():
    rng = np.random.default_rng(2311)
    r = rng.normal(0, 1, (6, 3)) + np.array([7000.0, 0, 0])
    v = rng.normal(0, 0.3, (6, 3)) + np.array([0, 7.5, 1.0])
    check(orbital_elements, r, v, 398600.4418, rtol=1e-3, atol=1e-3)


def test_quadrants():
    check(quadrants, np.array([1.0, 1, -1, -1, 0, 0, 3]), np.array([1.0, -1, -1, 1, -2, 2, 0]))


def test_kepler_propagate():
    check(kepler_propagate, [0.0, 45.0, 200.0], 0.3, 25, atol=1e-4)


def test_ground_track():
    check(ground_track, np.linspace(0, 1500, 40), atol=1e-3)


def test_pyramid():
    rng = np.random.default_rng(2312)
    check(pyramid, rng.uniform(0, 255, (13, 10)), rtol=1e-3, atol=1e-3)


def test_mosaic():
    check(mosaic, np.arange(6.0).reshape(2, 3), np.arange(4.0).reshape(2, 2))


def test_life_torus():
    rng = np.random.default_rng(2313)
    check(life_torus, rng.integers(0, 2, (9, 11)), 4)


def test_pad_modes():
    check(pad_modes, np.arange(1.0, 13.0).reshape(3, 4) ** 1.5)


def test_rule30():
    check(rule30, 21, 10)


def test_window_stats():
    rng = np.random.default_rng(2314)
    check(window_stats, rng.normal(0, 1, 24), atol=1e-4)


def test_convolve_modes():
    check(convolve_modes, np.array([1.0, 2, 3, 4, 5, 6]), np.array([1.0, 0, -1, 2]))


def test_sprite_borders():
    check(sprite_borders, np.array([[1, -5, 3], [100, -128, 0]]))
