"""Project-Euler-style number crunching as NumPy users write it: multiples by masks, Fibonacci by cumulative
sums, sieves of Eratosthenes with slice assignment, palindromic products by outer products, lcm/gcd reductions,
Pythagorean triplets on a meshgrid, Collatz lengths by a vectorised while loop, divisor sums with np.add.at,
digit sums with divmod, Pascal's lattice paths and the maximum path sum of a triangle (tests/porting)."""

import numpy as np
from harness import check


def multiples_and_fibonacci(np, limit):
    n = np.arange(limit)
    total = n[(n % 3 == 0) | (n % 5 == 0)].sum()
    fib = np.zeros(40, dtype=np.int64)
    fib[:2] = 1, 2
    for i in range(2, 40):
        fib[i] = fib[i - 1] + fib[i - 2]
    fib = fib[fib < 4_000_000]
    even = fib[fib % 2 == 0].sum()
    squares = np.arange(1, 101)
    diff = squares.sum() ** 2 - (squares**2).sum()
    return {"total": int(total), "even_fib": int(even), "n_fib": len(fib), "sum_square_diff": int(diff)}


def sieve(np, n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n**0.5) + 1):
        if is_prime[i]:
            is_prime[i * i :: i] = False
    primes = np.nonzero(is_prime)[0]
    gaps = np.diff(primes)
    twin = np.count_nonzero(gaps == 2)
    target = 600851475143 % 1000003
    factors = primes[target % primes == 0]
    return {"count": len(primes), "sum": int(primes.sum()), "last": int(primes[-1]), "max_gap": int(gaps.max()),
            "twin": int(twin), "factors": factors, "pi_hundreds": np.cumsum(is_prime)[::100]}


def palindromic_products(np):
    a = np.arange(10, 100)
    prod = np.outer(a, a).ravel()
    digits = np.array([prod // 1000 % 10, prod // 100 % 10, prod // 10 % 10, prod % 10])
    four = prod >= 1000
    pal = four & (digits[0] == digits[3]) & (digits[1] == digits[2])
    best = prod[pal].max()
    i, j = np.unravel_index(np.argmax(np.where(pal, prod, 0)), (90, 90))
    return {"best": int(best), "pair": sorted([int(a[i]), int(a[j])]), "n_pal": int(np.unique(prod[pal]).size)}


def lcm_and_gcd(np):
    k = np.arange(1, 21)
    smallest = np.lcm.reduce(k)
    g = np.gcd.outer(np.arange(1, 13), np.arange(1, 13))
    coprime = (g == 1).sum()
    phi = (np.gcd(np.arange(1, 31)[:, None], np.arange(1, 31)) == 1).sum(axis=1)
    return {"smallest": int(smallest), "coprime": int(coprime), "phi": phi, "gcd_diag": np.diagonal(g)}


def pythagorean_triplet(np, s=1000):
    a, b = np.meshgrid(np.arange(1, s // 2), np.arange(1, s // 2), indexing="ij")
    c = s - a - b
    ok = (a < b) & (b < c) & (a * a + b * b == c * c)
    ia, ib = np.nonzero(ok)
    trip = np.stack([a[ok], b[ok], c[ok]], axis=1)
    return {"trip": trip, "product": int(np.prod(trip[0], dtype=np.int64)), "idx": ia + ib}


def collatz_lengths(np, n=3000):
    start = np.arange(1, n, dtype=np.int64)
    x = start.copy()
    steps = np.zeros_like(x)
    active = x != 1
    while active.any():
        x = np.where(active, np.where(x % 2 == 0, x // 2, 3 * x + 1), x)
        steps += active
        active = x != 1
    best = np.argmax(steps)
    return {"best_start": int(start[best]), "best_len": int(steps[best]), "hist": np.bincount(steps)[:20],
            "mean": float(steps.mean())}


def divisor_sums(np, n=3000):
    d = np.arange(1, n // 2 + 1)
    sums = np.zeros(n + 1, dtype=np.int64)
    for k in d:
        sums[2 * k :: k] += k
    partner = sums[: n + 1]
    m = np.arange(n + 1)
    valid = (partner <= n) & (partner != m) & (m > 0)
    amicable = m[valid][sums[partner[valid]] == m[valid]]
    perfect = np.flatnonzero((sums == m) & (m > 0))
    abundant = np.flatnonzero(sums > m)
    return {"amicable": amicable, "perfect": perfect, "n_abundant": len(abundant),
            "first_abundant": abundant[:5]}


def divisor_counts_add_at(np, n=2000):
    counts = np.zeros(n + 1, dtype=int)
    k = np.arange(1, n + 1)
    for j in range(1, n + 1):
        np.add.at(counts, k[: n // j] * j, 1)
    tri = k * (k + 1) // 2
    tri = tri[tri <= n]
    return {"counts": counts[:30], "max_at": int(np.argmax(counts)), "tri_divisors": counts[tri],
            "highly": np.flatnonzero(counts == counts.max())}


def digit_sums(np):
    n = np.arange(1000, 1100)
    total = np.zeros_like(n)
    rest = n.copy()
    while (rest > 0).any():
        rest, d = np.divmod(rest, 10)
        total += d
    powers = 2 ** np.arange(15)
    p_digits = [sum(int(c) for c in str(int(v))) for v in powers]
    fact_digits = np.array([0, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880])
    m = np.arange(10, 50000)
    s = np.zeros_like(m)
    r = m.copy()
    while r.any():
        s += fact_digits[r % 10]
        r //= 10
    curious = m[s == m]
    return {"total": total, "p_digits": p_digits, "curious": curious, "max_sum": int(total.max())}


def lattice_and_triangle(np, rows_host):
    grid = np.ones((11, 11), dtype=np.int64)
    for i in range(1, 11):
        for j in range(1, 11):
            grid[i, j] = grid[i - 1, j] + grid[i, j - 1]
    pascal = [np.ones(1, dtype=np.int64)]
    for _ in range(12):
        prev = pascal[-1]
        pascal.append(np.concatenate([[1], prev[1:] + prev[:-1], [1]]))
    tri = [np.asarray(r) for r in rows_host]
    best = tri[-1].copy()
    for row in reversed(tri[:-1]):
        best = row + np.maximum(best[:-1], best[1:])
    return {"paths": int(grid[10, 10]), "grid_diag": np.diag(grid), "pascal12": pascal[12],
            "row_sums": np.array([p.sum() for p in pascal]), "max_path": int(best[0])}


def champernowne_and_spirals(np):
    n = np.arange(1, 5000)
    lens = np.floor(np.log10(n)).astype(int) + 1
    ends = np.cumsum(lens)
    idx = 10 ** np.arange(5) - 1
    pos = np.searchsorted(ends, idx + 1)
    num = n[pos]
    offset = idx - (ends[pos] - lens[pos])
    digit = num // 10 ** (lens[pos] - 1 - offset) % 10
    side = np.arange(3, 102, 2)
    corners = side[:, None] ** 2 - np.arange(4) * (side[:, None] - 1)
    diag_sum = 1 + corners.sum()
    return {"digits": digit, "product": int(np.prod(digit)), "diag_sum": int(diag_sum), "corners": corners[:3]}


def test_multiples_fibonacci_sum_square_difference():
    check(multiples_and_fibonacci, 1000)


def test_sieve_slice_assignment_primes_gaps():
    check(sieve, 5000)


def test_palindromic_products_outer_unravel():
    check(palindromic_products)


def test_lcm_reduce_gcd_outer_totient():
    check(lcm_and_gcd)


def test_pythagorean_triplet_meshgrid():
    check(pythagorean_triplet, 120)


def test_collatz_vectorised_while():
    check(collatz_lengths, 600)


def test_amicable_perfect_abundant_divisor_sums():
    check(divisor_sums, 600)


def test_divisor_counts_add_at_triangle_numbers():
    check(divisor_counts_add_at, 200)


def test_digit_sums_divmod_factorions():
    check(digit_sums)


def test_lattice_paths_pascal_triangle_max_path():
    rng = np.random.default_rng(505)
    rows = [rng.integers(1, 99, i + 1).tolist() for i in range(10)]
    check(lattice_and_triangle, rows)


def test_champernowne_digits_spiral_diagonals():
    check(champernowne_and_spirals)
