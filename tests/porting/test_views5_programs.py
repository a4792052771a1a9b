"""View-and-copy programs: the idioms whose results depend on NumPy's view rules, written as users write them:
normalising columns by iterating ``A.T`` (views that write into ``A``), a flattened copy sorted in place
(``a.T.ravel()``, ``a[:, ::2].ravel()``: copies, ``a.ravel()``: a view), in-place prefix updates on overlapping
slices, row swaps with fancy indexing, np.copyto with where=, writes through reshape views and ``a.flat``, and
buffers reused with out= in a loop (tests/porting)."""

import numpy as np
from harness import check


def normalise_columns(np, A_host):
    A = np.asarray(A_host).copy()
    for col in A.T:
        col -= col.mean()
        col /= col.std()
    B = np.asarray(A_host).copy()
    for row in B:
        row[:] = np.sort(row)
    C = np.asarray(A_host).copy()
    for i, row in enumerate(C):
        if i % 2:
            row *= -1
    return {"A": A, "means": A.mean(axis=0), "B": B, "C": C}


def flattened_copies(np, a_host):
    a = np.asarray(a_host).copy()
    flat_t = a.T.ravel()
    flat_t.sort()
    every_other = a[:, ::2].ravel()
    every_other[:] = 0
    column = a[:, 1].ravel()
    column += 100
    view = a.ravel()
    view[0] = -1
    flat_f = a.T.ravel("F")
    flat_f[1] = -2
    copied = a.flatten()
    copied[:] = 7
    return {"a": a, "flat_t": flat_t, "every_other": every_other, "column": column, "view": view,
            "flat_f": flat_f}


def overlapping_updates(np, x_host):
    x = np.asarray(x_host).copy()
    prefix = x.copy()
    k = 1
    while k < len(prefix):
        prefix[k:] = prefix[k:] + prefix[:-k]
        k *= 2
    y = x.copy()
    y[1:] += y[:-1]
    z = x.copy()
    z[:-1] = z[1:]
    w = x.copy()
    w[::-1] = w
    m = np.arange(12).reshape(3, 4)
    m[[0, 2]] = m[[2, 0]]
    m[:, [1, 3]] = m[:, [3, 1]]
    return {"prefix": prefix, "y": y, "z": z, "w": w, "m": m}


def copyto_and_flat(np, a_host):
    a = np.asarray(a_host).copy()
    target = np.zeros_like(a)
    np.copyto(target, a, where=a > 0)
    b = np.arange(12.0)
    grid = b.reshape(3, 4)
    grid[1] = -1
    grid[:, 0] *= 10
    c = np.zeros((3, 4))
    c.flat[::5] = 1
    c.flat[[2, 7]] = np.array([8, 9])
    d = a.copy()
    d[d < 0] *= 2
    return {"target": target, "b": b, "c": c, "d": d}


def buffers_in_loop(np, x_host, steps=10):
    x = np.asarray(x_host).copy()
    tmp = np.empty_like(x)
    acc = np.zeros_like(x)
    for _ in range(steps):
        np.multiply(x, 0.9, out=tmp)
        np.add(tmp, 0.1, out=x)
        np.add(acc, x, out=acc)
    sq = np.empty_like(x)
    np.square(x, out=sq)
    clipped = np.empty_like(x)
    np.clip(acc, 0.0, 5.0, out=clipped)
    return {"x": x, "acc": acc, "sq": sq, "clipped": clipped}


def test_normalise_columns_by_iterating_transpose():
    check(normalise_columns, np.random.default_rng(611).normal(3, 2, (6, 4)), rtol=1e-4, atol=1e-5)


def test_flattened_copies_versus_views():
    check(flattened_copies, np.random.default_rng(612).integers(0, 50, (3, 4)))


def test_overlapping_slice_updates_and_swaps():
    check(overlapping_updates, np.arange(1, 9))


def test_copyto_where_reshape_views_flat():
    check(copyto_and_flat, np.random.default_rng(613).normal(size=(3, 4)).round(3))


def test_out_buffers_reused_in_a_loop():
    check(buffers_in_loop, np.random.default_rng(614).random(8), rtol=1e-4, atol=1e-5)
