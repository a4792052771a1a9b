"""Extreme values, time-series models and portfolios in plain NumPy: annual block maxima by reshape, Gumbel
fits by moments and probability-weighted moments, return levels and empirical return periods (Weibull plotting
positions), peaks over threshold by run declustering with `np.maximum.reduceat`, the sample autocorrelation by
`np.correlate` and by FFT (`n=` zero padding), Yule-Walker AR fits from a Toeplitz system, conditional least
squares on `sliding_window_view` lags, ARIMA differencing and forecasting with `np.cumsum` back, the partial
autocorrelation by Durbin-Levinson, mean-variance portfolios (the minimum-variance and tangency weights by
`solve`, an efficient frontier, a KKT system built by `np.block`) on float32 returns mixed with `np.float64`
scalars (tests/porting)."""

import numpy as np
from harness import check


def block_maxima(np, daily, years):
    daily = np.asarray(daily)
    ann = daily.reshape(years, -1).max(axis=1)
    when = daily.reshape(years, -1).argmax(axis=1)
    n = len(ann)
    # Gumbel by moments
    beta = np.std(ann, ddof=1) * np.sqrt(6) / np.pi
    mu = np.mean(ann) - np.euler_gamma * beta
    # and by probability-weighted moments
    x = np.sort(ann)
    b0 = x.mean()
    b1 = np.sum((np.arange(n) / (n - 1)) * x) / n
    beta_pwm = (2 * b1 - b0) / np.log(2)
    mu_pwm = b0 - np.euler_gamma * beta_pwm
    T = np.array([2.0, 5, 10, 50, 100])
    levels = mu - beta * np.log(-np.log(1 - 1 / T))
    rank = np.argsort(np.argsort(-ann, kind="stable"), kind="stable") + 1
    emp_T = (n + 1) / rank
    return {"ann": ann, "when": when, "mom": (mu, beta), "pwm": (mu_pwm, beta_pwm), "levels": levels,
            "emp_T": emp_T, "exceed_100": int(np.sum(ann > levels[-1])), "record": np.maximum.accumulate(ann)}


def peaks_over_threshold(np, x, q, gap):
    x = np.asarray(x)
    u = np.quantile(x, q)
    above = x > u
    edges = np.diff(above.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    # merge clusters closer than `gap`
    keep = np.concatenate([[True], starts[1:] - ends[:-1] > gap])
    c_start = starts[keep]
    c_end = np.concatenate([ends[:-1][keep[1:]], ends[-1:]])
    peaks = np.maximum.reduceat(x, c_start)
    peak_at = np.array([s + np.argmax(x[s:e]) for s, e in zip(c_start, c_end, strict=True)])
    excess = peaks - u
    xi_mom = 0.5 * (1 - excess.mean() ** 2 / excess.var())
    rate = len(peaks) / len(x)
    return {"u": u, "n_runs": len(starts), "clusters": np.column_stack([c_start, c_end]), "peaks": peaks,
            "peak_at": peak_at, "xi": xi_mom, "rate": rate, "mean_excess": excess.mean()}


def autocorrelation(np, x, max_lag):
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    xc = x - x.mean()
    acov = np.correlate(xc, xc, mode="full")[n - 1:n + max_lag] / n
    acf = acov / acov[0]
    f = np.fft.rfft(xc, n=2 ** int(np.ceil(np.log2(2 * n - 1))))
    acf_fft = np.fft.irfft(np.abs(f) ** 2)[:max_lag + 1]
    acf_fft /= acf_fft[0]
    band = 1.96 / np.sqrt(n)
    q_stat = n * (n + 2) * np.cumsum(acf[1:] ** 2 / (n - np.arange(1, max_lag + 1)))
    return {"acf": acf, "acf_fft": acf_fft, "significant": np.flatnonzero(np.abs(acf[1:]) > band) + 1,
            "ljung_box": q_stat, "first_cross": int(np.argmax(acf < 0))}


def yule_walker(np, x, p):
    x = np.asarray(x) - np.mean(x)
    n = len(x)
    r = np.array([x[: n - k] @ x[k:] for k in range(p + 1)]) / n
    idx = np.abs(np.subtract.outer(np.arange(p), np.arange(p)))
    R = r[idx]
    phi = np.linalg.solve(R, r[1:])
    sigma2 = r[0] - phi @ r[1:]
    roots = np.roots(np.r_[1, -phi])
    return {"r": r, "R": R, "phi": phi, "sigma2": sigma2, "stationary": bool(np.all(np.abs(roots) < 1)),
            "root_mod": np.sort(np.abs(roots))}


def conditional_ls(np, x, p):
    from numpy.lib.stride_tricks import sliding_window_view
    x = np.asarray(x)
    lags = sliding_window_view(x[:-1], p)[:, ::-1]
    X = np.column_stack([np.ones(len(lags)), lags])
    y = x[p:]
    beta, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ beta
    cov = np.linalg.inv(X.T @ X) * (resid @ resid) / (len(y) - p - 1)
    return {"beta": beta, "res": res, "rank": rank, "se": np.sqrt(np.diag(cov)), "t": beta / np.sqrt(np.diag(cov)),
            "aic": len(y) * np.log(resid @ resid / len(y)) + 2 * (p + 1)}


def arima_forecast(np, x, phi, steps):
    x = np.asarray(x)
    d1 = np.diff(x)
    mu = d1.mean()
    z = d1 - mu
    p = len(phi)
    hist = list(z[-p:])
    for _ in range(steps):
        hist.append(np.dot(phi, hist[-1:-p - 1:-1]))
    fc_diff = np.array(hist[p:]) + mu
    forecast = x[-1] + np.cumsum(fc_diff)
    psi = np.zeros(steps)
    psi[0] = 1
    for j in range(1, steps):
        psi[j] = sum(phi[i] * psi[j - 1 - i] for i in range(min(p, j)))
    var = np.cumsum(np.cumsum(psi) ** 2) * z.var()
    return {"forecast": forecast, "lo": forecast - 1.96 * np.sqrt(var), "hi": forecast + 1.96 * np.sqrt(var),
            "psi": psi, "undiff": np.concatenate([[x[0]], x[0] + np.cumsum(d1)])}


def pacf_durbin_levinson(np, x, max_lag):
    x = np.asarray(x) - np.mean(x)
    n = len(x)
    r = np.correlate(x, x, "full")[n - 1:n + max_lag] / (x @ x)
    pacf = np.zeros(max_lag + 1)
    pacf[0] = 1
    phi = np.zeros((max_lag + 1, max_lag + 1))
    phi[1, 1] = pacf[1] = r[1]
    for k in range(2, max_lag + 1):
        num = r[k] - phi[k - 1, 1:k] @ r[k - 1:0:-1]
        den = 1 - phi[k - 1, 1:k] @ r[1:k]
        phi[k, k] = pacf[k] = num / den
        phi[k, 1:k] = phi[k - 1, 1:k] - phi[k, k] * phi[k - 1, k - 1:0:-1]
    order = int(np.max(np.flatnonzero(np.abs(pacf[1:]) > 2 / np.sqrt(n)), initial=-1)) + 1
    return {"pacf": pacf, "phi": phi[max_lag, 1:], "order": order}


def portfolio(np, returns, rf, targets):
    R = np.asarray(returns, dtype=np.float32)
    mu = R.mean(axis=0) * np.float64(252)
    S = np.cov(R, rowvar=False) * np.float64(252)
    n = len(mu)
    ones = np.ones(n)
    w_mv = np.linalg.solve(S, ones)
    w_mv /= w_mv.sum()
    ex = mu - rf
    w_tan = np.linalg.solve(S, ex)
    w_tan /= w_tan.sum()
    K = np.block([[2 * S, mu[:, None], ones[:, None]],
                  [mu[None, :], np.zeros((1, 2))],
                  [ones[None, :], np.zeros((1, 2))]])
    frontier = []
    for t in targets:
        sol = np.linalg.solve(K, np.concatenate([np.zeros(n), [t, 1.0]]))
        w = sol[:n]
        frontier.append([t, np.sqrt(w @ S @ w)])
    frontier = np.array(frontier)
    sharpe = (frontier[:, 0] - rf) / frontier[:, 1]
    contrib = w_tan * (S @ w_tan) / (w_tan @ S @ w_tan)
    return {"mu": mu, "dtype": mu.dtype.kind, "w_mv": w_mv, "w_tan": w_tan, "frontier": frontier,
            "best": int(np.argmax(sharpe)), "contrib": contrib, "short": np.flatnonzero(w_tan < 0),
            "corr": np.corrcoef(R, rowvar=False)[np.triu_indices(n, 1)]}


def _ar2(seed, n, phi=(0.6, -0.3)):
    rng = np.random.default_rng(seed)
    e = rng.normal(size=n + 50)
    x = np.zeros(n + 50)
    for t in range(2, n + 50):
        x[t] = phi[0] * x[t - 1] + phi[1] * x[t - 2] + e[t]
    return x[50:]


def test_block_maxima():
    rng = np.random.default_rng(2860)
    check(block_maxima, rng.gumbel(10, 3, 30 * 120), 30, rtol=1e-3, atol=1e-4)


def test_peaks_over_threshold():
    rng = np.random.default_rng(2861)
    x = rng.standard_exponential(400) + np.sin(np.arange(400) / 20.0)
    check(peaks_over_threshold, x, 0.95, 3, rtol=1e-3, atol=1e-4)


def test_autocorrelation():
    check(autocorrelation, _ar2(2862, 120), 12, rtol=1e-3, atol=1e-5)


def test_yule_walker():
    check(yule_walker, _ar2(2863, 200), 3, rtol=1e-3, atol=1e-5)


def test_conditional_ls():
    check(conditional_ls, _ar2(2864, 150), 2, rtol=1e-3, atol=1e-4)


def test_arima_forecast():
    x = np.cumsum(_ar2(2865, 80)) + 0.05 * np.arange(80)
    check(arima_forecast, x, np.array([0.6, -0.3]), 8, rtol=1e-3, atol=1e-4)


def test_pacf_durbin_levinson():
    check(pacf_durbin_levinson, _ar2(2866, 160), 6, rtol=1e-3, atol=1e-5)


def test_portfolio():
    rng = np.random.default_rng(2867)
    L = np.array([[1.0, 0, 0, 0], [0.5, 1, 0, 0], [0.2, 0.3, 1, 0], [0.1, 0.0, 0.4, 1]])
    R = rng.normal(0.0004, 0.01, (250, 4)) @ L.T
    check(portfolio, R, 0.02, np.linspace(0.02, 0.3, 6), rtol=1e-3, atol=1e-4)
