"""Hand-written pseudo-random generators as NumPy users write them for reproducible streams (the same numbers
on every machine, so kdsl must match NumPy bit for bit): 64 parallel LCG and xorshift streams in wrapping uint64
arithmetic, SplitMix64 seeding, a 32-bit hash mixer in uint32 with NumPy's scalar promotion, uniform floats from
the top 53 bits, Box-Muller normals, a Fisher-Yates shuffle with the element swap `a[i], a[j] = a[j], a[i]`,
reservoir sampling, and Monte Carlo estimates (pi, a random walk's first passage) driven by those streams
(tests/porting)."""

import numpy as np
from harness import check

SEEDS = np.arange(1, 65, dtype=np.uint64) * np.uint64(2654435761)


def lcg_streams(np, seeds, steps):
    s = np.asarray(seeds).copy()
    out = np.empty((steps, len(s)), dtype=np.uint64)
    for t in range(steps):
        s = s * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        out[t] = s >> np.uint64(33)
    u = out / 2.0**31
    return {"top": out[-1], "u_mean": u.mean(axis=0), "u_min": u.min(), "u_max": u.max(),
            "corr": np.corrcoef(u[:-1].ravel(), u[1:].ravel())[0, 1], "bits": np.bitwise_count(out[0]).sum()}


def xorshift_star(np, seeds, steps):
    x = np.asarray(seeds) | np.uint64(1)
    draws = []
    for _ in range(steps):
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        draws.append(x * np.uint64(0x2545F4914F6CDD1D))
    D = np.stack(draws)
    u = (D >> np.uint64(11)).astype(np.float64) * 2.0**-53
    hist = np.histogram(u, bins=8, range=(0, 1))[0]
    return {"last": D[-1], "u": u[:3], "hist": hist, "chi2": ((hist - hist.mean()) ** 2 / hist.mean()).sum(),
            "state": x}


def splitmix_seeding(np, seeds):
    z = np.asarray(seeds) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    lo = (z & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    hi = (z >> np.uint64(32)).astype(np.uint32)
    dice = (lo % 6) + 1
    return {"z": z, "lo": lo, "hi": hi, "dice": dice, "counts": np.bincount(dice.astype(np.int64), minlength=7),
            "odd": int((z & np.uint64(1)).sum()), "dtype": (lo % 6).dtype.name}


def hash_mixer(np, keys):
    x = np.asarray(keys).astype(np.uint32)
    x = x * np.uint32(0x9E3779B1)
    x ^= x >> np.uint32(16)
    x = x * np.uint32(0x85EBCA6B)
    x ^= x >> 13
    f = x.astype(np.float32) / np.float32(2**32)
    buckets = np.bincount((x % 16).astype(np.int64), minlength=16)
    return {"x": x, "f": f, "buckets": buckets, "dtype": (x >> 13).dtype.name, "max": x.max(),
            "sorted_head": np.sort(x)[:5]}


def box_muller(np, seeds, steps):
    s = np.asarray(seeds).copy()
    u = np.empty((steps, len(s)))
    for t in range(steps):
        s = s * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        u[t] = ((s >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0**-53
    u1, u2 = u[0::2], u[1::2]
    r = np.sqrt(-2.0 * np.log(u1))
    z = np.concatenate([r * np.cos(2 * np.pi * u2), r * np.sin(2 * np.pi * u2)])
    return {"mean": z.mean(), "std": z.std(), "kurt": ((z - z.mean()) ** 4).mean() / z.var() ** 2,
            "tail": (np.abs(z) > 2).mean(), "z": z[:2]}


def fisher_yates(np, seed, n):
    a = np.arange(n)
    s = np.uint64(seed)
    swaps = []
    with np.errstate(over="ignore"):  # NumPy's uint64 scalars warn where they wrap; arrays do not
        for i in range(n - 1, 0, -1):
            s = s * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            j = int(s >> np.uint64(33)) % (i + 1)
            a[i], a[j] = a[j], a[i]
            swaps.append(j)
    fixed = int((a == np.arange(n)).sum())
    inverse = np.empty_like(a)
    inverse[a] = np.arange(n)
    return {"perm": a, "swaps": np.array(swaps), "fixed": fixed, "inverse": inverse,
            "is_perm": bool(np.array_equal(np.sort(a), np.arange(n)))}


def reservoir(np, seeds, stream, k):
    stream = np.asarray(stream)
    s = np.asarray(seeds)[:1].copy()
    res = stream[:k].copy()
    replaced = 0
    for i in range(k, len(stream)):
        s = s * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        j = int(s[0] >> np.uint64(33)) % (i + 1)
        if j < k:
            res[j] = stream[i]
            replaced += 1
    return {"res": res, "replaced": replaced, "mean": res.mean(), "sorted": np.sort(res)}


def monte_carlo(np, seeds, steps):
    s = np.asarray(seeds).copy()
    inside = np.zeros(len(s), dtype=np.int64)
    pos = np.zeros(len(s), dtype=np.int64)
    first = np.full(len(s), -1)
    for t in range(steps):
        s = s * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        x = (s >> np.uint64(40)).astype(np.float64) / 2.0**24
        y = ((s >> np.uint64(16)) & np.uint64(0xFFFFFF)).astype(np.float64) / 2.0**24
        inside += (x * x + y * y) < 1.0
        pos += np.where((s >> np.uint64(63)) == 1, 1, -1)
        hit = (first < 0) & (np.abs(pos) >= 5)
        first[hit] = t
    pi = 4 * inside / steps
    return {"pi": pi, "pi_all": pi.mean(), "err": np.abs(pi - np.pi).max(), "pos": pos, "first": first,
            "never": int((first < 0).sum())}


def test_lcg_streams():
    check(lcg_streams, SEEDS, 40, rtol=1e-9)


def test_xorshift_star():
    check(xorshift_star, SEEDS, 30, rtol=1e-9)


def test_splitmix_seeding():
    check(splitmix_seeding, SEEDS)


def test_hash_mixer():
    check(hash_mixer, np.arange(0, 4000, 7), rtol=1e-6)


def test_box_muller():
    check(box_muller, SEEDS, 40)  # np.empty((steps, n)) is float32 in kdsl (its default float)


def test_fisher_yates():
    check(fisher_yates, 12345, 40)


def test_reservoir():
    check(reservoir, SEEDS, np.arange(1000, 1300) ** 2 % 997, 10)


def test_monte_carlo():
    check(monte_carlo, SEEDS, 200, rtol=1e-9)
