"""Pharmacokinetics and dose-response as a clinical pharmacology notebook writes it: one- and two-compartment
curves by `np.exp` of outer products, AUC by `trapezoid` and the log-linear trapezoid with a `where=`, terminal
half-lives by `polyfit` of `log` over the last points, repeated doses by superposition (`convolve` and a
`np.add.at` dose train), Hill curves fitted by a grid search over `meshgrid` with `unravel_index`, geometric-mean
ratios for bioequivalence, below-quantification values through `np.ma`, a dosing table ordered by `lexsort`,
a renal-function dose adjustment by `digitize`/`select`, and a nomogram printed by `array2string` (tests/porting)."""

import numpy as np
from harness import check


def one_compartment(np, doses, ka, ke, v):
    doses, ka, ke = np.asarray(doses), np.asarray(ka), np.asarray(ke)
    t = np.linspace(0.0, 24.0, 49)
    # Bateman function for every subject at once: subjects down the rows
    coef = (doses * ka / (v * (ka - ke)))[:, None]
    conc = coef * (np.exp(-np.outer(ke, t)) - np.exp(-np.outer(ka, t)))
    tmax_idx = conc.argmax(axis=1)
    cmax = np.take_along_axis(conc, tmax_idx[:, None], axis=1).ravel()
    tmax_exact = np.log(ka / ke) / (ka - ke)
    auc = np.trapezoid(conc, t, axis=1)
    auc_inf = auc + conc[:, -1] / ke
    return {"cmax": cmax, "tmax": t[tmax_idx], "tmax_exact": tmax_exact, "auc": auc, "auc_inf": auc_inf,
            "auc_exact": doses / (v * ke), "above_mec": (conc > 1.0).sum(axis=1) * (t[1] - t[0])}


def log_trapezoid_auc(np, t, c):
    t, c = np.asarray(t), np.asarray(c)
    dt, c0, c1 = np.diff(t), c[:-1], c[1:]
    linear = dt * (c0 + c1) / 2
    # the log-down rule where the curve falls and both values are positive; linear up elsewhere
    falling = (c1 < c0) & (c1 > 0)
    ratio = np.divide(c0, c1, out=np.ones_like(c0), where=falling)
    logdown = np.divide(dt * (c0 - c1), np.log(ratio), out=linear.copy(), where=falling)
    pieces = np.where(falling, logdown, linear)
    aumc = np.trapezoid(c * t, t)
    return {"linear": linear.sum(), "linlog": pieces.sum(), "pieces": pieces, "falling": falling,
            "mrt": aumc / linear.sum(), "cum": np.cumsum(pieces)}


def terminal_half_life(np, t, conc):
    t, conc = np.asarray(t), np.asarray(conc)
    half_lives, r2 = [], []
    for row in conc:
        tail = slice(-4, None)
        slope, intercept = np.polyfit(t[tail], np.log(row[tail]), 1)
        pred = intercept + slope * t[tail]
        resid = np.log(row[tail]) - pred
        ss_tot = ((np.log(row[tail]) - np.log(row[tail]).mean()) ** 2).sum()
        half_lives.append(np.log(2) / -slope)
        r2.append(1 - (resid ** 2).sum() / ss_tot)
    half_lives = np.array(half_lives)
    return {"t_half": half_lives, "r2": np.array(r2), "ke": np.log(2) / half_lives,
            "long": np.flatnonzero(half_lives > np.median(half_lives))}


def repeated_doses(np, single, tau, n_doses):
    single = np.asarray(single)
    n = len(single)
    train = np.zeros(n)
    np.add.at(train, np.arange(n_doses) * tau, 1.0)
    # superposition: the dose train convolved with one dose's curve
    multi = np.convolve(train, single)[:n]
    by_loop = np.zeros(n)
    for k in range(n_doses):
        by_loop[k * tau:] += single[:n - k * tau]
    troughs = multi[np.arange(1, n_doses) * tau - 1]
    accumulation = multi[(n_doses - 1) * tau:].max() / single.max()
    return {"multi": multi, "same": bool(np.allclose(multi, by_loop)), "troughs": troughs,
            "accumulation": accumulation, "steady": bool(np.all(np.diff(troughs) >= -1e-6))}


def hill_grid_fit(np, conc, response):
    conc, response = np.asarray(conc), np.asarray(response)
    ec50s = np.geomspace(0.1, 100.0, 40)
    hills = np.linspace(0.5, 3.0, 26)
    E, H = np.meshgrid(ec50s, hills, indexing="ij")
    # every (EC50, Hill) pair at once: a 3-d array of predictions
    pred = 100.0 / (1.0 + (E[..., None] / conc) ** H[..., None])
    sse = ((pred - response) ** 2).sum(axis=-1)
    i, j = np.unravel_index(np.argmin(sse), sse.shape)
    best = 100.0 / (1.0 + (ec50s[i] / conc) ** hills[j])
    return {"ec50": ec50s[i], "hill": hills[j], "sse_min": sse.min(), "best": best,
            "rank2": np.sort(sse, axis=None)[:3], "ij": (int(i), int(j))}


def bioequivalence(np, test_auc, ref_auc):
    test_auc, ref_auc = np.asarray(test_auc), np.asarray(ref_auc)
    logdiff = np.log(test_auc) - np.log(ref_auc)
    n = logdiff.size
    se = logdiff.std(ddof=1) / np.sqrt(n)
    gmr = np.exp(logdiff.mean())
    t90 = 1.7958848187036691  # t(0.95, df=11)
    ci = np.exp(logdiff.mean() + np.array([-1, 1]) * t90 * se)
    geo_t = np.exp(np.mean(np.log(test_auc)))
    return {"gmr": gmr, "ci": ci, "bioequivalent": bool((ci[0] >= 0.8) & (ci[1] <= 1.25)),
            "geo_t": geo_t, "cv_intra": np.sqrt(np.exp(logdiff.var(ddof=1) / 2) - 1),
            "outliers": np.flatnonzero(np.abs(logdiff - np.median(logdiff)) > 2 * logdiff.std())}


def below_quantification(np, conc, lloq):
    conc = np.asarray(conc)
    blq = np.ma.masked_less(conc, lloq)
    per_time = blq.mean(axis=0)
    counted = blq.count(axis=0)
    half = np.where(conc < lloq, lloq / 2, conc)
    return {"mean": per_time.filled(np.nan), "counted": counted, "n_blq": int(np.ma.count_masked(blq)),
            "filled": blq.filled(0.0), "half_mean": half.mean(axis=0), "max": blq.max(axis=1).filled(-1.0),
            "all_blq": np.flatnonzero(counted == 0)}


def dosing_table(np, weight, age, crcl):
    weight, age, crcl = np.asarray(weight), np.asarray(age), np.asarray(crcl)
    # renal classes: >= 60 normal, 30-60 moderate, 15-30 severe, < 15 failure
    cls = np.digitize(crcl, [15.0, 30.0, 60.0])
    factor = np.select([cls == 3, cls == 2, cls == 1], [1.0, 0.75, 0.5], default=0.25)
    dose = np.round(np.clip(weight * 7.5 * factor, 250, 2000) / 50) * 50
    order = np.lexsort((-dose, cls))
    return {"cls": cls, "factor": factor, "dose": dose, "order": order, "by_cls": np.bincount(cls, minlength=4),
            "elderly_mean": dose[age >= 65].mean(), "dose_sorted": dose[order]}


def clearance_from_creatinine(np, age, weight, scr, female):
    age, weight, scr, female = (np.asarray(x) for x in (age, weight, scr, female))
    # Cockcroft-Gault, times 0.85 for women
    crcl = (140 - age) * weight / (72 * scr)
    crcl *= np.where(female, 0.85, 1.0)
    stages = np.array([0, 15, 30, 45, 60, 90])
    stage = np.searchsorted(stages, crcl, side="right")
    return {"crcl": crcl, "stage": stage, "stage_counts": np.bincount(stage, minlength=7),
            "worst": int(np.argmin(crcl)), "ratio_f": crcl[female].mean() / crcl[~female].mean()}


def nomogram_report(np, weights, intervals):
    weights, intervals = np.asarray(weights), np.asarray(intervals)
    table = np.round(15.0 * weights[:, None] * 24.0 / intervals[None, :], -1)
    text = np.array2string(table.astype(int), separator=" ")
    header = " ".join(f"q{int(h)}h" for h in intervals)
    rows = [f"{int(w):>3} kg: " + " ".join(f"{int(v):5d}" for v in row) for w, row in
            zip(weights, table, strict=True)]
    return {"table": table, "text": text, "report": "\n".join([header] + rows),
            "daily": table * (24 / intervals), "max_at": np.unravel_index(table.argmax(), table.shape)}


def test_one_compartment():
    rng = np.random.default_rng(2001)
    check(one_compartment, rng.uniform(100, 500, 6), rng.uniform(0.8, 2.0, 6), rng.uniform(0.05, 0.3, 6), 20.0,
          rtol=1e-3)


def test_log_trapezoid_auc():
    t = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 24.0])
    check(log_trapezoid_auc, t, np.array([0.0, 4.1, 6.3, 7.0, 5.2, 3.9, 2.8, 1.6, 0.3]), rtol=1e-3)


def test_terminal_half_life():
    rng = np.random.default_rng(2003)
    t = np.array([1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 24.0])
    ke = rng.uniform(0.05, 0.25, 5)
    conc = 50 * np.exp(-np.outer(ke, t)) * rng.uniform(0.97, 1.03, (5, 7))
    check(terminal_half_life, t, conc, rtol=1e-3, atol=1e-4)


def test_repeated_doses():
    t = np.arange(72.0)
    check(repeated_doses, 10 * (np.exp(-0.1 * t) - np.exp(-1.2 * t)), 12, 5, rtol=1e-4, atol=1e-4)


def test_hill_grid_fit():
    rng = np.random.default_rng(2005)
    conc = np.geomspace(0.05, 500, 9)
    check(hill_grid_fit, conc, 100 / (1 + (7.5 / conc) ** 1.4) + rng.normal(0, 2, 9), rtol=1e-3)


def test_bioequivalence():
    rng = np.random.default_rng(2006)
    ref = rng.lognormal(4.0, 0.3, 12)
    check(bioequivalence, ref * rng.lognormal(0.03, 0.1, 12), ref, rtol=1e-3)


def test_below_quantification():
    rng = np.random.default_rng(2007)
    conc = rng.lognormal(0.0, 1.0, (6, 5))
    conc[:, -1] = 0.05
    check(below_quantification, conc, 0.3)


def test_dosing_table():
    rng = np.random.default_rng(2008)
    check(dosing_table, rng.uniform(45, 110, 12), rng.integers(20, 90, 12), rng.uniform(5, 120, 12))


def test_clearance_from_creatinine():
    rng = np.random.default_rng(2009)
    check(clearance_from_creatinine, rng.integers(25, 90, 14), rng.uniform(50, 100, 14), rng.uniform(0.6, 3.5, 14),
          rng.random(14) < 0.5, rtol=1e-3)


def test_nomogram_report():
    check(nomogram_report, np.array([50.0, 70.0, 90.0]), np.array([8.0, 12.0, 24.0]))
