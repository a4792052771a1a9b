"""Analytical chemistry as lab-course notebooks write it in NumPy: strong and weak acid titration curves from the
charge balance (a cubic in [H+] solved per point by `np.roots` and vectorised by bisection), equivalence points by
the maximum of `np.gradient` with uneven volume spacing and by `np.interp` on the inverted curve, buffer capacity
and a Gran plot fit, a Beer-Lambert calibration with `np.polyfit(cov=True)` and `Polynomial.fit`, Arrhenius
parameters from `log k` against `1/T`, a diprotic speciation diagram with `np.select`/`np.piecewise`, and peak
areas of a chromatogram by `np.trapezoid` between baseline minima (tests/porting)."""

import numpy as np
from harness import check

KW = 1e-14


def strong_titration(np, c_acid, v_acid, c_base, v_base):
    # float64 stated: kdsl's `dtype=float` is float32 (docs/numpy-api.md), where -excess + sqrt(...) cancels to 0
    vb = np.asarray(v_base, dtype=np.float64)
    total = v_acid + vb
    excess = (c_base * vb - c_acid * v_acid) / total
    # [H+] from the charge balance h - Kw/h = -excess: a quadratic, the positive root
    h = (-excess + np.sqrt(excess**2 + 4 * KW)) / 2
    ph = -np.log10(h)
    slope = np.gradient(ph, vb)
    i_eq = int(np.argmax(slope))
    v_eq = np.interp(7.0, ph, vb)
    return {"ph": ph, "slope_max": slope[i_eq], "v_at_max": vb[i_eq], "v_eq": v_eq,
            "theory": c_acid * v_acid / c_base, "jump": np.ptp(ph[(vb > v_eq - 1) & (vb < v_eq + 1)])}


def weak_titration_roots(np, ca, va, ka, cb, vb):
    vb = np.asarray(vb, dtype=float)
    ph = np.empty_like(vb)
    for i, v in enumerate(vb):
        cat = ca * va / (va + v)
        na = cb * v / (va + v)
        # h^3 + (Ka + Na) h^2 + (Ka*Na - Kw - Ka*Ca) h - Ka*Kw = 0
        coeffs = np.array([1.0, ka + na, ka * na - KW - ka * cat, -ka * KW])
        r = np.roots(coeffs)
        h = r[np.isreal(r) & (r.real > 0)].real.max()
        ph[i] = -np.log10(h)
    half = np.interp(ca * va / cb / 2, vb, ph)
    return {"ph": ph, "pka_est": half, "pka": -np.log10(ka), "d2": np.gradient(np.gradient(ph, vb), vb)[::5]}


def diprotic_roots_class(np, ca, ka1, ka2, cb_values):
    # [H+] from the quartic charge balance, lowest power first as np.polynomial writes it
    P = np.polynomial.Polynomial
    ph = []
    for na in cb_values:
        coef = [-ka1 * ka2 * KW, -ka1 * KW - 2 * ka1 * ka2 * ca + ka1 * ka2 * na,
                ka1 * ka2 - KW + ka1 * na - ka1 * ca, ka1 + na, 1.0]
        r = P(coef).roots()
        h = r[np.isreal(r) & (r.real > 0)].real
        ph.append(-np.log10(h.max()))
    return {"ph": np.array(ph), "n": len(ph)}


def weak_titration_bisect(np, ca, va, ka, cb, vb, iters):
    vb = np.asarray(vb, dtype=float)
    cat = ca * va / (va + vb)
    na = cb * vb / (va + vb)
    lo = np.full_like(vb, -14.0)
    hi = np.zeros_like(vb)
    for _ in range(iters):
        mid = (lo + hi) / 2
        h = 10.0**mid
        balance = h + na - KW / h - cat * ka / (ka + h)
        pos = balance > 0
        hi = np.where(pos, mid, hi)
        lo = np.where(pos, lo, mid)
    ph = -(lo + hi) / 2
    beta = np.gradient(cb * vb / (va + vb), ph)
    return {"ph": ph, "buffer_max_at": vb[np.argmax(beta[1:-1]) + 1], "beta": beta}


def gran_plot(np, vb, ph, va):
    vb, ph = np.asarray(vb), np.asarray(ph)
    g = (va + vb) * 10.0 ** (-ph)
    use = (vb > 2) & (vb < 8)
    (m, b), cov = np.polyfit(vb[use], g[use], 1, cov=True)
    return {"g": g, "v_eq": -b / m, "slope": m, "se": np.sqrt(np.diag(cov)), "n": int(use.sum())}


def beer_lambert(np, conc, absorb, unknown):
    conc, absorb = np.asarray(conc), np.asarray(absorb)
    (slope, intercept), cov = np.polyfit(conc, absorb, 1, cov=True)
    fit = np.polyval([slope, intercept], conc)
    resid = absorb - fit
    r2 = 1 - np.sum(resid**2) / np.sum((absorb - absorb.mean()) ** 2)
    P = np.polynomial.Polynomial.fit(conc, absorb, 2)
    quad = P.convert().coef
    est = (np.asarray(unknown) - intercept) / slope
    lod = 3.3 * resid.std(ddof=2) / slope
    return {"slope": slope, "intercept": intercept, "r2": r2, "quad": quad, "est": est, "lod": lod,
            "P_at": P(np.asarray(unknown) * 0 + 0.5), "se": np.sqrt(np.diag(cov))}


def arrhenius(np, T_celsius, k):
    T = np.asarray(T_celsius, dtype=float) + 273.15
    lnk = np.log(np.asarray(k))
    x = 1 / T
    coef = np.polyfit(x, lnk, 1)
    Ea = -coef[0] * 8.314
    A = np.exp(coef[1])
    pred = A * np.exp(-Ea / (8.314 * T))
    q10 = (pred[1:] / pred[:-1]) ** (10 / np.diff(T))
    return {"Ea_kJ": Ea / 1000, "lnA": coef[1], "pred": pred, "q10": q10, "half_life": np.log(2) / pred}


def speciation(np, pH, pka1, pka2):
    h = 10.0 ** -np.asarray(pH)
    k1, k2 = 10.0**-pka1, 10.0**-pka2
    d = h**2 + k1 * h + k1 * k2
    frac = np.stack([h**2 / d, k1 * h / d, k1 * k2 / d])
    dominant = np.argmax(frac, axis=0)
    label = np.select([pH < pka1, pH < pka2], [0, 1], default=2)
    charge = np.piecewise(np.asarray(pH, dtype=float), [pH < pka1, (pH >= pka1) & (pH < pka2)],
                          [0.0, -1.0, -2.0])
    mean_charge = -(frac[1] + 2 * frac[2])
    crossings = np.flatnonzero(np.diff(dominant) != 0)
    return {"frac": frac, "dominant": dominant, "agree": bool(np.array_equal(dominant, label)),
            "charge": charge, "mean_charge": mean_charge, "cross": crossings, "sum1": np.allclose(frac.sum(0), 1)}


def chromatogram(np, t, signal):
    t, y = np.asarray(t), np.asarray(signal)
    kernel = np.ones(5) / 5
    smooth = np.convolve(y, kernel, mode="same")
    peaks = np.flatnonzero((smooth[1:-1] > smooth[:-2]) & (smooth[1:-1] >= smooth[2:]) & (smooth[1:-1] > 0.2)) + 1
    areas, bounds = [], []
    for p in peaks:
        left = p - np.argmin(smooth[p::-1][: p + 1] > 0.05 * smooth[p])
        right = p + np.argmin(smooth[p:] > 0.05 * smooth[p])
        areas.append(np.trapezoid(y[left:right + 1], t[left:right + 1]))
        bounds.append((left, right))
    areas = np.array(areas)
    half = smooth[peaks] / 2
    return {"peaks": peaks, "t_peaks": t[peaks], "areas": areas, "share": areas / areas.sum(),
            "bounds": np.array(bounds), "half": half}


def stiff_kinetics(np, y0, h, steps):
    # Robertson's reactions: the Jacobian's eigenvalues span 1e4 (and grow); implicit Euler steps by Newton
    def rhs(y):
        return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                         3e7 * y[1] ** 2])

    def jac(y):
        return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                         [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                         [0.0, 6e7 * y[1], 0.0]])

    y = np.array(y0)
    lam = []
    for _ in range(steps):
        z = y.copy()
        for _ in range(4):
            G = z - y - h * rhs(z)
            z = z - np.linalg.solve(np.eye(3) - h * jac(z), G)
        y = z
        lam.append(np.sort(np.linalg.eigvals(jac(y)).real))
    lam = np.array(lam)
    nonzero = np.abs(lam) > 1e-9 * np.abs(lam).max()
    ratio = np.abs(lam).max(axis=1) / np.min(np.abs(lam), axis=1, where=nonzero, initial=np.inf)
    return {"y": y, "mass": y.sum(), "lam": lam, "ratio": ratio}


def test_strong_titration():
    vb = np.concatenate([np.linspace(0, 24, 25), np.linspace(24.2, 25.8, 9), np.linspace(26, 40, 15)])
    check(strong_titration, 0.1, 25.0, 0.1, vb, rtol=1e-3, atol=1e-3)


def test_weak_titration_roots():
    check(weak_titration_roots, 0.1, 25.0, 1.8e-5, 0.1, np.linspace(0.5, 40, 30), rtol=1e-3, atol=1e-3)


def test_diprotic_roots_class():
    check(diprotic_roots_class, 0.05, 4.3e-7, 4.8e-11, np.linspace(0.0, 0.12, 13), rtol=1e-3, atol=1e-4)


def test_weak_titration_bisect():
    check(weak_titration_bisect, 0.1, 25.0, 1.8e-5, 0.1, np.linspace(0.5, 40, 41), 50, rtol=1e-3, atol=1e-3)


def test_gran_plot():
    vb = np.linspace(0.5, 12, 24)
    ph = weak_titration_bisect(np, 0.1, 25.0, 1.8e-5, 0.1, vb, 60)["ph"]
    check(gran_plot, vb, ph, 25.0, rtol=1e-3, atol=1e-6)


def test_beer_lambert():
    rng = np.random.default_rng(3151)
    conc = np.array([0.0, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0])
    absorb = 0.012 + 0.93 * conc - 0.05 * conc**2 + rng.normal(0, 0.004, conc.size)
    check(beer_lambert, conc, absorb, np.array([0.25, 0.5, 0.71]), rtol=1e-3, atol=1e-5)


def test_arrhenius():
    T = np.array([20.0, 30, 40, 50, 60])
    k = 1e7 * np.exp(-55000 / (8.314 * (T + 273.15))) * np.array([1.02, 0.98, 1.01, 0.99, 1.0])
    check(arrhenius, T, k, rtol=1e-3)


def test_speciation():
    check(speciation, np.linspace(0, 14, 57), 4.2, 9.1)


def test_stiff_kinetics():
    check(stiff_kinetics, [1.0, 0.0, 0.0], 0.05, 6, rtol=2e-3, atol=1e-8)


def test_chromatogram():
    t = np.linspace(0, 10, 400)
    rng = np.random.default_rng(3152)
    y = (1.2 * np.exp(-((t - 2.5) / 0.15) ** 2) + 0.7 * np.exp(-((t - 5.0) / 0.25) ** 2)
         + 0.9 * np.exp(-((t - 7.4) / 0.2) ** 2) + rng.normal(0, 0.005, t.size))
    check(chromatogram, t, y, rtol=1e-3, atol=1e-4)
