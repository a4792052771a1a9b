"""Everyday NumPy idioms in small programs: scalars and Python conversions, iteration, printing, in-place
methods, dtypes, integer arithmetic on negatives, stacking/splitting, fancy and masked assignment."""

import numpy as np
from harness import check


def gradebook(np, scores_host):
    scores = np.array(scores_host, dtype=np.float32)
    assert scores.dtype == np.float32 and scores.shape[0] == len(scores)
    weights = np.array([0.2, 0.3, 0.5], dtype=np.float32)
    final = scores @ weights
    letters = []
    for s in final:
        letters.append("A" if s >= 85 else "B" if s >= 70 else "C")
    curved = np.clip(final + (100 - final.max()), 0, 100)
    passed = final[final >= 60]
    lines = [f"student {i}: {float(f):6.2f} {letter}" for i, (f, letter) in enumerate(zip(final, letters, strict=True))]
    best = int(np.argmax(final))
    scores[scores < 50] = 50
    scores[:, 0] += 1
    return {"final": final, "letters": letters, "curved": curved, "n_pass": len(passed), "best": best,
            "lines": lines, "floored": scores, "mean": round(float(final.mean()), 3),
            "as_list": final.round(1).tolist(),
            "top_mean": final.mean() > 70.0, "row_max": [float(r.max()) for r in scores]}


def integer_arithmetic(np):
    a = np.arange(-7, 8)
    q, r = a // 3, a % 3
    assert ((q * 3 + r) == a).all()
    qn, rn = a // -3, a % -3
    divm = np.divmod(a, 4)
    f = np.array([-7.5, -0.5, 0.5, 7.5])
    parity = np.where(a % 2 == 0, "even", "odd").tolist() if np.__name__ == "numpy" else None
    hours = np.array([-1, 23, 25, 48]) % 24
    bits = (np.arange(8) & 3) | (np.arange(8) >> 1)
    powers = 2 ** np.arange(10)
    big = np.arange(5, dtype=np.int64) * 10**10
    return {"q": q, "r": r, "qn": qn, "rn": rn, "divm": divm, "fmod": np.fmod(a, 3), "ffloor": f // 2,
            "fmodf": f % 2, "hours": hours, "bits": bits, "powers": powers, "big": big, "neg": -a[::4],
            "abs": np.abs(a).sum().item(), "parity_ok": parity is None or len(parity) == 15}


def scalars_and_constants(np):
    x = np.float32(3)
    y = x * 2 + np.float32(0.5)
    z = np.float64(np.pi) / 4
    circle = np.pi * np.arange(1, 4) ** 2
    big = np.array([1.0, np.inf, -np.inf, np.nan])
    finite = np.isfinite(big)
    safe = np.nan_to_num(big, nan=0.0, posinf=1e6, neginf=-1e6)
    angles = np.deg2rad(np.array([0, 90, 180]))
    s = np.sin(angles)
    e = np.exp(1)
    return {"y": float(y), "z": float(z), "circle": circle, "finite": finite, "safe": safe, "s": s,
            "e": float(e), "nan_count": int(np.isnan(big).sum()), "inf_max": float(np.max(big[finite])),
            "cmp": bool(np.float32(0.1) + np.float32(0.2) > 0.29), "sqrt2": float(np.sqrt(np.float32(2)))}


def in_place_methods(np, data_host):
    a = np.array(data_host)
    b = a.copy()
    b.sort()
    c = a.copy()
    c.sort(axis=0)
    flat = a.flatten()
    flat[0] = 999
    a.fill(0) if False else None
    z = np.empty((2, 3))
    z.fill(7.5)
    rav = a.reshape(-1)
    cum = a.cumsum()
    m = a.mean(axis=0, keepdims=True)
    centered = a - m
    ar = a.argmax(1)
    s = a.std(ddof=1)
    sq = np.squeeze(a[:, :1])
    t = a.T.copy()
    t[0, :] = -1
    return {"b": b, "c": c, "flat0": flat[:3], "a0": a[0, 0].item(), "z": z, "rav": rav, "cum": cum, "m": m,
            "centered": centered, "ar": ar, "s": float(s), "sq": sq, "t": t, "a_after": a, "tolist": a[:2].tolist()}


def stacking_splitting(np, a_host):
    a = np.asarray(a_host)
    left, right = np.hsplit(a, 2)
    top, bottom = np.vsplit(a, [1])
    parts = np.array_split(a.ravel(), 3)
    st = np.stack([left, right], axis=0)
    hs = np.hstack([right, left])
    vs = np.vstack([bottom, top])
    cs = np.column_stack([a[:, 0], a[:, -1]])
    dst = np.dstack([a, a]).shape
    cat = np.concatenate([a, a[:1] * 10], axis=0)
    tiled = np.tile(a[0], (2, 1))
    rep = np.repeat(a[:, 0], [1, 2, 3])
    expanded = a[np.newaxis, :, :, np.newaxis]
    ii, jj = np.meshgrid(np.arange(3), np.arange(2), indexing="ij")
    X, Y = np.meshgrid(np.linspace(0, 1, 4), np.linspace(0, 1, 3))
    r = np.sqrt(X**2 + Y**2)
    return {"left": left, "right": right, "top": top, "bottom": bottom, "parts": [p for p in parts], "st": st,
            "hs": hs, "vs": vs, "cs": cs, "dst": dst, "cat": cat, "tiled": tiled, "rep": rep, "exp": expanded.shape,
            "ii": ii, "jj": jj, "r": r, "swap": np.swapaxes(st, 0, 2), "moved": np.moveaxis(st, 0, -1).shape}


def fancy_assignment(np, n=8):
    a = np.zeros(n)
    idx = np.array([1, 3, 3, 5])
    a[idx] = 1.0
    a[idx] += 1.0
    np.add.at(a, idx, 1.0)
    b = np.arange(n * 2).reshape(n, 2).astype(float)
    b[[0, -1]] = b[[-1, 0]]
    b[b[:, 0] > 8] *= -1
    b[:, 1][b[:, 1] < 5] = 0
    c = np.arange(12).reshape(3, 4)
    c[1:, [0, 3]] = -1
    c[c == 5] = 55
    cols = c[:, [1, 2]]
    d = np.ones((3, 3))
    d[np.diag_indices(3)] = 0
    d[np.triu_indices(3, 1)] = 2
    e = np.arange(6)
    e[e % 2 == 1] = e[e % 2 == 1] * 10
    rows = np.arange(3)
    picked = c[rows, rows + 1]
    return {"a": a, "b": b, "c": c, "cols": cols, "d": d, "e": e, "picked": picked,
            "where": np.where(c < 0, 0, c), "clip": c.clip(0, 10), "nz": np.nonzero(a)[0]}


def test_gradebook_iteration_fstrings():
    scores = np.random.default_rng(0).uniform(40, 100, size=(6, 3)).round(1)
    check(gradebook, scores, rtol=1e-5, atol=1e-4)


def test_integer_arithmetic_on_negatives():
    check(integer_arithmetic)


def test_scalars_and_constants():
    check(scalars_and_constants, rtol=1e-6, atol=1e-6)


def test_in_place_methods():
    check(in_place_methods, np.random.default_rng(1).integers(-9, 10, size=(4, 3)).astype(float), rtol=1e-6)


def test_stacking_splitting_meshgrid():
    check(stacking_splitting, np.arange(12).reshape(3, 4))


def test_fancy_and_masked_assignment():
    check(fancy_assignment)
