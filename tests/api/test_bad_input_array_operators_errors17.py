"""ndarray's in-place operators, Python builtins on arrays (format, round, int, hex, in, sorted...), methods'
``out=`` and less common method arguments given bad input as users give it: kdsl raises NumPy's exception (class
or a subclass, a message naming the problem), never an internal error (tests/api/bad_input_testing.py)."""

import math
import operator

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])


def _stored(x, key, value):
    x[key] = value
    return x


IN_PLACE = [
    ("iadd-result-bigger", lambda m, d: operator.iadd(A(m, V5, d), A(m, np.ones((2, 5)), d)), "broadcast|shape"),
    ("iadd-float-into-int", lambda m, d: operator.iadd(A(m, V5, np.int32), 1.5), "cast"),
    ("imul-complex-into-float", lambda m, d: operator.imul(A(m, V5, np.float32), 1j), "cast"),
    ("itruediv-int", lambda m, d: operator.itruediv(A(m, V5, np.int32), 2), "cast"),
    ("ipow-negative-int", lambda m, d: operator.ipow(A(m, V5, np.int32), -1), "negative"),
    ("ilshift-float", lambda m, d: operator.ilshift(A(m, V5, np.float32), 1), None),
    ("imatmul", lambda m, d: operator.imatmul(A(m, M23, d), A(m, M23, d)), "mismatch|shape"),
    ("setitem-index-arrays-out-of-range", lambda m, d: _stored(A(m, M23, d), ([0, 1], [0, 5]), 1), "out of bounds"),
    ("setitem-ragged-rows", lambda m, d: _stored(A(m, M23, d), slice(None), [[1, 2, 3], [1]]), "inhomogeneous"),
    ("flat-set-out-of-range", lambda m, d: _stored(A(m, M23, d).flat, 6, 1), "out of bounds"),
    ("flat-get-out-of-range", lambda m, d: A(m, M23, d).flat[6], "out of bounds"),
    ("nbytes-set", lambda m, d: setattr(A(m, M23, d), "nbytes", 3), "nbytes|writable|attribute"),
    ("T-set", lambda m, d: setattr(A(m, M23, d), "T", 3), "T|writable|attribute"),
    ("real-set-wrong-shape", lambda m, d: setattr(A(m, M23, d), "real", A(m, [1, 2], d)), "broadcast|shape"),
    ("imag-set-of-real-array", lambda m, d: setattr(A(m, M23, d), "imag", 1), "imag|complex"),
]

BUILTINS = [
    ("format-size-2", lambda m, d: f"{A(m, V5, d):.2f}", "format"),
    ("format-0d", lambda m, d: f"{A(m, 1.5, d):.2f}", None),
    ("round-size-2", lambda m, d: round(A(m, V5, d)), "__round__"),
    # (a 0-d kdsl result stands for NumPy's scalar, which has __trunc__: math.trunc(x.mean()), porting20)
    ("trunc-of-a-mean", lambda m, d: math.trunc(A(m, V5, d).mean()), None),
    ("trunc-size-2", lambda m, d: math.trunc(A(m, [1.5, 2.5], d)), "trunc"),
    ("floor-size-2", lambda m, d: math.floor(A(m, [1.5, 2], d)), "size-1|size 1|converted"),
    ("bool-nan", lambda m, d: bool(A(m, np.nan, np.float32)), None),
    ("int-nan", lambda m, d: int(A(m, np.nan, np.float32)), "NaN"),
    ("int-inf", lambda m, d: int(A(m, np.inf, np.float32)), "infinity"),
    ("int-complex", lambda m, d: int(A(m, 1j)), "complex"),
    ("float-complex", lambda m, d: float(A(m, 1 + 1j)), "complex"),
    ("index-bool", lambda m, d: operator.index(A(m, True)), None),
    ("hex-0d-int", lambda m, d: hex(A(m, 3, np.int32)), None),
    ("hex-float", lambda m, d: hex(A(m, 3.0)), "integer|index"),
    ("in-str", lambda m, d: "a" in A(m, V5, d), None),
    ("in-None", lambda m, d: None in A(m, V5, d), None),
    ("reversed-0d", lambda m, d: reversed(A(m, 1, d)), "0-d|len|unsized"),
    ("sorted-2d", lambda m, d: sorted(A(m, M23, d)), "ambiguous"),
    ("max-builtin-2d", lambda m, d: max(A(m, M23, d)), "ambiguous"),
    ("sum-builtin-2d", lambda m, d: sum(A(m, M23, d)), None),
    ("abs-bool", lambda m, d: abs(A(m, [True])), None),
    ("pos-bool", lambda m, d: +A(m, [True]), "positive|bool"),
]

METHOD_ARGUMENTS = [
    ("astype-complex-to-int", lambda m, d: A(m, [1 + 1j]).astype(np.int32), None),
    ("astype-copy-str", lambda m, d: A(m, M23, d).astype(np.int8, copy="x"), None),
    ("view-non-contiguous-itemsize", lambda m, d: A(m, M23, d)[:, ::2].view(np.int16), "contiguous|last axis"),
    ("view-transpose-itemsize", lambda m, d: A(m, M23, d).T.view(np.int16), "contiguous|last axis"),
    ("item-negative", lambda m, d: A(m, M23, d).item(-1), None),
    ("item-negative-out-of-range", lambda m, d: A(m, M23, d).item(-7), "out of bounds"),
    ("item-two-indices", lambda m, d: A(m, M23, d).item(1, 2), None),
    ("item-two-indices-out-of-range", lambda m, d: A(m, M23, d).item(2, 2), "out of bounds"),
    ("argsort-axis-2", lambda m, d: A(m, V5, d).argsort(axis=2), "axis 2"),
    ("sort-axis-2", lambda m, d: A(m, V5, d).sort(axis=2), "axis 2"),
    ("std-ddof-str", lambda m, d: A(m, V5, d).std(ddof="x"), None),
    ("var-ddof-too-big", lambda m, d: A(m, V5, d).var(ddof=10), None),
    ("clip-min-above-max", lambda m, d: A(m, V5, d).clip(4, 2), None),
    ("dot-mismatch", lambda m, d: A(m, M23, d).dot(A(m, M23, d)), "aligned|mismatch|shape"),
    ("round-str-decimals", lambda m, d: A(m, V5, d).round("x"), "integer"),
    ("min-repeated-axis", lambda m, d: A(m, M23, d).min(axis=(0, 0)), "duplicate|repeated"),
    ("all-axis-3", lambda m, d: A(m, M23, d).all(axis=3), "axis 3"),
    ("cumsum-unknown-dtype", lambda m, d: A(m, M23, d).cumsum(dtype="bad"), "bad"),
    ("mean-unknown-dtype", lambda m, d: A(m, M23, d).mean(dtype="bad"), "bad"),
    ("mean-int-dtype", lambda m, d: A(m, M23, d).mean(dtype=np.int32), None),
    ("tobytes-bad-order", lambda m, d: A(m, M23, d).tobytes(order="x"), "order"),
    ("squeeze-axis-not-1", lambda m, d: A(m, np.ones((1, 2, 1)), d).squeeze((0, 1)), "size"),
    ("__array__-dtype", lambda m, d: A(m, M23, d).__array__(np.float64), None),
    ("transpose-list", lambda m, d: A(m, M23, d).transpose([1, 0]), None),
    ("transpose-None", lambda m, d: A(m, M23, d).transpose(None), None),
    ("swapaxes-float-axis", lambda m, d: A(m, M23, d).swapaxes(0.0, 1), "int"),
    ("diagonal-float-offset", lambda m, d: A(m, M23, d).diagonal(1.5), "integer"),
    ("tolist-argument", lambda m, d: A(m, M23, d).tolist(1), "argument"),
    ("copy-unknown-keyword", lambda m, d: A(m, M23, d).copy(foo=1), "foo"),
    ("conj-out-wrong-shape", lambda m, d: A(m, M23, d).conj(out=A(m, V5, d)), "out"),
    ("sum-out-wrong-shape", lambda m, d: A(m, M23, d).sum(axis=0, out=A(m, V5, d)), "shape|dimension"),
    ("argmax-out-float", lambda m, d: A(m, M23, d).argmax(axis=0, out=A(m, [0.0, 0.0, 0.0], np.float32)),
     "out|int"),
    ("any-out-wrong-shape", lambda m, d: A(m, M23, d).any(axis=0, out=A(m, [True, False])), "shape|dimension"),
]

ATTRIBUTES = [
    ("dtype-set-unknown", lambda m, d: _set(A(m, V5, d), "dtype", "bad"), "bad"),
    ("dtype-set-0d-other-size", lambda m, d: _set(A(m, np.float32(1)), "dtype", np.int16), "0-d|size"),
    ("shape-set-negative", lambda m, d: _set(A(m, V5, d), "shape", (-5,)), None),
    ("shape-set-int", lambda m, d: _set(A(m, V5, d), "shape", 5), None),
    ("shape-set-None", lambda m, d: _set(A(m, V5, d), "shape", None), None),
    ("flags-unknown-key", lambda m, d: A(m, V5, d).flags["Q"], "Q|flag"),
    ("flags-set-owndata", lambda m, d: A(m, V5, d).flags.__setitem__("OWNDATA", False), "flag"),
    ("flags-set-c-contiguous", lambda m, d: A(m, V5, d).flags.__setitem__("C", True), "flag"),
    ("flags-set-writebackifcopy", lambda m, d: A(m, V5, d).flags.__setitem__("X", True), "WRITEBACKIFCOPY"),
    ("setflags-uic", lambda m, d: A(m, V5, d).setflags(uic=True), "WRITEBACKIFCOPY"),
    ("itemset-removed", lambda m, d: A(m, V5, d).itemset(0, 1), "itemset"),
    ("newbyteorder-removed", lambda m, d: A(m, V5, d).newbyteorder(), "newbyteorder"),
    ("tostring-removed", lambda m, d: A(m, V5, d).tostring(), "tostring"),
    ("getfield-bad-offset", lambda m, d: A(m, V5, np.int32).getfield(np.int16, 4), "offset|size"),
    ("getfield-bigger", lambda m, d: A(m, V5, np.int32).getfield(np.int64), "size|offset"),
    ("astype-bad-order", lambda m, d: A(m, V5, d).astype(np.int8, order="X"), "order"),
    ("to_device-unknown", lambda m, d: A(m, V5, d).to_device("gpu9"), None),
    ("array_namespace-bad-version", lambda m, d: A(m, V5, d).__array_namespace__(api_version="1999.12"), "1999"),
    ("dlpack-stream", lambda m, d: A(m, V5, d).__dlpack__(stream=5), "stream"),
    ("std-mean-shape", lambda m, d: A(m, M23, d).std(axis=0, mean=A(m, [1, 2], d)), "broadcast|shape"),
    ("cumprod-tuple-axis", lambda m, d: A(m, M23, d).cumprod(axis=(0, 1)), "int"),
    ("argmin-keepdims-str", lambda m, d: A(m, M23, d).argmin(axis=0, keepdims="x"), None),
    ("sort-stable-and-kind", lambda m, d: A(m, V5, d).sort(kind="stable", stable=True), "stable|kind"),
]


def _set(x, name, value):
    setattr(x, name, value)
    return x


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in IN_PLACE + BUILTINS
                                             + METHOD_ARGUMENTS + ATTRIBUTES])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)
