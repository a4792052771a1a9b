"""Seeded differential test of the manipulation, creation and selection routines against NumPy.

Each test draws a few random calls of one function from a fixed seed (random shapes with 0-size, size-1 and
0-d cases, every dtype, transposed, reversed and strided views, random keyword combinations) and runs each on
NumPy's data and on kdsl's: both raise the same exception class, or both return the same structure, shape, dtype
and values (bit for bit, signs of zeros and NaNs included, except the float tolerances noted). The draws avoid
the documented deliberate differences (docs/numpy-api.md: Python float and int scalars beside arrays, the
default dtypes) and NumPy's own quirks that the fuzzing sessions triaged as noise (its float16 ``0.0``/``-0.0``
ties, out-of-range float-to-integer casts, index checks skipped for empty results).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from differential_testing import (
    DTYPES,
    Data,
    array,
    assert_same,
    in_place,
    mask_of,
    outcome,
    plain,
    rand_shape,
    trailing,
    values,
)

import kdsl as kd

CASES_PER_TEST = 10


def axis_of(rng: np.random.Generator, nd: int, none: bool = True) -> int | None:
    if none and rng.random() < 0.2:
        return None
    return int(rng.integers(-max(nd, 1), max(nd, 1)))


def joinable(rng: np.random.Generator, axis_len: bool = True) -> tuple[list[Data], int]:
    """1 to 3 arrays of one shape except along a random axis (their dtypes mostly one)."""
    shape, dtype = rand_shape(rng, int(rng.integers(1, 4))), DTYPES[rng.integers(len(DTYPES))]
    ax = int(rng.integers(-len(shape), len(shape)))
    out = []
    for _ in range(int(rng.integers(1, 4))):
        s = list(shape)
        s[ax] = int(rng.integers(0, 3)) if axis_len else s[ax]
        out.append(array(rng, tuple(s), dtype if rng.random() < 0.7 else None))
    return out, ax


def split_indices(rng: np.random.Generator, length: int) -> Any:
    if rng.random() < 0.4:
        return int(rng.choice([k for k in range(1, 5) if length % k == 0] or [1]))
    return sorted(int(x) for x in rng.integers(-1, length + 2, int(rng.integers(0, 4))))


def positions(rng: np.random.Generator, length: int, count: int) -> list[int]:
    return [int(x) for x in rng.integers(-length, length, count)] if length else []


# Each builder returns (args, kwargs) of one random call; Data arguments become arrays of either library.
def _reshape(rng):
    a = array(rng)
    n = a.view(np).size
    shape = [(n,), (-1,), (1, -1), (-1, 1, 1), tuple(reversed(a.view(np).shape)), (2, -1)][rng.integers(6)]
    kw = {"order": str(rng.choice(["C", "F", "A"]))} if rng.random() < 0.5 else {}
    if rng.random() < 0.3:
        kw["copy"] = bool(rng.random() < 0.5)
    return [a, shape], kw


def _axes_call(rng):
    a = array(rng)
    nd = a.view(np).ndim
    return [a, [int(x) for x in rng.permutation(nd)], [int(x) - nd for x in rng.permutation(nd)]], {}


def _concatenate(rng):
    arrays, ax = joinable(rng)
    kw: dict[str, Any] = {"axis": None if rng.random() < 0.2 else ax}
    if rng.random() < 0.3:
        kw["dtype"] = DTYPES[rng.integers(len(DTYPES))]
    if rng.random() < 0.4:
        kw["casting"] = str(rng.choice(["no", "equiv", "safe", "same_kind", "unsafe"]))
    return [arrays], kw


def _stack(rng):
    arrays, ax = joinable(rng, axis_len=False)
    return [arrays], {"axis": ax} if rng.random() < 0.7 else {"casting": "no"}


def _split(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)))
    ax = int(rng.integers(a.view(np).ndim))
    return [a, split_indices(rng, a.view(np).shape[ax])], {"axis": ax}


def _pad(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)), special=False)
    mode = str(rng.choice(["constant", "edge", "linear_ramp", "maximum", "mean", "minimum", "reflect",
                           "symmetric", "wrap"]))
    kw: dict[str, Any] = {"mode": mode}
    if mode in ("reflect", "symmetric") and rng.random() < 0.5:
        kw["reflect_type"] = "odd"
    if mode in ("maximum", "mean", "minimum") and rng.random() < 0.5:
        kw["stat_length"] = int(rng.integers(1, 4))
    nd = a.view(np).ndim
    width = int(rng.integers(0, 4)) if rng.random() < 0.4 else tuple((int(rng.integers(0, 4)),
                                                                      int(rng.integers(0, 4))) for _ in range(nd))
    return [a, width], kw


def _repeat(rng):
    a = array(rng)
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).size if ax is None else (a.view(np).shape[ax] if a.view(np).ndim else 1)
    reps = int(rng.integers(0, 4)) if rng.random() < 0.5 else [int(x) for x in rng.integers(0, 3, n)]
    return [a, reps], {"axis": ax}


def _roll(rng):
    a = array(rng)
    nd = a.view(np).ndim
    if nd and rng.random() < 0.5:
        axes = tuple(int(x) for x in rng.integers(-nd, nd, 2))
        return [a, tuple(int(x) for x in rng.integers(-6, 7, 2))], {"axis": axes}
    return [a, int(rng.integers(-6, 7))], {"axis": axis_of(rng, nd)}


def _insert(rng):
    a = array(rng)
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).size if ax is None else (a.view(np).shape[ax] if a.view(np).ndim else 1)
    where = positions(rng, n + 1, int(rng.integers(1, 4))) if rng.random() < 0.6 else slice(0, None, 2)
    return [a, where, array(rng, (), a.view(np).dtype)], {"axis": ax}


def _delete(rng):
    a = array(rng)
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).size if ax is None else (a.view(np).shape[ax] if a.view(np).ndim else 1)
    where = positions(rng, n, int(rng.integers(0, 4))) if rng.random() < 0.6 else list(rng.random(n) < 0.5)
    return [a, where], {"axis": ax}


def _trim_zeros(rng):
    nd = int(rng.integers(1, 3))
    a = values(rng, rand_shape(rng, nd), DTYPES[rng.integers(len(DTYPES))])
    a = Data(np.where(rng.random(a.shape) < 0.6, np.zeros((), a.dtype), a))
    kw = {"trim": str(rng.choice(["f", "b", "fb"]))}
    if rng.random() < 0.5:
        kw["axis"] = axis_of(rng, nd)
    return [a], kw


def _broadcast_to(rng):
    shape = rand_shape(rng)
    return [array(rng, trailing(rng, shape)), shape], {}


def _one_array(rng):  # flip, squeeze, nonzero, argwhere, atleast_3d
    return [array(rng)], {}


def _tile(rng):
    return [array(rng), tuple(int(x) for x in rng.integers(0, 3, int(rng.integers(0, 4))))], {}


def _rot90(rng):
    a = array(rng, ndim=int(rng.integers(2, 4)))
    nd = a.view(np).ndim
    return [a], {"k": int(rng.integers(-5, 6)), "axes": tuple(int(x) for x in rng.choice(nd, 2, replace=False))}


def _expand_dims(rng):
    a = array(rng)
    out = a.view(np).ndim + 2
    return [a], {"axis": tuple(int(x) for x in rng.choice(np.arange(-out, out), 2, replace=False))}


def _tril(rng):
    return [array(rng, ndim=int(rng.integers(1, 4)))], {"k": int(rng.integers(-3, 4))}


def _eye(rng):
    kw = {"k": int(rng.integers(-4, 5)), "dtype": DTYPES[rng.integers(len(DTYPES))]}
    return [int(rng.integers(0, 5)), int(rng.integers(0, 5)) if rng.random() < 0.7 else None], kw


def _linspace(rng):
    start, stop = round(float(rng.uniform(-9, 9)), 2), round(float(rng.uniform(-9, 9)), 2)
    kw = {"num": int(rng.choice([0, 1, 2, 5, 9])), "endpoint": bool(rng.random() < 0.5),
          "dtype": [np.float64, np.float32, np.int16, np.int64, np.complex128][rng.integers(5)]}
    return [np.float64(start), np.float64(stop)], kw


def _arange(rng):
    start, stop = round(float(rng.uniform(-9, 9)), 2), round(float(rng.uniform(-9, 9)), 2)
    step = float(rng.choice([0.5, -0.7, 1.0, 2.5, -1.0]))
    return [start, stop, step], {"dtype": [np.float64, np.int32, np.int64, np.complex64, np.complex128,
                                           np.float16, np.uint8][rng.integers(7)]}


def _diagonal(rng):
    a = array(rng, ndim=int(rng.integers(2, 4)))
    nd = a.view(np).ndim
    ax1, ax2 = (int(x) for x in rng.choice(np.arange(-nd, nd), 2, replace=False))
    return [a], {"offset": int(rng.integers(-3, 4)), "axis1": ax1, "axis2": ax2}


def _where(rng):
    shape = rand_shape(rng)
    dtype = DTYPES[rng.integers(len(DTYPES))]
    return [mask_of(rng, trailing(rng, shape)), array(rng, shape, dtype),
            array(rng, trailing(rng, shape), dtype if rng.random() < 0.5 else None)], {}


def _select(rng):
    shape, dtype = rand_shape(rng), DTYPES[rng.integers(len(DTYPES))]
    k = int(rng.integers(1, 3))
    return [[mask_of(rng, trailing(rng, shape)) for _ in range(k)],
            [array(rng, trailing(rng, shape), dtype) for _ in range(k)]], {"default": array(rng, (), dtype)}


def _choose(rng):
    shape, n = rand_shape(rng), int(rng.integers(1, 4))
    mode = str(rng.choice(["raise", "wrap", "clip"]))
    idx = Data(rng.integers(0 if mode == "raise" else -2, n + (0 if mode == "raise" else 2), shape))
    dtype = DTYPES[rng.integers(len(DTYPES))]
    return [idx, [array(rng, trailing(rng, shape), dtype) for _ in range(n)]], {"mode": mode}


def _clip(rng):
    a = array(rng, dtype=DTYPES[rng.integers(1, len(DTYPES) - 2)])  # no bool (NumPy: no loop), no complex
    shape = a.view(np).shape
    bound = [None, array(rng, trailing(rng, shape), a.view(np).dtype)]
    return [a, bound[rng.integers(2)], bound[1] if rng.random() < 0.5 else array(rng, (), a.view(np).dtype)], {}


def _take(rng):
    a = array(rng)
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).size if ax is None else (a.view(np).shape[ax] if a.view(np).ndim else 1)
    mode = str(rng.choice(["raise", "wrap", "clip"]))
    span = n if mode == "raise" else n + 3
    idx = Data(rng.integers(-span, span, rand_shape(rng, int(rng.integers(0, 3))))) if span else [0]
    return [a, idx], {"axis": ax, "mode": mode}


def _take_along_axis(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)))
    shape = list(a.view(np).shape)
    ax = int(rng.integers(len(shape)))
    n = shape[ax]
    shape[ax] = int(rng.integers(0, 4)) if n else 0
    return [a, Data(rng.integers(-n, n, shape) if n else np.zeros(shape, np.int64))], {"axis": ax}


def _compress(rng):
    a = array(rng)
    ax = axis_of(rng, a.view(np).ndim)
    n = a.view(np).size if ax is None else (a.view(np).shape[ax] if a.view(np).ndim else 1)
    return [list(rng.random(max(0, n + int(rng.integers(-1, 1)))) < 0.5), a], {"axis": ax}


def _diff(rng):
    a = array(rng, ndim=int(rng.integers(1, 4)))
    kw: dict[str, Any] = {"n": int(rng.integers(0, 3)), "axis": axis_of(rng, a.view(np).ndim, False)}
    if rng.random() < 0.4:
        kw["prepend"] = array(rng, a.view(np).shape, a.view(np).dtype)
    return [a], kw


def _put(rng):
    a = array(rng)
    n = a.view(np).size
    mode = str(rng.choice(["raise", "wrap", "clip"]))
    span = n if mode == "raise" else n + 3
    idx = [int(x) for x in rng.integers(-span, span, int(rng.integers(1, 4)))] if span else []
    return [a, idx, array(rng, (int(rng.integers(1, 3)),), a.view(np).dtype)], {"mode": mode}


def _copyto(rng):
    a = array(rng)
    shape = a.view(np).shape
    kw: dict[str, Any] = {"casting": str(rng.choice(["no", "safe", "same_kind", "unsafe"]))}
    if rng.random() < 0.5:
        kw["where"] = mask_of(rng, trailing(rng, shape))
    src = array(rng, trailing(rng, shape), dtype=DTYPES[rng.integers(len(DTYPES) - 2)])  # no complex: no
    return [a, src], kw                                                                    # ComplexWarning


def _putmask(rng):
    a = array(rng)
    shape = a.view(np).shape
    return [a, mask_of(rng, shape), array(rng, (int(rng.integers(1, 4)),), a.view(np).dtype)], {}


FUNCTIONS: dict[str, tuple[Any, Any]] = {
    "reshape": (plain("reshape"), _reshape), "moveaxis": (plain("moveaxis"), _axes_call),
    "concatenate": (plain("concatenate"), _concatenate), "stack": (plain("stack"), _stack),
    "array_split": (plain("array_split"), _split), "split": (plain("split"), _split),
    "pad": (plain("pad"), _pad), "repeat": (plain("repeat"), _repeat), "roll": (plain("roll"), _roll),
    "insert": (plain("insert"), _insert), "delete": (plain("delete"), _delete),
    "trim_zeros": (plain("trim_zeros"), _trim_zeros), "broadcast_to": (plain("broadcast_to"), _broadcast_to),
    "eye": (plain("eye"), _eye), "linspace": (plain("linspace"), _linspace), "arange": (plain("arange"), _arange),
    "diagonal": (plain("diagonal"), _diagonal), "where": (plain("where"), _where),
    "select": (plain("select"), _select), "choose": (plain("choose"), _choose), "clip": (plain("clip"), _clip),
    "take": (plain("take"), _take), "take_along_axis": (plain("take_along_axis"), _take_along_axis),
    "compress": (plain("compress"), _compress), "diff": (plain("diff"), _diff), "put": (in_place("put"), _put),
    "copyto": (in_place("copyto"), _copyto), "putmask": (in_place("putmask"), _putmask),
    "tile": (plain("tile"), _tile), "rot90": (plain("rot90"), _rot90), "flip": (plain("flip"), _one_array),
    "expand_dims": (plain("expand_dims"), _expand_dims), "squeeze": (plain("squeeze"), _one_array),
    "tril": (plain("tril"), _tril), "triu": (plain("triu"), _tril), "argwhere": (plain("argwhere"), _one_array),
    "nonzero": (plain("nonzero"), _one_array), "atleast_3d": (plain("atleast_3d"), _one_array),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_matches_numpy_on_random_calls(name):
    func, build = FUNCTIONS[name]
    rng = np.random.default_rng(sorted(FUNCTIONS).index(name))
    for _ in range(CASES_PER_TEST):
        args, kw = build(rng)
        want, got = outcome(np, func, args, kw), outcome(kd, func, args, kw)
        if isinstance(want, Exception):
            assert isinstance(got, type(want)), (name, args, kw, want, got)
            continue
        assert not isinstance(got, Exception), (name, args, kw, got)
        try:
            assert_same(want, got, close=name in ("linspace", "arange"))
        except AssertionError as e:
            raise AssertionError(f"{name}{tuple(args)} {kw}: {e}") from None
