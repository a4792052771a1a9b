"""Genetics and population data as population-genetics course notebooks write them: genotypes coded 0/1/2 in
`uint8` with 255 for missing, allele counts by `np.bincount` on uint8 codes, Hardy-Weinberg tables with
chi-square statistics, minor-allele frequencies and call rates with masks, linkage disequilibrium (r^2, D') by
`np.einsum` over centred genotype matrices, a Wright-Fisher drift loop on passed-in binomial draws, haplotype
counting by `np.unique(axis=0, return_counts=True)`, F_ST between subpopulations, and a 2-bit packed genotype
codec by shifts and masks (tests/porting)."""

import numpy as np
from harness import check


def allele_counts(np, G):
    missing = G == 255
    call_rate = 1 - missing.mean(axis=0)
    counts = np.stack([np.bincount(G[~missing[:, j], j], minlength=3)[:3] for j in range(G.shape[1])])
    alt = counts[:, 1] + 2 * counts[:, 2]
    total = 2 * counts.sum(axis=1)
    p_alt = alt / total
    maf = np.minimum(p_alt, 1 - p_alt)
    all_codes = np.bincount(G.ravel(), minlength=256)
    keep = (maf >= 0.05) & (call_rate >= 0.95)
    return {"counts": counts, "maf": maf, "call_rate": call_rate, "keep": np.flatnonzero(keep),
            "n_missing": int(all_codes[255]), "codes": all_codes[:3]}


def hardy_weinberg(np, counts):
    n = counts.sum(axis=1)
    p = (2 * counts[:, 0] + counts[:, 1]) / (2 * n)
    q = 1 - p
    expected = np.stack([p ** 2, 2 * p * q, q ** 2], axis=1) * n[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.nansum((counts - expected) ** 2 / expected, axis=1)
    het_obs = counts[:, 1] / n
    het_exp = 2 * p * q
    F = 1 - het_obs / het_exp
    fail = chi2 > 3.841
    table = np.array2string(np.round(expected[:3], 2), precision=2, separator=", ")
    return {"p": p, "expected": expected, "chi2": chi2, "F": F, "fail": np.flatnonzero(fail), "table": table}


def linkage(np, G):
    X = G.astype(float)
    Xc = X - X.mean(axis=0)
    cov = np.einsum("ij,ik->jk", Xc, Xc) / (len(X) - 1)
    sd = np.sqrt(np.diag(cov))
    r = cov / np.outer(sd, sd)
    r2 = r ** 2
    iu = np.triu_indices_from(r2, k=1)
    strongest = np.argsort(r2[iu])[::-1][:5]
    decay = np.array([np.mean(np.diagonal(r2, offset=k)) for k in range(1, 6)])
    same_as_corrcoef = bool(np.allclose(r, np.corrcoef(X, rowvar=False), atol=1e-4))
    return {"r2": r2, "pairs": np.stack([iu[0][strongest], iu[1][strongest]], 1), "decay": decay,
            "corrcoef_ok": same_as_corrcoef, "trace": np.einsum("ii->", r2)}


def haplotypes(np, H):
    uniq, inv, cnt = np.unique(H, axis=0, return_inverse=True, return_counts=True)
    order = np.argsort(-cnt, kind="stable")
    freq = cnt / cnt.sum()
    diversity = len(H) / (len(H) - 1) * (1 - np.sum(freq ** 2))
    pA, pB = H[:, 0].mean(), H[:, 1].mean()
    pAB = np.mean(H[:, 0] & H[:, 1])
    D = pAB - pA * pB
    Dmax = np.where(D > 0, min(pA * (1 - pB), (1 - pA) * pB), min(pA * pB, (1 - pA) * (1 - pB)))
    return {"haps": uniq[order][:5], "counts": cnt[order][:5], "inv": inv.ravel(), "diversity": diversity,
            "D": D, "Dprime": D / Dmax}


def wright_fisher(np, p0, N, draws_u):
    gens, reps = draws_u.shape[0], draws_u.shape[1]
    p = np.full(reps, p0)
    traj = np.empty((gens + 1, reps))
    traj[0] = p
    for g in range(gens):
        # 2N Bernoulli trials per replicate from passed-in uniforms
        k = (draws_u[g] < p[:, None]).sum(axis=1)
        p = k / (2 * N)
        traj[g + 1] = p
    fixed = (traj[-1] == 1.0) | (traj[-1] == 0.0)
    het = 2 * traj * (1 - traj)
    first_fixed = np.where(fixed, np.argmax((traj == 0) | (traj == 1), axis=0), -1)
    return {"final": traj[-1], "fixed": int(fixed.sum()), "mean_het": het.mean(axis=1),
            "first_fixed": first_fixed, "var": traj.var(axis=1)}


def fst(np, G, pop):
    pops = np.unique(pop)
    p = np.stack([G[pop == k].mean(axis=0) / 2 for k in pops])
    n = np.bincount(pop)
    w = n / n.sum()
    p_bar = w @ p
    Ht = 2 * p_bar * (1 - p_bar)
    Hs = (w[:, None] * 2 * p * (1 - p)).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        F = (Ht - Hs) / Ht
    top = np.argsort(np.nan_to_num(F, nan=-1.0))[::-1][:3]
    return {"p": p, "Fst": F, "mean": np.nanmean(F), "top": top, "Hs": Hs}


def pack_genotypes(np, G):
    n, m = G.shape
    pad = (-m) % 4
    Gp = np.pad(G, ((0, 0), (0, pad)), constant_values=3).astype(np.uint8)
    quads = Gp.reshape(n, -1, 4)
    shifts = np.array([0, 2, 4, 6], dtype=np.uint8)
    packed = np.bitwise_or.reduce(quads << shifts, axis=2).astype(np.uint8)
    back = (packed[:, :, None] >> shifts) & np.uint8(3)
    unpacked = back.reshape(n, -1)[:, :m]
    hets = np.bitwise_count(packed ^ np.uint8(0xAA)).sum(axis=1)
    return {"packed": packed, "roundtrip": bool((unpacked == G).all()), "bytes": packed.nbytes,
            "hets": hets, "dtype": str(packed.dtype)}


def _genotypes(rng, n, m, missing=0.0):
    p = rng.uniform(0.02, 0.5, m)
    G = (rng.random((n, m)) < p).astype(np.uint8) + (rng.random((n, m)) < p).astype(np.uint8)
    G[rng.random((n, m)) < missing] = 255
    return G


def test_allele_counts_uint8():
    check(allele_counts, _genotypes(np.random.default_rng(14331), 200, 12, 0.03), rtol=1e-4)


def test_hardy_weinberg_tables():
    rng = np.random.default_rng(14332)
    check(hardy_weinberg, rng.integers(0, 80, (10, 3)) + np.array([50, 0, 0]), rtol=1e-3, atol=1e-3)


def test_linkage_einsum():
    rng = np.random.default_rng(14333)
    base = _genotypes(rng, 150, 8)
    G = np.concatenate([base, np.where(rng.random((150, 4)) < 0.9, base[:, :4], 0).astype(np.uint8)], axis=1)
    check(linkage, G, rtol=1e-3, atol=1e-3)


def test_haplotype_counts():
    rng = np.random.default_rng(14334)
    check(haplotypes, (rng.random((120, 5)) < np.array([0.3, 0.6, 0.1, 0.5, 0.8])).astype(np.int64),
          rtol=1e-3, atol=1e-4)


def test_wright_fisher_drift():
    rng = np.random.default_rng(14335)
    check(wright_fisher, 0.3, 10, rng.random((40, 8, 20)), rtol=1e-3, atol=1e-4)


def test_fst_subpopulations():
    rng = np.random.default_rng(14336)
    G = np.concatenate([_genotypes(rng, 60, 10), _genotypes(rng, 40, 10)]).astype(np.int64)
    G[:, 3] = 0
    check(fst, G, np.repeat([0, 1], [60, 40]), rtol=1e-3, atol=1e-4)


def test_two_bit_packed_genotypes():
    check(pack_genotypes, _genotypes(np.random.default_rng(14337), 9, 23), rtol=1e-4)
