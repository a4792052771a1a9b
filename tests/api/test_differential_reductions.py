"""A seeded differential test of reductions, ufunc methods, sorting, searching, sets and counting against NumPy.

Each case draws a random array (0-d, empty, size-1 axes; every dtype kdsl has; strided views; NaN, infinities
and -0.0 where they matter) and random keywords from a fixed seed, calls the NumPy function and the kdsl one, and
compares them as the fuzzing harness did: both succeed or both raise (kdsl's exception a subclass of NumPy's),
then shape, dtype and values. The draws avoid what docs/numpy-api.md lists as deliberate differences (float16
running products, the order of complex products at infinities, NumPy's float ``power``/``arctan2`` reduce) and
what NumPy leaves unspecified (the order of ties in unstable sorts, of ``partition`` outside ``kth``, of
``unique_values``). A failure names the family and the case: rerun ``_cases(family, block)`` to see it.
"""

import warnings

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]
REAL = DTYPES[:12]
BLOCKS = 6  # each family's cases are split into this many tests (a failure names a smaller block)
PER_BLOCK = 10
SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0])


def _shape(rng, max_ndim=3):
    """A random shape: 0-d to ``max_ndim``-d, axes of 1 to 5, now and then 0 or 7."""
    return tuple(int(rng.choice([0, 1, 7])) if rng.random() < 0.15 else int(rng.integers(1, 6))
                 for _ in range(int(rng.integers(0, max_ndim + 1))))


def _values(rng, n, dtype, special, small):
    """``n`` values of ``dtype``: integers over their whole range now and then (overflow), floats as multiples of
    0.25 (sums are exact, so only products round) with NaN/inf/-0.0 where ``special``; ``small`` keeps floats
    within [-3, 3] (products stay in range)."""
    if dtype.kind == "b":
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if rng.random() < 0.3:
            return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        return rng.integers(max(info.min, -5), 6, n).astype(dtype)
    scale = 3 if small else 40
    v = (rng.integers(-4 * scale, 4 * scale + 1, n) / 4).astype(dtype)
    if dtype.kind == "c":
        v = v + 1j * (rng.integers(-4 * scale, 4 * scale + 1, n) / 4)
    if special and n and rng.random() < 0.5:
        where = rng.integers(0, n, int(rng.integers(1, 3)))
        v[where] = rng.choice(SPECIAL, where.size)
    return v.astype(dtype)


def _array(rng, dtype=None, shape=None, special=True, small=False, ties=False):
    """A random NumPy array (a strided view of a larger one a third of the time)."""
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))] if dtype is None else dtype)
    shape = _shape(rng) if shape is None else shape
    strided = rng.random() < 0.3 and len(shape) > 0
    big = tuple(2 * s for s in shape) if strided else shape
    v = _values(rng, int(np.prod(big)), dtype, special, small)
    if ties and v.size and dtype.kind != "b":  # few distinct values: ties for sorts and sets
        v = v[rng.integers(0, max(1, v.size // 3), v.size)]
    v = v.reshape(big)
    return np.asarray(v[tuple(slice(None, None, 2) for _ in shape)] if strided else v)


def _axis(rng, ndim, several=True):
    """None, an int (maybe negative) or (when ``several``) a tuple of distinct axes."""
    r = rng.random()
    if ndim == 0 or r < 0.3:
        return None
    if r < 0.75 or not several:
        return int(rng.integers(-ndim, ndim))
    return tuple(int(a) - (ndim if rng.random() < 0.3 else 0)
                 for a in rng.permutation(ndim)[:int(rng.integers(0, ndim + 1))])


def _host(r):
    if isinstance(r, (tuple, list)):
        return type(r)(_host(v) for v in r)
    if isinstance(r, kd.Array):
        return r.numpy()
    return np.asarray(r) if isinstance(r, (np.ndarray, np.generic, bool, int, float, complex)) else r


def _run(fn, args, kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", _host(fn(*args, **kw))
    except Exception as e:  # noqa: BLE001 - the class is compared with NumPy's
        return "err", e


def _same(want, got, rtol):
    """'' when ``got`` matches ``want`` (structure, shape, dtype, values), else what differs."""
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return f"structure {type(want).__name__} of {len(want)} vs {type(got).__name__}"
        return next((d for d in (_same(w, g, rtol) for w, g in zip(want, got, strict=True)) if d), "")
    want, got = np.asarray(want), np.asarray(got)
    if want.shape != got.shape or want.dtype != got.dtype:
        return f"{want.dtype}{want.shape} vs {got.dtype}{got.shape}"
    if want.dtype.kind in "fc":
        rtol = max(rtol, _rtol(want.dtype))  # a float32 result of integer data (logaddexp) rounds as float32
        scale = float(np.nanmax(np.abs(want[np.isfinite(want)]), initial=1.0)) if want.size else 1.0
        close = np.isclose(got, want, rtol=rtol, atol=rtol * scale, equal_nan=True)
        close &= np.isinf(want) == np.isinf(got)
    else:
        close = got == want
    return "" if np.all(close) else f"values {want.ravel()[:6]} vs {got.ravel()[:6]}"


def _compare(label, np_fn, kd_fn, args, kw, rtol):
    want = _run(np_fn, args, kw)
    kargs = [kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    got = _run(kd_fn, kargs, kw)
    if want[0] == "err" or got[0] == "err":
        assert want[0] == got[0], f"{label}: NumPy {want[1]!r}, kdsl {got[1]!r}"
        assert isinstance(got[1], type(want[1])), f"{label}: NumPy {want[1]!r}, kdsl {got[1]!r}"
        return
    diff = _same(want[1], got[1], rtol)
    assert not diff, f"{label}: {diff}"


def _rtol(*dtypes):
    return 1e-2 if np.dtype(np.float16) in dtypes else 1e-4 if np.dtype(np.float32) in dtypes or \
        np.dtype(np.complex64) in dtypes else 1e-9


REDUCTIONS = ["sum", "prod", "max", "min", "amax", "amin", "ptp", "any", "all", "mean", "count_nonzero", "nansum",
              "nanprod", "nanmax", "nanmin"]
PRODUCTS = {"prod", "nanprod", "cumprod", "nancumprod", "cumulative_prod"}


def _reduction(rng):
    f = REDUCTIONS[int(rng.integers(len(REDUCTIONS)))]
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))])
    a = _array(rng, dtype, special=not (f in PRODUCTS and dtype.kind == "c"), small=f in PRODUCTS)
    kw = {"axis": _axis(rng, a.ndim)}
    if rng.random() < 0.3:
        kw["keepdims"] = True
    if f in ("sum", "prod", "mean", "nansum", "nanprod") and rng.random() < 0.3:
        kw["dtype"] = [np.int8, np.int64, np.uint64, np.float32, np.float64, np.complex128][int(rng.integers(6))]
    if f in ("sum", "prod", "max", "min", "amax", "amin", "nansum", "nanprod", "nanmax", "nanmin") \
            and rng.random() < 0.3:
        kw["initial"] = [0, 1, -3, 2.5, 100, 1e30][int(rng.integers(6))]
    if f not in ("ptp", "count_nonzero") and rng.random() < 0.25:
        # an array, also 0-d: NumPy refuses where=np.True_ for max/min without initial but not where=True,
        # and kdsl takes both as True
        kw["where"] = np.asarray(rng.random(a.shape[-1:] if a.ndim and rng.random() < 0.5 else a.shape) < 0.6)
    return f, getattr(np, f), getattr(kd, f), [a], kw, _rtol(a.dtype, kw.get("dtype", a.dtype))


SCANS = ["argmax", "argmin", "nanargmax", "nanargmin", "cumsum", "cumprod", "nancumsum", "nancumprod",
         "cumulative_sum", "cumulative_prod"]


def _scan(rng):
    f = SCANS[int(rng.integers(len(SCANS)))]
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))])
    if f in PRODUCTS and dtype == np.float16:  # float16 running products: a documented difference
        dtype = np.dtype(np.float32)
    a = _array(rng, dtype, special=f not in PRODUCTS, small=f in PRODUCTS)
    kw = {"axis": _axis(rng, a.ndim, several=False)}
    if f.startswith("cumulative") and a.ndim > 1 and kw["axis"] is None:
        kw["axis"] = int(rng.integers(-a.ndim, a.ndim))
    if f.endswith(("argmax", "argmin")) and rng.random() < 0.3:
        kw["keepdims"] = True
    if "cum" in f and rng.random() < 0.3:
        kw["dtype"] = [np.int64, np.float64, np.complex128, np.uint8][int(rng.integers(4))]
    if f.startswith("cumulative") and rng.random() < 0.4:
        kw["include_initial"] = True
    return f, getattr(np, f), getattr(kd, f), [a], kw, _rtol(a.dtype, kw.get("dtype", a.dtype))


def _into_out(rng):
    """A reduction into a kdsl ``out=`` of a random dtype (NumPy's loop and cast rules)."""
    f = ["sum", "prod", "cumsum", "ptp", "std", "nanargmax", "max", "nansum"][int(rng.integers(8))]
    a = _array(rng, REAL[int(rng.integers(len(REAL)))], shape=_shape(rng, 2), special=False, small=True)
    axis = None if a.ndim == 0 or rng.random() < 0.4 else int(rng.integers(-a.ndim, a.ndim))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            shape = np.shape(getattr(np, f)(a, axis=axis))
        except (ValueError, TypeError):  # an empty argmax or max, a bool ptp: both raise, out or not
            shape = ()
    out = np.dtype([np.bool_, np.int8, np.int64, np.uint64, np.float32, np.float64, np.complex128][
        int(rng.integers(7))])
    if f == "max" and not np.can_cast(a.dtype, out, "safe"):  # NumPy stores the first element in out before it
        out = np.result_type(a.dtype, np.float64)  # compares: a lossy cast there is NumPy's loop machinery

    def call(mod):
        def fn(x, axis):
            o = np.zeros(shape, out) if mod is np else kd.zeros(shape, dtype=out)
            getattr(mod, f)(x, axis=axis, out=o)
            return o
        return fn

    return f"{f}(out={out})", call(np), call(kd), [a], {"axis": axis}, _rtol(a.dtype, out)


UFUNCS = ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "bitwise_or", "bitwise_xor",
          "subtract", "divide", "fmax", "fmin", "logaddexp", "hypot", "floor_divide", "equal"]


def _ufunc_method(rng):
    name = UFUNCS[int(rng.integers(len(UFUNCS)))]
    method = ["reduce", "accumulate", "reduceat", "outer", "at"][int(rng.integers(5))]
    a = _array(rng, special=name not in ("multiply", "divide"), small=True)
    if a.ndim == 0 and method != "reduce":
        a = a.reshape(1)
    kw: dict = {}
    args = [a]
    if method == "reduce":
        kw["axis"] = _axis(rng, a.ndim) if rng.random() < 0.8 else 0
        if rng.random() < 0.3:
            kw["keepdims"] = True
        if rng.random() < 0.2:
            kw["initial"] = [0, 1, -1, 2.5][int(rng.integers(4))]
        if rng.random() < 0.2:
            kw["where"] = np.asarray(rng.random(a.shape) < 0.6)
    elif method in ("accumulate", "reduceat"):
        kw["axis"] = int(rng.integers(-a.ndim, a.ndim))
        if method == "reduceat":  # NumPy's index rules: a non-increasing pair gives the element at the first
            n = a.shape[kw["axis"]]
            args.append(rng.integers(0, max(n, 1), int(rng.integers(1, 6))))
    elif method == "outer":
        args.append(_array(rng, shape=_shape(rng, 2), special=name not in ("multiply", "divide"), small=True))
    else:
        if a.shape[0] == 0:
            a = np.zeros((2,) + a.shape[1:], a.dtype)
        idx = rng.integers(-a.shape[0], a.shape[0], int(rng.integers(0, 8)))
        vals = _array(rng, a.dtype, shape=idx.shape + a.shape[1:], special=False, small=True)

        def at(mod):
            def fn(x, i, v):
                x = x.copy()
                getattr(mod, name).at(x, i, v)
                return x
            return fn

        return f"{name}.at", at(np), at(kd), [a, idx, vals], {}, _rtol(a.dtype)
    label = f"{name}.{method}"
    return label, getattr(getattr(np, name), method), getattr(getattr(kd, name), method), args, kw, \
        _rtol(*(x.dtype for x in args if isinstance(x, np.ndarray)))


def _sorting(rng):
    f = ["sort", "argsort", "partition", "argpartition", "searchsorted", "lexsort", "sort_complex"][
        int(rng.integers(7))]
    a = _array(rng, ties=True)
    if f in ("sort", "argsort"):
        kw = {"axis": [None, -1, 0][int(rng.integers(3))] if a.ndim else None, "kind": "stable"}
        return f, getattr(np, f), getattr(kd, f), [a], kw, 0
    if f in ("partition", "argpartition"):
        a = a.reshape(-1) if a.ndim == 0 or 0 in a.shape else a
        if a.size == 0:
            a = np.array([3.0, np.nan, -1.0])
        axis = int(rng.integers(-a.ndim, a.ndim))
        n = a.shape[axis]
        kth = int(rng.integers(-n, n)) if rng.random() < 0.6 else \
            sorted({int(k) for k in rng.integers(0, n, int(rng.integers(1, 4)))})

        def kth_values(mod):  # only the kth positions are NumPy's promise (the rest as a sorted multiset)
            def fn(x, kth, axis):
                r = _host(getattr(mod, f)(x, kth, axis=axis))
                if f == "argpartition":
                    r = np.take_along_axis(_host(x), r, axis)
                return np.take(r, [kth] if isinstance(kth, int) else kth, axis=axis), np.sort(r, axis=axis)
            return fn

        return f, kth_values(np), kth_values(kd), [a], {"kth": kth, "axis": axis}, 0
    if f == "searchsorted":
        base = np.sort(a.reshape(-1))
        kw = {"side": ["left", "right"][int(rng.integers(2))]}
        if rng.random() < 0.3:
            order = rng.permutation(base.size)
            base = base[order]
            kw["sorter"] = np.argsort(base, kind="stable")
        v = _array(rng, [base.dtype, np.float64, np.int64][int(rng.integers(3))], shape=_shape(rng, 2), ties=True)
        return f, np.searchsorted, kd.searchsorted, [base, v], kw, 0
    if f == "lexsort":
        n = int(rng.integers(0, 8))
        keys = tuple(_array(rng, REAL[int(rng.integers(len(REAL)))], shape=(n,), ties=True)
                     for _ in range(int(rng.integers(1, 4))))
        return f, np.lexsort, kd.lexsort, [keys], {}, 0
    return f, np.sort_complex, kd.sort_complex, [a], {}, 0


def _sets(rng):
    f = ["unique", "unique_all", "unique_counts", "unique_inverse", "isin", "intersect1d", "union1d", "setdiff1d",
         "setxor1d", "bincount", "histogram", "histogram2d", "digitize"][int(rng.integers(13))]
    a = _array(rng, ties=True)
    kw: dict = {}
    args = [a]
    if f == "unique":
        kw = {k: True for k in ("return_index", "return_inverse", "return_counts") if rng.random() < 0.4}
        if a.ndim and rng.random() < 0.3:
            kw["axis"] = int(rng.integers(-a.ndim, a.ndim))
        if rng.random() < 0.2:
            kw["equal_nan"] = False
    elif f in ("isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"):
        b = _array(rng, a.dtype if rng.random() < 0.7 else None, shape=_shape(rng, 2), ties=True)
        args.append(b)
        if f == "isin" and rng.random() < 0.3:
            kw["invert"] = True
        if f == "intersect1d" and rng.random() < 0.4:
            kw["return_indices"] = True
    elif f == "bincount":
        n = int(rng.integers(0, 12))
        args = [rng.integers(0, 8, n).astype([np.int8, np.uint8, np.int64, np.bool_][int(rng.integers(4))])]
        if rng.random() < 0.4:
            kw["weights"] = _values(rng, n, np.dtype([np.float64, np.float32, np.int32][int(rng.integers(3))]),
                                    False, True)
        if rng.random() < 0.4:
            kw["minlength"] = int(rng.integers(0, 12))
    elif f in ("histogram", "histogram2d", "digitize"):
        n = int(rng.integers(0, 12))
        real = [np.float64, np.float32, np.int32, np.uint8][int(rng.integers(4))]
        args = [_array(rng, real, shape=(n,), special=False, ties=True)]
        edges = np.sort(_values(rng, int(rng.integers(1, 6)), np.dtype(np.float64), False, False))
        if f == "digitize":
            args.append(edges[::-1] if rng.random() < 0.4 else edges)
            kw = {"right": bool(rng.random() < 0.4)}
        else:
            if f == "histogram2d":
                args.append(_array(rng, real, shape=(n,), special=False, ties=True))
            r = rng.random()
            kw["bins"] = int(rng.integers(1, 6)) if r < 0.4 else np.unique(edges) if r < 0.7 else 3
            if rng.random() < 0.3:
                kw["density"] = True
            if rng.random() < 0.3:
                kw["weights"] = _values(rng, n, np.dtype(np.float64), False, True)
    fns = {"unique_all": lambda m: m.unique_all, "unique_counts": lambda m: m.unique_counts,
           "unique_inverse": lambda m: m.unique_inverse}
    np_fn, kd_fn = (fns[f](np), fns[f](kd)) if f in fns else (getattr(np, f), getattr(kd, f))
    return f, np_fn, kd_fn, args, kw, _rtol(*(x.dtype for x in args if isinstance(x, np.ndarray)))


FAMILIES = {"reductions": _reduction, "scans": _scan, "out": _into_out, "ufunc_methods": _ufunc_method,
            "sorting": _sorting, "sets": _sets}


def _cases(family, block):
    """The cases of one test: ``PER_BLOCK`` draws from the family's own seeded generator."""
    rng = np.random.default_rng([sorted(FAMILIES).index(family), block])
    return [FAMILIES[family](rng) for _ in range(PER_BLOCK)]


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_matches_numpy(family, block):
    for i, (label, np_fn, kd_fn, args, kw, rtol) in enumerate(_cases(family, block)):
        shapes = [f"{x.dtype}{x.shape}" if isinstance(x, np.ndarray) else type(x).__name__ for x in args]
        _compare(f"case {i}: {label}({', '.join(shapes)}, {kw})", np_fn, kd_fn, args, kw, rtol)


def test_cases_are_fixed():
    # the same seed draws the same cases (a failure reproduces)
    first = [(c[0], [repr(a) for a in c[3] if isinstance(a, np.ndarray)]) for c in _cases("sets", 0)]
    again = [(c[0], [repr(a) for a in c[3] if isinstance(a, np.ndarray)]) for c in _cases("sets", 0)]
    assert first == again and len(first) == PER_BLOCK
