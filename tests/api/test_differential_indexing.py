"""Seeded differential test of indexing and assignment against NumPy.

Each case draws an array (bool, int8, int32, int64, uint8, float32, float64, complex64; 0-d, empty and size-1 axes;
contiguous, transposed, reversed, stepped or a slice of a reversed view) and a random key: ints (negative, out of
range), slices of any step (negative, zero, longer than the axis), ``None``, ``...``, 0-d ``True``/``False``,
boolean masks over one or two axes (wrong lengths too), integer arrays and lists (negative, repeated, empty, n-d,
several dtypes) in any mixture, so that NumPy's rule moving separated advanced axes first is exercised. The case
runs on NumPy's data and on kdsl's: both raise the same class of error (IndexError, OverflowError, ValueError,
TypeError), or both give the same values, dtype and shape, and the same answer to ``shares_memory`` (a view or a
copy), with the array and the base it is a view of compared after every write.

Reads: ``a[key]``. Writes: ``a[key] = v`` and ``a[key] += v`` (Python scalars, ints beyond the dtype, a
``Fraction``, arrays and lists that broadcast or not, of other dtypes; repeated indices), ``r = a[key];
r[...] = v`` (reaches the base exactly when NumPy's does), writes through a view of a view, a value that aliases
the target (``a[k] = a[k2]``), the other in-place operators, and the base written after a view was taken.
Functions: ``take put take_along_axis put_along_axis place putmask compress extract`` and ``a.flat[key]`` read
and written.

The draws follow the documented differences (docs/numpy-api.md): a 0-d kdsl integer array in a key stands for the
NumPy scalar a reduction gives (NumPy's own 0-d array index is a copy, kdsl's a view), so NumPy is given the
scalar; a NumPy scalar result (``a[1, 2]``) is a 0-d kdsl array, so no case writes into one; ``take`` checks its
indices even when the result is empty; the in-place arithmetic is compared to 2e-6 (NumPy's complex64 multiply,
``(1.5+2.7j) * (-0.3+0.4j)``, may differ by an ulp). Values stored by ``put`` are never empty (NumPy then skips
its index check), and ``mode="wrap"`` is not drawn for an empty axis (NumPy's ``take`` loops forever there). The
gaps not fixed yet are accepted by ``documented`` below, each with its reason.
"""

from __future__ import annotations

import re
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from differential_testing import values

import kdsl as kd

DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.float32, np.float64, np.complex64]
ERRORS = (IndexError, OverflowError, ValueError, TypeError)
CASES = {"get": 900, "set": 400, "chain": 300, "func": 300}


def rand_shape(rng: np.random.Generator, ndim: int | None = None) -> tuple[int, ...]:
    ndim = int(rng.choice([0, 1, 1, 2, 2, 3])) if ndim is None else ndim
    return tuple(int(rng.choice([0, 1, 1, 2, 3, 4])) for _ in range(ndim))


class Source:
    """A base array and the view of it that a case indexes, built afresh on either library."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.dtype = DTYPES[rng.integers(len(DTYPES))]
        shape = rand_shape(rng)
        nd, kind = len(shape), int(rng.integers(5))
        self.desc = ""
        if kind == 1 and nd >= 2:
            perm = tuple(int(p) for p in rng.permutation(nd))
            self.base = values(rng, tuple(shape[i] for i in np.argsort(perm)), self.dtype, special=False)
            self.make, self.desc = (lambda v: v.transpose(perm)), f".transpose{perm}"
        elif kind == 2 and nd >= 1:
            self.base = values(rng, (shape[0] * 2,) + shape[1:], self.dtype, special=False)
            self.make, self.desc = (lambda v: v[::-2]), "[::-2]"
        elif kind == 3 and nd >= 1:
            self.base = values(rng, shape[:-1] + (shape[-1] * 2 + 1,), self.dtype, special=False)
            self.make, self.desc = (lambda v: v[..., 1::2]), "[..., 1::2]"
        elif kind == 4 and nd >= 1:
            self.base = values(rng, (shape[0] + 2,) + shape[1:], self.dtype, special=False)
            self.make, self.desc = (lambda v: v[::-1][1:-1]), "[::-1][1:-1]"
        else:
            self.base = values(rng, shape, self.dtype, special=False)
            self.make = lambda v: v

    def build(self, xp: Any) -> tuple[Any, Any]:
        base = xp.array(self.base.copy())
        return base, self.make(base)

    def shape(self) -> tuple[int, ...]:
        return self.make(self.base).shape

    def __repr__(self) -> str:  # what a failure prints: enough to rebuild the case
        return f"xp.array({self.base.tolist()!r:.120}, {np.dtype(self.dtype)}){self.desc}"


class Arr:
    """An index or value array held as NumPy data, given to either library as its own array, a NumPy array or a
    list."""

    def __init__(self, data: np.ndarray, form: str = "array", index: bool = True) -> None:
        self.data, self.form, self.index = data, form, index

    def to(self, xp: Any) -> Any:
        if self.form == "list":
            return self.data.tolist()
        if self.form == "numpy":
            return self.data.copy()
        if xp is np and self.data.ndim == 0 and self.index:  # a 0-d kdsl index stands for NumPy's scalar
            return self.data[()]
        return xp.asarray(self.data.copy())

    def __repr__(self) -> str:
        return f"{self.form}({self.data.tolist()!r}, {self.data.dtype})"


def conv(xp: Any, k: Any) -> Any:
    if isinstance(k, Arr):
        return k.to(xp)
    return tuple(conv(xp, x) for x in k) if isinstance(k, tuple) else k


def rand_int(rng: np.random.Generator, n: int) -> int:
    if rng.random() < 0.1:
        return int(rng.choice([n, -n - 1, n + 2]))
    return int(rng.integers(-n, n)) if n else 0


def rand_slice(rng: np.random.Generator, n: int) -> slice:
    def bound() -> int | None:
        return None if rng.random() < 0.3 else int(rng.integers(-n - 3, n + 4))
    step = [None, 1, 2, 3, -1, -2, n + 1, -(n + 2)][rng.integers(8)]
    return slice(bound(), bound(), 0 if rng.random() < 0.02 else step)


def int_array(rng: np.random.Generator, n: int) -> Any:
    """Integer indices for an axis of ``n``: negative, repeated, now and then out of range, empty or n-d."""
    shape = rand_shape(rng, int(rng.choice([0, 1, 1, 1, 2])))
    hi = n if rng.random() < 0.9 else n + 2
    data = rng.integers(-n, hi, shape) if hi > -n else np.zeros(shape, np.int64)
    if n == 0 and rng.random() < 0.8:
        data = np.zeros((0,), np.int64)
    dtype = [np.int64, np.int32, np.intp, np.uint8, np.int8][rng.integers(5)]
    data = (np.abs(data) if np.dtype(dtype).kind == "u" else data).astype(dtype)
    form = ["array", "array", "list", "numpy"][rng.integers(4)]
    return int(data) if form == "list" and data.ndim == 0 else Arr(data, form)


def rand_key(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    """A random key for an array of ``shape``: basic parts, index arrays and masks in any mixture."""
    nd, style = len(shape), rng.random()
    adv = 0.0 if style < 0.3 else (0.35 if style < 0.8 else 0.7)
    parts: list[Any] = []
    axis, ellipsis = 0, False
    while axis < nd or (rng.random() < 0.15 and len(parts) < nd + 2):
        r, n = rng.random(), shape[axis] if axis < nd else 1
        if r < 0.08:
            parts.append(None)
        elif r < 0.14 and not ellipsis:
            ellipsis = True
            parts.append(Ellipsis)
            axis = max(axis, nd - int(rng.integers(0, max(nd - axis, 0) + 1)))
        elif r < 0.17:
            parts.append([True, False, np.True_, np.False_, Arr(np.array(True)), Arr(np.array(False))][rng.integers(6)])
        elif rng.random() < adv and rng.random() < 0.3:  # a mask over one or two axes (now and then too long)
            k = int(rng.integers(1, max(1, min(2, nd - axis)) + 1)) if axis < nd else 1
            mshape = tuple(shape[axis:axis + k]) if axis < nd else (1,)
            mshape = tuple(s + 1 for s in mshape) if rng.random() < 0.05 else mshape
            parts.append(Arr(rng.random(mshape) < 0.5, ["array", "list", "numpy"][rng.integers(3)]))
            axis += k
        elif rng.random() < adv:
            parts.append(int_array(rng, n))
            axis += 1
        else:
            parts.append(rand_int(rng, n) if rng.random() < 0.4 else rand_slice(rng, n))
            axis += 1
            if axis >= nd and rng.random() < 0.7:
                break
    if rng.random() < 0.2 and axis < nd:  # a key shorter than the array
        parts = parts[: int(rng.integers(0, len(parts) + 1))]
    return parts[0] if len(parts) == 1 and rng.random() < 0.7 else tuple(parts)


def basic_key(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    """A key of ints, slices, ``None`` and ``...`` only (a view in NumPy), with NumPy integer scalars at times."""
    while True:
        key = rand_key(rng, shape)
        items = key if isinstance(key, tuple) else (key,)
        if all(k is None or k is Ellipsis or isinstance(k, (int, slice)) and not isinstance(k, bool) for k in items):
            break
    if rng.random() < 0.3:
        items = tuple(np.int64(k) if isinstance(k, int) else k for k in items)
        return items if isinstance(key, tuple) else items[0]
    return key


def rand_value(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any, arithmetic: bool = False) -> Any:
    """A value for a region of ``shape``: a Python scalar (an int beyond the dtype too; a ``Fraction`` only to
    store, kdsl having no object arrays to compute with) or an array or list of some of its last axes (some of
    length 1), of ``dtype`` or another; now and then one that does not broadcast. An operand of arithmetic is
    never a list: kdsl reads a list of floats as float32 (docs/numpy-api.md), NumPy as float64."""
    kind = np.dtype(dtype).kind
    if rng.random() < 0.25:
        choices: list[Any] = [int(rng.integers(-3, 9)), True, 2.5, -1.0, 1j] + ([] if arithmetic else [Fraction(7, 2)])
        if kind in "iu":
            info = np.iinfo(dtype)
            choices += [int(info.max) + 1, int(info.min) - 1, -1]
        if kind == "c":
            choices.append(1 - 2j)
        return choices[rng.integers(len(choices))]
    vshape = tuple(s if rng.random() < 0.7 else 1 for s in shape[int(rng.integers(0, len(shape) + 1)):])
    vshape = vshape + (7,) if rng.random() < 0.05 else vshape
    vdtype = dtype if rng.random() < 0.6 else DTYPES[rng.integers(len(DTYPES))]
    vdtype = np.float64 if np.dtype(vdtype).kind == "c" and kind != "c" else vdtype  # no ComplexWarning noise
    forms = ["array", "array", "numpy"] + ([] if arithmetic else ["list"])  # a list of floats is float32 data
    return Arr(values(rng, vshape, vdtype, special=False), forms[rng.integers(len(forms))], index=False)


def region_shape(src: Source, *keys: Any) -> tuple[int, ...]:
    """The shape NumPy gives ``view[k1][k2]...`` (the view's own where a key fails)."""
    out = src.make(src.base.copy())
    try:
        for k in keys:
            out = out[conv(np, k)]
    except Exception:  # noqa: BLE001 - the case then checks the error itself
        return src.shape()
    return np.shape(out)


def get_case(rng: np.random.Generator) -> tuple:
    src = Source(rng)
    key = rand_key(rng, src.shape())

    def action(xp, base, a):
        r = a[conv(xp, key)]
        return r, bool(xp.shares_memory(r, base))
    return src, ("a[key]", key), action


def set_case(rng: np.random.Generator) -> tuple:
    src = Source(rng)
    key = rand_key(rng, src.shape())
    mode = int(rng.integers(3))
    value = rand_value(rng, region_shape(src, key), src.dtype, arithmetic=mode == 1)

    def action(xp, base, a):
        k, v = conv(xp, key), conv(xp, value)
        if mode == 0:
            a[k] = v
        elif mode == 1:  # repeated indices: NumPy's a[k] = a[k] + v, one write of each position wins
            a[k] += v
        else:  # a write into what indexing returned reaches the base exactly when NumPy's does
            r = a[k]
            if r.ndim == 0:
                return a, base
            r[...] = v
            return r, a, base
        return a, base
    return src, (["a[key] = v", "a[key] += v", "r = a[key]; r[...] = v"][mode], key, value), action


def chain_case(rng: np.random.Generator) -> tuple:
    """Writes through a view of a view, the base written after a view was taken, a value that aliases the target,
    and the other in-place operators."""
    src = Source(rng)
    shape = src.shape()
    k1 = basic_key(rng, shape) if rng.random() < 0.7 else rand_key(rng, shape)
    k2 = rand_key(rng, region_shape(src, k1))
    k3 = rand_key(rng, shape)
    value = rand_value(rng, region_shape(src, k1, k2), src.dtype, arithmetic=True)
    op = ["+=", "-=", "*=", "//=", "|=", "**="][rng.integers(6)]
    try:
        scalar = isinstance(src.make(src.base.copy())[conv(np, k1)], np.generic)
    except Exception:  # noqa: BLE001
        scalar = False
    kind = int(rng.integers(1, 3)) if scalar else int(rng.integers(4))  # a NumPy scalar is a 0-d kdsl array

    def action(xp, base, a):
        if kind == 0:
            r = a[conv(xp, k1)]
            r[conv(xp, k2)] = conv(xp, value)
            return r, a, base
        if kind == 1:
            r = a[conv(xp, k1)]
            base[...] = base[::-1] if base.ndim else base
            a[...] = 1
            return r, a, base
        if kind == 2:
            a[conv(xp, k3)] = a[conv(xp, k1)]
            return a, base
        r = a[conv(xp, k1)]
        exec(f"r[k] {op} v", {}, {"r": r, "k": conv(xp, k2), "v": conv(xp, value)})  # noqa: S102 - the operator
        return r, a, base
    what = ["r = a[k1]; r[k2] = v", "r = a[k1]; base written", "a[k3] = a[k1]",
            f"r = a[k1]; r[k2] {op} v (arithmetic)"][kind]
    return src, (what, k1, k2, k3, value), action


def func_case(rng: np.random.Generator) -> tuple:
    src = Source(rng)
    shape = src.shape()
    nd, size = len(shape), int(np.prod(shape))
    name = ["take", "put", "take_along_axis", "put_along_axis", "place", "putmask", "compress", "extract",
            "flat_get", "flat_set"][rng.integers(10)]
    ax = None if rng.random() < 0.2 else int(rng.integers(-max(nd, 1) - (rng.random() < 0.05), max(nd, 1)))
    n = size if ax is None else (shape[ax] if nd and -nd <= ax < nd else 1)
    mode = str(rng.choice(["raise", "wrap", "clip"])) if n else "raise"  # NumPy's take(..., mode="wrap") of an
    idx = int_array(rng, n if mode == "raise" else n + 3)
    # empty axis loops forever where the result is empty too (np.take(np.zeros((0, 0)), [[-4]], 0, mode="wrap"))
    if mode != "raise" and isinstance(idx, Arr) and idx.data.dtype.kind == "i" and rng.random() < 0.5:
        idx.data = idx.data - 3
    count = int(rng.integers(1 if name == "put" else 0, 4))
    vals = Arr(values(rng, (count,), src.dtype if rng.random() < 0.7 else DTYPES[rng.integers(7)], special=False),
               ["array", "numpy", "list"][rng.integers(3)])
    mask = Arr(rng.random(shape) < 0.5, ["array", "numpy"][rng.integers(2)])
    along = None
    if nd:
        ax2 = int(rng.integers(-nd, nd))
        s = list(shape)
        s[ax2] = int(rng.integers(0, 4))
        along = (Arr(rng.integers(-shape[ax2], shape[ax2], s) if shape[ax2] else np.zeros(s, np.int64)), ax2)

    def action(xp, base, a):
        if name == "take":
            return xp.take(a, conv(xp, idx), axis=ax, mode=mode)
        if name == "take_along_axis":
            return xp.take_along_axis(a, conv(xp, along[0]), axis=along[1]) if along else a
        if name == "compress":
            return xp.compress(conv(xp, mask).ravel()[:n], a, axis=ax)
        if name == "extract":
            return xp.extract(conv(xp, mask), a)
        if name == "flat_get":
            return a.flat[conv(xp, idx)]
        if name == "put":
            xp.put(a, conv(xp, idx), conv(xp, vals), mode=mode)
        elif name == "put_along_axis" and along:
            xp.put_along_axis(a, conv(xp, along[0]), conv(xp, vals), axis=along[1])
        elif name in ("place", "putmask"):
            getattr(xp, name)(a, conv(xp, mask), conv(xp, vals))
        elif name == "flat_set":
            a.flat[conv(xp, idx)] = conv(xp, vals)
        return a, base
    return src, (name, idx, vals, mode, ax, along), action


def run(xp: Any, src: Source, action: Any) -> Any:
    base, a = src.build(xp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return action(xp, base, a)
    except Exception as e:  # noqa: BLE001 - the exception class itself is compared
        return e


def mismatch(want: Any, got: Any, close: bool = False) -> str | None:
    """Why kdsl's outcome differs from NumPy's, or None (``close``: floats to 2e-6, for arithmetic results)."""
    if isinstance(want, Exception):
        if isinstance(got, Exception):
            kind = next((c for c in ERRORS if isinstance(want, c)), type(want))
            return None if isinstance(got, kind) else f"NumPy raised {want!r}, kdsl {got!r}"
        return f"NumPy raised {want!r}, kdsl did not"
    if isinstance(got, Exception):
        return f"kdsl raised {got!r}"
    if isinstance(want, tuple):
        return next((m for w, g in zip(want, got, strict=True) if (m := mismatch(w, g, close))), None)
    if isinstance(want, bool):
        return None if want == got else f"shares_memory: NumPy {want}, kdsl {got}"
    w, g = np.asarray(want), np.asarray(got)
    if (w.shape, w.dtype) != (g.shape, g.dtype):
        return f"NumPy {w.shape} {w.dtype}, kdsl {g.shape} {g.dtype}"
    if close and w.dtype.kind in "fc" and np.allclose(g, w, rtol=2e-6, atol=0, equal_nan=True):
        return None
    if not np.array_equal(w, g, equal_nan=True):
        return f"NumPy {w.tolist()!r:.200}, kdsl {g.tolist()!r:.200}"
    return None


def documented(case: tuple, want: Any, got: Any) -> bool:
    """``take`` checks its indices even where its result is empty (docs/numpy-api.md). Not fixed yet (the report
    of the 2026-12-06 fuzzing session): ``a[i] += 7.5`` on an int array whose element result leaves the dtype's
    range, where NumPy's float scalar store raises OverflowError and kdsl's 0-d float result (on the device) is
    cast; checking it would read the value back. NumPy's own quirk: an empty index-array selection takes some
    empty values that do not broadcast to it (``c[np.array([], int)] = np.zeros((2, 0))``), kdsl's ValueError."""
    if case[0] == "take":
        return not isinstance(want, Exception) and want.size == 0 and isinstance(got, IndexError)
    if case[0] == "a[k3] = a[k1]" and not isinstance(want, Exception) and isinstance(got, ValueError):
        found = re.search(r"to indexing result of shape \(([^)]*)\)", str(got))
        return found is not None and "0" in found.group(1).split(",")
    return case[0] == "a[key] += v" and isinstance(want, OverflowError) and not isinstance(got, Exception)


BUILDERS = {"get": get_case, "set": set_case, "chain": chain_case, "func": func_case}


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_matches_numpy_on_random_keys(kind):
    rng = np.random.default_rng(sorted(BUILDERS).index(kind) + 32)
    for i in range(CASES[kind]):
        src, case, action = BUILDERS[kind](rng)
        want, got = run(np, src, action), run(kd, src, action)
        why = mismatch(want, got, close=case[0].endswith("(arithmetic)"))  # complex64 products: an ulp apart
        assert why is None or documented(case, want, got), f"{kind} case {i}: {src} {case}: {why}"


# Regression cases of the fixes from this fuzzing (each raised another error class, or none, before).
FIXED = [
    ("float element = [3]", np.float32, (2, 2), (0, 1), [3]),
    ("float element = 1-element array", np.float32, (2, 2), (0, 1), Arr(np.array([3.0]))),
    ("int element = [3]", np.int8, (2, 2), (1, 0), [3]),
    ("int element = numpy array", np.int32, (2, 2), (1, 0), Arr(np.array([3]), "numpy")),
    ("complex element = array", np.complex64, (3,), -1, Arr(np.array([1 + 1j], np.complex64))),
    ("0-d int key, element = list", np.float64, (2, 2), (Arr(np.array(0), "numpy"), 1), [[3]]),
    ("bool element = [0]: its truth", np.bool_, (3,), 2, [0]),
    ("bool element = 1-element array", np.bool_, (3,), 2, Arr(np.array([0]))),
    ("0-d array[()] = [3]", np.float32, (), (), [3]),
    ("list deeper than the slice", np.float32, (3,), slice(0, 1), [[3]]),
    ("list deeper than a row", np.int64, (3, 2), 0, [[1, 2]]),
    ("list deeper than a 0-d view", np.float32, (2, 2), (Ellipsis, 0, 1), [3]),
    ("whole-array mask in a tuple, 2-d value", np.complex64, (3,), (Arr(np.array([True, False, True])),),
     Arr(np.ones((1, 2), np.complex64))),
    ("index array: the value's shape before the bounds", np.int32, (3,), Arr(np.array([3, 0])),
     Arr(np.array([1, 2, 3], np.int32))),
    ("index array: the int's bounds before the value", np.int64, (2, 1), (Arr(np.array([1, 0])), -2), [7, 8, 9]),
    ("index array: the value's range before the bounds", np.int8, (3,), Arr(np.array([5])), 300),
    ("a Fraction into an int element", np.int8, (3,), 0, Fraction(7, 2)),
    ("a Decimal through index arrays", np.float32, (3,), Arr(np.array([0, 2])), Decimal("2.5")),
    ("a Decimal NaN into ints", np.int64, (3,), slice(None), Decimal("NaN")),
    ("a Fraction out of range", np.uint8, (3,), Arr(np.array([True, False, True])), Fraction(1000, 1)),
    ("a complex into bools: its truth", np.bool_, (3,), slice(None), 1j),
    ("0j into bools", np.bool_, (3,), Arr(np.array([1])), 0j),
    ("too many indices with a mask", np.complex64, (2, 3), (Arr(np.array([0])), Arr(np.array([True, False, True])),
                                                         slice(None)), 5),
    ("too many indices with an empty mask", np.float32, (2, 3), ([], Arr(np.zeros(0, bool)), slice(None)), 5),
    ("a zero step before the index's bounds", np.int8, (2, 3), (Arr(np.array([5]), "list"), slice(None, None, 0)), 1),
    ("an int then a mask: the value broadcasts", np.float32, (2, 4), (-1, Arr(np.array([True, False, True, False]))),
     Arr(np.ones((1, 2), np.float32))),
]


@pytest.mark.parametrize("what, dtype, shape, key, value", FIXED, ids=[f[0] for f in FIXED])
def test_fixed_stores_match_numpy(what, dtype, shape, key, value):
    def action(xp, base, a):
        a[conv(xp, key)] = conv(xp, value)
        return a
    src = Source(np.random.default_rng(0))
    src.dtype, src.base, src.make, src.desc = dtype, values(np.random.default_rng(1), shape, dtype), lambda v: v, ""
    want, got = run(np, src, action), run(kd, src, action)
    assert mismatch(want, got) is None, (what, want, got)


@pytest.mark.parametrize("xp", [np, kd])
def test_inplace_refuses_the_cast_before_the_shapes(xp):
    """``ints[idx] += floats`` of a shape that does not broadcast: NumPy's casting error comes first."""
    a = xp.zeros(4, dtype=xp.int64)
    with pytest.raises(TypeError, match="same_kind"):
        a[[0, 1]] += xp.ones(3)
    with pytest.raises(TypeError, match="same_kind"):
        a += xp.ones(3)


FLAT = [([-5, -6], [23, -12]), (slice(0, 0), [300]), ([9], []), (Arr(np.array([7])), np.zeros(0, np.uint8)),
        (7, []), (0, []), (Arr(np.array(0)), [1, 2]), (slice(1, None), [4, 5])]


@pytest.mark.parametrize("key, value", FLAT, ids=[repr(f) for f in FLAT])
def test_flat_stores_convert_the_values_first(key, value):
    """``a.flat[key] = values``: NumPy converts the values before it reads the key (an empty ``values`` writes
    nothing, whatever the key), except for one element, whose index it checks first."""
    def action(xp, base, a):
        a.flat[conv(xp, key)] = value
        return a
    src = Source(np.random.default_rng(0))
    src.dtype, src.base, src.make, src.desc = np.uint8, np.arange(3, dtype=np.uint8), lambda v: v, ""
    want, got = run(np, src, action), run(kd, src, action)
    assert mismatch(want, got) is None, (want, got)


@pytest.mark.parametrize("key", [(Arr(np.array([0])), Arr(np.array([True, False, True])), slice(None)),
                                 (Arr(np.array([[5]]), "list"), slice(0, None, 0))])
def test_whole_key_errors_come_first_on_reads(key):
    """``a[key]`` raises NumPy's error about the whole key (too many indices, a zero step) before reading any
    index array."""
    src = Source(np.random.default_rng(0))
    src.dtype, src.base, src.make, src.desc = np.float32, np.zeros((2, 3), np.float32), lambda v: v, ""
    want, got = (run(xp, src, lambda xp, base, a: a[conv(xp, key)]) for xp in (np, kd))
    assert isinstance(want, Exception) and mismatch(want, got) is None and str(got) == str(want), (want, got)


@pytest.mark.parametrize("key", [True, np.True_])
def test_scalar_true_key_reads_a_copy(key):
    """``r = a[True]`` is NumPy's copy (advanced indexing by a 0-d mask), not the view ``a[None]``: a write into
    ``r`` leaves ``a`` alone (kdsl wrote it through, silently)."""
    def action(xp, base, a):
        r = a[key]
        r[...] = 5
        return r, a, base, bool(xp.shares_memory(r, base))
    src = Source(np.random.default_rng(0))
    src.dtype, src.base, src.make, src.desc = np.float32, np.arange(6, dtype=np.float32), lambda v: v[::-2], ""
    want, got = run(np, src, action), run(kd, src, action)
    assert mismatch(want, got) is None, (want, got)
