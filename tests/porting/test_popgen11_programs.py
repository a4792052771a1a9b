"""Population genetics as course notebooks write it: Hardy-Weinberg genotype counts and a chi-square test from
0/1/2 genotype matrices (np.bincount with minlength), allele frequencies with missing calls (-1) masked out, linkage
disequilibrium (D, D', r^2) between SNP columns, Wright-Fisher drift by host binomial draws stored into a
preallocated trajectory, Fst between populations with np.ix_ blocks, a site-frequency spectrum folded in place, and a
Hamming-distance matrix of uint8 haplotypes by broadcasting (tests/porting)."""

import numpy as np
from harness import check


def hardy_weinberg(np, G):
    counts = np.array([np.bincount(G[:, j], minlength=3) for j in range(G.shape[1])])
    n = counts.sum(axis=1)
    p = (2 * counts[:, 0] + counts[:, 1]) / (2 * n)
    q = 1 - p
    expected = np.column_stack([p ** 2, 2 * p * q, q ** 2]) * n[:, None]
    chi2 = ((counts - expected) ** 2 / expected).sum(axis=1)
    het_obs = counts[:, 1] / n
    f_inbreeding = 1 - het_obs / (2 * p * q)
    out_of_eq = np.where(chi2 > 3.84)[0]
    return {"counts": counts, "p": p, "chi2": chi2, "F": f_inbreeding, "flagged": out_of_eq.tolist(),
            "maf": np.minimum(p, q), "n": int(n[0])}


def missing_calls(np, G):
    G = G.copy()
    missing = G == -1
    called = ~missing
    alt = np.where(called, G, 0).sum(axis=0)
    n_called = called.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        freq = alt / (2 * n_called)
    call_rate = n_called / G.shape[0]
    keep = (call_rate >= 0.8) & (np.minimum(freq, 1 - freq) > 0.05)
    # mean imputation of the missing calls, rounded to the nearest genotype
    col_mean = np.nanmean(np.where(missing, np.nan, G.astype(float)), axis=0)
    rows, cols = np.nonzero(missing)
    G[rows, cols] = np.round(col_mean[cols]).astype(G.dtype)
    return {"freq": freq, "call_rate": call_rate, "keep": keep, "kept": np.flatnonzero(keep),
            "imputed": G, "n_missing": int(missing.sum())}


def linkage_disequilibrium(np, H):
    H = H.astype(np.float64)
    p = H.mean(axis=0)
    pAB = (H.T @ H) / H.shape[0]
    D = pAB - np.outer(p, p)
    q = 1 - p
    Dmax = np.where(D > 0, np.minimum(np.outer(p, q), np.outer(q, p)),
                    np.minimum(np.outer(p, p), np.outer(q, q)))
    with np.errstate(invalid="ignore", divide="ignore"):
        Dprime = np.abs(D) / Dmax
        r2 = D ** 2 / np.outer(p * q, p * q)
    np.fill_diagonal(r2, np.nan)
    iu = np.triu_indices(len(p), k=1)
    best = np.nanargmax(r2)
    return {"D": D, "Dprime": Dprime, "r2": r2, "pairs_r2": r2[iu], "best": np.unravel_index(best, r2.shape),
            "mean_r2": np.nanmean(r2)}


def wright_fisher(np, N, p0, draws):
    gens = draws.shape[0]
    traj = np.empty((gens + 1, len(p0)))
    traj[0] = p0
    for t in range(gens):
        # binomial sampling of 2N gene copies, given by the host draws (uniforms per copy)
        k = (draws[t] < traj[t][None, :]).sum(axis=0)
        traj[t + 1] = k / (2 * N)
    fixed = (traj[-1] == 1.0) | (traj[-1] == 0.0)
    het = 2 * traj * (1 - traj)
    expected_het = het[0] * (1 - 1 / (2 * N)) ** np.arange(gens + 1)[:, None]
    first_fixed = np.argmax((traj == 0) | (traj == 1), axis=0)
    return {"traj": traj, "fixed": fixed, "het": het.mean(axis=1), "expected": expected_het.mean(axis=1),
            "first_fixed": first_fixed, "n_fixed": int(np.count_nonzero(fixed))}


def fst_between_pops(np, G, pops):
    labels = np.unique(pops)
    freqs = np.vstack([G[pops == k].mean(axis=0) / 2 for k in labels])
    sizes = np.array([np.sum(pops == k) for k in labels])
    w = sizes / sizes.sum()
    pbar = w @ freqs
    Ht = 2 * pbar * (1 - pbar)
    Hs = (w[:, None] * 2 * freqs * (1 - freqs)).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        fst = np.where(Ht > 0, (Ht - Hs) / Ht, 0.0)
    # pairwise distances on a block of populations and loci picked with np.ix_
    sub = freqs[np.ix_([0, 2], np.arange(0, G.shape[1], 2))]
    pairwise = np.abs(freqs[:, None, :] - freqs[None, :, :]).mean(axis=2)
    return {"freqs": freqs, "fst": fst, "mean_fst": float(np.mean(fst)), "sub": sub, "pairwise": pairwise,
            "top": np.argsort(fst, kind="stable")[::-1][:3]}


def site_frequency_spectrum(np, G):
    n_chrom = 2 * G.shape[0]
    derived = G.sum(axis=0)
    sfs = np.bincount(derived, minlength=n_chrom + 1)
    folded = sfs[: n_chrom // 2 + 1].copy()
    folded[:-1] += sfs[::-1][: n_chrom // 2]
    folded[-1] = sfs[n_chrom // 2] if n_chrom % 2 == 0 else folded[-1] + sfs[n_chrom // 2 + 1]
    seg = np.count_nonzero((derived > 0) & (derived < n_chrom))
    a1 = np.sum(1.0 / np.arange(1, n_chrom))
    theta_w = seg / a1
    i = np.arange(1, n_chrom)
    pi = np.sum(2.0 * i * (n_chrom - i) * sfs[1:-1]) / (n_chrom * (n_chrom - 1))
    return {"sfs": sfs, "folded": folded, "S": seg, "theta_w": theta_w, "pi": pi,
            "tajima_num": round(float(pi - theta_w), 6), "text": np.array2string(sfs[:6], separator=",")}


def hamming_haplotypes(np, H):
    H = H.astype(np.uint8)
    diff = H[:, None, :] != H[None, :, :]
    dist = diff.sum(axis=2)
    packed = np.packbits(H, axis=1)
    xor = packed[:, None, :] ^ packed[None, :, :]
    bits = np.unpackbits(xor, axis=2).sum(axis=2)
    closest = np.argsort(dist + np.eye(len(H), dtype=dist.dtype) * 10 ** 6, axis=1, kind="stable")[:, 0]
    dup_rows = [int(i) for i in range(len(H)) if (dist[i, :i] == 0).any()]
    flipped = H.copy()
    flipped[::2] ^= 1
    return {"dist": dist, "bits": bits, "closest": closest, "dups": dup_rows, "flipped": flipped,
            "wrap": (H - 2)[0, :4], "max": dist.max().item()}


def test_hardy_weinberg_chi_square():
    rng = np.random.default_rng(1101)
    G = rng.choice(3, size=(60, 7), p=[0.5, 0.35, 0.15])
    G[:, 3] = rng.choice([0, 2], size=60)  # no heterozygotes: far from equilibrium
    check(hardy_weinberg, G)


def test_missing_genotype_calls():
    rng = np.random.default_rng(1102)
    G = rng.choice(3, size=(40, 6))
    G[rng.random((40, 6)) < 0.15] = -1
    G[:12, 4] = -1
    check(missing_calls, G)


def test_linkage_disequilibrium():
    rng = np.random.default_rng(1103)
    H = rng.integers(0, 2, (50, 5))
    H[:, 1] = H[:, 0]
    H[:45, 3] = 1 - H[:45, 2]
    check(linkage_disequilibrium, H, rtol=1e-4, atol=1e-6)


def test_wright_fisher_drift():
    rng = np.random.default_rng(1104)
    N = 10
    check(wright_fisher, N, np.array([0.1, 0.5, 0.9, 0.3]), rng.random((25, 2 * N, 4)))


def test_fst_between_populations():
    rng = np.random.default_rng(1105)
    pops = np.repeat([0, 1, 2], [15, 20, 10])
    G = np.concatenate([rng.binomial(2, p, (k, 8)) for p, k in ((0.2, 15), (0.5, 20), (0.8, 10))])
    check(fst_between_pops, G, pops)


def test_site_frequency_spectrum():
    rng = np.random.default_rng(1106)
    check(site_frequency_spectrum, rng.binomial(2, rng.random(30) ** 2, (9, 30)))


def test_hamming_distance_of_haplotypes():
    rng = np.random.default_rng(1107)
    H = rng.integers(0, 2, (8, 20))
    H[5] = H[2]
    check(hamming_haplotypes, H)
