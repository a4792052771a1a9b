"""Numerical recipes ported from NumPy scripts: a one-compartment pharmacokinetic model stepped by Euler and
exactly by `np.expm1`/`np.log1p`, dose columns accumulated by `cumsum(axis=0)` of an `(n, 1)` array, AUC by
`np.trapezoid` and rates by `np.gradient` with a spacing array and `edge_order=2`, finance day counts in integer
arithmetic (30/360 and actual/365 by `np.divmod` of negatives), polynomial fits with `cov=True` and `np.poly1d`
arithmetic, stacked linear solves and `eigh`, `slogdet` of a singular matrix, `matrix_power` of -2, 2-D spectra
by `np.fft.fftn(s=, axes=)` with `fftshift(axes=)`, and Monte Carlo-free expectations on `np.linspace` grids
(tests/porting)."""

import numpy as np
from harness import check


def pk_one_compartment(np, doses, t_dose, t, ke, vd):
    doses, t_dose, t = np.asarray(doses), np.asarray(t_dose), np.asarray(t)
    dt = t[:, None] - t_dose[None, :]
    conc = np.sum(np.where(dt >= 0, doses / vd * np.exp(-ke * np.maximum(dt, 0)), 0.0), axis=1)
    given = np.cumsum(doses.reshape(-1, 1) * np.ones((1, 2)), axis=0)  # running totals, one column per arm
    auc = np.trapezoid(conc, t)
    slope = np.gradient(conc, t, edge_order=2)
    return {"conc": conc, "given": given, "auc": auc, "slope": slope, "cmax": conc.max(), "tmax": t[np.argmax(conc)]}


def pk_steps(np, ke, dt, n):
    c_euler = np.empty(n)
    c_euler[0] = 1.0
    for i in range(1, n):
        c_euler[i] = c_euler[i - 1] * (1 - ke * dt)
    t = np.arange(n) * dt
    exact = np.exp(-ke * t)
    lost = -np.expm1(-ke * t)  # the fraction eliminated, exact for small ke * t
    half = np.log1p(1.0) / ke
    return {"euler": c_euler, "exact": exact, "lost": lost, "half": half,
            "err": np.max(np.abs(c_euler - exact)), "tiny": -np.expm1(-1e-10 * t)}


def infusion_cumulative(np, rates, minutes):
    r = np.asarray(rates, dtype=float).reshape(-1, 1)
    m = np.asarray(minutes, dtype=float).reshape(-1, 1)
    given = np.cumsum(r * m / 60, axis=0)
    clock = np.cumsum(m, axis=0)
    hourly = np.interp(np.arange(0, clock[-1, 0] + 1, 60.0), np.r_[0.0, clock[:, 0]], np.r_[0.0, given[:, 0]])
    return {"given": given, "clock": clock, "hourly": hourly, "max_col": np.maximum.accumulate(r, axis=0)}


def day_count(np, y1, m1, d1, y2, m2, d2):
    y1, m1, d1, y2, m2, d2 = (np.asarray(v) for v in (y1, m1, d1, y2, m2, d2))
    d1c = np.minimum(d1, 30)
    d2c = np.where((d2 == 31) & (d1c == 30), 30, d2)
    days360 = 360 * (y2 - y1) + 30 * (m2 - m1) + (d2c - d1c)
    years, rest = np.divmod(days360, 360)
    months, days = np.divmod(rest, 30)
    return {"days360": days360, "years": years, "months": months, "days": days,
            "frac": days360 / 360, "neg_floor": np.floor_divide(-days360, 7), "neg_mod": np.remainder(-days360, 7)}


def accrual_cents(np, principal_cents, rate_bp, days):
    p = np.asarray(principal_cents, dtype=np.int64)
    d = np.asarray(days, dtype=np.int64)
    num = p * rate_bp * d  # exact integer arithmetic before one division
    interest, rem = np.divmod(num, 10_000 * 365)
    rounded = interest + (2 * rem >= 10_000 * 365)
    wrapped = np.array([2**62, 2**62], dtype=np.int64) * 2  # int64 overflow wraps, as in C
    return {"interest": interest, "rem": rem, "rounded": rounded, "wrapped": wrapped,
            "i32": (np.array([2**31 - 1], dtype=np.int32) + np.int32(1))}


def poly_fit_cov(np, x, y):
    x, y = np.asarray(x), np.asarray(y)
    c, cov = np.polyfit(x, y, 2, cov=True)
    p = np.poly1d(c)
    q = p * np.poly1d([1, -1]) + 2
    r = np.polydiv(q.coeffs, [1.0, -1.0])
    return {"c": c, "se": np.sqrt(np.diag(cov)), "q": q.coeffs, "deriv_at": p.deriv()(x[:3]),
            "integ": p.integ()(1.0) - p.integ()(0.0), "quot": r[0], "roots": np.sort(np.roots([1, -3, 2]))}


def stacked_linalg(np, A, b):
    A, b = np.asarray(A), np.asarray(b)
    S = A @ np.swapaxes(A, -1, -2) + np.eye(A.shape[-1])  # symmetric positive definite stack
    x = np.linalg.solve(S, b[..., None])[..., 0]
    w, v = np.linalg.eigh(S)
    recon = np.einsum("kij,kj,klj->kil", v, w, v)
    sign, logdet = np.linalg.slogdet(S)
    sing = np.linalg.slogdet(np.array([[1.0, 2.0], [2.0, 4.0]]))
    inv2 = np.linalg.matrix_power(S[0], -2)
    return {"x": x, "w": w, "recon_ok": bool(np.allclose(recon, S, atol=1e-4)), "sign": sign, "logdet": logdet,
            "sing": sing, "inv2_ok": bool(np.allclose(inv2 @ S[0] @ S[0], np.eye(len(S[0])), atol=1e-3)),
            "norms": np.linalg.norm(S, ord="fro", axis=(1, 2)), "n1": np.linalg.norm(S, ord=1, axis=(-2, -1))}


def spectrum2d(np, img):
    img = np.asarray(img)
    F = np.fft.fftn(img, s=(8, 8), axes=(0, 1))
    P = np.abs(np.fft.fftshift(F, axes=(0, 1))) ** 2
    row = np.fft.irfft(np.fft.rfft(img[0]), n=img.shape[1])
    rows = np.fft.ifftn(np.fft.fftn(img, axes=(1,)), axes=(1,)).real
    ky = np.fft.fftshift(np.fft.fftfreq(8))
    return {"P": P, "row": row, "rows": rows, "ky": ky, "dc": P[4, 4], "peak": np.unravel_index(np.argmax(P), P.shape)}


def grid_expectation(np, n):
    x = np.linspace(-4, 4, n)
    pdf = np.exp(-x ** 2 / 2) / np.sqrt(2 * np.pi)
    mass = np.trapezoid(pdf, x)
    mean = np.trapezoid(x * pdf, x)
    var = np.trapezoid(x ** 2 * pdf, x)
    u, v = np.meshgrid(x[::4], x[::4], indexing="ij", sparse=True)
    joint = np.exp(-(u ** 2 + v ** 2) / 2) / (2 * np.pi)
    tail = np.trapezoid(np.where(x > 1.96, pdf, 0), x)
    return {"mass": mass, "mean": mean, "var": var, "joint": joint.sum() * (x[4] - x[0]) ** 2, "tail": tail,
            "shape": joint.shape}


def test_pk_one_compartment():
    check(pk_one_compartment, np.array([100.0, 50, 50, 80]), np.array([0.0, 6, 12, 24]), np.linspace(0, 36, 40),
          0.15, 20.0, atol=1e-4)


def test_pk_steps():
    check(pk_steps, 0.2, 0.1, 40)


def test_infusion_cumulative():
    rng = np.random.default_rng(2251)
    check(infusion_cumulative, rng.integers(10, 200, 45), rng.integers(5, 40, 45), atol=1e-3)


def test_day_count():
    check(day_count, [2020, 2021, 2019, 2024], [1, 2, 12, 1], [31, 28, 15, 30], [2020, 2023, 2019, 2023],
          [3, 8, 1, 12], [31, 31, 1, 31])


def test_accrual_cents():
    check(accrual_cents, [100_000_00, 2_500_000_00, -1_000_00], 525, [30, 365, 181])


def test_poly_fit_cov():
    rng = np.random.default_rng(2252)
    x = np.linspace(0, 5, 12)
    check(poly_fit_cov, x, 1 + 0.5 * x - 0.2 * x ** 2 + rng.normal(0, 0.1, 12), rtol=2e-3, atol=1e-4)


def test_stacked_linalg():
    rng = np.random.default_rng(2253)
    check(stacked_linalg, rng.standard_normal((3, 4, 4)), rng.standard_normal((3, 4)), rtol=1e-3, atol=1e-4)


def test_spectrum2d():
    rng = np.random.default_rng(2254)
    check(spectrum2d, rng.standard_normal((6, 7)), rtol=1e-3, atol=1e-4)


def test_grid_expectation():
    check(grid_expectation, 81)
