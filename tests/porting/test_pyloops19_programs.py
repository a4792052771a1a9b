"""Python-level array code as NumPy users write it when a loop reads clearer than a vectorised form: iteration over
rows and elements, `np.ndenumerate`, `np.ndindex`, `np.nditer` with `multi_index` and `readwrite` operands,
`np.vectorize` (with `otypes=` and `excluded=`, and of string labels), `np.frompyfunc`,
`np.apply_along_axis`/`apply_over_axes`, `np.piecewise`, `np.select`, `np.fromfunction`, and getting values out by
`tolist`/`item`/`repr`/`str`/f-strings (tests/porting)."""

import numpy as np
import pytest
from harness import check

import kdsl as kd


def row_iteration(np, M):
    M = np.asarray(M)
    row_max = [float(row.max()) for row in M]
    total = 0.0
    for row in M:
        for v in row:
            total += float(v)
    best = max(range(len(M)), key=lambda i: M[i].sum())
    pairs = [(i, j) for i, j in zip(*np.nonzero(M > 0.5), strict=True)]
    col_means = [M[:, j].mean() for j in range(M.shape[1])]
    return {"row_max": row_max, "total": total, "best": best, "pairs": [list(map(int, p)) for p in pairs],
            "col_means": np.array(col_means), "unpack": [float(a - b) for a, b, *_ in M]}


def enumerations(np, grid):
    grid = np.asarray(grid)
    peaks = []
    for idx, v in np.ndenumerate(grid):
        i, j = idx
        window = grid[max(i - 1, 0):i + 2, max(j - 1, 0):j + 2]
        if v == window.max():
            peaks.append(idx)
    cells = [idx for idx in np.ndindex(*grid.shape) if grid[idx] % 2 == 0]
    sums = {}
    for (i, j), v in np.ndenumerate(grid):
        sums[i + j] = sums.get(i + j, 0) + int(v)
    return {"peaks": [list(p) for p in peaks], "n_even": len(cells), "first_even": list(cells[0]),
            "antidiag": [sums[k] for k in sorted(sums)]}


def nditer_loops(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    out = np.zeros_like(a)
    it = np.nditer(a, flags=["multi_index"])
    for x in it:
        i, j = it.multi_index
        out[i, j] = x * (i + 1) - j
    c = a.copy()
    with np.nditer(c, op_flags=["readwrite"]) as it2:
        for x in it2:
            x[...] = 2 * x if x > 0 else 0
    pairs = [float(x * y) for x, y in np.nditer([a, b[0]])]
    total = 0.0
    for x in np.nditer(a, order="F"):
        total = total * 0.5 + float(x)
    return {"out": out, "c": c, "pairs": pairs, "total": total}


def vectorized_python(np, x, bins):
    x = np.asarray(x)

    def classify(v, lo, hi):
        if v < lo:
            return -1
        if v > hi:
            return 1
        return 0

    vclass = np.vectorize(classify, excluded=["hi"])
    labels = vclass(x, 0.2, hi=0.7)
    vfloat = np.vectorize(lambda v: v ** 2 if v > 0.5 else -v, otypes=[float])
    sq = vfloat(x)
    count_in = np.vectorize(lambda lo, hi: int(((x >= lo) & (x < hi)).sum()))
    counts = count_in(bins[:-1], bins[1:])
    py_max = np.frompyfunc(max, 2, 1)
    running = py_max.accumulate(x.tolist(), dtype=object).astype(float)
    clipped = py_max(x, 0.5).astype(float)
    return {"labels": labels, "sq": sq, "counts": counts, "running": running, "clipped": clipped}


def along_axes(np, M):
    M = np.asarray(M)

    def trimmed_mean(v):
        v = np.sort(v)
        return v[1:-1].mean()

    def normalise(v):
        return (v - v.min()) / (v.max() - v.min())

    tm = np.apply_along_axis(trimmed_mean, 1, M)
    norm = np.apply_along_axis(normalise, 0, M)
    both = np.apply_along_axis(lambda v: [v.min(), v.max()], 1, M)
    over = np.apply_over_axes(np.sum, M.reshape(2, 3, -1), [0, 2])
    return {"tm": tm, "norm": norm, "both": both, "over": over}


def piecewise_and_select(np, x):
    x = np.asarray(x)
    tax = np.piecewise(x, [x < 10, (x >= 10) & (x < 40), x >= 40],
                       [0.0, lambda v: 0.2 * (v - 10), lambda v: 6 + 0.4 * (v - 40)])
    hat = np.piecewise(x, [np.abs(x - 25) < 15], [lambda v: 1 - np.abs(v - 25) / 15, 0.0])
    grade = np.select([x >= 45, x >= 30, x >= 15], [3, 2, 1], default=0)
    mixed = np.select([x < 5, x > 45], [x * 10, -x], default=np.nan)
    return {"tax": tax, "hat": hat, "grade": grade, "mixed": mixed,
            "where_chain": np.where(x < 10, 0, np.where(x < 40, 1, 2))}


def from_functions(np, n):
    hilbert = np.fromfunction(lambda i, j: 1.0 / (i + j + 1), (n, n))
    checker = np.fromfunction(lambda i, j: (i + j) % 2 == 0, (n, n + 1), dtype=int)
    dist = np.fromfunction(lambda i, j: np.hypot(i - n // 2, j - n // 2), (n, n))
    return {"hilbert": hilbert, "checker": checker, "dist": dist, "cond": float(np.linalg.cond(hilbert[:3, :3]))}


def values_out(np, a, f):
    a, f = np.asarray(a), np.asarray(f)
    lst = a.tolist()
    nested = a.reshape(2, -1).tolist()
    return {"list": lst, "types": sorted({type(v).__name__ for v in lst}), "nested": nested,
            "item": a.item(3), "item2": a.reshape(2, -1).item(1, 2), "float_item": f.item(0),
            "fstr": f"{f[1]:.3f}", "sum_int": int(a.sum()), "py_float": float(f.mean()),
            "scalar_list": np.float64(2.5).tolist(), "zero_d": np.array(7).tolist(), "bools": (a > 2).tolist(),
            "sorted_desc": sorted(a.tolist(), reverse=True), "as_tuple": tuple(a[:3].tolist())}


def label_codes(np, labels, values):
    labels, values = list(labels), np.asarray(values)
    classes = sorted(set(labels))
    index = {c: i for i, c in enumerate(classes)}
    codes = np.vectorize(index.get, otypes=[int])(labels)
    lengths = np.vectorize(len)(labels)
    onehot = np.eye(len(classes))[codes]
    means = np.bincount(codes, weights=values) / np.bincount(codes)
    return {"codes": codes, "lengths": lengths, "onehot_sums": onehot.sum(axis=0), "means": means,
            "best": classes[int(np.argmax(means))]}


def printing(np, a, f):
    a, f = np.asarray(a), np.asarray(f)
    np.set_printoptions(precision=3, suppress=True)
    try:
        shown = [str(f), str(a.reshape(2, -1)), repr(a[:3]).split("(")[1], np.array2string(f, separator=", "),
                 str(f[0]), f"{f[0]:.2f}", str(np.float64(1.5)), str(a[0]), str(np.array([True, False])),
                 str(np.zeros((2, 0))), np.array2string(f, formatter={"float_kind": lambda v: f"{v:6.1f}"})]
    finally:
        np.set_printoptions(precision=8, suppress=False)
    # kdsl's repr names the dtype always, NumPy's only for other than its defaults: compare what precedes it
    return [s.replace("kd.", "").split(", dtype=")[0].rstrip(")") for s in shown]


def test_row_iteration():
    rng = np.random.default_rng(1931)
    check(row_iteration, rng.random((5, 4)))


def test_enumerations():
    rng = np.random.default_rng(1932)
    check(enumerations, rng.integers(0, 20, (4, 5)))


def test_nditer_loops():
    rng = np.random.default_rng(1933)
    check(nditer_loops, rng.normal(size=(3, 4)), rng.normal(size=(2, 4)))


def test_vectorized_python():
    rng = np.random.default_rng(1934)
    # Python control flow per element runs through NumPy's loop on the host, with kdsl's PerformanceWarning
    with pytest.warns(kd.PerformanceWarning):
        check(vectorized_python, rng.random(12), np.linspace(0, 1, 5))


def test_along_axes():
    rng = np.random.default_rng(1935)
    check(along_axes, rng.normal(size=(6, 5)))


def test_piecewise_and_select():
    check(piecewise_and_select, np.linspace(0, 50, 21))


def test_from_functions():
    check(from_functions, 5, rtol=1e-3)


def test_values_out():
    check(values_out, np.array([3, 1, 4, 1, 5, 9]), np.array([2.5, 3.14159, -1.0]))


def test_label_codes():
    # strings stay on the host: kdsl runs NumPy's loop for them and uploads the codes (vectorize.py)
    check(label_codes, ["cat", "dog", "cat", "bird", "dog", "cat"], np.array([3.0, 5.0, 4.0, 1.0, 7.0, 2.0]))


def test_printing():
    check(printing, np.array([3, 1, 4, 1, 5, 9]), np.array([2.5, 3.14159, -1e-5, 1234.5]))
