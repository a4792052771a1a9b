"""Small correctness gaps held to NumPy (leftovers20): ``kd.ma`` masks shared by views (``v.mask = m`` on a slice,
``a.view()``, hard masks of slices), ``unique``'s orders, ``genfromtxt``'s structured results (refused, naming
kdsl's lack of structured arrays), complex powers that overflow, bool arrays against Python ints beyond int32 and
int64, ``round`` (bools, negative decimals, NumPy's float64 route for ints and its ``f = 10**decimals`` in the
data's dtype) and the dtype of ``histogram``'s edges for complex data.

Each case runs the same call with NumPy and kdsl: the values and dtypes must be equal (NaN and the sign of zero
included), or both raise the same built-in exception class, kdsl's message naming the problem.
"""

import io

import numpy as np
import pytest
from bad_input_testing import A, check_exactly, outcome

import kdsl as kd


def _outcome(call, m):
    return outcome(lambda m, _: call(m), m, None)


def check(call, words=None):
    """``call(m)`` with NumPy and kdsl alike (:func:`bad_input_testing.check_exactly`)."""
    check_exactly(call, words, _outcome)


# ----- kd.ma: masks shared with views, as NumPy shares them

def _slice_mask_set(m, value, mask=(0, 1, 0, 0), hard=False):
    a = m.ma.array([1, 2, 3, 4], mask=list(mask), hard_mask=hard)
    v = a[::2]
    v.mask = value
    return [np.asarray(a.mask), np.asarray(v.mask), v.hardmask]


def _given_mask_mutated(m):
    mk = A(m, [False, True, False])
    a = m.ma.array(A(m, [1, 2, 3]), mask=mk)
    mk[0] = True
    return np.asarray(a.mask)


def _view_write(m, key, value):
    a = m.ma.array(A(m, [1, 2, 3, 4], np.int32), mask=[0, 1, 0, 0])
    a.view()[key] = value
    return [np.asarray(a), np.asarray(a.mask)]


def _view_dtype(m):
    a = m.ma.array(A(m, [1.0, 2.0], np.float32), mask=[0, 1])
    v = a.view(m.int32)
    v[0] = m.ma.masked
    return [np.asarray(v.data), np.asarray(a.mask)]


def _derived_write(m, derive):
    """Writes through an array derived from a masked one (a masked item and a value): what reaches it."""
    a = m.ma.array(A(m, [1, 2, 3, 4], np.int32), mask=[0, 1, 0, 0])
    b = derive(m, a)
    b[0] = m.ma.masked
    b[2] = 9
    return [np.asarray(a.data), np.asarray(a.mask)]


def _given_mask_copied(m):
    mk = A(m, [False, True, False])
    a = m.ma.array(A(m, [1, 2, 3], np.int32), mask=mk, copy=True)
    mk[0] = True
    return np.asarray(a.mask)


def _inplace_keeps_mask(m):
    a = m.ma.array(A(m, [1, 2, 3], np.int32), mask=[0, 1, 0])
    kept = a.mask
    a += 1
    kept[0] = True
    return [np.asarray(a.mask), np.asarray(a.data)]


MA = [
    ("flatten-copies", lambda m: _derived_write(m, lambda m, a: a.flatten()), None),
    ("ravel-shares", lambda m: _derived_write(m, lambda m, a: a.ravel()), None),
    ("array-copy-true-copies-mask", lambda m: _derived_write(m, lambda m, a: m.ma.array(a, copy=True)), None),
    ("masked_where-copy-false-shares", lambda m: _derived_write(m, lambda m, a: m.ma.masked_where(
        A(m, [0, 0, 0, 1], bool), a, copy=False)), None),
    ("masked_where-copies", lambda m: _derived_write(m, lambda m, a: m.ma.masked_where(A(m, [0, 0, 0, 1], bool), a)),
     None),
    ("given-mask-copy-true", _given_mask_copied, None),
    ("inplace-op-keeps-mask-object", _inplace_keeps_mask, None),
    ("slice-mask-set-reaches-base", lambda m: _slice_mask_set(m, [True, True]), None),
    ("slice-mask-set-nomask-clears-base", lambda m: _slice_mask_set(m, m.ma.nomask, (1, 1, 1, 0)), None),
    ("slice-mask-set-hard-gains", lambda m: _slice_mask_set(m, [False, True], hard=True), None),
    ("given-mask-shared", _given_mask_mutated, None),
    ("view-masked-write", lambda m: _view_write(m, 0, m.ma.masked), None),
    ("view-value-write", lambda m: _view_write(m, 1, 7), None),
    ("view-dtype-same-size", _view_dtype, None),
    ("view-ndarray-type", lambda m: m.ma.array(A(m, [1, 2], np.int8), mask=[0, 1]).view(
        np.ndarray if m is np else kd.ndarray), None),
    ("view-dtype-other-size", lambda m: m.ma.array(A(m, [1.0, 2.0], np.float32), mask=[0, 1]).view(m.int64),
     "element|cannot"),
]


# ----- unique: NumPy's orders where it defines one (sorted=False: NumPy's hash order is unspecified)

UNIQUE = [
    ("unique-sorted-false-extras", lambda m: m.unique(A(m, [3, 1, 2, 3, 1, 5, 0], np.int32), sorted=False,
                                                      return_index=True, return_inverse=True,
                                                      return_counts=True), None),
    ("unique-sorted-false-values", lambda m: np.sort(np.asarray(m.unique(A(m, [5, 5, 4, 9], np.int16),
                                                                         sorted=False))), None),
    ("unique_all-2d", lambda m: list(m.unique_all(A(m, [[3, 1], [1, 2]], np.int32))), None),
    ("unique_counts-nans-distinct", lambda m: list(m.unique_counts(A(m, [np.nan, 1, np.nan], np.float32))), None),
    ("unique-complex-lexicographic", lambda m: m.unique(A(m, [3j, 1, 3j, -2], np.complex64)), None),
]


# ----- genfromtxt: structured results are refused with what to do instead

def _text(m, text, **kw):
    return m.genfromtxt(io.StringIO(text), delimiter=",", **kw)


GENFROMTXT = [
    ("dtype-none-homogeneous", lambda m: _text(m, "1,2\n3,4", dtype=None), None),
    ("names-unpack-fields", lambda m: list(_text(m, "a,b\n1,2\n3,4", names=True, unpack=True)), None),
]

STRUCTURED = [  # NumPy reads a structured array, which kdsl cannot hold: TypeError saying what to do instead
    ("names-true", lambda: _text(kd, "a,b\n1,2\n3,4", names=True), "no structured arrays.*unpack=True"),
    ("dtype-none-mixed", lambda: _text(kd, "1,2.5\n3,4.5", dtype=None), "no structured arrays.*unpack=True"),
    ("names-usemask", lambda: _text(kd, "a,b\n1,\n3,4", names=True, usemask=True), "no structured arrays"),
    ("loadtxt-fields", lambda: kd.loadtxt(io.StringIO("1,2"), delimiter=",", dtype=[("a", int), ("b", float)]),
     "no structured arrays"),
]


@pytest.mark.parametrize(("call", "words"), [c[1:] for c in STRUCTURED], ids=[c[0] for c in STRUCTURED])
def test_structured_text_is_refused_with_advice(call, words):
    with pytest.raises(TypeError, match=words):
        call()


# ----- complex powers that overflow, bool arrays against Python ints beyond int32/int64

BIG = [2**64 - 1, 2**63, -2**63 - 1]

POWERS_AND_INTS = [
    ("cpow-1e300-complex128", lambda m: A(m, [1 + 1j, 1j, -2 + 1j], np.complex128) ** 1e300, None),
    ("cpow-1e30-complex64", lambda m: A(m, [1 + 1j, 0.5 + 0.5j], np.complex64) ** 1e30, None),
    ("cpow-scalar-base-array-exponent", lambda m: complex(1, 1) ** A(m, [1e300, -1e300], np.float64), None),
    *[(f"bool-{op}-{v}", lambda m, op=op, v=v: getattr(A(m, [True, False]), op)(v), "C long")
      for op in ("__ge__", "__eq__", "__lt__") for v in BIG],
    ("bool-0d-ge-uint64-max", lambda m: A(m, True) >= 2**64 - 1, "C long"),
    ("bool-ge-int64-max", lambda m: A(m, [True, False]) >= 2**63 - 1, None),
    ("int8-ge-uint64-max", lambda m: A(m, [1, -1], np.int8) >= 2**64 - 1, None),
    ("uint64-lt-beyond", lambda m: A(m, [1, 2**63], np.uint64) < 2**64, None),
    ("bool-add-2**40", lambda m: A(m, [True, False]) + 2**40, None),
    ("bool-maximum-int64-max", lambda m: m.maximum(A(m, [True, False]), 2**63 - 1), None),
    ("bool-pow-2**40", lambda m: A(m, [True, False]) ** 2**40, None),
    ("bool-add-2**63", lambda m: A(m, [True, False]) + 2**63, None),
]


# ----- round

ROUND_DATA = {
    "int8": [-128, 127, 45, -55, 15, -15, 25, 35],
    "uint8": [255, 250, 45, 15, 5, 25],
    "int32": [2**31 - 1, -2**31, 15, -25],
    "int64": [2**63 - 1, -2**63, 15, -25, 2**62 + 2**61],
    "uint64": [2**63 + 5, 15, 25],
    "float16": [65504, 1.5, 2.5, -0.0, 155],
    "float32": [3.4e38, 1.25, 2.5, -0.5, 1e-30],
    "float64": [1.7e308, 2.675, -0.0, 1e-300, 5e-324],
    "complex64": [1.5 + 2.5j, -0.5j],
}

ROUND = [
    *[(f"round-{d}-{dec}", lambda m, d=d, v=v, dec=dec: m.round(A(m, v, d), dec), None)
      for d, v in ROUND_DATA.items() for dec in (-400, -20, -2, -1, 2, 5, 400)],
    ("round-bool-0-float16", lambda m: m.round(A(m, [True, False])), None),
    ("round-bool-2", lambda m: m.round(A(m, [True, False]), 2), "Cannot cast.*bool"),
    ("round-bool-negative", lambda m: A(m, [True, False]).round(-1), "Cannot cast.*bool"),
    ("around-0d-int32", lambda m: m.around(A(m, 2**31 - 1, np.int32), -1), None),
]


# ----- histogram edges of complex data keep the complex dtype

HISTOGRAM = [
    ("histogram-complex64", lambda m: list(m.histogram(A(m, [1 + 1j, 2, 3 - 1j, 0.5j], np.complex64), bins=3)),
     None),
    ("histogram-complex64-range", lambda m: list(m.histogram(A(m, [1, 2, 3], np.complex64), 2, range=(0, 4))),
     None),
    ("histogram_bin_edges-int8", lambda m: m.histogram_bin_edges(A(m, [1, 2, 5], np.int8), bins=2), None),
    ("histogram_bin_edges-float16", lambda m: m.histogram_bin_edges(A(m, [1, 2, 5], np.float16), bins=2), None),
]


# ----- more edge values (the probes of this session)

BEYOND = [  # integer arrays against Python ints outside their dtype: every element answers alike, exactly
    *[(f"int64-{op}-{v}", lambda m, op=op, v=v: getattr(A(m, [2**63 - 1, -2**63, 0], np.int64), op)(v), None)
      for op in ("__eq__", "__lt__", "__ge__", "__rle__") for v in (2**63, -2**63 - 1)],
    ("uint64-eq-2**64", lambda m: A(m, [2**64 - 1, 0], np.uint64) == 2**64, None),
    ("uint64-gt-minus-1", lambda m: A(m, [2**64 - 1, 0], np.uint64) > -1, None),
    ("logical_and-beyond-int64", lambda m: m.logical_and(A(m, [1.0, 0.0], np.float32), 2**63), "C long"),
    ("logical_or-beyond-int64", lambda m: m.logical_or(2**64, A(m, [1, 0], np.int8)), "C long"),
    ("ldexp-exponent-beyond-int64", lambda m: m.ldexp(A(m, [1.0], np.float32), 2**63), "C long"),
    ("ldexp-uint32-exponent", lambda m: m.ldexp(A(m, [1, 127, 3], np.int8), A(m, [0, 2**32 - 1, 2**31], np.uint32)),
     None),
    ("ldexp-uint8-exponent", lambda m: m.ldexp(A(m, [1, 3], np.int16), A(m, [200, 255], np.uint8)), None),
]

EDGES = [
    ("reciprocal-int-zero", lambda m: [m.reciprocal(A(m, [0, 1, -1, 2], d)) for d in (np.int8, np.int32, np.int64)],
     None),
    ("angle-int8-float16", lambda m: m.angle(A(m, [1, -1], np.int8), deg=True), None),
    ("angle-int32-float64", lambda m: m.angle(A(m, [1, -1], np.int32)), None),
    ("angle-bool-float64", lambda m: m.angle(A(m, [True, False])), None),
    ("mean-empty-complex", lambda m: m.mean(A(m, [], np.complex64)), None),
    ("ptp-empty-bool", lambda m: m.ptp(A(m, [], bool)), "zero-size"),
    ("ptp-bool", lambda m: m.ptp(A(m, [True, False])), "subtract"),
    ("arange-uint64-past-int64", lambda m: m.arange(2**63 - 1, 2**63 + 2, dtype=m.uint64), None),
    ("arange-uint64-top-down", lambda m: m.arange(2**64 - 1, 2**63, -2**62, dtype=m.uint64), None),
]


CASES = MA + UNIQUE + GENFROMTXT + POWERS_AND_INTS + ROUND + HISTOGRAM + BEYOND + EDGES


@pytest.mark.parametrize(("call", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_like_numpy(call, words):
    check(call, words)


@pytest.mark.parametrize("decimals", [1, -1])
def test_round_of_bools_raises_numpys_class(decimals):
    """NumPy raises its ``_UFuncOutputCastingError`` (a UFuncTypeError); kdsl raised a plain TypeError, which an
    ``except`` of NumPy's class missed."""
    with pytest.raises(TypeError) as want:
        np.round(np.array([True, False]), decimals)
    with pytest.raises(type(want.value), match="Cannot cast ufunc.*bool"):
        kd.round(kd.asarray([True, False]), decimals)
