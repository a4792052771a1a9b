"""Fractals, flocks and hand-made sparse matrices in plain NumPy: Mandelbrot escape counts with a complex grid
and masked in-place updates (`z[m] = z[m] ** 2 + c[m]`), smooth colouring by `log2(log|z|)`, Julia sets with a
`uint16` iteration map and a `uint8` palette lookup, the box-counting dimension of a boolean image by reshaping
into blocks, boids (cohesion, alignment, separation by pairwise distances with `fill_diagonal`, speed clamping
by `np.clip` of norms), crowd evacuation towards exits with `argmin` over exits, and CSR matrices by hand:
building from COO with `lexsort`/`bincount`/`cumsum`, the mat-vec by `np.add.reduceat` (empty rows included),
transposition by counting sort, and row slicing by `np.repeat` (tests/porting)."""

import numpy as np
from harness import check


def mandelbrot(np, xmin, xmax, ymin, ymax, w, h, max_iter):
    x = np.linspace(xmin, xmax, w)
    y = np.linspace(ymin, ymax, h)
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int32)
    alive = np.ones(c.shape, dtype=bool)
    for i in range(max_iter):
        z[alive] = z[alive] ** 2 + c[alive]
        escaped = alive & (np.abs(z) > 2)
        counts[escaped] = i
        alive &= ~escaped
    counts[alive] = max_iter
    return {"counts": counts, "inside": alive.sum(), "kind": c.dtype.kind, "hist": np.bincount(counts.ravel()),
            "area": alive.mean() * (xmax - xmin) * (ymax - ymin), "sym": np.array_equal(counts, counts[::-1])}


def smooth_colour(np, w, h, max_iter):
    re, im = np.meshgrid(np.linspace(-2.2, 0.8, w), np.linspace(-1.2, 1.2, h))
    c = re + im * 1j
    z = c.copy()
    n = np.full(c.shape, max_iter, dtype=float)
    for i in range(max_iter):
        mask = (np.abs(z) <= 4) & (n == max_iter)
        z = np.where(mask, z * z + c, z)
        done = (np.abs(z) > 4) & (n == max_iter)
        n[done] = i
    with np.errstate(invalid="ignore", divide="ignore"):
        nu = np.where(n < max_iter, n + 1 - np.log2(np.log(np.abs(z))), max_iter)
    t = nu / max_iter
    rgb = np.stack([9 * (1 - t) * t**3, 15 * (1 - t) ** 2 * t**2, 8.5 * (1 - t) ** 3 * t], axis=-1)
    return {"nu": nu, "rgb": (np.clip(rgb, 0, 1) * 255).round().astype(np.uint8), "max": np.nanmax(nu)}


def julia(np, c, n, max_iter):
    y, x = np.ogrid[-1.5:1.5:n * 1j, -1.5:1.5:n * 1j]
    z = (x + 1j * y).astype(np.complex64)
    it = np.zeros(z.shape, dtype=np.uint16)
    for _ in range(max_iter):
        m = z.real**2 + z.imag**2 <= 4.0
        z[m] = z[m] * z[m] + np.complex64(c)
        it += m
    palette = (np.arange(max_iter + 1, dtype=np.uint16) * 37 % 256).astype(np.uint8)
    img = palette[it]
    levels, counts = np.unique(it, return_counts=True)
    return {"it": it, "img": img, "levels": levels, "counts": counts, "dtype": str(it.dtype),
            "sym": np.array_equal(it, it[::-1, ::-1]), "mean": it.mean(dtype=np.float64)}


def box_counting(np, img):
    img = np.asarray(img, dtype=bool)
    n = img.shape[0]
    sizes = 2 ** np.arange(int(np.log2(n)) - 1, 0, -1)
    counts = []
    for s in sizes:
        blocks = img.reshape(n // s, s, n // s, s)
        counts.append(np.count_nonzero(blocks.any(axis=(1, 3))))
    coeffs = np.polyfit(np.log(1.0 / sizes), np.log(counts), 1)
    return {"sizes": sizes, "counts": np.array(counts), "dim": coeffs[0]}


def boids(np, pos, vel, steps, dt):
    pos, vel = np.array(pos), np.array(vel)
    n = len(pos)
    cohesion_hist = []
    for _ in range(steps):
        diff = pos[None, :, :] - pos[:, None, :]
        dist = np.linalg.norm(diff, axis=-1)
        np.fill_diagonal(dist, np.inf)
        near = dist < 1.5
        k = near.sum(axis=1, keepdims=True)
        centre = np.where(k > 0, (near[..., None] * pos[None]).sum(axis=1) / np.maximum(k, 1), pos)
        align = np.where(k > 0, (near @ vel) / np.maximum(k, 1), vel)
        close = dist < 0.5
        sep = -np.sum(np.where(close[..., None], diff / dist[..., None] ** 2, 0.0), axis=1)
        vel = vel + dt * (0.5 * (centre - pos) + 0.3 * (align - vel) + 0.8 * sep)
        speed = np.linalg.norm(vel, axis=1, keepdims=True)
        vel *= np.clip(speed, 0.2, 2.0) / np.maximum(speed, 1e-12)
        pos = pos + dt * vel
        cohesion_hist.append(np.mean(np.linalg.norm(pos - pos.mean(0), axis=1)))
    heading = np.degrees(np.arctan2(vel[:, 1], vel[:, 0]))
    order = np.linalg.norm(vel.sum(0)) / np.linalg.norm(vel, axis=1).sum()
    return {"pos": pos, "vel": vel, "cohesion": np.array(cohesion_hist), "heading": heading, "order": order,
            "neighbours": near.sum(1), "n": n}


def crowd(np, people, exits, steps, speed):
    p = np.array(people, dtype=float)
    exits = np.asarray(exits, dtype=float)
    out = np.zeros(len(p), dtype=bool)
    t_out = np.full(len(p), -1)
    for t in range(steps):
        d = np.linalg.norm(p[:, None] - exits[None], axis=2)
        target = d.argmin(axis=1)
        to = exits[target] - p
        dist = np.take_along_axis(d, target[:, None], 1)[:, 0]
        step = np.minimum(speed, dist)[:, None] * to / np.maximum(dist, 1e-9)[:, None]
        # simple repulsion from the closest other person
        pd = np.linalg.norm(p[:, None] - p[None], axis=2) + np.eye(len(p)) * 1e9
        nb = pd.argmin(1)
        push = np.where((pd[np.arange(len(p)), nb] < 0.3)[:, None], (p - p[nb]) * 0.2, 0.0)
        p[~out] += (step + push)[~out]
        arrived = ~out & (dist <= speed)
        t_out[arrived] = t
        out |= arrived
    per_exit = np.bincount(target[out], minlength=len(exits))
    return {"p": p, "t_out": t_out, "done": out.mean(), "per_exit": per_exit,
            "median_t": np.median(t_out[out]) if out.any() else -1.0}


def csr_from_coo(np, rows, cols, vals, shape):
    rows, cols, vals = np.asarray(rows), np.asarray(cols), np.asarray(vals)
    order = np.lexsort((cols, rows))
    rows, cols, vals = rows[order], cols[order], vals[order]
    # sum duplicates
    key = rows * shape[1] + cols
    uniq, start = np.unique(key, return_index=True)
    data = np.add.reduceat(vals, start)
    r, c = np.divmod(uniq, shape[1])
    indptr = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=shape[0]))])
    return {"indptr": indptr, "indices": c, "data": data, "nnz": len(data), "dups": len(vals) - len(data)}


def csr_matvec(np, indptr, indices, data, x):
    indptr, indices, data, x = (np.asarray(a) for a in (indptr, indices, data, x))
    n = len(indptr) - 1
    prod = data * x[indices]
    nonempty = indptr[:-1] < indptr[1:]
    y = np.zeros(n)
    y[nonempty] = np.add.reduceat(prod, indptr[:-1][nonempty])
    row_of = np.repeat(np.arange(n), np.diff(indptr))
    y2 = np.bincount(row_of, weights=prod, minlength=n)
    dense = np.zeros((n, len(x)))
    dense[row_of, indices] = data
    return {"y": y, "y2": y2, "same": np.allclose(y, dense @ x), "row_nnz": np.diff(indptr),
            "row_max": np.maximum.reduceat(np.abs(data), indptr[:-1][nonempty])}


def csr_transpose(np, indptr, indices, data, n_cols):
    indptr, indices, data = np.asarray(indptr), np.asarray(indices), np.asarray(data)
    n_rows = len(indptr) - 1
    counts = np.bincount(indices, minlength=n_cols)
    t_indptr = np.zeros(n_cols + 1, dtype=indptr.dtype)
    np.cumsum(counts, out=t_indptr[1:])
    rows = np.repeat(np.arange(n_rows), np.diff(indptr))
    order = np.argsort(indices, kind="stable")
    t_indices = rows[order]
    t_data = data[order]
    sub = slice(1, 3)
    lo, hi = indptr[sub.start], indptr[sub.stop]
    return {"indptr": t_indptr, "indices": t_indices, "data": t_data,
            "rows_1_3": (indptr[sub.start:sub.stop + 1] - lo, indices[lo:hi], data[lo:hi])}


def _coo(seed, shape, nnz):
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, shape[0], nnz)
    cols = rng.integers(0, shape[1], nnz)
    rows[:3], cols[:3] = rows[3], cols[3]  # duplicates
    rows[rows == 2] = 1  # an empty row
    return rows, cols, rng.normal(size=nnz)


def test_mandelbrot():
    check(mandelbrot, -2.0, 0.5, -1.25, 1.25, 24, 21, 20)


def test_smooth_colour():
    check(smooth_colour, 20, 16, 24, rtol=1e-3, atol=1e-3)


def test_julia():
    check(julia, complex(-0.8, 0.156), 25, 30)


def test_box_counting():
    n = 32
    yy, xx = np.mgrid[0:n, 0:n]
    carpet = np.ones((n, n), dtype=bool)
    for k in (1, 3, 9, 27):
        carpet &= ~(((yy // k) % 3 == 1) & ((xx // k) % 3 == 1))
    check(box_counting, carpet)
    check(box_counting, np.eye(n))


def test_boids():
    rng = np.random.default_rng(2835)
    check(boids, rng.uniform(0, 4, (20, 2)), rng.normal(0, 1, (20, 2)), 10, 0.1, rtol=1e-3, atol=1e-4)


def test_crowd():
    rng = np.random.default_rng(2836)
    check(crowd, rng.uniform(0, 10, (25, 2)), [[0.0, 5.0], [10.0, 0.0], [10.0, 10.0]], 12, 0.6,
          rtol=1e-3, atol=1e-4)


def test_csr_from_coo():
    check(csr_from_coo, *_coo(2837, (6, 5), 14), (6, 5))


def test_csr_matvec():
    built = csr_from_coo(np, *_coo(2838, (7, 6), 16), (7, 6))
    x = np.linspace(-1, 1, 6)
    check(csr_matvec, built["indptr"], built["indices"], built["data"], x)


def test_csr_transpose():
    built = csr_from_coo(np, *_coo(2839, (5, 8), 15), (5, 8))
    check(csr_transpose, built["indptr"], built["indices"], built["data"], 8)
