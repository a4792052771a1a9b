"""Clinical-trial statistics and electricity tariffs ported from NumPy scripts: percentiles by every `method=`,
weighted means by `np.average(weights=, returned=True)`, covariances with `aweights=`/`fweights=`, `np.corrcoef`
of rows, Kaplan-Meier survival by `np.unique(return_counts=True)` and `cumprod`, dose-response bands by
`np.digitize(right=True)`, tariffs by `np.select` with a default, `np.piecewise` with callables and nested
`np.where` (tests/porting)."""

import numpy as np
from harness import check

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def percentile_methods(np, sbp):
    sbp = np.asarray(sbp)
    out = {}
    for m in METHODS:
        out[m] = np.percentile(sbp, [5, 25, 50, 75, 95], method=m)
    out["iqr_by_arm"] = np.subtract(*np.percentile(sbp.reshape(2, -1), [75, 25], axis=1))
    out["q_keep"] = np.quantile(sbp.reshape(2, -1), 0.5, axis=1, keepdims=True)
    return out


def weighted_site_means(np, values, sizes):
    values, sizes = np.asarray(values), np.asarray(sizes)
    mean, total = np.average(values, weights=sizes, returned=True)
    by_row, w_row = np.average(values.reshape(3, -1), axis=1, weights=sizes.reshape(3, -1), returned=True)
    col = np.average(values.reshape(3, -1), axis=0, weights=[1, 2, 1])
    plain, n = np.average(values, returned=True)
    return {"mean": mean, "total": total, "by_row": by_row, "w_row": w_row, "col": col, "plain": plain, "n": n}


def weighted_covariance(np, X, freq, rel):
    X, freq, rel = np.asarray(X), np.asarray(freq), np.asarray(rel)
    c_f = np.cov(X, fweights=freq)
    c_a = np.cov(X, aweights=rel)
    c_both = np.cov(X, fweights=freq, aweights=rel, ddof=0)
    c_bias = np.cov(X.T, rowvar=False, bias=True)
    r = np.corrcoef(X)
    r2 = np.corrcoef(X[0], X[1])
    return {"c_f": c_f, "c_a": c_a, "c_both": c_both, "c_bias": c_bias, "r": r, "r2": r2,
            "sd": np.sqrt(np.diag(c_f))}


def kaplan_meier(np, times, events):
    times, events = np.asarray(times), np.asarray(events)
    order = np.argsort(times, kind="stable")
    t, e = times[order], events[order]
    uniq, idx, counts = np.unique(t, return_index=True, return_counts=True)
    deaths = np.add.reduceat(e, idx)
    at_risk = len(t) - np.concatenate(([0], np.cumsum(counts)[:-1]))
    surv = np.cumprod(1.0 - deaths / at_risk)
    median = uniq[np.argmax(surv <= 0.5)] if np.any(surv <= 0.5) else np.inf
    return {"uniq": uniq, "deaths": deaths, "at_risk": at_risk, "surv": surv, "median": median}


def randomisation_blocks(np, u):
    u = np.asarray(u).reshape(-1, 4)
    arms = np.argsort(u, axis=1, kind="stable") % 2  # permuted blocks of four: two per arm
    seq = arms.ravel()
    balance = np.cumsum(np.where(seq == 0, 1, -1))
    return {"seq": seq, "balance": balance, "max_imb": np.abs(balance).max(),
            "per_block": arms.sum(axis=1), "count": np.bincount(seq, minlength=3)}


def dose_bands(np, dose, response):
    dose, response = np.asarray(dose), np.asarray(response)
    edges = np.array([0, 10, 25, 50, 100])
    band = np.digitize(dose, edges, right=True)
    band_l = np.digitize(dose, edges)
    means = np.array([response[band == b].mean() if np.any(band == b) else np.nan for b in range(1, 5)])
    desc = np.digitize(dose, edges[::-1], right=True)
    return {"band": band, "band_l": band_l, "means": means, "desc": desc,
            "responders": np.count_nonzero(response > 0.5, axis=0)}


def z_tests(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1), b.var(ddof=1)
    se = np.sqrt(va / a.size + vb / b.size)
    z = (ma - mb) / se
    pooled = np.sqrt(((a.size - 1) * va + (b.size - 1) * vb) / (a.size + b.size - 2))
    ci = (ma - mb) + np.array([-1.96, 1.96]) * se
    return {"z": z, "d": (ma - mb) / pooled, "ci": ci, "std_err": np.std(a, ddof=1) / np.sqrt(a.size),
            "ptp": np.ptp(np.stack([a[:10], b[:10]]), axis=1)}


def tariff_select(np, kwh, hour):
    kwh, hour = np.asarray(kwh), np.asarray(hour)
    rate = np.select([hour < 7, (hour >= 17) & (hour < 21)], [0.08, 0.32], default=0.18)
    tier = np.select([kwh <= 1.0, kwh <= 3.0], [kwh * 1.0, 1.0 + (kwh - 1.0) * 1.2], 3.4 + (kwh - 3.0) * 1.5)
    nested = np.where(hour < 7, 1, np.where(hour < 17, 2, np.where(hour < 21, 3, 2)))
    cost = (rate * tier).reshape(-1, 24).sum(axis=1)
    return {"rate": rate, "tier": tier, "nested": nested, "cost": cost, "peak_share": (nested == 3).mean()}


def tariff_piecewise(np, kwh):
    kwh = np.asarray(kwh)
    bill = np.piecewise(kwh, [kwh < 100, (kwh >= 100) & (kwh < 300), kwh >= 300],
                        [lambda x: 0.1 * x, lambda x: 10 + 0.15 * (x - 100), lambda x: 40 + 0.2 * (x - 300)])
    flat = np.piecewise(kwh, [kwh < 50], [5.0, lambda x: 0.1 * x])
    ints = np.piecewise(np.arange(-3, 4), [np.arange(-3, 4) < 0], [lambda x: -x, lambda x: x * 10])
    return {"bill": bill, "flat": flat, "ints": ints, "steps": np.diff(bill, n=2)}


def net_metering(np, solar, load):
    solar, load = np.asarray(solar), np.asarray(load)
    net = load - solar
    export = np.clip(-net, 0, None)
    imp = np.maximum(net, 0)
    credit = np.minimum.accumulate(np.cumsum(net))
    month = np.arange(net.size) // 30
    by_month = np.bincount(month, weights=imp) - 0.5 * np.bincount(month, weights=export)
    return {"export": export.sum(), "imp": imp.sum(), "credit": credit, "by_month": by_month,
            "best_day": np.argmin(net), "sign": np.sign(net).astype(int)}


def lab_flags(np, values, missing):
    values, missing = np.asarray(values), np.asarray(missing)
    flags = np.ma.array(np.zeros(values.size, dtype=np.int32), mask=missing)
    view = flags[:4]
    flags |= np.where(values > 7.0, 1, 0)  # bit 0: high
    flags |= np.where(values < 3.0, 2, 0)  # bit 1: low
    flags <<= 1
    flags %= 5
    days, hours = divmod(np.ma.array(np.arange(values.size) * 17, mask=missing), 24)
    return {"flags": flags.filled(-1), "view": view.filled(-1), "days": days.filled(-1), "hours": hours.filled(-1),
            "n_flagged": int((flags > 0).sum())}


def site_percentiles(np, values, site):
    values, site = np.asarray(values), np.asarray(site)
    out, errors = [], []
    for s in range(4):  # site 3 enrolled nobody: NumPy refuses the percentile of nothing
        try:
            out.append(np.percentile(values[site == s], [25, 75], method="nearest"))
        except IndexError:
            errors.append(s)
    empty = np.percentile(values.reshape(2, -1)[:, :0], [25, 75], axis=0, method="hazen")
    return {"out": out, "errors": errors, "empty_shape": empty.shape}


def test_percentile_methods():
    rng = np.random.default_rng(2301)
    check(percentile_methods, rng.normal(130, 15, 26).round(0))


def test_weighted_site_means():
    rng = np.random.default_rng(2302)
    check(weighted_site_means, rng.normal(5, 1, 12), rng.integers(5, 50, 12))


def test_weighted_covariance():
    rng = np.random.default_rng(2303)
    check(weighted_covariance, rng.normal(0, 1, (3, 15)), rng.integers(1, 4, 15), rng.uniform(0.2, 1.0, 15),
          rtol=1e-3, atol=1e-4)


def test_kaplan_meier():
    rng = np.random.default_rng(2304)
    check(kaplan_meier, rng.integers(1, 20, 30), rng.integers(0, 2, 30))


def test_randomisation_blocks():
    rng = np.random.default_rng(2305)
    check(randomisation_blocks, rng.uniform(size=32))


def test_dose_bands():
    rng = np.random.default_rng(2306)
    dose = np.r_[0, 10, 25, 50, 100, rng.integers(1, 100, 20)]
    check(dose_bands, dose, rng.uniform(size=dose.size))


def test_z_tests():
    rng = np.random.default_rng(2307)
    check(z_tests, rng.normal(1.0, 1, 40), rng.normal(0.6, 1.2, 35), rtol=1e-3, atol=1e-4)


def test_tariff_select():
    rng = np.random.default_rng(2308)
    check(tariff_select, rng.uniform(0, 5, 72), np.tile(np.arange(24), 3))


def test_tariff_piecewise():
    check(tariff_piecewise, np.array([0.0, 20, 50, 99.5, 100, 150, 299, 300, 450]))


def test_net_metering():
    rng = np.random.default_rng(2309)
    check(net_metering, rng.uniform(0, 6, 90), rng.uniform(1, 5, 90), rtol=1e-3, atol=1e-3)


def test_lab_flags():
    rng = np.random.default_rng(2310)
    check(lab_flags, rng.uniform(0, 10, 10), rng.uniform(size=10) < 0.3)


def test_site_percentiles():
    rng = np.random.default_rng(2311)
    check(site_percentiles, rng.normal(120, 10, 24), rng.integers(0, 3, 24))
