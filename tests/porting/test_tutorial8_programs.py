"""NumPy tutorial-style snippets: meshgrid/mgrid/ogrid grids, where chains, select, piecewise, clip, digitize,
apply_along_axis, einsum variants, tensordot, kron, tile/repeat, roll, pad, diff/gradient, trapezoid, interp,
polyfit/polyval and unique with counts (tests/porting)."""

import numpy as np
from harness import check


def grids(np):
    x, y = np.meshgrid(np.linspace(-1, 1, 5), np.linspace(0, 2, 4))
    r = np.sqrt(x**2 + y**2)
    xi, yi = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    mg = np.mgrid[0:3, 0:4]
    mgc = np.mgrid[-1:1:5j, 0:1:3j]
    ox, oy = np.ogrid[0:4, 0:5]
    dist = np.hypot(ox - 1.5, oy - 2)
    return {"r": np.round(r, 3), "xi": xi + 10 * yi, "mg": mg.sum(axis=0), "mgc": mgc,
            "dist": dist, "ogshape": [ox.shape, oy.shape], "imax": int(dist.argmax())}


def where_chains(np, v_host):
    v = np.asarray(v_host)
    grade = np.where(v > 80, 3, np.where(v > 60, 2, np.where(v > 40, 1, 0)))
    sel = np.select([v > 80, v > 60, v > 40], [3, 2, 1], default=0)
    signs = np.where(v >= 50, v - 50, -(50 - v) / 2)
    idx = np.where(v > 90)
    clipped = np.clip(v, 20, 80)
    low = np.clip(v, None, 30)
    return {"grade": grade, "sel": sel, "same": bool((grade == sel).all()), "signs": signs,
            "idx": idx[0], "clipped": clipped, "low": low, "counts": np.bincount(grade, minlength=4)}


def piecewise_and_digitize(np, x_host):
    x = np.asarray(x_host)
    y = np.piecewise(x, [x < 0, (x >= 0) & (x < 1), x >= 1], [lambda t: -t, lambda t: t**2, 1.0])
    bins = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    d = np.digitize(x, bins)
    dr = np.digitize(x, bins, right=True)
    means = np.array([x[d == i].mean() if np.any(d == i) else np.nan for i in range(len(bins) + 1)])
    return {"y": y, "d": d, "dr": dr, "means": means, "hist": np.bincount(d, minlength=len(bins) + 1)}


def apply_along(np, m_host):
    M = np.asarray(m_host)
    rng_ = np.apply_along_axis(lambda r: r.max() - r.min(), 1, M)
    norm = np.apply_along_axis(lambda c: (c - c.mean()) / c.std(), 0, M)
    srt = np.apply_along_axis(np.sort, 1, M)
    return {"range": rng_, "norm": norm, "sorted": srt, "rowsum": M.sum(axis=1, keepdims=True)}


def einsum_variants(np, a_host, b_host):
    A, B = np.asarray(a_host), np.asarray(b_host)
    return {
        "trace": np.einsum("ii", A[:, :4] @ B[:, :4]),
        "diag": np.einsum("ii->i", A[:, :4] @ B[:, :4]),
        "mm": np.einsum("ij,jk->ik", A, B.T),
        "outer": np.einsum("i,j->ij", A[0], B[0]),
        "rowdot": np.einsum("ij,ij->i", A, A),
        "transpose": np.einsum("ij->ji", A),
        "total": np.einsum("ij->", A),
        "batched": np.einsum("bij,bjk->bik", A.reshape(2, 2, 5), A.reshape(2, 5, 2)),
        "ell": np.einsum("...j,j->...", A, A[1]),
        "opt": np.einsum("ij,jk,kl->il", A, B.T, B, optimize=True),
    }


def tensordot_kron(np, a_host):
    A = np.asarray(a_host)
    T = A.reshape(2, 2, 5)
    td = np.tensordot(T, T, axes=([1, 2], [1, 2]))
    td0 = np.tensordot(A, A.T, axes=1)
    tdz = np.tensordot(A[0], A[1], axes=0)
    K = np.kron(np.eye(2), np.array([[1, 2], [3, 4]]))
    K2 = np.kron(A[:2, :2], np.ones((2, 2)))
    return {"td": td, "td0": td0, "tdz": tdz.shape, "K": K, "K2": K2, "kv": np.kron([1, 2], [1, 10, 100])}


def tile_repeat_roll(np, v_host):
    v = np.asarray(v_host)
    t = np.tile(v, (2, 3))
    r = np.repeat(v, 2)
    r2 = np.repeat(v.reshape(2, -1), [1, 3], axis=0)
    r3 = np.repeat(v.reshape(2, -1), 2, axis=1)
    rolled = np.roll(v, 2)
    rolled2 = np.roll(v.reshape(2, -1), -1, axis=1)
    rolled3 = np.roll(v.reshape(2, -1), (1, 1), axis=(0, 1))
    moving = (v + np.roll(v, 1) + np.roll(v, -1)) / 3
    return {"t": t, "r": r, "r2": r2, "r3": r3, "rolled": rolled, "rolled2": rolled2, "rolled3": rolled3,
            "moving": moving}


def pad_variants(np, m_host):
    M = np.asarray(m_host)
    return {
        "const": np.pad(M, 1),
        "const2": np.pad(M, ((1, 0), (2, 1)), constant_values=-1),
        "edge": np.pad(M, 2, mode="edge"),
        "reflect": np.pad(M, 1, mode="reflect"),
        "symmetric": np.pad(M, (1, 2), mode="symmetric"),
        "wrap": np.pad(M, 1, mode="wrap"),
        "vec": np.pad(M[0], (3, 0), mode="constant", constant_values=(9, 0)),
    }


def diff_gradient_trapezoid(np):
    x = np.linspace(0, np.pi, 41)
    y = np.sin(x)
    dy = np.gradient(y, x)
    dy2 = np.gradient(y, x[1] - x[0], edge_order=2)
    area = np.trapezoid(y, x)
    area_dx = np.trapezoid(y, dx=x[1] - x[0])
    d1 = np.diff(y)
    d2 = np.diff(y, n=2)
    dp = np.diff(np.array([1, 4, 9, 16]), prepend=0, append=20)
    gx, gy = np.gradient(np.outer(y, y))
    cum = np.concatenate([[0], np.cumsum((y[1:] + y[:-1]) / 2 * np.diff(x))])
    return {"dy": dy, "dy2": dy2, "area": float(area), "area_dx": float(area_dx), "d1": d1, "d2": d2,
            "dp": dp, "gx": gx, "gy": gy, "cum": cum, "err": float(np.abs(dy - np.cos(x)).max())}


def interp_and_polyfit(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    xs = np.linspace(-0.5, 10.5, 23)
    yi = np.interp(xs, x, y)
    yl = np.interp(xs, x, y, left=0, right=-1)
    yp = np.interp(np.array([370.0, -5.0]), np.array([0.0, 90, 180, 270]), np.array([0.0, 1, 2, 3]), period=360)
    c = np.polyfit(x, y, 2)
    fit = np.polyval(c, x)
    c1, res, *_ = np.polyfit(x, y, 1, full=True)
    p = np.poly1d(c)
    return {"yi": yi, "yl": yl, "yp": yp, "c": c, "fit": fit, "c1": c1, "res": res,
            "p3": float(p(3.0)), "dp": p.deriv().coeffs, "rms": float(np.sqrt(np.mean((fit - y) ** 2)))}


def unique_counts(np, labels_host, pts_host):
    labels = np.asarray(labels_host)
    vals, counts = np.unique(labels, return_counts=True)
    vals2, inv = np.unique(labels, return_inverse=True)
    _, first = np.unique(labels, return_index=True)
    mode = vals[np.argmax(counts)]
    P = np.asarray(pts_host)
    rows, rc = np.unique(P, axis=0, return_counts=True)
    sums = np.bincount(inv, weights=labels * 1.0)
    order = np.argsort(-counts, kind="stable")
    freq = dict(zip(vals.tolist(), counts.tolist(), strict=True))
    return {"vals": vals, "counts": counts, "inv": inv, "first": first, "mode": int(mode), "rows": rows,
            "rc": rc, "sums": sums, "top": vals[order][:3], "freq": sorted(freq.items()),
            "recon": bool(np.array_equal(vals2[inv], labels))}


def test_grids_meshgrid_mgrid_ogrid():
    check(grids)


def test_where_chains_select_clip():
    check(where_chains, np.random.default_rng(801).integers(0, 100, 30).astype(float))


def test_piecewise_digitize():
    check(piecewise_and_digitize, np.random.default_rng(802).uniform(-2.5, 2.5, 40))


def test_apply_along_axis():
    check(apply_along, np.random.default_rng(803).normal(size=(6, 5)), rtol=1e-4, atol=1e-5)


def test_einsum_variants():
    rng = np.random.default_rng(804)
    check(einsum_variants, rng.normal(size=(4, 5)), rng.normal(size=(4, 5)), rtol=1e-4, atol=1e-5)


def test_tensordot_kron():
    check(tensordot_kron, np.random.default_rng(805).normal(size=(4, 5)), rtol=1e-4, atol=1e-5)


def test_tile_repeat_roll():
    check(tile_repeat_roll, np.arange(8) * 1.5)


def test_pad_variants():
    check(pad_variants, np.arange(12).reshape(3, 4))


def test_diff_gradient_trapezoid():
    check(diff_gradient_trapezoid, rtol=1e-4, atol=1e-5)


def test_interp_polyfit_poly1d():
    rng = np.random.default_rng(806)
    x = np.arange(11.0)
    check(interp_and_polyfit, x, 0.5 * x**2 - x + rng.normal(0, 0.3, 11), rtol=1e-3, atol=1e-3)


def test_unique_counts_inverse_axis0():
    rng = np.random.default_rng(807)
    check(unique_counts, rng.integers(0, 6, 40), rng.integers(0, 2, (12, 3)))
