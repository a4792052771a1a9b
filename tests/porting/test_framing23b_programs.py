"""Signal framing, polygons, decompositions and bits ported from NumPy scripts: windowed frames by
`hanning`/`hamming`/`blackman`/`kaiser`, `rfft` over `axis=-1` and `irfft(n=)`, overlap-add through `np.add.at`,
shoelace areas by `roll`, 2-D `cross` products, turning angles by a clipped `arccos`, Cholesky/`solve`/`lstsq`/
`qr` modes in a regression, `packbits`/`unpackbits` with `axis=` and `bitorder=`, `bitwise_count`, `invert` and
array shifts (tests/porting)."""

import numpy as np
from harness import check


def stft_frames(np, x, n, hop):
    x = np.asarray(x)
    idx = np.arange(n)[None, :] + hop * np.arange((len(x) - n) // hop + 1)[:, None]
    frames = x[idx] * np.hanning(n)
    spec = np.fft.rfft(frames, axis=-1)
    mag = np.abs(spec)
    back = np.fft.irfft(spec, n=n, axis=-1)
    return {"mag": mag, "peak_bin": mag.argmax(axis=1), "back": back, "phase0": np.angle(spec[:, 0]),
            "win_sums": [float(w(n).sum()) for w in (np.hanning, np.hamming, np.blackman)]}


def overlap_add(np, x, n, hop):
    x = np.asarray(x)
    nf = (len(x) - n) // hop + 1
    idx = np.arange(n)[None, :] + hop * np.arange(nf)[:, None]
    w = np.hamming(n)
    frames = x[idx] * w
    y = np.zeros(len(x))
    np.add.at(y, idx, frames * w)
    norm = np.zeros(len(x))
    np.add.at(norm, idx, np.broadcast_to(w ** 2, idx.shape))
    rec = np.divide(y, norm, out=np.zeros_like(y), where=norm > 1e-8)
    return {"y": y, "rec": rec[n:-n], "err": np.abs(rec - x)[n:-n].max()}


def kaiser_filter(np, x, beta):
    x = np.asarray(x)
    taps = np.kaiser(9, beta) * np.sinc(np.linspace(-2, 2, 9))
    taps /= taps.sum()
    y = np.convolve(x, taps, mode="same")
    H = np.fft.rfft(taps, 32)
    return {"taps": taps, "y": y, "gain_db": 20 * np.log10(np.abs(H) + 1e-12), "k1": np.kaiser(1, beta),
            "freq": np.fft.rfftfreq(32, d=0.5)}


def polygon_metrics(np, pts):
    P = np.asarray(pts)
    x, y = P[:, 0], P[:, 1]
    area = 0.5 * np.abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    edges = np.roll(P, -1, axis=0) - P
    lengths = np.linalg.norm(edges, axis=1)
    nxt = np.roll(edges, -1, axis=0)
    turn = edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0]
    cosang = np.sum(edges * nxt, axis=1) / (lengths * np.roll(lengths, -1))
    ang = np.degrees(np.arccos(np.clip(cosang, -1.0, 1.0)))
    centroid = P.mean(axis=0)
    return {"area": area, "perim": lengths.sum(), "convex": bool(np.all(turn > 0) or np.all(turn < 0)),
            "ang": ang, "centroid": centroid, "far": int(np.argmax(np.hypot(*(P - centroid).T)))}


def cross_3d(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    c = np.cross(a, b)
    n = c / np.linalg.norm(c, axis=1, keepdims=True)
    a2 = np.concatenate([a[:, :2], np.zeros((len(a), 1))], axis=1)
    b2 = np.concatenate([b[:, :2], np.zeros((len(b), 1))], axis=1)
    z = np.cross(a2, b2)[:, 2]
    return {"c": c, "n": n, "z": z, "dot0": np.einsum("ij,ij->i", c, a), "axis0": np.cross(a.T, b.T, axis=0).T}


def regression_decomps(np, X, y):
    X, y = np.asarray(X), np.asarray(y)
    A = np.column_stack([np.ones(len(X)), X])
    G = A.T @ A
    L = np.linalg.cholesky(G)
    z = np.linalg.solve(L, A.T @ y)
    beta = np.linalg.solve(L.T, z)
    beta2, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    Y2 = np.column_stack([y, 2 * y + 1])
    B = np.linalg.solve(G, A.T @ Y2)
    R = np.linalg.qr(A, mode="r")
    Q, Rc = np.linalg.qr(A, mode="complete")
    return {"beta": beta, "beta2": beta2, "res": res, "rank": int(rank), "sv": sv, "B": B,
            "absR": np.abs(np.diag(R)), "Qshape": Q.shape, "Rc0": np.abs(Rc[-1]), "orth": (Q.T @ Q).round(6)}


def bit_planes(np, img):
    img = np.asarray(img, dtype=np.uint8)
    planes = np.unpackbits(img[..., None], axis=-1)
    little = np.unpackbits(img, axis=1, bitorder="little")
    msb = planes[..., 0]
    packed = np.packbits(planes, axis=-1)[..., 0]
    packed_l = np.packbits(little, axis=1, bitorder="little")
    return {"msb": msb, "same": bool(np.array_equal(packed, img)), "pl": packed_l, "pop": np.bitwise_count(img),
            "inv": np.invert(img), "shr": np.right_shift(img, np.arange(img.shape[1], dtype=np.uint8)),
            "rows": np.packbits(img > 127, axis=0)}


def bit_tricks(np, v):
    v = np.asarray(v, dtype=np.uint32)
    lowest = v & (~v + np.uint32(1))
    pow2 = (v != 0) & ((v & (v - np.uint32(1))) == 0)
    parity = np.bitwise_count(v) & 1
    rev8 = np.packbits(np.unpackbits(v.astype(np.uint8)[:, None], axis=1)[:, ::-1], axis=1)[:, 0]
    sh = np.left_shift(np.uint8(1), np.arange(8, dtype=np.uint8))
    return {"lowest": lowest, "pow2": pow2, "parity": parity, "rev8": rev8, "sh": sh,
            "ls": np.left_shift(v, 3), "xor": np.bitwise_xor.reduce(v)}


def test_stft_frames():
    t = np.arange(64)
    check(stft_frames, np.sin(2 * np.pi * 4 * t / 16) + 0.2 * np.cos(2 * np.pi * t / 8), 16, 8,
          rtol=1e-3, atol=1e-4)


def test_overlap_add():
    rng = np.random.default_rng(2311)
    check(overlap_add, rng.normal(size=48), 8, 4, rtol=1e-3, atol=1e-4)


def test_kaiser_filter():
    rng = np.random.default_rng(2312)
    check(kaiser_filter, rng.normal(size=24), 5.0, rtol=1e-3, atol=1e-3)


def test_polygon_metrics():
    check(polygon_metrics, np.array([[0.0, 0], [4, 0], [5, 2], [3, 4], [0, 3]]), rtol=1e-4, atol=1e-4)


def test_cross_3d():
    rng = np.random.default_rng(2313)
    check(cross_3d, rng.normal(size=(5, 3)), rng.normal(size=(5, 3)), rtol=1e-4, atol=1e-5)


def test_regression_decomps():
    rng = np.random.default_rng(2314)
    X = rng.normal(size=(12, 2))
    check(regression_decomps, X, X @ [1.5, -2.0] + 0.5 + 0.1 * rng.normal(size=12), rtol=1e-3, atol=1e-4)


def test_bit_planes():
    rng = np.random.default_rng(2315)
    check(bit_planes, rng.integers(0, 256, (4, 6)))


def test_bit_tricks():
    check(bit_tricks, np.array([0, 1, 6, 8, 12, 255, 1024, 4294967295]))
