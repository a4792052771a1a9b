"""Seeded differential test of NumPy's numeric helpers, index tricks and selection helpers against NumPy.

Each test draws a few random calls of one function from a fixed seed (random shapes with 0-size, size-1 and 0-d
cases, every dtype, transposed, reversed and strided views, NaN/inf/-0.0, random keyword combinations) and runs
each on NumPy's data and on kdsl's: both raise the same exception class, or both return the same structure,
shape, dtype and values (bit for bit with the signs of zeros, or to a tolerance of the result's precision for the
functions marked close). The draws avoid the documented deliberate differences (docs/numpy-api.md: Python
scalars beside arrays and the default dtypes, float32 windows and covariances of float32 data, the 0-d results of
``allclose``, index checks of empty results, ``vectorize`` arithmetic in the inputs' dtypes) and NumPy's own
quirks (``interp`` of coordinates that tie once wrapped by ``period``, float16 accumulation order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from differential_testing import DTYPES, Data, array, in_place, mask_of, outcome, plain, rand_shape, trailing, values

import kdsl as kd

CASES_PER_TEST = 12
REAL = [d for d in DTYPES if np.dtype(d).kind in "iuf"]
INEXACT = [np.float32, np.float64, np.complex64, np.complex128]  # close comparisons: no float16 accumulations


def pick(rng: np.random.Generator, options: list) -> Any:
    return options[int(rng.integers(len(options)))]


def axis_of(rng: np.random.Generator, nd: int) -> int:
    return int(rng.integers(-max(nd, 1), max(nd, 1)))


def _same(want: Any, got: Any, close: bool) -> str:
    """'' when ``got`` matches ``want`` (structure, shape, dtype, values; zero signs unless ``close``)."""
    if isinstance(want, (list, tuple)):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"structure {type(want).__name__} of {len(want)} vs {type(got).__name__}"
        return next((d for d in (_same(w, g, close) for w, g in zip(want, got, strict=True)) if d), "")
    want, got = np.asarray(want), np.asarray(got)
    if (want.shape, want.dtype) != (got.shape, got.dtype):
        return f"{want.dtype}{want.shape} vs {got.dtype}{got.shape}"
    if want.dtype.kind not in "fc":
        return "" if np.array_equal(got, want) else f"values {want.ravel()[:6]} vs {got.ravel()[:6]}"
    if close:
        rtol = {2: 2e-3, 4: 2e-5, 8: 1e-11}[np.finfo(want.dtype).bits // 8]
        if want.dtype.kind == "c":  # parts apart: an inf real part beside a close imaginary part is close
            want, got = np.stack([want.real, want.imag]), np.stack([got.real, got.imag])
        scale = float(np.max(np.abs(want[np.isfinite(want)]), initial=1.0))
        ok = np.isclose(got, want, rtol=rtol, atol=rtol * scale, equal_nan=True) & (np.isinf(got) == np.isinf(want))
    else:
        ok = ((got == want) | (np.isnan(got) & np.isnan(want))) & (np.signbit(got.real) == np.signbit(want.real))
    return "" if ok.all() else f"values {want.ravel()[:6]} vs {got.ravel()[:6]}"


# Each builder returns (args, kwargs) of one random call; Data arguments become arrays of either library.
def _diff(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)))
    shape, kw = list(a.view(np).shape), {"n": int(rng.integers(0, 4)), "axis": axis_of(rng, a.view(np).ndim)}
    for key in ("prepend", "append"):
        if rng.random() < 0.3:
            shape[kw["axis"]] = int(rng.integers(0, 3))
            kw[key] = array(rng, tuple(shape), a.base.dtype) if rng.random() < 0.7 else array(rng, (), a.base.dtype)
    return [a], kw


def _ediff1d(rng):
    a = array(rng)
    kw = {key: array(rng, (int(rng.integers(0, 3)),), a.base.dtype) for key in ("to_begin", "to_end")
          if rng.random() < 0.4}
    return [a], kw


def _gradient(rng):
    shape = tuple(int(rng.integers(1, 6)) for _ in range(int(rng.integers(1, 4))))
    a = array(rng, shape, pick(rng, REAL + INEXACT[2:]), special=rng.random() < 0.3)
    axes = [int(x) for x in rng.permutation(len(shape))[:int(rng.integers(1, len(shape) + 1))]]
    kw: dict[str, Any] = {"axis": tuple(axes), "edge_order": int(rng.integers(1, 3))}
    spacing: list[Any] = []
    for ax in axes if rng.random() < 0.6 else []:
        coords = np.cumsum(rng.choice([0.5, 1.0, 2.0], shape[ax])) if rng.random() < 0.5 else np.arange(shape[ax]) * 2
        spacing.append(Data(coords) if rng.random() < 0.6 else float(rng.choice([0.5, 2.0])))
    return [a, *spacing], kw


def _trapezoid(rng):
    a = array(rng, dtype=pick(rng, REAL + INEXACT), special=False)
    nd, kw = a.view(np).ndim, {}
    if nd:
        kw["axis"] = axis_of(rng, nd)
        if rng.random() < 0.4:
            x = np.sort(rng.random(a.view(np).shape[kw["axis"]]))
            kw["x"] = Data(x.astype(pick(rng, [np.float32, np.float64])))
        elif rng.random() < 0.5:
            kw["dx"] = float(rng.choice([0.5, -2.0]))
    return [a], kw


def _interp(rng):
    n = int(rng.integers(1, 7))
    coords = np.sort(rng.choice(np.arange(-10, 10), n, replace=False).astype(pick(rng, REAL[1:])))
    kw: dict[str, Any] = {}
    if rng.random() < 0.3:
        kw["period"] = float(rng.choice([7.5, 20.0, -40.0]))
        if len(np.unique(np.mod(coords.astype(np.float64), kw["period"]))) < n:
            kw.pop("period")  # tied coordinates once wrapped: NumPy's unstable sort decides
        else:
            coords = rng.permutation(coords)  # any order with a period
    for key in ("left", "right"):
        if rng.random() < 0.3:
            kw[key] = float(rng.choice([-5.0, np.nan, np.inf]))
    fp = Data(values(rng, (n,), pick(rng, [np.float32, np.float64, np.complex64, np.complex128])))
    return [array(rng, dtype=pick(rng, REAL[1:]), special=rng.random() < 0.4), Data(coords), fp], kw


def _unwrap(rng):
    a = array(rng, ndim=int(rng.integers(1, 3)), dtype=pick(rng, REAL[1:]), special=rng.random() < 0.3)
    kw: dict[str, Any] = {"axis": axis_of(rng, a.view(np).ndim)}
    if rng.random() < 0.5:
        kw["discont"] = float(rng.choice([1.0, 4.0, 10.0]))
    if rng.random() < 0.5:
        kw["period"] = float(rng.choice([2.0, 6.0, 360.0])) if rng.random() < 0.7 else int(rng.choice([4, 360]))
    return [a], kw


def _convolve(rng):
    dtype = pick(rng, [np.int8, np.int32, np.uint16, np.bool_, *INEXACT])
    return [array(rng, (int(rng.integers(1, 7)),), dtype, special=False),
            array(rng, (int(rng.integers(1, 7)),), pick(rng, [dtype, np.float64]), special=False)], \
        {"mode": str(rng.choice(["full", "same", "valid"]))}


def _one_elementwise(rng):  # sinc, i0, fix, angle, real_if_close
    return [array(rng, dtype=pick(rng, DTYPES))], {}


def _nan_to_num(rng):
    kw = {key: float(rng.choice([0.5, -2.0, 1e10])) for key in ("nan", "posinf", "neginf") if rng.random() < 0.4}
    return [array(rng)], kw


def _round(rng):
    a = array(rng, dtype=pick(rng, DTYPES[1:]))
    if a.base.dtype.kind in "fc" and rng.random() < 0.5:  # halves: NumPy rounds them to even
        a = Data((rng.integers(-8, 8, a.base.shape) + 0.5).astype(a.base.dtype), a.make)
    decimals = int(rng.integers(-2, 3))
    if a.base.dtype.kind in "iu" and decimals < 0:  # no overflow: NumPy's wrapped value depends on its loop
        a = Data(rng.integers(0, 100, a.base.shape).astype(a.base.dtype), a.make)
    return [a], {"decimals": decimals}


def _isclose(rng):
    shape = rand_shape(rng)
    kw: dict[str, Any] = {key: float(rng.choice([0.0, 1e-3, 0.5])) for key in ("rtol", "atol") if rng.random() < 0.3}
    if rng.random() < 0.3:
        kw["equal_nan"] = True
    return [array(rng, shape), array(rng, trailing(rng, shape))], kw


def _cov(rng):
    m = array(rng, rand_shape(rng, int(rng.integers(1, 3))), pick(rng, [np.int16, np.float64, np.complex128]))
    kw: dict[str, Any] = {"rowvar": bool(rng.random() < 0.5), "ddof": int(rng.integers(0, 2))}
    if rng.random() < 0.4:
        kw["dtype"] = pick(rng, [np.float32, np.float64, np.complex128])
    n = m.view(np).shape[-1 if kw["rowvar"] or m.view(np).ndim == 1 else 0]
    if rng.random() < 0.4:  # corrcoef takes none: drawn, then ignored by its call below
        kw[str(rng.choice(["fweights", "aweights"]))] = Data(rng.integers(1, 4, n).astype(pick(rng, [np.int64, float])))
    return [m], kw


def _meshgrid(rng):
    arrays = [array(rng, (int(rng.integers(0, 4)),)) for _ in range(int(rng.integers(0, 4)))]
    return arrays, {"indexing": str(rng.choice(["xy", "ij"])), "sparse": bool(rng.random() < 0.5)}


def _grid_key(rng):
    def one():
        a, b = int(rng.integers(-3, 3)), int(rng.integers(-3, 5))
        return pick(rng, [slice(a, b), slice(a, b, int(rng.choice([1, 2, -1]))), slice(float(a), b + 0.5, 0.5),
                          slice(a, b, complex(0, int(rng.integers(0, 6))))])
    return [tuple(one() for _ in range(int(rng.integers(1, 4))))], {}


def _concatenator(rng):
    items: list[Any] = [array(rng, (int(rng.integers(0, 4)),), pick(rng, [np.int64, np.float64, np.bool_]))
                        for _ in range(int(rng.integers(1, 3)))]
    if rng.random() < 0.3:
        items.append(slice(0, int(rng.integers(1, 4))))
    if rng.random() < 0.5:
        items.insert(0, str(rng.choice(["0", "-1", "0,2", "1,2", "0,2,0", "0,2,-1", "1,3"])))
    return items, {}


def _ix(rng):
    return [Data(rng.random(int(rng.integers(0, 4))) < 0.5) if rng.random() < 0.4 else
            Data(rng.integers(-3, 3, int(rng.integers(0, 4)))) for _ in range(int(rng.integers(1, 4)))], {}


def _indices(rng):
    dims = tuple(int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 4))))
    return [dims], {"dtype": pick(rng, [np.int64, np.int8, np.float64, np.uint16]), "sparse": bool(rng.random() < 0.5)}


def _tri(rng):
    kw = {"M": int(rng.integers(0, 5)), "k": int(rng.integers(-4, 5)), "dtype": pick(rng, DTYPES)}
    return [int(rng.integers(0, 5))], kw


def _diag(rng):  # diag, diagflat
    return [array(rng, ndim=int(rng.integers(1, 3)))], {"k": int(rng.integers(-4, 5))}


def _vander(rng):
    a = array(rng, (int(rng.integers(0, 5)),), pick(rng, [np.int64, np.float64, np.complex128, np.float32]),
              special=False)
    return [a], {"N": int(rng.integers(0, 6)), "increasing": bool(rng.random() < 0.5)}


def _unravel_index(rng):
    dims = tuple(int(rng.choice([0, 1, 2, 3, 5])) for _ in range(int(rng.integers(1, 4))))
    size = int(np.prod(dims))
    idx = Data(rng.integers(0, size + int(rng.random() < 0.2), rand_shape(rng, int(rng.integers(0, 3))))) \
        if size else Data(np.zeros(0, np.int64))
    return [idx, dims], {"order": str(rng.choice(["C", "F"]))}


def _ravel_multi_index(rng):
    dims = tuple(int(rng.choice([1, 2, 3, 5])) for _ in range(int(rng.integers(1, 4))))
    mode = str(rng.choice(["raise", "wrap", "clip"]))
    low = 0 if mode == "raise" else -3
    shape = rand_shape(rng, int(rng.integers(0, 3)))
    multi = [Data(rng.integers(low, d + (0 if mode == "raise" else 3), shape)) for d in dims]
    return [multi, dims], {"mode": mode, "order": str(rng.choice(["C", "F"]))}


def _triangle_indices(rng):  # tril_indices, triu_indices
    return [int(rng.integers(0, 5))], {"k": int(rng.integers(-4, 5)), "m": int(rng.integers(0, 5))}


def _indices_from(rng):  # tril_indices_from, triu_indices_from
    return [array(rng, rand_shape(rng, 2))], {"k": int(rng.integers(-3, 4))}


def _piecewise(rng):
    a = array(rng, dtype=pick(rng, REAL), special=False)
    shape, k = a.view(np).shape, int(rng.integers(1, 4))
    funcs = [pick(rng, [lambda v: v * 2, lambda v: -v, 1, 0, lambda v: v + 1])
             for _ in range(k + int(rng.random() < 0.5))]
    return [a, [mask_of(rng, shape) for _ in range(k)], funcs], {}


def _choose_out(rng):
    shape, n = rand_shape(rng), int(rng.integers(1, 4))
    idx = Data(rng.integers(0, n, trailing(rng, shape)))
    dtype = pick(rng, DTYPES)
    choices = [array(rng, trailing(rng, shape), dtype) for _ in range(n)]
    out_shape = np.broadcast_shapes(idx.view(np).shape, *[c.view(np).shape for c in choices])
    return [idx, choices, out_shape if rng.random() < 0.8 else (2,) + out_shape, pick(rng, [dtype, np.float64])], {}


def _take_out(rng):
    a = array(rng, ndim=int(rng.integers(1, 3)))
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).shape[ax]
    idx = Data(rng.integers(-n, n, rand_shape(rng, int(rng.integers(0, 3))))) if n else Data(np.zeros(0, np.int64))
    return [a, idx, ax, pick(rng, [a.base.dtype, *DTYPES])], {}


def _extract(rng):
    a = array(rng)
    return [mask_of(rng, a.view(np).shape) if rng.random() < 0.7 else array(rng, a.view(np).shape), a], {}


def _place(rng):
    a = array(rng)
    return [a, mask_of(rng, a.view(np).shape), array(rng, (int(rng.integers(1, 4)),), a.base.dtype)], {}


def _put_along_axis(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)))
    shape = list(a.view(np).shape)
    ax = int(rng.integers(len(shape)))
    n, shape[ax] = shape[ax], int(rng.integers(0, 3))
    idx = Data(rng.integers(-n, n, shape) if n else np.zeros(shape, np.int64))
    return [a, idx, array(rng, tuple(shape) if rng.random() < 0.6 else (), a.base.dtype)], {"axis": ax}


def _one_array(rng):  # flatnonzero, where with one argument, argwhere, nonzero of 0-d
    return [array(rng) if rng.random() < 0.7 else array(rng, ())], {}


def _apply_along_axis(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)), dtype=pick(rng, [np.int32, np.float32, np.float64]), special=False)
    shape = a.view(np).shape
    if 0 in shape:
        a = array(rng, tuple(max(s, 1) for s in shape), a.base.dtype, special=False)
    return [a, axis_of(rng, len(shape)), int(rng.integers(4))], {}


def _apply_over_axes(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)), dtype=pick(rng, [np.int32, np.float64]), special=False)
    nd = a.view(np).ndim
    axes = [int(x) for x in rng.permutation(nd)[:int(rng.integers(1, nd + 1))]]
    return [a, axes, str(rng.choice(["sum", "max"]))], {}


def _vectorize(rng):
    a = array(rng, dtype=np.float64, special=False)  # NumPy's Python ints do not wrap: no int64 data
    b = array(rng, trailing(rng, a.view(np).shape), dtype=np.float64, special=False)
    return [a, b, pick(rng, [None, "d", "l", "?"])], {}


def _along_flat(rng):  # take_along_axis with axis=None
    a = array(rng)
    n = a.view(np).size
    return [a, Data(rng.integers(-n, n, (int(rng.integers(0, 4)),)) if n else np.zeros(0, np.int64))], {}


def _into(name: str) -> Any:
    """``name`` called with ``out=`` a new zeros array; returns [out, result is out]."""
    def call(xp: Any, *args: Any) -> Any:
        *rest, shape, dtype = args
        out = xp.zeros(shape, dtype)
        result = getattr(xp, name)(*rest[:2], out=out, **({"axis": rest[2]} if name == "take" else {}))
        return [out, np.asarray(result is out)]
    return call


FUNCS = [lambda xp: xp.sum, lambda xp: xp.cumsum, lambda xp: (lambda v: v[0]), lambda xp: (lambda v: xp.outer(v, v))]
CALLS: dict[str, tuple[Any, Any, bool]] = {  # name: (call, builder, close)
    "diff": (plain("diff"), _diff, False), "ediff1d": (plain("ediff1d"), _ediff1d, False),
    "gradient": (plain("gradient"), _gradient, True), "trapezoid": (plain("trapezoid"), _trapezoid, True),
    "interp": (plain("interp"), _interp, True), "unwrap": (plain("unwrap"), _unwrap, True),
    "convolve": (plain("convolve"), _convolve, True), "correlate": (plain("correlate"), _convolve, True),
    "sinc": (plain("sinc"), _one_elementwise, True), "i0": (plain("i0"), _one_elementwise, True),
    "fix": (plain("fix"), _one_elementwise, False), "angle": (plain("angle"), _one_elementwise, True),
    "angle_deg": (lambda xp, a: xp.angle(a, deg=True), _one_elementwise, True),
    "real_if_close": (plain("real_if_close"), _one_elementwise, False),
    "nan_to_num": (plain("nan_to_num"), _nan_to_num, False), "round": (plain("round"), _round, False),
    "isclose": (plain("isclose"), _isclose, False),
    "allclose": (lambda xp, *a, **k: np.asarray(bool(xp.allclose(*a, **k))), _isclose, False),
    "cov": (plain("cov"), _cov, True),
    "corrcoef": (lambda xp, m, rowvar, dtype=None, **_: xp.corrcoef(m, rowvar=rowvar, dtype=dtype), _cov, True),
    "meshgrid": (lambda xp, *a, **k: list(xp.meshgrid(*a, **k)), _meshgrid, False),
    "mgrid": (lambda xp, key: xp.mgrid[key], _grid_key, True),
    "ogrid": (lambda xp, key: list(xp.ogrid[key]), _grid_key, True),
    "r_": (lambda xp, *items: xp.r_[tuple(items)], _concatenator, False),
    "c_": (lambda xp, *items: xp.c_[tuple(items)], _concatenator, False),
    "ix_": (lambda xp, *a: list(xp.ix_(*a)), _ix, False),
    "indices": (lambda xp, *a, **k: (lambda r: list(r) if isinstance(r, tuple) else r)(xp.indices(*a, **k)),
                _indices, False),
    "tri": (plain("tri"), _tri, False), "diag": (plain("diag"), _diag, False),
    "diagflat": (plain("diagflat"), _diag, False), "vander": (plain("vander"), _vander, True),
    "unravel_index": (lambda xp, *a, **k: list(xp.unravel_index(*a, **k)), _unravel_index, False),
    "ravel_multi_index": (lambda xp, m, d, **k: xp.ravel_multi_index(tuple(m), d, **k), _ravel_multi_index, False),
    "tril_indices": (lambda xp, *a, **k: list(xp.tril_indices(*a, **k)), _triangle_indices, False),
    "triu_indices": (lambda xp, *a, **k: list(xp.triu_indices(*a, **k)), _triangle_indices, False),
    "tril_indices_from": (lambda xp, *a, **k: list(xp.tril_indices_from(*a, **k)), _indices_from, False),
    "triu_indices_from": (lambda xp, *a, **k: list(xp.triu_indices_from(*a, **k)), _indices_from, False),
    "piecewise": (plain("piecewise"), _piecewise, False), "choose_out": (_into("choose"), _choose_out, False),
    "take_out": (_into("take"), _take_out, False), "extract": (plain("extract"), _extract, False),
    "place": (in_place("place"), _place, False), "put_along_axis": (in_place("put_along_axis"), _put_along_axis, False),
    "take_along_axis_flat": (lambda xp, a, i: xp.take_along_axis(a, i, axis=None), _along_flat, False),
    "flatnonzero": (plain("flatnonzero"), _one_array, False),
    "where_one": (lambda xp, a: list(xp.where(a)), _one_array, False),
    "apply_along_axis": (lambda xp, a, ax, f: xp.apply_along_axis(FUNCS[f](xp), ax, a), _apply_along_axis, True),
    "apply_over_axes": (lambda xp, a, axes, f: xp.apply_over_axes(getattr(xp, f), a, axes), _apply_over_axes, True),
    "vectorize": (lambda xp, a, b, t: xp.vectorize(lambda x, y: x * 3 - y if x > y else y / 2,
                                                   otypes=[t] if t else None)(a, b), _vectorize, True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_numpy_on_random_calls(name):
    func, build, close = CALLS[name]
    rng = np.random.default_rng(sorted(CALLS).index(name) + 31)
    for _ in range(CASES_PER_TEST):
        args, kw = build(rng)
        want, got = outcome(np, func, args, kw), outcome(kd, func, args, kw)
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), (name, args, kw, want, got)
            continue
        assert not isinstance(got, Exception), (name, args, kw, got)
        diff = _same(want, got, close)
        assert not diff, f"{name}{tuple(args)} {kw}: {diff}"
