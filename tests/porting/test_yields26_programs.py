"""Yield curves in plain NumPy: bootstrapping zero rates from par bonds in a Python loop over 0-d results,
Nelson-Siegel fits by `lstsq` over a grid of decay parameters (`argmin` of the residuals), Svensson loadings by
`np.column_stack`, forward rates by `np.gradient` and by differences of log discount factors, log-linear
interpolation of discount factors by `np.interp`, Macaulay/modified duration and convexity of a bond table by
broadcasting with `where=`, key-rate durations by bumping tents built with `np.interp`, and PCA of daily curve
changes (level, slope, curvature) by `eigh` with signs fixed (tests/porting)."""

import numpy as np
from harness import check


def bootstrap(np, maturities, coupons, prices, freq):
    T, c, P = map(np.asarray, (maturities, coupons, prices))
    dfs = {}
    zeros = []
    for t, cpn, price in zip(T, c, P, strict=True):
        times = np.arange(1, int(round(t * freq)) + 1) / freq
        known = sum(cpn / freq * dfs[round(float(s), 6)] for s in times[:-1])
        df = (price - known) / (1 + cpn / freq)
        dfs[round(float(t), 6)] = df
        zeros.append(-np.log(df) / t)
    z = np.array(zeros)
    return {"zeros": z, "df": np.exp(-z * T), "spread_bp": np.round((z - c) * 1e4, 2),
            "inverted": bool(np.any(np.diff(z) < 0))}


def nelson_siegel(np, tau, y, lams):
    tau, y = np.asarray(tau), np.asarray(y)
    best = None
    sse = []
    for lam in lams:
        x = tau / lam
        f1 = (1 - np.exp(-x)) / x
        f2 = f1 - np.exp(-x)
        X = np.column_stack([np.ones_like(tau), f1, f2])
        beta, res, rank, _ = np.linalg.lstsq(X, y, rcond=None)
        s = float(np.sum((X @ beta - y) ** 2))
        sse.append(s)
        if best is None or s < best[0]:
            best = (s, lam, beta)
    s, lam, beta = best
    grid = np.linspace(0.25, 30, 8)
    x = grid / lam
    fitted = beta[0] + beta[1] * (1 - np.exp(-x)) / x + beta[2] * ((1 - np.exp(-x)) / x - np.exp(-x))
    return {"sse": np.array(sse), "lam": lam, "beta": beta, "curve": fitted, "i_best": int(np.argmin(sse)),
            "short": beta[0] + beta[1]}


def svensson_loadings(np, tau, l1, l2):
    tau = np.asarray(tau, dtype=float)
    e1, e2 = np.exp(-tau / l1), np.exp(-tau / l2)
    L = np.column_stack([np.ones_like(tau), (1 - e1) / (tau / l1), (1 - e1) / (tau / l1) - e1,
                         (1 - e2) / (tau / l2) - e2])
    return {"L": L, "peak2": tau[np.argmax(L[:, 2])], "peak3": tau[np.argmax(L[:, 3])],
            "rank": np.linalg.matrix_rank(L), "gram": L.T @ L}


def forwards(np, tau, z):
    tau, z = np.asarray(tau), np.asarray(z)
    logdf = -z * tau
    inst = -np.gradient(logdf, tau)
    disc = -np.diff(logdf) / np.diff(tau)
    q = np.linspace(tau[0], tau[-1], 12)
    df_q = np.exp(np.interp(q, tau, logdf))
    z_q = -np.log(df_q) / q
    one_y = np.interp(q + 1, tau, logdf, right=np.nan)
    fwd1 = (np.exp(np.interp(q, tau, logdf) - one_y) - 1)
    return {"inst": inst, "disc": disc, "z_q": z_q, "fwd1": fwd1, "valid": np.count_nonzero(~np.isnan(fwd1))}


def durations(np, coupons, maturities, ytm, freq):
    c, T, y = map(np.asarray, (coupons, maturities, ytm))
    nmax = int(np.max(T) * freq)
    k = np.arange(1, nmax + 1)
    t = k / freq
    alive = t[None, :] <= T[:, None] + 1e-9
    cf = np.where(alive, c[:, None] / freq, 0.0)
    last = np.rint(T * freq).astype(int) - 1
    cf[np.arange(len(T)), last] += 1.0
    disc = (1 + y[:, None] / freq) ** (-k[None, :])
    pv = cf * disc
    price = pv.sum(axis=1)
    mac = np.sum(pv * t, axis=1, where=alive) / price
    mod = mac / (1 + y / freq)
    conv = (pv * t * (t + 1 / freq)).sum(axis=1) / (price * (1 + y / freq) ** 2)
    dp = -mod * 0.01 + 0.5 * conv * 0.01**2
    return {"price": price, "mac": mac, "mod": mod, "conv": conv, "dp": dp, "n_flows": alive.sum(axis=1)}


def key_rates(np, tau, z, flows_t, flows, keys, bump):
    tau, z, ft, f, keys = map(np.asarray, (tau, z, flows_t, flows, keys))

    def pv(zc):
        return np.sum(f * np.exp(-np.interp(ft, tau, zc) * ft))

    base = pv(z)
    krd = []
    for i in range(len(keys)):
        tent = np.interp(tau, keys, np.eye(len(keys))[i])
        up, dn = pv(z + bump * tent), pv(z - bump * tent)
        krd.append((dn - up) / (2 * bump * base))
    krd = np.array(krd)
    parallel = (pv(z - bump) - pv(z + bump)) / (2 * bump * base)
    return {"base": base, "krd": krd, "sum": krd.sum(), "parallel": parallel}


def curve_pca(np, curves):
    Y = np.asarray(curves)
    dY = np.diff(Y, axis=0) * 1e4
    dY -= dY.mean(axis=0)
    C = np.cov(dY, rowvar=False)
    vals, vecs = np.linalg.eigh(C)
    order = np.argsort(vals)[::-1]
    vals, vecs = vals[order], vecs[:, order]
    vecs *= np.sign(vecs.sum(axis=0, keepdims=True))
    expl = vals / vals.sum()
    scores = dY @ vecs[:, :3]
    return {"expl": expl[:3], "cum": np.cumsum(expl)[:3], "level": vecs[:, 0], "score_std": scores.std(axis=0),
            "n95": int(np.searchsorted(np.cumsum(expl), 0.95) + 1)}


TAU = np.array([0.25, 0.5, 1, 2, 3, 5, 7, 10, 20, 30])


def _curve(tau):
    return 0.03 - 0.01 * np.exp(-tau / 2) + 0.005 * tau / 30


def test_bootstrap():
    T = np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    c = np.array([0.02, 0.022, 0.025, 0.027, 0.028, 0.03])
    check(bootstrap, T, c, np.array([0.999, 0.998, 1.001, 1.0, 0.995, 0.998]), 2, rtol=1e-4, atol=1e-7)


def test_nelson_siegel():
    rng = np.random.default_rng(2692)
    check(nelson_siegel, TAU, _curve(TAU) + rng.normal(0, 2e-4, TAU.size), [0.5, 1.0, 2.0, 3.0, 5.0],
          rtol=1e-3, atol=1e-6)


def test_svensson_loadings():
    check(svensson_loadings, TAU, 1.5, 8.0, rtol=1e-4)


def test_forwards():
    check(forwards, TAU, _curve(TAU), rtol=1e-3, atol=1e-6)


def test_durations():
    check(durations, np.array([0.0, 0.03, 0.05, 0.08]), np.array([1.0, 2.5, 5.0, 10.0]),
          np.array([0.02, 0.025, 0.03, 0.035]), 2, rtol=1e-4, atol=1e-6)


def test_key_rates():
    ft = np.arange(0.5, 10.5, 0.5)
    f = np.full(ft.size, 2.5)
    f[-1] += 100
    check(key_rates, TAU, _curve(TAU), ft, f, np.array([1.0, 2, 5, 10, 30]), 1e-3, rtol=2e-3, atol=1e-4)


def test_curve_pca():
    rng = np.random.default_rng(2697)
    n = 60
    level = np.cumsum(rng.normal(0, 5e-4, n))
    slope = np.cumsum(rng.normal(0, 2e-4, n))
    curves = _curve(TAU)[None] + level[:, None] + slope[:, None] * (TAU / 30)[None] + rng.normal(0, 2e-5, (n, 10))
    check(curve_pca, curves, rtol=1e-3, atol=1e-5)
