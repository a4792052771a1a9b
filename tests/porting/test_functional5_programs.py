"""Programs built on NumPy's function helpers: np.piecewise with lambdas and constants, np.select and nested
np.where for tax and grading rules, np.vectorize of arithmetic (with otypes, excluded, two outputs),
np.frompyfunc, np.apply_along_axis returning vectors and scalars, np.apply_over_axes, np.fromfunction grids,
np.ufunc methods as first-class functions and np.where with one argument (tests/porting)."""

import numpy as np
from harness import check


def piecewise_shapes(np, x_host):
    x = np.asarray(x_host)
    hat = np.piecewise(x, [x < -1, (x >= -1) & (x < 0), (x >= 0) & (x < 1), x >= 1],
                       [0, lambda t: 1 + t, lambda t: 1 - t, 0])
    ramp = np.piecewise(x, [x < 0], [0, lambda t: t])
    step = np.piecewise(x, [x < 0, x >= 0], [-1, 1])
    smooth = np.piecewise(x, [np.abs(x) < 1], [lambda t: np.exp(-1 / (1 - t**2)), 0.0])
    huber = np.piecewise(x, [np.abs(x) <= 1], [lambda t: 0.5 * t**2, lambda t: np.abs(t) - 0.5])
    return {"hat": hat, "ramp": ramp, "step": step, "smooth": smooth, "huber": huber,
            "area": float(np.trapezoid(hat, x))}


def select_rules(np, income_host, score_host):
    income = np.asarray(income_host)
    brackets = [income <= 10000, income <= 40000, income <= 90000]
    rates = [0.0, 0.12, 0.22]
    rate = np.select(brackets, rates, default=0.32)
    base = np.select(brackets, [0, 0, 3600], default=14600)
    score = np.asarray(score_host)
    grade = np.select([score >= 90, score >= 80, score >= 70, score >= 60], [4, 3, 2, 1], 0)
    letter_idx = np.where(score >= 90, 0, np.where(score >= 80, 1, np.where(score >= 70, 2, 3)))
    letters = "ABCD"
    text = "".join(letters[i] for i in letter_idx)
    return {"rate": rate, "base": base, "grade": grade, "text": text, "gpa": float(grade.mean())}


def vectorized_funcs(np, a_host, b_host):
    a, b = np.asarray(a_host), np.asarray(b_host)

    def clipped_ratio(x, y):
        return np.clip(x / y, -2.0, 2.0)

    f = np.vectorize(clipped_ratio)
    r = f(a, b)

    def poly(x, coeffs):
        return sum(c * x**k for k, c in enumerate(coeffs))

    p = np.vectorize(poly, excluded=["coeffs"])
    pv = p(a, coeffs=[1.0, -2.0, 0.5])
    to_int = np.vectorize(lambda v: v * 10, otypes=[int])
    ints = to_int(a)
    both = np.vectorize(lambda x, y: (x + y, x * y))
    s, m = both(a, b)
    return {"r": r, "pv": pv, "ints": ints, "s": s, "m": m}


def frompyfunc_folds(np, a_host):
    a = np.asarray(a_host)
    hyp = np.frompyfunc(lambda x, y: (x * x + y * y) ** 0.5, 2, 1)
    h = hyp(a, a[::-1]).astype(float)
    mx = np.frompyfunc(max, 2, 1)
    running = mx.accumulate(a.tolist())
    return {"h": h, "running": np.array(running, dtype=float)}


def apply_along(np, m_host):
    m = np.asarray(m_host)

    def normalise(v):
        return (v - v.min()) / (v.max() - v.min())

    rows = np.apply_along_axis(normalise, 1, m)
    cols = np.apply_along_axis(normalise, 0, m)
    ranges = np.apply_along_axis(lambda v: v.max() - v.min(), 0, m)
    med = np.apply_along_axis(np.median, 1, m)
    top2 = np.apply_along_axis(lambda v: np.sort(v)[-2:], 1, m)
    hist = np.apply_along_axis(lambda v: np.histogram(v, bins=3, range=(0, 1))[0], 1, m)
    return {"rows": rows, "cols": cols, "ranges": ranges, "med": med, "top2": top2, "hist": hist}


def apply_over(np, t_host):
    t = np.asarray(t_host)
    s = np.apply_over_axes(np.sum, t, [0, 2])
    m = np.apply_over_axes(np.mean, t, (1, 2))
    mx = np.apply_over_axes(np.max, t, 0)
    return {"s": s, "m": m, "mx": mx, "shape": s.shape}


def fromfunction_grids(np):
    mult = np.fromfunction(lambda i, j: (i + 1) * (j + 1), (9, 9), dtype=int)
    checker = np.fromfunction(lambda i, j: (i + j) % 2 == 0, (4, 6), dtype=int)
    dist = np.fromfunction(lambda i, j: np.hypot(i - 3, j - 3), (7, 7))
    hilbert = np.fromfunction(lambda i, j: 1.0 / (i + j + 1), (5, 5))
    cube = np.fromfunction(lambda i, j, k: i * 100 + j * 10 + k, (2, 3, 4))
    return {"mult": mult, "checker": checker, "dist": dist, "hilbert_det": float(np.linalg.det(hilbert)),
            "cube": cube, "ring": dist.round() == 2}


def ufuncs_as_values(np, a_host):
    a = np.asarray(a_host)
    ops = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}
    folds = {name: op.reduce(a) for name, op in ops.items()}
    scans = {name: op.accumulate(a) for name, op in ops.items()}
    table = {name: op.outer(a[:3], a[:3]) for name, op in ops.items()}
    info = {name: (op.nin, op.nout, op.__name__) for name, op in ops.items()}
    idx = np.where(a > a.mean())
    return {"folds": folds, "scans": scans, "table": table, "info": info, "idx": idx[0],
            "tuple_len": len(idx)}


def test_piecewise_hat_ramp_step_huber():
    check(piecewise_shapes, np.linspace(-2, 2, 41))


def test_select_brackets_grades_nested_where():
    rng = np.random.default_rng(511)
    check(select_rules, rng.integers(0, 150000, 12).astype(float), rng.integers(40, 100, 15))


def test_vectorize_excluded_otypes_two_outputs():
    rng = np.random.default_rng(512)
    check(vectorized_funcs, rng.normal(size=8).round(3), rng.uniform(0.5, 2, 8).round(3))


def test_frompyfunc_call_and_accumulate():
    check(frompyfunc_folds, np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]))


def test_apply_along_axis_vectors_scalars_histograms():
    check(apply_along, np.random.default_rng(513).random((5, 6)))


def test_apply_over_axes_sum_mean_max():
    check(apply_over, np.random.default_rng(514).random((3, 4, 5)))


def test_fromfunction_tables_distances_hilbert():
    check(fromfunction_grids)


def test_ufuncs_in_dicts_reduce_accumulate_outer():
    check(ufuncs_as_values, np.array([2.0, 7.0, 1.0, 8.0, 2.0, 8.0]))
