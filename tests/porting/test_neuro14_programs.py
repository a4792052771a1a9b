"""Computational neuroscience as course notebooks (Dayan & Abbott exercises, Neuromatch-style tutorials) write it:
leaky integrate-and-fire neurons with refractory counters and boolean-mask resets, an f-I curve over input currents,
spike rasters binned by `np.histogram2d` and `np.bincount` of flat indices (PSTH, Fano factors, population rates),
inter-spike-interval statistics from neuron/time lists sorted by `np.lexsort` and split at `searchsorted`
boundaries (CV, bursts), pair-based STDP weight updates from `np.subtract.outer` of spike times with
`np.clip` bounds and `np.add.at`, cross-correlograms, Poisson spike trains from host uniforms with count
correlations by `np.corrcoef`, and a Hopfield network stored by `einsum` outer products (tests/porting)."""

import numpy as np
from harness import check


def lif_population(np, I_ext, noise, dt, tau, v_th, v_reset, t_ref):
    I_ext, noise = np.asarray(I_ext), np.asarray(noise)
    steps, n = noise.shape
    v = np.full(n, v_reset)
    ref = np.zeros(n, dtype=int)
    spikes = np.zeros((steps, n), dtype=bool)
    trace = np.empty(steps)
    for k in range(steps):
        active = ref == 0
        dv = (-(v - v_reset) + I_ext) / tau * dt + noise[k]
        v[active] += dv[active]
        ref[~active] -= 1
        fired = v >= v_th
        spikes[k] = fired
        v[fired] = v_reset
        ref[fired] = int(t_ref / dt)
        trace[k] = v[0]
    counts = spikes.sum(axis=0)
    rate = counts / (steps * dt)
    step_idx, neuron = np.nonzero(spikes)
    last = np.full(n, -1)
    np.maximum.at(last, neuron, step_idx)
    return {"counts": counts, "rate": rate, "trace": trace[::25], "last": last,
            "silent": int(np.sum(counts == 0)), "pop_rate": spikes.mean(axis=1).reshape(-1, 50).mean(axis=1)}


def fi_curve(np, currents, dt, tau, v_th, t_ref, t_end):
    I = np.asarray(currents)
    v = np.zeros_like(I)
    ref = np.zeros_like(I)
    count = np.zeros(I.shape, dtype=np.int64)
    for _ in range(int(t_end / dt)):
        free = ref <= 0
        v = np.where(free, v + dt / tau * (-v + I), v)
        ref -= dt
        fired = v >= v_th
        count += fired
        v[fired] = 0.0
        ref[fired] = t_ref
    rate = count / t_end
    with np.errstate(divide="ignore", invalid="ignore"):
        theory = np.where(I > v_th, 1 / (t_ref + tau * np.log(I / (I - v_th))), 0.0)
    rheobase = I[np.argmax(rate > 0)]
    return {"count": count, "rate": rate, "theory": theory, "rheobase": rheobase,
            "gain": np.polyfit(I[rate > 0][:5], rate[rate > 0][:5], 1)[0]}


def raster_binning(np, neuron_ids, times, n_neurons, t_end, bin_ms, trials):
    ids, t = np.asarray(neuron_ids), np.asarray(times)
    n_bins = int(t_end / bin_ms)
    H, xe, ye = np.histogram2d(ids, t, bins=[n_neurons, n_bins], range=[[0, n_neurons], [0, t_end]])
    b = np.minimum((t // bin_ms).astype(int), n_bins - 1)
    flat = np.bincount(ids * n_bins + b, minlength=n_neurons * n_bins).reshape(n_neurons, n_bins)
    psth = flat.sum(axis=0) / (n_neurons * bin_ms * 1e-3)
    trial = np.asarray(trials)
    per_trial = np.zeros((trial.max() + 1, n_neurons), dtype=int)
    np.add.at(per_trial, (trial, ids), 1)
    mean = per_trial.mean(axis=0)
    var = per_trial.var(axis=0, ddof=1)
    fano = np.divide(var, mean, out=np.zeros_like(mean), where=mean > 0)
    active_bins = (flat > 0).sum(axis=1)
    return {"H": H.astype(int), "same": bool(np.array_equal(H.astype(int), flat)), "psth": psth,
            "fano": fano, "active_bins": active_bins, "edges": ye[:5], "peak_bin": int(psth.argmax())}


def isi_statistics(np, neuron_ids, times, n_neurons, burst_isi):
    ids, t = np.asarray(neuron_ids), np.asarray(times)
    order = np.lexsort((t, ids))
    ids, t = ids[order], t[order]
    bounds = np.searchsorted(ids, np.arange(n_neurons + 1))
    isi = np.diff(t)
    same = ids[1:] == ids[:-1]
    isi = np.where(same, isi, np.nan)
    cv = np.full(n_neurons, np.nan)
    mean_isi = np.full(n_neurons, np.nan)
    for k in range(n_neurons):
        seg = isi[bounds[k]:max(bounds[k + 1] - 1, bounds[k])]
        if seg.size >= 2:
            mean_isi[k] = seg.mean()
            cv[k] = seg.std() / seg.mean()
    short = same & (np.diff(t) < burst_isi)
    burst_spikes = np.bincount(ids[1:][short], minlength=n_neurons)
    hist, edges = np.histogram(isi[~np.isnan(isi)], bins=20, range=(0, 200))
    return {"bounds": bounds, "cv": cv, "mean_isi": mean_isi, "bursts": burst_spikes, "hist": hist,
            "median": np.nanmedian(isi), "regular": np.flatnonzero(cv < 0.5)}


def stdp_updates(np, pre_times, post_times, w0, a_plus, a_minus, tau_plus, tau_minus, w_max):
    pre, post = np.asarray(pre_times), np.asarray(post_times)
    w = np.asarray(w0, dtype=float).copy()
    for syn in range(len(w)):
        dt = np.subtract.outer(post[syn], pre[syn])  # post - pre: positive means pre before post
        ltp = a_plus * np.exp(-dt[dt > 0] / tau_plus)
        ltd = -a_minus * np.exp(dt[dt < 0] / tau_minus)
        w[syn] += ltp.sum() + ltd.sum()
    w = np.clip(w, 0, w_max)
    window = np.linspace(-50, 50, 21)
    kernel = np.where(window > 0, a_plus * np.exp(-window / tau_plus), -a_minus * np.exp(window / tau_minus))
    kernel[window == 0] = 0.0
    syn_idx = np.repeat(np.arange(len(w)), 3)
    extra = np.tile([0.001, -0.002, 0.0005], len(w))
    w2 = w.copy()
    np.add.at(w2, syn_idx, extra)
    return {"w": w, "kernel": kernel, "w2": w2, "potentiated": np.flatnonzero(w > np.asarray(w0)),
            "balance": a_minus * tau_minus / (a_plus * tau_plus)}


def cross_correlogram(np, spikes_a, spikes_b, window, bin_width):
    a, b = np.asarray(spikes_a), np.asarray(spikes_b)
    lags = np.subtract.outer(b, a).ravel()
    lags = lags[np.abs(lags) <= window]
    edges = np.arange(-window, window + bin_width, bin_width)
    ccg, _ = np.histogram(lags, bins=edges)
    centers = (edges[:-1] + edges[1:]) / 2
    peak = centers[np.argmax(ccg)]
    shuffled_rate = len(a) * len(b) * bin_width / (max(a.max(), b.max()) - min(a.min(), b.min()))
    auto = np.subtract.outer(a, a)
    auto = auto[(auto != 0) & (np.abs(auto) <= window)]
    acg, _ = np.histogram(auto, bins=edges)
    return {"ccg": ccg, "peak_lag": peak, "baseline": shuffled_rate, "acg": acg,
            "symmetric": bool(np.array_equal(acg, acg[::-1]))}


def poisson_trains(np, uniforms, rates, dt, shared):
    u = np.asarray(uniforms)
    trials, steps, n = u.shape
    common = np.asarray(shared)[:, :, None] < 0.3 * np.asarray(rates) * dt
    spikes = (u < np.asarray(rates) * dt) | common
    counts = spikes.sum(axis=1)
    corr = np.corrcoef(counts.T)
    iu = np.triu_indices(n, 1)
    t_idx = np.argwhere(spikes[0])
    sta_counts = np.bincount(t_idx[:, 1], minlength=n)
    return {"counts": counts, "mean_rate": counts.mean(axis=0) / (steps * dt), "corr": corr,
            "mean_corr": corr[iu].mean(), "first_trial": sta_counts,
            "ff": counts.var(axis=0, ddof=1) / counts.mean(axis=0)}


def hopfield(np, patterns, flips, sweeps):
    P = np.asarray(patterns)
    m, n = P.shape
    W = np.einsum("pi,pj->ij", P, P) / n
    np.fill_diagonal(W, 0)
    energies = []
    overlaps = []
    for k, flip in enumerate(np.asarray(flips)):
        s = P[k % m].copy()
        s[flip] *= -1
        for _ in range(sweeps):
            for i in range(n):
                s[i] = 1 if W[i] @ s >= 0 else -1
        energies.append(-0.5 * s @ W @ s)
        overlaps.append(P @ s / n)
    return {"W_sym": bool(np.allclose(W, W.T)), "overlaps": np.array(overlaps), "energy": np.array(energies),
            "recalled": np.argmax(np.array(overlaps), axis=1), "capacity": m / n}


def _spike_lists(rng, n_neurons, t_end):
    ids, times, trials = [], [], []
    for k in range(n_neurons):
        isi = rng.gamma(2.0 + k % 4, 8.0, 200)
        t = np.cumsum(isi)
        t = t[t < t_end]
        ids.append(np.full(len(t), k))
        times.append(t)
        trials.append(np.minimum((t // (t_end / 5)).astype(int), 4))
    return np.concatenate(ids), np.concatenate(times), np.concatenate(trials)


def test_lif_population_refractory():
    rng = np.random.default_rng(1421)
    check(lif_population, rng.uniform(14, 24, 30), rng.normal(0, 0.3, (500, 30)), 0.1, 10.0, 15.0, 0.0, 2.0,
          rtol=1e-3, atol=1e-3)


def test_fi_curve():
    check(fi_curve, np.linspace(0.5, 3.0, 26), 0.1, 10.0, 1.0, 2.0, 200.0, rtol=1e-3, atol=1e-3)


def test_raster_binning_psth():
    rng = np.random.default_rng(1423)
    ids, times, trials = _spike_lists(rng, 12, 1000.0)
    check(raster_binning, ids, times, 12, 1000.0, 50.0, trials, rtol=1e-3, atol=1e-5)


def test_isi_statistics_lexsort():
    rng = np.random.default_rng(1424)
    ids, times, _ = _spike_lists(rng, 10, 800.0)
    perm = rng.permutation(len(ids))
    check(isi_statistics, ids[perm], times[perm], 10, 8.0, rtol=1e-3, atol=1e-4)


def test_stdp_pair_based():
    rng = np.random.default_rng(1425)
    pre = np.sort(rng.uniform(0, 500, (8, 15)), axis=1)
    post = np.sort(pre + rng.normal(5, 8, (8, 15)), axis=1)
    post[5:] = np.sort(pre[5:] - rng.uniform(2, 15, (3, 15)), axis=1)
    check(stdp_updates, pre, post, np.full(8, 0.5), 0.01, 0.012, 20.0, 20.0, 1.0, rtol=1e-4, atol=1e-6)


def test_cross_correlogram():
    rng = np.random.default_rng(1426)
    a = np.sort(rng.uniform(0, 2000, 150)).round(1)
    b = np.sort(np.concatenate([a[::2] + 3.0, rng.uniform(0, 2000, 60)])).round(1)
    check(cross_correlogram, a, b, 50.0, 5.0, rtol=1e-4)


def test_poisson_spike_trains():
    rng = np.random.default_rng(1427)
    check(poisson_trains, rng.random((40, 200, 6)), np.array([5.0, 10, 20, 20, 40, 60]), 1e-3 * 5,
          rng.random((40, 200)), rtol=1e-3, atol=1e-5)


def test_hopfield_recall():
    rng = np.random.default_rng(1428)
    P = np.where(rng.random((3, 40)) < 0.5, -1, 1)
    check(hopfield, P, rng.integers(0, 40, (4, 6)), 2)
