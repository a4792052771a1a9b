"""Curve- and surface-fitting programs: a 2-D polynomial surface fitted with polyvander2d + lstsq and evaluated
with polyval2d/polygrid2d (the Stack Overflow recipe), a Chebyshev surface on a grid, exponential and power-law
fits by linearising with logs, weighted polyfit with residuals, a circle fitted algebraically by lstsq, piecewise
linear calibration by np.interp with its inverse, a polynomial from its roots, and roots from chebinterpolate and
the companion (colleague) matrices (tests/porting)."""

import numpy as np
from harness import check


def surface_fit(np, x_host, y_host, z_host):
    x, y, z = np.asarray(x_host), np.asarray(y_host), np.asarray(z_host)
    deg = [2, 2]
    V = np.polynomial.polynomial.polyvander2d(x, y, deg)
    c, res, rank, sv = np.linalg.lstsq(V, z, rcond=None)
    C = c.reshape(deg[0] + 1, deg[1] + 1)
    fitted = np.polynomial.polynomial.polyval2d(x, y, C)
    gx = np.linspace(0, 1, 4)
    gy = np.linspace(0, 1, 3)
    grid = np.polynomial.polynomial.polygrid2d(gx, gy, C)
    X, Y = np.meshgrid(gx, gy, indexing="ij")
    same = np.allclose(grid, np.polynomial.polynomial.polyval2d(X, Y, C))
    return {"C": C, "rank": int(rank), "rms": float(np.sqrt(np.mean((fitted - z) ** 2))), "grid": grid,
            "same": bool(same), "V_shape": V.shape}


def chebyshev_surface(np, x_host, y_host, z_host):
    x, y, z = np.asarray(x_host), np.asarray(y_host), np.asarray(z_host)
    V = np.polynomial.chebyshev.chebvander2d(x, y, [3, 2])
    c = np.linalg.lstsq(V, z, rcond=None)[0].reshape(4, 3)
    g = np.linspace(-1, 1, 5)
    surf = np.polynomial.chebyshev.chebgrid2d(g, g, c)
    at = np.polynomial.chebyshev.chebval2d(x[:4], y[:4], c)
    leg = np.polynomial.legendre.legval2d(x[:3], y[:3], np.eye(3))
    cube = np.polynomial.polynomial.polyval3d(x[:2], y[:2], z[:2], np.ones((2, 2, 2)))
    V3 = np.polynomial.hermite.hermvander3d(x[:2], y[:2], z[:2], [1, 1, 2])
    return {"c": c, "surf": surf, "at": at, "leg": leg, "cube": cube, "V3": V3}


def exponential_fits(np, t_host, y_host):
    t, y = np.asarray(t_host), np.asarray(y_host)
    b, log_a = np.polyfit(t, np.log(y), 1)
    a = np.exp(log_a)
    bw, log_aw = np.polyfit(t, np.log(y), 1, w=np.sqrt(y))
    k, log_c = np.polyfit(np.log(t), np.log(y), 1)
    half_life = np.log(2) / -b
    coeffs, residuals, rank, sv, rcond = np.polyfit(t, y, 2, full=True)
    return {"a": float(a), "b": float(b), "bw": float(bw), "aw": float(np.exp(log_aw)), "k": float(k),
            "half_life": float(half_life), "resid": residuals, "rank": int(rank), "pred": a * np.exp(b * t[::4])}


def circle_fit(np, pts_host):
    pts = np.asarray(pts_host)
    x, y = pts[:, 0], pts[:, 1]
    A = np.column_stack([2 * x, 2 * y, np.ones(len(x))])
    b = x**2 + y**2
    (cx, cy, c), *_ = np.linalg.lstsq(A, b, rcond=None)
    r = np.sqrt(c + cx**2 + cy**2)
    resid = np.hypot(x - cx, y - cy) - r
    theta = np.arctan2(y - cy, x - cx)
    order = np.argsort(theta)
    return {"center": np.array([cx, cy]), "r": float(r), "max_resid": float(np.abs(resid).max()),
            "order": order, "arc": float(np.ptp(np.unwrap(theta[order])))}


def calibration(np, raw_host):
    raw = np.asarray(raw_host)
    ref_raw = np.array([0.0, 120.0, 260.0, 410.0, 600.0, 1023.0])
    ref_val = np.array([-10.0, 0.0, 12.5, 25.0, 40.0, 80.0])
    value = np.interp(raw, ref_raw, ref_val)
    back = np.interp(value, ref_val, ref_raw)
    clipped = np.interp(raw, ref_raw[1:-1], ref_val[1:-1], left=np.nan, right=np.nan)
    segment = np.searchsorted(ref_raw, raw, side="right") - 1
    slope = np.diff(ref_val) / np.diff(ref_raw)
    manual = ref_val[segment.clip(0, 4)] + slope[segment.clip(0, 4)] * (raw - ref_raw[segment.clip(0, 4)])
    return {"value": value, "back": back, "nan_count": int(np.isnan(clipped).sum()), "clipped": clipped,
            "manual": manual, "segment": segment}


def from_roots(np, roots_host):
    r = np.asarray(roots_host)
    p = np.poly(r)
    x = np.linspace(-3, 3, 7)
    vals = np.polyval(p, x)
    direct = np.polynomial.polynomial.polyvalfromroots(x, r)
    table = np.polynomial.polynomial.polyvalfromroots(x[:3], np.stack([r, r + 1], axis=1))
    found = np.sort(np.roots(p).real)
    return {"p": p, "vals": vals, "direct": direct, "table": table, "found": found,
            "same": bool(np.allclose(vals, direct, rtol=1e-4, atol=1e-3))}


def chebyshev_rootfinder(np, deg=16):
    C = np.polynomial.chebyshev
    c = C.chebinterpolate(lambda x: np.cos(3 * x) - x / 2, deg)
    x = np.linspace(-1, 1, 9)
    err = np.max(np.abs(C.chebval(x, c) - (np.cos(3 * x) - x / 2)))
    ev = np.linalg.eigvals(C.chebcompanion(c))
    real = np.sort(ev[(np.abs(ev.imag) < 1e-6) & (np.abs(ev.real) <= 1)].real)
    P = np.polynomial.legendre
    nodes = np.sort(np.linalg.eigvalsh(P.legcompanion([0, 0, 0, 0, 0, 1])))
    gauss, _ = P.leggauss(5)
    herm = np.sort(np.linalg.eigvalsh(np.polynomial.hermite.hermcompanion([0, 0, 0, 1])))
    return {"c": c[:6], "err_small": bool(err < 1e-5), "roots": real, "nodes": nodes, "gauss": gauss, "herm": herm}


def test_surface_fit_polyvander2d_lstsq_polyval2d():
    rng = np.random.default_rng(561)
    x, y = rng.random(40), rng.random(40)
    z = 1 + 2 * x - y + 0.5 * x * y + 3 * y**2 + rng.normal(0, 0.01, 40)
    check(surface_fit, x, y, z, rtol=2e-3, atol=2e-3)


def test_chebyshev_surface_grid_and_3d_forms():
    rng = np.random.default_rng(562)
    x, y = rng.uniform(-1, 1, 30), rng.uniform(-1, 1, 30)
    check(chebyshev_surface, x, y, np.cos(x) * np.exp(y), rtol=2e-3, atol=2e-3)


def test_exponential_power_law_weighted_polyfit():
    rng = np.random.default_rng(563)
    t = np.linspace(1, 10, 20)
    check(exponential_fits, t, 5 * np.exp(-0.3 * t) * np.exp(rng.normal(0, 0.02, 20)), rtol=2e-3, atol=1e-4)


def test_circle_fit_lstsq_unwrap():
    rng = np.random.default_rng(564)
    th = np.sort(rng.uniform(0, 5, 30))
    pts = np.c_[2 + 3 * np.cos(th), -1 + 3 * np.sin(th)] + rng.normal(0, 0.01, (30, 2))
    check(circle_fit, pts, rtol=1e-3, atol=1e-3)


def test_calibration_interp_and_inverse():
    check(calibration, np.array([0.0, 50.0, 120.0, 333.0, 599.0, 700.0, 1023.0]), rtol=1e-4, atol=1e-4)


def test_chebyshev_rootfinder_colleague_matrix():
    check(chebyshev_rootfinder, rtol=1e-3, atol=1e-4)


def test_poly_from_roots_polyvalfromroots():
    check(from_roots, np.array([-2.0, 0.5, 1.0, 2.5]), rtol=1e-3, atol=1e-3)
