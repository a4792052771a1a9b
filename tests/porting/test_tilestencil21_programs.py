"""Image tiles, stencils and small physics as NumPy code writes them: an image cut into tiles by
`reshape`/`transpose` and put back, a mosaic by `np.block`, per-tile statistics with `keepdims`, a Laplacian and a
box blur over `np.pad` in each boundary mode (reflect, symmetric, edge, wrap), a periodic heat step checked against
`np.roll`, moments of inertia and a stress rotation by `np.einsum` with ellipses, a Levi-Civita cross product,
a plane fit by `lstsq` against `pinv` and `qr`, an SVD low-rank reconstruction with its Eckart-Young error, and a
polynomial calibration with `polyfit(w=)` (tests/porting)."""

import numpy as np
from harness import check


def tiles_roundtrip(np, img, t):
    img = np.asarray(img)
    h, w = img.shape
    tiles = img.reshape(h // t, t, w // t, t).transpose(0, 2, 1, 3)  # (row, col, y, x)
    means = tiles.mean(axis=(2, 3), keepdims=True)
    flat = tiles.reshape(-1, t, t)
    back = tiles.transpose(0, 2, 1, 3).reshape(h, w)
    brightest = np.unravel_index(np.argmax(means), means.shape[:2])
    return {"means": means[..., 0, 0], "back_equal": bool(np.array_equal(back, img)), "tile5": flat[5],
            "brightest": brightest, "contrast": np.ptp(flat, axis=(1, 2)),
            "equalised": (tiles - means).transpose(0, 2, 1, 3).reshape(h, w)}


def mosaic(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    grid = np.block([[a, b], [b[::-1], a[:, ::-1]]])
    border = np.block([[np.zeros((1, grid.shape[1] + 2))],
                       [np.zeros((grid.shape[0], 1)), grid, np.zeros((grid.shape[0], 1))],
                       [np.zeros((1, grid.shape[1] + 2))]])
    strip = np.block([a[0], b[-1], np.array([-1.0])])
    return {"grid": grid, "border": border, "strip": strip,
            "same_as_pad": bool(np.array_equal(border, np.pad(grid, 1)))}


def laplacian_modes(np, f):
    f = np.asarray(f)
    out = {}
    for mode in ("reflect", "symmetric", "edge", "wrap"):
        p = np.pad(f, 1, mode=mode)
        out[mode] = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * f
    out["wrap_is_roll"] = bool(np.allclose(out["wrap"], np.roll(f, 1, 0) + np.roll(f, -1, 0) + np.roll(f, 1, 1)
                                           + np.roll(f, -1, 1) - 4 * f))
    out["odd"] = np.pad(f[0], 3, mode="reflect", reflect_type="odd")
    return out


def box_blur(np, img, r):
    img = np.asarray(img, dtype=float)
    p = np.pad(img, r, mode="symmetric")
    c = p.cumsum(axis=0).cumsum(axis=1)
    c = np.pad(c, ((1, 0), (1, 0)))  # a summed-area table with a zero row and column in front
    k = 2 * r + 1
    s = c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]
    windows = np.lib.stride_tricks.sliding_window_view(p, (k, k))
    return {"blur": s / k**2, "check": bool(np.allclose(s / k**2, windows.mean(axis=(-2, -1)))),
            "u8": np.round(s / k**2).astype(np.uint8)}


def heat_periodic(np, u0, alpha, steps):
    u = np.asarray(u0, dtype=float).copy()
    total = u.sum()
    for _ in range(steps):
        p = np.pad(u, 1, mode="wrap")
        u += alpha * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    return {"u": u, "conserved": bool(np.isclose(u.sum(), total)), "max": u.max(), "argmax": int(u.argmax())}


def inertia_tensors(np, pos, mass):
    r = np.asarray(pos)  # (body, particle, 3)
    m = np.asarray(mass)  # (body, particle)
    com = np.einsum("...p,...pi->...i", m, r) / m.sum(axis=-1, keepdims=True)
    d = r - com[..., None, :]
    r2 = np.einsum("...pi,...pi->...p", d, d)
    inertia = np.einsum("...p,...p->...", m, r2)[..., None, None] * np.eye(3) - np.einsum("...p,...pi,...pj->...ij",
                                                                                          m, d, d)
    principal = np.linalg.eigvalsh(inertia)
    return {"com": com, "I": inertia, "principal": principal, "trace": np.einsum("...ii", inertia),
            "sym": bool(np.allclose(inertia, np.swapaxes(inertia, -1, -2)))}


def stress_rotation(np, sigma, angles):
    s = np.asarray(sigma)
    c, sn = np.cos(np.asarray(angles)), np.sin(np.asarray(angles))
    R = np.zeros((len(angles), 3, 3))
    R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1], R[:, 2, 2] = c, -sn, sn, c, 1
    rotated = np.einsum("...ik,kl,...jl->...ij", R, s, R)
    inv1 = np.einsum("...ii->...", rotated)
    dev = rotated - inv1[..., None, None] / 3 * np.eye(3)
    j2 = 0.5 * np.einsum("...ij,...ij->...", dev, dev)
    return {"rotated": rotated, "I1": inv1, "J2": j2, "von_mises": np.sqrt(3 * j2),
            "diag": np.einsum("...ii->...i", rotated)}


def levi_civita(np, a, b):
    eps = np.zeros((3, 3, 3))
    eps[[0, 1, 2], [1, 2, 0], [2, 0, 1]] = 1
    eps[[0, 2, 1], [2, 1, 0], [1, 0, 2]] = -1
    a, b = np.asarray(a), np.asarray(b)
    cross = np.einsum("ijk,...j,...k->...i", eps, a, b)
    return {"cross": cross, "matches": bool(np.allclose(cross, np.cross(a, b))),
            "triple": np.einsum("ijk,i,j,k", eps, a[0], a[1], b[0]), "det": np.linalg.det(np.stack([a[0], a[1], b[0]]))}


def plane_fit(np, x, y, z):
    x, y, z = np.asarray(x), np.asarray(y), np.asarray(z)
    A = np.column_stack([x, y, np.ones_like(x)])
    coef, res, rank, sv = np.linalg.lstsq(A, z, rcond=None)
    q, r = np.linalg.qr(A)
    by_qr = np.linalg.solve(r, q.T @ z)
    by_pinv = np.linalg.pinv(A) @ z
    return {"coef": coef, "res": res, "rank": rank, "sv": sv, "qr_ok": bool(np.allclose(by_qr, coef, atol=1e-4)),
            "pinv_ok": bool(np.allclose(by_pinv, coef, atol=1e-4)), "rms": np.sqrt(np.mean((A @ coef - z) ** 2))}


def low_rank(np, M, k):
    M = np.asarray(M)
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    Mk = U[:, :k] @ np.diag(s[:k]) @ Vt[:k]
    err = np.linalg.norm(M - Mk, 2)
    return {"s": s, "Mk": Mk, "err": err, "eckart_young": bool(np.isclose(err, s[k], rtol=1e-3)),
            "energy": np.cumsum(s**2) / np.sum(s**2), "fro": np.linalg.norm(M - Mk, "fro")}


def calibration(np, raw, ref, sd):
    raw, ref, sd = np.asarray(raw), np.asarray(ref), np.asarray(sd)
    p, cov = np.polyfit(raw, ref, 2, w=1 / sd, cov="unscaled")
    fitted = np.polyval(p, raw)
    chi2 = np.sum(((ref - fitted) / sd) ** 2)
    return {"p": p, "err": np.sqrt(np.diag(cov)), "chi2": chi2, "resid": ref - fitted,
            "inverse": np.interp(np.array([1.0, 2.5]), fitted, raw)}


def test_tiles_roundtrip():
    rng = np.random.default_rng(2121)
    check(tiles_roundtrip, rng.integers(0, 256, (12, 16)).astype(np.float64), 4)


def test_mosaic():
    check(mosaic, np.arange(6.0).reshape(2, 3), -np.arange(6.0).reshape(2, 3))


def test_laplacian_modes():
    rng = np.random.default_rng(2123)
    check(laplacian_modes, rng.normal(size=(5, 7)), rtol=1e-4, atol=1e-5)


def test_box_blur():
    rng = np.random.default_rng(2124)
    check(box_blur, rng.integers(0, 256, (9, 11)), 2, rtol=1e-4, atol=1e-3)


def test_heat_periodic():
    u0 = np.zeros((8, 8))
    u0[1, 6] = 100.0
    check(heat_periodic, u0, 0.2, 12, rtol=1e-4, atol=1e-4)


def test_inertia_tensors():
    rng = np.random.default_rng(2126)
    check(inertia_tensors, rng.normal(size=(3, 5, 3)), rng.uniform(0.5, 2.0, (3, 5)), rtol=1e-3, atol=1e-4)


def test_stress_rotation():
    s = np.array([[50.0, 30.0, 0.0], [30.0, -20.0, 10.0], [0.0, 10.0, 5.0]])
    check(stress_rotation, s, np.linspace(0, np.pi / 2, 4), rtol=1e-4, atol=1e-3)


def test_levi_civita():
    rng = np.random.default_rng(2128)
    check(levi_civita, rng.normal(size=(2, 3)), rng.normal(size=(2, 3)), rtol=1e-4, atol=1e-5)


def test_plane_fit():
    rng = np.random.default_rng(2129)
    x, y = rng.uniform(-5, 5, 20), rng.uniform(-5, 5, 20)
    check(plane_fit, x, y, 0.5 * x - 1.5 * y + 3 + rng.normal(0, 0.1, 20), rtol=1e-3, atol=1e-4)


def test_low_rank():
    rng = np.random.default_rng(2130)
    M = rng.normal(size=(8, 3)) @ rng.normal(size=(3, 6)) + 0.05 * rng.normal(size=(8, 6))
    check(low_rank, M, 2, rtol=2e-3, atol=1e-4)


def test_calibration():
    raw = np.linspace(0.2, 3.0, 12)
    ref = 0.1 + 0.9 * raw + 0.05 * raw**2 + np.random.default_rng(2131).normal(0, 0.02, 12)
    check(calibration, raw, ref, np.full(12, 0.02), rtol=1e-3, atol=1e-4)
