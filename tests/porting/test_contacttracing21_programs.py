"""Contact tracing as a public-health analyst's script writes it, on a dense 0/1 adjacency matrix: exposure
rings by repeated boolean matrix products, the first exposure day of each person by `np.where` of a `minimum.reduce`,
household clusters by a label-propagation loop with `np.minimum.at`, degree and secondary-case statistics by
`bincount`/`np.add.at`, a serial-interval histogram with `minlength`, a quarantine calendar by `floor_divide`/`mod`,
weighted attack rates by `np.average(returned=True)`, a contact matrix by age band through `np.ix_` and
`histogram2d`, a Reed-Frost chain on passed-in uniforms, super-spreaders by `percentile` and `argsort(kind=
"stable")`, and test positivity over `np.ma` windows (tests/porting)."""

import numpy as np
from harness import check


def exposure_rings(np, adj, index_cases, depth):
    A = np.asarray(adj).astype(bool)
    reached = np.zeros(A.shape[0], dtype=bool)
    reached[index_cases] = True
    ring = np.full(A.shape[0], -1)
    ring[index_cases] = 0
    frontier = reached.copy()
    for d in range(1, depth + 1):
        nxt = (A[frontier].any(axis=0)) & ~reached
        ring[nxt] = d
        reached |= nxt
        frontier = nxt
    return {"ring": ring, "sizes": np.bincount(ring[ring >= 0], minlength=depth + 1),
            "unreached": np.flatnonzero(~reached), "walks2": (A.astype(int) @ A.astype(int))[index_cases]}


def first_exposure(np, contact_day, infectious_from):
    days = np.asarray(contact_day, dtype=float)  # day of the contact, NaN where none
    start = np.asarray(infectious_from)
    valid = days >= start[:, None]  # a contact counts once its source is infectious
    exposed_on = np.where(valid, days, np.inf).min(axis=0)
    source = np.where(np.isfinite(exposed_on), np.argmin(np.where(valid, days, np.inf), axis=0), -1)
    return {"exposed_on": exposed_on, "source": source, "n_exposed": int(np.isfinite(exposed_on).sum()),
            "median_day": np.median(exposed_on[np.isfinite(exposed_on)])}


def household_clusters(np, pairs, n):
    pairs = np.asarray(pairs)
    label = np.arange(n)
    while True:  # every member takes the smallest label of its contacts until nothing changes
        old = label.copy()
        np.minimum.at(label, pairs[:, 0], label[pairs[:, 1]])
        np.minimum.at(label, pairs[:, 1], label[pairs[:, 0]])
        if np.array_equal(label, old):
            break
    roots, inverse, sizes = np.unique(label, return_inverse=True, return_counts=True)
    return {"label": label, "roots": roots, "cluster_of": inverse, "sizes": sizes,
            "largest": int(roots[np.argmax(sizes)]), "singletons": int(np.sum(sizes == 1))}


def secondary_cases(np, infector, n):
    infector = np.asarray(infector)  # who infected case i, -1 for imported cases
    local = infector >= 0
    offspring = np.bincount(infector[local], minlength=n)
    gen = np.zeros(n, dtype=int)
    for i in np.flatnonzero(local):  # cases are listed after their infectors
        gen[i] = gen[infector[i]] + 1
    r_by_gen = np.zeros(gen.max() + 1)
    np.add.at(r_by_gen, gen, offspring)
    return {"offspring": offspring, "gen": gen, "r_by_gen": r_by_gen / np.bincount(gen),
            "dispersion": offspring.var() / offspring.mean(), "zero_share": np.mean(offspring == 0)}


def serial_intervals(np, onset, infector):
    onset, infector = np.asarray(onset), np.asarray(infector)
    has = infector >= 0
    si = onset[has] - onset[infector[has]]
    counts = np.bincount(si - si.min(), minlength=15)
    mean, sd = si.mean(), si.std(ddof=1)
    return {"si": si, "counts": counts, "offset": int(si.min()), "mean": mean, "sd": sd,
            "negative": int(np.count_nonzero(si < 0)), "p90": np.percentile(si, 90, method="higher")}


def quarantine_calendar(np, exposure_day, length):
    day = np.asarray(exposure_day)  # days relative to 1 Jan, negative for the previous December
    release = day + length
    week, weekday = np.floor_divide(release, 7), np.mod(release, 7)
    month_len = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    ends = np.cumsum(month_len)
    month = np.searchsorted(ends, release % 365, side="right")
    q, r = np.divmod(release, 365)
    return {"week": week, "weekday": weekday, "weekend": np.flatnonzero(weekday >= 5), "month": month,
            "year_offset": q, "day_of_year": r, "per_month": np.bincount(month, minlength=12)}


def attack_rates(np, cases, sizes, weights):
    cases, sizes, w = np.asarray(cases), np.asarray(sizes), np.asarray(weights)
    rate = cases / sizes
    overall, total_w = np.average(rate, weights=w * sizes, returned=True)
    by_setting, setting_w = np.average(rate.reshape(3, -1), axis=1, weights=sizes.reshape(3, -1), returned=True)
    ci = 1.96 * np.sqrt(rate * (1 - rate) / sizes)
    return {"rate": rate, "overall": overall, "total_w": total_w, "by_setting": by_setting,
            "setting_w": setting_w, "lo": np.clip(rate - ci, 0, None), "hi": np.clip(rate + ci, None, 1)}


def contact_matrix(np, ages, adj, bands):
    ages, A = np.asarray(ages), np.asarray(adj)
    band = np.digitize(ages, bands) - 1
    i, j = np.nonzero(np.triu(A, k=1))
    counts, _, _ = np.histogram2d(band[i], band[j], bins=len(bands) - 1, range=[[0, len(bands) - 1]] * 2)
    sym = counts + counts.T - np.diag(np.diag(counts))
    per_person = sym / np.bincount(band, minlength=len(bands) - 1)[:, None]
    young = np.flatnonzero(band == 0)
    return {"band": band, "counts": counts, "sym": sym, "per_person": per_person,
            "young_block": A[np.ix_(young, young)].sum(), "mixing": np.trace(sym) / sym.sum()}


def reed_frost(np, n, i0, p, uniforms):
    u = np.asarray(uniforms)  # one row of uniforms per generation, one column per person
    status = np.zeros(n, dtype=np.int8)  # 0 susceptible, 1 infectious, 2 removed
    status[:i0] = 1
    chain = [i0]
    for g in range(u.shape[0]):
        infectious = np.count_nonzero(status == 1)
        if infectious == 0:
            break
        p_escape = (1 - p) ** infectious
        new = (status == 0) & (u[g] > p_escape)
        status[status == 1] = 2
        status[new] = 1
        chain.append(int(new.sum()))
    return {"chain": np.array(chain), "final": np.bincount(status, minlength=3), "generations": len(chain) - 1}


def super_spreaders(np, offspring, ids):
    offspring, ids = np.asarray(offspring), np.asarray(ids)
    cut = np.percentile(offspring, 80, method="inverted_cdf")
    order = np.argsort(-offspring, kind="stable")  # ties keep id order
    top = ids[order][offspring[order] > cut]
    share = np.cumsum(offspring[order]) / offspring.sum()
    return {"cut": cut, "top": top, "k80": int(np.searchsorted(share, 0.8) + 1), "share": share,
            "ranks": np.argsort(order, kind="stable")}


def positivity(np, tests, positives):
    tests, pos = np.asarray(tests), np.asarray(positives)
    t = np.ma.masked_less(tests, 5)  # days with under 5 tests are unreliable
    daily = pos / t
    win = np.lib.stride_tricks.sliding_window_view(np.ma.filled(daily, np.nan), 7)
    weekly = np.nanmean(win, axis=1)
    return {"daily": daily.filled(-1), "masked": np.flatnonzero(np.ma.getmaskarray(daily)),
            "weekly": weekly, "peak": int(np.nanargmax(weekly)), "mean": float(daily.mean())}


def _adjacency(seed, n, p):
    rng = np.random.default_rng(seed)
    A = np.triu(rng.random((n, n)) < p, k=1)
    return (A | A.T).astype(np.int64)


def test_exposure_rings():
    check(exposure_rings, _adjacency(2101, 30, 0.07), np.array([0, 7]), 4)


def test_first_exposure():
    rng = np.random.default_rng(2102)
    days = np.where(rng.random((8, 10)) < 0.3, rng.integers(0, 20, (8, 10)).astype(float), np.nan)
    check(first_exposure, days, rng.integers(0, 10, 8))


def test_household_clusters():
    rng = np.random.default_rng(2103)
    check(household_clusters, rng.integers(0, 25, (14, 2)), 25)


def test_secondary_cases():
    infector = np.array([-1, -1, 0, 0, 1, 2, 2, 2, 4, -1, 9, 5, 5, 7])
    check(secondary_cases, infector, len(infector))


def test_serial_intervals():
    infector = np.array([-1, 0, 0, 1, 1, 2, -1, 6, 3, 3])
    onset = np.array([0, 4, 6, 9, 3, 11, 2, 7, 14, 13])
    check(serial_intervals, onset, infector)


def test_quarantine_calendar():
    check(quarantine_calendar, np.array([-20, -1, 0, 5, 58, 200, 350, 364, 400]), 14)


def test_attack_rates():
    rng = np.random.default_rng(2105)
    sizes = rng.integers(2, 9, 12)
    check(attack_rates, rng.binomial(sizes, 0.3), sizes, rng.uniform(0.5, 2.0, 12))


def test_contact_matrix():
    rng = np.random.default_rng(2106)
    check(contact_matrix, rng.integers(0, 90, 30), _adjacency(2106, 30, 0.15), np.array([0, 18, 40, 65, 120]))


def test_reed_frost():
    rng = np.random.default_rng(2107)
    check(reed_frost, 40, 2, 0.04, rng.random((15, 40)))


def test_super_spreaders():
    rng = np.random.default_rng(2108)
    check(super_spreaders, rng.negative_binomial(0.4, 0.2, 25), np.arange(100, 125))


def test_test_positivity():
    rng = np.random.default_rng(2109)
    tests = rng.integers(0, 60, 21)
    tests[[3, 10]] = [2, 0]
    check(positivity, tests, rng.binomial(tests, 0.1))
