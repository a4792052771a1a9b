"""Statistical quality control as a process engineer's script writes it: X-bar/R and individuals charts from
`reshape` subgroups, Western Electric run rules by `sliding_window_view` and `convolve`, CUSUM and EWMA loops,
capability indices Cp/Cpk/Ppk with a `np.errstate` guard, a Pareto chart by `argsort`/`cumsum`, a p-chart with
varying limits, gauge R&R by a two-way ANOVA on a 3-d array, acceptance sampling by a binomial OC curve from
`cumsum` of probabilities, OEE over shifts with a `where=` division, a defect map by `histogram2d`, scrap
accounting through `np.ma`, and `np.testing` checks inside the script (tests/porting)."""

import numpy as np
from harness import check


def xbar_r_chart(np, samples):
    groups = np.asarray(samples).reshape(-1, 5)
    xbar, rng_ = groups.mean(axis=1), np.ptp(groups, axis=1)
    a2, d3, d4 = 0.577, 0.0, 2.114  # constants for subgroups of 5
    center, rbar = xbar.mean(), rng_.mean()
    ucl, lcl = center + a2 * rbar, center - a2 * rbar
    out = np.flatnonzero((xbar > ucl) | (xbar < lcl))
    return {"xbar": xbar, "r": rng_, "limits": np.array([lcl, center, ucl]), "r_limits": (d3 * rbar, d4 * rbar),
            "out": out, "r_out": np.flatnonzero(rng_ > d4 * rbar), "sigma_hat": rbar / 2.326}


def western_electric(np, x, center, sigma):
    x = np.asarray(x)
    z = (x - center) / sigma
    rule1 = np.abs(z) > 3
    # rule 2: two of three beyond 2 sigma on the same side
    above2 = np.lib.stride_tricks.sliding_window_view(z > 2, 3).sum(axis=1) >= 2
    below2 = np.lib.stride_tricks.sliding_window_view(z < -2, 3).sum(axis=1) >= 2
    # rule 4: eight in a row on one side, by a running sum of signs
    side = np.sign(z)
    run8 = np.abs(np.convolve(side, np.ones(8), mode="valid")) == 8
    return {"rule1": np.flatnonzero(rule1), "rule2": np.flatnonzero(above2 | below2) + 2,
            "rule4": np.flatnonzero(run8) + 7, "first_alarm": int(np.argmax(rule1)) if rule1.any() else -1}


def cusum_ewma(np, x, target, k, h, lam):
    x = np.asarray(x)
    hi, lo = np.zeros(len(x)), np.zeros(len(x))
    ewma = np.empty(len(x))
    s_hi = s_lo = 0.0
    e = target
    for i, v in enumerate(x):
        s_hi = max(0.0, s_hi + v - target - k)
        s_lo = max(0.0, s_lo + target - k - v)
        e = lam * v + (1 - lam) * e
        hi[i], lo[i], ewma[i] = s_hi, s_lo, e
    steps = np.arange(1, len(x) + 1)
    width = 3 * np.sqrt(lam / (2 - lam) * (1 - (1 - lam) ** (2 * steps)))
    return {"hi": hi, "lo": lo, "alarm": np.flatnonzero((hi > h) | (lo > h)), "ewma": ewma,
            "ewma_out": np.flatnonzero(np.abs(ewma - target) > width), "width": width}


def capability(np, parts, lsl, usl):
    parts = np.asarray(parts)
    mu, s = parts.mean(axis=1), parts.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cp = (usl - lsl) / (6 * s)
        cpk = np.minimum(usl - mu, mu - lsl) / (3 * s)
    overall = parts.ravel()
    ppk = min(usl - overall.mean(), overall.mean() - lsl) / (3 * overall.std(ddof=1))
    return {"cp": np.where(np.isfinite(cp), cp, -1.0), "cpk": np.where(np.isfinite(cpk), cpk, -1.0), "ppk": ppk,
            "capable": np.flatnonzero(cpk >= 1.33), "ppm": (np.mean((overall < lsl) | (overall > usl)) * 1e6)}


def pareto(np, causes, minutes):
    causes, minutes = np.asarray(causes), np.asarray(minutes)
    counts = np.bincount(causes, minlength=8)
    downtime = np.bincount(causes, weights=minutes, minlength=8)
    order = np.argsort(-downtime, kind="stable")
    cum = np.cumsum(downtime[order]) / downtime.sum()
    vital = order[: np.searchsorted(cum, 0.8) + 1]
    return {"counts": counts, "downtime": downtime, "order": order, "cum": cum, "vital": vital,
            "share": np.round(100 * downtime / downtime.sum(), 1)}


def p_chart(np, defects, sizes):
    defects, sizes = np.asarray(defects), np.asarray(sizes)
    p = defects / sizes
    pbar = defects.sum() / sizes.sum()
    sigma = np.sqrt(pbar * (1 - pbar) / sizes)
    ucl = pbar + 3 * sigma
    lcl = np.clip(pbar - 3 * sigma, 0, None)
    return {"p": p, "pbar": pbar, "ucl": ucl, "lcl": lcl, "out": np.flatnonzero((p > ucl) | (p < lcl)),
            "np_chart": sizes * pbar}


def gauge_rr(np, data):
    data = np.asarray(data)  # parts x operators x trials
    p, o, n = data.shape
    grand = data.mean()
    part_m, op_m, cell_m = data.mean(axis=(1, 2)), data.mean(axis=(0, 2)), data.mean(axis=2)
    ss_part = o * n * ((part_m - grand) ** 2).sum()
    ss_op = p * n * ((op_m - grand) ** 2).sum()
    ss_int = n * ((cell_m - part_m[:, None] - op_m[None, :] + grand) ** 2).sum()
    ss_err = ((data - cell_m[..., None]) ** 2).sum()
    ms = np.array([ss_part / (p - 1), ss_op / (o - 1), ss_int / ((p - 1) * (o - 1)), ss_err / (p * o * (n - 1))])
    repeat = ms[3]
    reprod = max((ms[1] - ms[2]) / (p * n), 0) + max((ms[2] - ms[3]) / n, 0)
    part_var = max((ms[0] - ms[2]) / (o * n), 0)
    total = repeat + reprod + part_var
    return {"ms": ms, "pct_grr": 100 * np.sqrt((repeat + reprod) / total),
            "ndc": int(1.41 * np.sqrt(part_var / (repeat + reprod)))}


def oc_curve(np, n, c, p_grid):
    p_grid = np.asarray(p_grid)
    k = np.arange(n + 1)
    logc = np.cumsum(np.log(np.maximum(k, 1)))  # log k!
    log_binom = logc[-1] - logc - logc[::-1]
    with np.errstate(divide="ignore"):
        logpmf = log_binom[None, :] + k * np.log(p_grid[:, None]) + (n - k) * np.log1p(-p_grid[:, None])
    pmf = np.exp(logpmf)
    accept = np.cumsum(pmf, axis=1)[:, c]
    return {"accept": accept, "aql": p_grid[np.argmin(np.abs(accept - 0.95))],
            "ltpd": p_grid[np.argmin(np.abs(accept - 0.10))], "aoq": p_grid * accept,
            "aoql": (p_grid * accept).max(), "rowsum": pmf.sum(axis=1)}


def oee(np, planned, run, ideal_rate, total, good):
    planned, run, total, good = (np.asarray(v, dtype=float) for v in (planned, run, total, good))
    availability = np.divide(run, planned, out=np.zeros_like(run), where=planned > 0)
    performance = np.divide(total, run * ideal_rate, out=np.zeros_like(run), where=run > 0)
    quality = np.divide(good, total, out=np.zeros_like(run), where=total > 0)
    score = availability * np.minimum(performance, 1.0) * quality
    by_shift = score.reshape(-1, 3)
    return {"a": availability, "p": performance, "q": quality, "oee": score, "shift_mean": by_shift.mean(axis=0),
            "best_day": int(by_shift.mean(axis=1).argmax()), "world_class": np.flatnonzero(score >= 0.85)}


def defect_map(np, x, y, kind):
    x, y, kind = np.asarray(x), np.asarray(y), np.asarray(kind)
    h, xe, ye = np.histogram2d(x, y, bins=4, range=[[0, 200], [0, 200]])
    hot = np.argwhere(h == h.max())
    per_kind = np.stack([np.histogram2d(x[kind == k], y[kind == k], bins=(xe, ye))[0] for k in range(3)])
    edge = (np.minimum(x, 200 - x) < 20) | (np.minimum(y, 200 - y) < 20)
    return {"h": h, "hot": hot, "per_kind": per_kind.sum(axis=(1, 2)), "dominant": per_kind.argmax(axis=0),
            "edge_share": edge.mean(), "radial": np.histogram(np.hypot(x - 100, y - 100), bins=[0, 40, 80, 150])[0]}


def scrap_accounting(np, produced, scrapped, cost):
    produced, scrapped, cost = np.asarray(produced), np.asarray(scrapped), np.asarray(cost)
    rate = np.ma.masked_where(produced == 0, scrapped) / np.ma.masked_equal(produced, 0)
    money = (scrapped * cost[:, None]).sum(axis=1)
    np.testing.assert_array_less(scrapped, produced + 1)  # the log never scraps more than it made
    np.testing.assert_allclose(money.sum(), (scrapped.sum(axis=1) * cost).sum(), rtol=1e-5)
    return {"rate": rate.filled(-1.0), "mean_rate": rate.mean(axis=1).filled(-1.0), "money": money,
            "worst_line": int(money.argmax()), "idle": int(np.ma.count_masked(rate))}


def test_xbar_r_chart():
    rng = np.random.default_rng(2061)
    x = rng.normal(10.0, 0.2, 60)
    x[40:45] += 0.6
    check(xbar_r_chart, x, rtol=1e-3)


def test_western_electric():
    rng = np.random.default_rng(2062)
    x = rng.normal(0.0, 1.0, 50)
    x[[10, 11]] = [2.5, 2.4]
    x[30:39] = np.abs(x[30:39]) + 0.1
    x[45] = -3.5
    check(western_electric, x, 0.0, 1.0)


def test_cusum_ewma():
    rng = np.random.default_rng(2063)
    x = np.concatenate([rng.normal(5.0, 1.0, 20), rng.normal(6.0, 1.0, 15)])
    check(cusum_ewma, x, 5.0, 0.5, 4.0, 0.2, rtol=1e-4, atol=1e-5)


def test_capability():
    rng = np.random.default_rng(2064)
    parts = rng.normal([[10.0], [10.2], [9.9], [10.0]], [[0.05], [0.1], [0.2], [0.0]], (4, 25))
    check(capability, parts, 9.7, 10.3, rtol=1e-3)


def test_pareto():
    rng = np.random.default_rng(2065)
    check(pareto, rng.choice(8, 80, p=[0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05]), rng.exponential(12, 80),
          rtol=1e-4)


def test_p_chart():
    rng = np.random.default_rng(2066)
    sizes = rng.integers(80, 200, 20)
    defects = rng.binomial(sizes, 0.05)
    defects[7] = 30
    check(p_chart, defects, sizes)


def test_gauge_rr():
    rng = np.random.default_rng(2067)
    parts = rng.normal(50.0, 2.0, 6)
    ops = np.array([0.0, 0.15, -0.1])
    check(gauge_rr, parts[:, None, None] + ops[None, :, None] + rng.normal(0, 0.2, (6, 3, 2)), rtol=2e-3)


def test_oc_curve():
    check(oc_curve, 50, 2, np.linspace(0.005, 0.2, 40), rtol=1e-3, atol=1e-5)


def test_oee():
    rng = np.random.default_rng(2069)
    planned = np.full(12, 480.0)
    planned[5] = 0.0
    run = np.where(planned > 0, planned - rng.integers(0, 90, 12), 0.0)
    total = np.floor(run * 2.0 * rng.uniform(0.8, 1.05, 12))
    check(oee, planned, run, 2.0, total, np.floor(total * rng.uniform(0.9, 1.0, 12)))


def test_defect_map():
    rng = np.random.default_rng(2070)
    check(defect_map, rng.uniform(0, 200, 60), rng.uniform(0, 200, 60), rng.integers(0, 3, 60))


def test_scrap_accounting():
    rng = np.random.default_rng(2071)
    produced = rng.integers(0, 400, (4, 7))
    produced[2, 3] = 0
    check(scrap_accounting, produced, np.floor(produced * rng.uniform(0, 0.1, (4, 7))).astype(int),
          np.array([2.5, 4.0, 1.25, 8.0]))
