"""ndarray methods, attributes and Python protocols given bad input as users give it: kdsl raises NumPy's
exception (class or a subclass, a message naming the problem), never an internal error
(tests/api/bad_input_testing.py)."""

import operator

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])


def _set(x, name, value):
    setattr(x, name, value)
    return x


def _stored(x, key, value):
    x[key] = value
    return x


def _filled(x, value):
    x.fill(value)
    return x


def _put(x, ind, v, mode="raise"):
    x.put(ind, v, mode=mode)
    return x


def _resized(x, *shape, refcheck=False):
    x.resize(*shape, refcheck=refcheck)
    return x


METHODS = [
    ("reshape-method-wrong-size", lambda m, d: A(m, M23, d).reshape(2, 2), "reshape"),
    ("reshape-method-tuple-and-int", lambda m, d: A(m, M23, d).reshape((2, 3), 1), None),
    ("reshape-method-negative", lambda m, d: A(m, M23, d).reshape(-2, 3), None),
    ("reshape-method-two-negatives", lambda m, d: A(m, M23, d).reshape(-2, -1), "unknown"),
    ("reshape-method-order-None", lambda m, d: A(m, M23, d).reshape(6, order=None), None),
    ("reshape-method-str", lambda m, d: A(m, M23, d).reshape("6"), None),
    ("reshape-method-no-shape", lambda m, d: A(m, M23, d).reshape(), "argument"),
    ("reshape-method-empty-tuple", lambda m, d: A(m, M23, d).reshape(()), "reshape"),
    ("reshape-0d-to-empty-tuple", lambda m, d: A(m, [5], d).reshape(()), None),
    ("reshape-method-order-int", lambda m, d: A(m, M23, d).reshape(6, order=1), "order"),
    ("astype-unknown", lambda m, d: A(m, M23, d).astype("bad"), "bad"),
    ("astype-bad-casting", lambda m, d: A(m, M23, d).astype(np.int8, casting="bad"), "casting"),
    ("astype-safe-refused", lambda m, d: A(m, M23, d).astype(np.int8, casting="safe"), "cast"),
    ("item-size-2", lambda m, d: A(m, [1, 2], d).item(), "size-1|size 1|converted"),
    ("item-index-out-of-range", lambda m, d: A(m, M23, d).item(6), "out of bounds|index"),
    ("item-tuple-out-of-range", lambda m, d: A(m, M23, d).item((2, 0)), "out of bounds|index"),
    ("item-tuple-too-long", lambda m, d: A(m, M23, d).item((0, 0, 0)), "incorrect number|indices"),
    ("item-float-index", lambda m, d: A(m, M23, d).item(1.0), None),
    ("item-empty", lambda m, d: A(m, np.zeros(0), d).item(), "size-1|size 1|converted"),
    ("fill-str", lambda m, d: _filled(A(m, M23, d), "x"), "x"),
    ("fill-None", lambda m, d: _filled(A(m, M23, d), None), None),
    ("fill-list", lambda m, d: _filled(A(m, M23, d), [1, 2]), "sequence|scalar"),
    ("fill-array", lambda m, d: _filled(A(m, M23, d), A(m, [1, 2], d)), "sequence|scalar"),
    ("fill-one-element-array", lambda m, d: _filled(A(m, M23, d), A(m, [1], d)), "sequence|scalar"),
    ("fill-bool-from-list", lambda m, d: _filled(A(m, M23 > 2), [1, 2]), None),
    ("fill-bool-from-one-element", lambda m, d: _filled(A(m, M23 > 2), A(m, [[0]], d)), None),
    ("put-method-out-of-range", lambda m, d: _put(A(m, V5, d), [5], [1]), "out of bounds"),
    ("put-method-bad-mode", lambda m, d: _put(A(m, V5, d), [0], [1], mode="bad"), "mode|clipmode"),
    ("put-method-float-list-indices", lambda m, d: _put(A(m, V5, d), [0.5, 2.7], [1]), None),
    ("put-method-nan-index", lambda m, d: _put(A(m, V5, d), [np.nan], [1]), "NaN"),
    ("put-method-float-array-indices", lambda m, d: _put(A(m, V5, d), A(m, [0.5]), [1]), "cast|integer"),
    ("resize-method-negative", lambda m, d: _resized(A(m, V5, d), -1), "negative"),
    ("resize-method-tuple-and-int", lambda m, d: _resized(A(m, V5, d), (2, 2), 1), None),
    ("view-itemsize-mismatch", lambda m, d: A(m, np.arange(3, dtype=d)).view(np.float64), "size|itemsize"),
    ("view-unknown-dtype", lambda m, d: A(m, V5, d).view("bad"), "bad"),
    ("view-0d-other-itemsize", lambda m, d: A(m, np.array(1, d)).view(np.int16), "0-d|size|itemsize"),
    ("T-0d", lambda m, d: A(m, 1, d).T, None),
    ("T-1d", lambda m, d: A(m, V5, d).T, None),
    ("mT-1d", lambda m, d: A(m, V5, d).mT, "2|dimension"),
    ("mT-0d", lambda m, d: A(m, 1, d).mT, "2|dimension"),
    ("transpose-method-bad-axes", lambda m, d: A(m, M23, d).transpose(0, 0), "repeated"),
    ("transpose-method-wrong-count", lambda m, d: A(m, M23, d).transpose(1, 0, 2), "axes"),
    ("tolist-0d", lambda m, d: A(m, 1, d).tolist(), None),
    ("tolist-empty-2d", lambda m, d: A(m, np.zeros((2, 0)), d).tolist(), None),
    ("swapaxes-method-out-of-range", lambda m, d: A(m, M23, d).swapaxes(0, 3), "axis 3"),
    ("squeeze-method-not-1", lambda m, d: A(m, M23, d).squeeze(1), "size"),
    ("flatten-bad-order", lambda m, d: A(m, M23, d).flatten(order="Q"), "order"),
    ("copy-bad-order", lambda m, d: A(m, M23, d).copy(order="Q"), "order"),
    ("clip-method-no-bounds", lambda m, d: A(m, V5, d).clip(), None),
    ("round-method-float-decimals", lambda m, d: A(m, V5, d).round(1.5), "integer"),
    ("repeat-method-negative", lambda m, d: A(m, V5, d).repeat(-1), "negative"),
    ("nonzero-method-0d", lambda m, d: A(m, 1, d).nonzero(), "0d|0-d"),
    ("searchsorted-method-bad-side", lambda m, d: A(m, V5, d).searchsorted(1, side="x"), "side"),
    ("diagonal-method-1d", lambda m, d: A(m, V5, d).diagonal(), "2-d|dimension"),
    ("trace-method-bad-axes", lambda m, d: A(m, M23, d).trace(axis1=0, axis2=2), "axis 2"),
    ("choose-method-out-of-range", lambda m, d: A(m, [0, 2]).choose([A(m, [1, 2], d)] * 2), "invalid"),
    ("compress-method-axis", lambda m, d: A(m, V5, d).compress([True], axis=2), "axis 2"),
    ("cumsum-method-axis", lambda m, d: A(m, V5, d).cumsum(axis=1), "axis 1"),
    ("sum-method-axis-repeated", lambda m, d: A(m, M23, d).sum(axis=(0, 0)), "duplicate|repeated"),
    ("argmax-method-tuple-axis", lambda m, d: A(m, M23, d).argmax(axis=(0, 1)), None),
    ("take-method-out-of-range", lambda m, d: A(m, V5, d).take(9), "out of bounds"),
]

PROTOCOLS = [
    ("float-size-2", lambda m, d: float(A(m, [1, 2], d)), "size-1|size 1|converted"),
    ("int-size-2", lambda m, d: int(A(m, [1, 2], d)), "size-1|size 1|converted"),
    ("bool-size-2", lambda m, d: bool(A(m, [1, 2], d)), "ambiguous"),
    ("complex-size-2", lambda m, d: complex(A(m, [1, 2], d)), "size-1|size 1|converted"),
    ("float-empty", lambda m, d: float(A(m, np.zeros(0), d)), "size-1|size 1|converted"),
    ("bool-empty", lambda m, d: bool(A(m, np.zeros(0), d)), "empty|ambiguous"),
    ("index-float", lambda m, d: operator.index(A(m, 1.5)), "integer|index"),
    ("index-size-2", lambda m, d: operator.index(A(m, [1, 2])), "integer|index|scalar"),
    ("index-1-element-1d", lambda m, d: operator.index(A(m, [1])), "integer|index|scalar"),
    ("index-0d-int", lambda m, d: operator.index(A(m, 3, np.int32)), None),
    ("list-index-float-array", lambda m, d: [1, 2, 3][A(m, 1.0)], "integer|index"),
    ("range-of-float-array", lambda m, d: range(A(m, 3.0)), "integer|index"),
    ("len-0d", lambda m, d: len(A(m, 1, d)), "unsized|0-d|len"),
    ("iter-0d", lambda m, d: iter(A(m, 1, d)), "0-d|iteration"),
    ("list-of-0d", lambda m, d: list(A(m, 1, d)), "0-d|iteration"),
    ("hash", lambda m, d: hash(A(m, V5, d)), "unhashable"),
    ("set-of-arrays", lambda m, d: {A(m, V5, d)}, "unhashable"),
    ("eq-object", lambda m, d: A(m, V5, d) == object(), None),
    ("eq-object-reflected", lambda m, d: object() == A(m, V5, d), None),
    ("ne-object", lambda m, d: A(m, V5, d) != object(), None),
    ("eq-None", lambda m, d: A(m, V5, d) == None, None),  # noqa: E711 - the idiom under test
    ("eq-str", lambda m, d: A(m, V5, d) == "a", None),
    ("lt-object", lambda m, d: A(m, V5, d) < object(), "supported|operand"),
    ("lt-str", lambda m, d: A(m, V5, d) < "a", None),
    ("eq-unbroadcastable", lambda m, d: A(m, V5, d) == A(m, [1, 2], d), "broadcast"),
    ("add-str", lambda m, d: A(m, V5, d) + "a", None),
    ("add-None", lambda m, d: A(m, V5, d) + None, None),
    ("mul-list-of-str", lambda m, d: A(m, V5, d) * ["a"], None),
    ("matmul-scalar", lambda m, d: A(m, M23, d) @ 2, "scalar|matmul"),
    ("matmul-mismatch", lambda m, d: A(m, M23, d) @ A(m, M23, d), "mismatch|shape"),
    ("contains-unbroadcastable", lambda m, d: A(m, [1, 2], d) in A(m, M23, d), "broadcast|shape"),
    ("divmod-complex", lambda m, d: divmod(A(m, [1 + 1j]), 2), None),
    ("mod-complex", lambda m, d: A(m, [1 + 1j]) % 2, None),
    ("floordiv-complex", lambda m, d: A(m, [1 + 1j]) // 2, None),
    ("lshift-float", lambda m, d: A(m, [1.0, 2.0]) << 1, None),
    ("and-float", lambda m, d: A(m, [1.0, 2.0]) & 1, None),
    ("invert-float", lambda m, d: ~A(m, [1.0, 2.0]), None),
    ("neg-bool", lambda m, d: -A(m, [True, False]), "boolean|negative"),
    ("sub-bool", lambda m, d: A(m, [True]) - A(m, [False]), "boolean|subtract"),
    ("pow-negative-int", lambda m, d: A(m, [2, 3]) ** -1, "negative"),
    ("pow-negative-int-array", lambda m, d: A(m, [2, 3]) ** A(m, [-1, 2]), None),
]

STORES = [
    ("shape-set-wrong-size", lambda m, d: _set(A(m, M23, d), "shape", (4,)), "reshape"),
    ("shape-set-two-unknowns", lambda m, d: _set(A(m, M23, d), "shape", (-1, -1)), "unknown"),
    ("shape-set-str", lambda m, d: _set(A(m, M23, d), "shape", "ab"), None),
    ("shape-set-float", lambda m, d: _set(A(m, M23, d), "shape", (2.0, 3)), None),
    ("shape-set-non-contiguous", lambda m, d: _set(A(m, M23, d).T, "shape", (6,)), "copy|view|incompatible"),
    ("dtype-set-bad-itemsize", lambda m, d: _set(A(m, np.arange(3, dtype=d)), "dtype", np.float64), "size"),
    ("size-set", lambda m, d: _set(A(m, M23, d), "size", 3), "size|writable|attribute"),
    ("ndim-set", lambda m, d: _set(A(m, M23, d), "ndim", 3), "ndim|writable|attribute"),
    ("ellipsis-wrong-shape", lambda m, d: _stored(A(m, M23, d), ..., A(m, [1, 2], d)), "broadcast|shape"),
    ("ellipsis-wrong-shape-list", lambda m, d: _stored(A(m, M23, d), ..., [[1, 2], [3, 4]]), "broadcast|shape"),
    ("slice-too-many-values", lambda m, d: _stored(A(m, V5, d), slice(0, 2), [1, 2, 3]), "broadcast|shape"),
    ("mask-value-count", lambda m, d: _stored(A(m, V5, d), A(m, V5 > 2), A(m, [1, 2], d)), "assign|shape"),
    ("mask-value-count-list", lambda m, d: _stored(A(m, V5, d), A(m, V5 > 2), [1, 2, 3, 4]), "assign|shape"),
    ("mask-2d-value-count", lambda m, d: _stored(A(m, M23, d), A(m, M23 > 2), [1, 2]), "assign|shape"),
    ("store-str-value", lambda m, d: _stored(A(m, M23, d), (0, 0), "abc"), "abc"),
    ("store-None", lambda m, d: _stored(A(m, M23, d), (0, 0), None), None),
    ("store-None-complex", lambda m, d: _stored(A(m, M23, np.complex64), (0, 0), None), None),
    ("store-None-bool", lambda m, d: _stored(A(m, M23 > 2), (0, 0), None), None),
    ("store-complex-into-real", lambda m, d: _stored(A(m, M23, d), (0, 0), 1j), None),
    ("store-nested-ragged", lambda m, d: _stored(A(m, M23, d), 0, [[1, 2], [3]]), "inhomogeneous|sequence"),
    ("readonly-write", lambda m, d: _stored(_readonly(A(m, V5, d)), 0, 1), "read-only"),
    ("readonly-iadd", lambda m, d: _iadd(_readonly(A(m, V5, d)), 1), "read-only"),
    ("readonly-out", lambda m, d: m.add(1, 1, out=_readonly(A(m, V5, d))), "read-only"),
    ("readonly-put", lambda m, d: _put(_readonly(A(m, V5, d)), [0], [1]), "read-only"),
    ("setflags-write-on-broadcast", lambda m, d: m.broadcast_to(A(m, V5, d), (2, 5)).setflags(write=True),
     "writeable|WRITEABLE"),
]


def _readonly(x):
    x.setflags(write=False)
    return x


def _iadd(x, v):
    x += v
    return x


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in METHODS + PROTOCOLS + STORES])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)


@pytest.mark.parametrize("d", [np.uint8, np.bool_, np.int32])
@pytest.mark.parametrize("call", [
    pytest.param(lambda m, d: _iadd(_readonly(A(m, V5, d)), 1.5), id="iadd-float"),
    pytest.param(lambda m, d: _iadd(_readonly(A(m, V5, d)), 1), id="iadd-int"),
    pytest.param(lambda m, d: m.add(1, 1, out=_readonly(A(m, V5, d))), id="out-int"),
    pytest.param(lambda m, d: m.multiply(0.5, 2, out=_readonly(A(m, V5, d))), id="out-float"),
])
def test_read_only_is_refused_before_the_cast(call, d):
    """NumPy names the read-only output first, also where the result would not cast back (kdsl said "Cannot cast
    ufunc 'add' output from int32 to bool")."""
    check_like_numpy(call, "read-only", d)
