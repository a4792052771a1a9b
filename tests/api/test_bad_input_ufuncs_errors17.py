"""ufunc calls and ufunc methods given bad input as users give it: kdsl raises NumPy's exception (class or a
subclass, a message naming the problem), never an internal error (tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])


def _at(m, ufunc, x, *args):
    getattr(m, ufunc).at(x, *args)
    return x


CALLS = [
    ("add-one-argument", lambda m, d: m.add(A(m, V5, d)), "argument"),
    ("add-three-arguments", lambda m, d: m.add(A(m, V5, d), 1, 2, 3), "argument"),
    ("sqrt-no-argument", lambda m, d: m.sqrt(), "argument"),
    ("sqrt-two-inputs", lambda m, d: m.sqrt(A(m, V5, d), A(m, V5, d), A(m, V5, d)), "argument"),
    ("add-out-tuple-too-long", lambda m, d: m.add(A(m, V5, d), 1, out=(A(m, V5, d), A(m, V5, d))), "out"),
    ("divmod-out-tuple-too-short", lambda m, d: m.divmod(A(m, V5, d), 2, out=(A(m, V5, d),)), "out"),
    ("add-out-wrong-shape", lambda m, d: m.add(A(m, V5, d), 1, out=A(m, np.zeros(3), d)), "shape|broadcast"),
    ("add-out-not-array", lambda m, d: m.add(A(m, V5, d), 1, out=[0] * 5), "out|array"),
    ("add-out-and-positional", lambda m, d: m.add(A(m, V5, d), 1, A(m, V5, d), out=A(m, V5, d)), "out"),
    ("add-where-bad-shape", lambda m, d: m.add(A(m, V5, d), 1, where=A(m, [True, False])), "broadcast"),
    ("add-where-without-out", lambda m, d: m.add(A(m, V5, d), 1, where=A(m, V5 > 2)).shape, None),
    ("add-casting-same_kind-to-int",
     lambda m, d: m.add(A(m, V5, np.int32), 1.5, out=A(m, V5, np.int32), casting="same_kind"), "cast"),
    ("add-float-out-int", lambda m, d: m.add(A(m, V5, np.int32), A(m, V5, d) + 0.5, out=A(m, V5, np.int32)),
     "cast"),
    ("add-casting-unknown", lambda m, d: m.add(A(m, V5, d), 1, casting="bad"), "casting"),
    ("add-casting-no", lambda m, d: m.add(A(m, V5, np.int32), A(m, V5, np.int64), casting="no"), "cast"),
    ("add-dtype-unknown", lambda m, d: m.add(A(m, V5, d), 1, dtype="bad"), "bad"),
    ("add-dtype-int-of-floats", lambda m, d: m.add(A(m, V5 + 0.5), 1, dtype=np.int32), "cast"),
    ("add-signature-bad", lambda m, d: m.add(A(m, V5, d), 1, signature="bad"), "type-string"),
    ("add-signature-and-dtype", lambda m, d: m.add(A(m, V5, d), 1, signature="ii->i", dtype=np.int32), "signature"),
    ("add-signature-wrong-length", lambda m, d: m.add(A(m, V5, d), 1, signature=(None,)), "single item"),
    ("add-signature-one-dtype", lambda m, d: m.add(A(m, V5, d), 1, signature=(np.int32,)), "dtype"),
    ("add-signature-tuple-length", lambda m, d: m.add(A(m, V5, d), 1, signature=("i", "i")), "length"),
    ("add-unknown-keyword", lambda m, d: m.add(A(m, V5, d), 1, foo=1), "foo"),
    ("add-order-bad", lambda m, d: m.add(A(m, V5, d), 1, order="X"), "order"),
    ("power-int-negative", lambda m, d: m.power(A(m, V5), -1), "negative"),
    ("power-int-negative-array", lambda m, d: m.power(A(m, V5), A(m, [-1, 1, 1, 1, 1])), None),
    ("left_shift-float", lambda m, d: m.left_shift(A(m, V5, d) + 0.5, 1), "left_shift|not supported|loop"),
    ("right_shift-float-count", lambda m, d: m.right_shift(A(m, V5), 1.5), "right_shift|not supported|loop"),
    ("bitwise_or-float", lambda m, d: m.bitwise_or(A(m, V5, d) + 0.5, 1), "bitwise_or|not supported|loop"),
    ("bitwise_xor-float", lambda m, d: m.bitwise_xor(A(m, V5), 1.5), "bitwise_xor|not supported|loop"),
    ("divmod-complex", lambda m, d: m.divmod(A(m, V5 + 1j), 2), None),
    ("floor_divide-complex", lambda m, d: m.floor_divide(A(m, V5 + 1j), 2), None),
    ("fmod-complex", lambda m, d: m.fmod(A(m, V5 + 1j), 2), None),
    ("logaddexp-complex", lambda m, d: m.logaddexp(A(m, V5 + 1j), 2), None),
    ("arctan2-complex", lambda m, d: m.arctan2(A(m, V5 + 1j), 2), None),
    ("isnan-str", lambda m, d: m.isnan("a"), None),
    ("sqrt-str", lambda m, d: m.sqrt("a"), None),
    ("add-list-of-lists-ragged", lambda m, d: m.add([[1, 2], [3]], 1), "inhomogeneous"),
]

METHODS = [
    ("sqrt-reduce", lambda m, d: m.sqrt.reduce(A(m, V5, d)), "binary|reduce"),
    ("negative-accumulate", lambda m, d: m.negative.accumulate(A(m, V5, d)), "binary|accumulate"),
    ("sqrt-outer", lambda m, d: m.sqrt.outer(A(m, V5, d), A(m, V5, d)), "binary|outer"),
    ("abs-reduceat", lambda m, d: m.absolute.reduceat(A(m, V5, d), [0, 2]), "binary|reduceat"),
    ("divmod-reduce", lambda m, d: m.divmod.reduce(A(m, V5, d)), "reduce|output|binary"),
    ("divmod-accumulate", lambda m, d: m.divmod.accumulate(A(m, V5, d)), "accumulate|output|binary"),
    ("add-reduce-bad-axis", lambda m, d: m.add.reduce(A(m, M23, d), axis=2), "axis 2"),
    ("add-reduce-0d-axis", lambda m, d: m.add.reduce(A(m, 1, d)), "axis|0-d|zero-dimensional"),
    ("minimum-reduce-empty", lambda m, d: m.minimum.reduce(A(m, np.zeros(0), d)), "identity|empty"),
    ("arctan2-reduce-empty", lambda m, d: m.arctan2.reduce(A(m, np.zeros(0), d)), "identity|empty"),
    ("add-accumulate-tuple-axis", lambda m, d: m.add.accumulate(A(m, M23, d), axis=(0, 1)), "multiple axes"),
    ("add-accumulate-0d", lambda m, d: m.add.accumulate(A(m, 1, d)), "scalar"),
    ("add-accumulate-axis-None", lambda m, d: m.add.accumulate(A(m, M23, d), axis=None), None),
    ("add-reduceat-out-of-range", lambda m, d: m.add.reduceat(A(m, V5, d), [0, 5]), "out-of-bounds|out of bounds"),
    ("add-reduceat-negative", lambda m, d: m.add.reduceat(A(m, V5, d), [-1, 2]), "out-of-bounds|out of bounds"),
    ("add-reduceat-float-indices", lambda m, d: m.add.reduceat(A(m, V5, d), [0.0, 2.0]), "cast|integer"),
    ("add-reduceat-2d-indices", lambda m, d: m.add.reduceat(A(m, V5, d), [[0, 2]]), "too deep"),
    ("add-reduceat-bad-axis", lambda m, d: m.add.reduceat(A(m, V5, d), [0, 2], axis=1), "axis 1"),
    ("add-reduceat-descending", lambda m, d: m.add.reduceat(A(m, V5, d), [3, 1]), None),
    ("add-reduceat-empty-indices", lambda m, d: m.add.reduceat(A(m, V5, d), []), None),
    ("add-outer-unknown-keyword", lambda m, d: m.add.outer(A(m, V5, d), 1, foo=1), "foo"),
    ("add-outer-one-argument", lambda m, d: m.add.outer(A(m, V5, d)), "argument|outer"),
    ("add-at-out-of-range", lambda m, d: _at(m, "add", A(m, V5, d), [7], 1), "out of bounds"),
    ("add-at-float-indices", lambda m, d: _at(m, "add", A(m, V5, d), A(m, [0.5]), 1), "index|integer|cast"),
    ("add-at-values-shape", lambda m, d: _at(m, "add", A(m, V5, d), [0, 1], A(m, [1, 2, 3], d)), "broadcast|shape"),
    ("add-at-missing-b", lambda m, d: _at(m, "add", A(m, V5, d), [0]), "second operand|b|argument"),
    ("negative-at-extra-b", lambda m, d: _at(m, "negative", A(m, V5, d), [0], 1), "second operand|unary|argument"),
    ("divmod-at", lambda m, d: _at(m, "divmod", A(m, V5, d), [0], 1), "output|at|single"),
    ("add-at-into-list", lambda m, d: m.add.at([1, 2], [0], 1), "array|first operand|at"),
    ("add-reduce-initial-str", lambda m, d: m.add.reduce(A(m, V5, d), initial="x"), "string"),
    ("sum-initial-str", lambda m, d: m.sum(A(m, V5, d), initial="x"), "string"),
    ("prod-initial-str", lambda m, d: m.prod(A(m, V5, d), initial="x"), "string"),
    ("max-initial-str", lambda m, d: m.max(A(m, V5, d), initial="x"), "x"),
    ("add-reduce-where-bad-shape", lambda m, d: m.add.reduce(A(m, V5, d), where=A(m, [True, False])), "broadcast"),
    ("maximum-reduce-where-no-initial",
     lambda m, d: m.maximum.reduce(A(m, V5, d), where=A(m, V5 > 2)), "initial|identity"),
    ("add-reduce-out-wrong-shape", lambda m, d: m.add.reduce(A(m, M23, d), axis=0, out=A(m, np.zeros(2), d)),
     "shape|dimension"),
]

KEYWORDS = [
    ("where-int", lambda m, d: m.add(A(m, V5, d), 1, out=A(m, V5, d), where=A(m, V5)), None),
    ("where-float", lambda m, d: m.add(A(m, V5, d), 1, out=A(m, V5, d), where=A(m, V5 + 0.5)), "cast|where"),
    ("where-list", lambda m, d: m.add(A(m, V5, d), 1, out=A(m, V5, d), where=[True, False, True, False, True]), None),
    ("sqrt-dtype-int", lambda m, d: m.sqrt(A(m, V5 + 0.5), dtype=np.int32), "loop|sqrt"),
    ("add-casting-equiv", lambda m, d: m.add(A(m, V5, np.int32), A(m, V5, np.int64), casting="equiv"), "cast"),
    ("add-subok-False", lambda m, d: m.add(A(m, V5, d), 1, subok=False), None),
    ("add-axes", lambda m, d: m.add(A(m, V5, d), 1, axes=[(0,)]), "axes"),
    ("add-axis", lambda m, d: m.add(A(m, V5, d), 1, axis=0), "axis"),
    ("add-keepdims", lambda m, d: m.add(A(m, V5, d), 1, keepdims=True), "keepdims"),
    ("add-extobj", lambda m, d: m.add(A(m, V5, d), 1, extobj=[]), "extobj"),
    ("add-dtype-and-signature", lambda m, d: m.add(A(m, V5, d), 1, dtype=np.float32, signature="ff->f"), "signature"),
    ("add-out-unsafe", lambda m, d: m.add(A(m, V5 + 0.5), 1, out=A(m, V5, np.int32), casting="unsafe"), None),
    ("add-out-tuple-positional", lambda m, d: m.add(A(m, V5, d), 1, (A(m, V5, d),)), "ArrayType"),
    ("add-out-None-tuple", lambda m, d: m.add(A(m, V5, d), 1, out=(None,)), None),
    ("add-out-0d-for-vector", lambda m, d: m.add(A(m, V5, d), 1, out=A(m, 0, d)), "broadcast|shape"),
    ("add-reduce-keepdims-str", lambda m, d: m.add.reduce(A(m, V5, d), keepdims="x"), None),
    ("add-reduce-axis-str", lambda m, d: m.add.reduce(A(m, V5, d), axis="0"), "int"),
    ("add-reduce-out-tuple-of-two",
     lambda m, d: m.add.reduce(A(m, M23, d), axis=0, out=(A(m, [0, 0, 0], d), A(m, [0, 0, 0], d))), "one entry"),
    ("add-accumulate-out-tuple-of-two",
     lambda m, d: m.add.accumulate(A(m, V5, d), out=(A(m, V5, d), A(m, V5, d))), "one entry"),
    ("minimum-reduce-empty-axis", lambda m, d: m.minimum.reduce(A(m, np.zeros((0, 2)), d), axis=0), "identity"),
    ("add-accumulate-out-shape", lambda m, d: m.add.accumulate(A(m, V5, d), out=A(m, [0, 0], d)), "shape"),
    ("add-accumulate-unknown-dtype", lambda m, d: m.add.accumulate(A(m, V5, d), dtype="bad"), "bad"),
    ("add-reduceat-out-shape", lambda m, d: m.add.reduceat(A(m, V5, d), [0, 2], out=A(m, V5, d)), "shape"),
    ("add-reduceat-float-index", lambda m, d: m.add.reduceat(A(m, V5, d), 1.5), "too small depth"),
    ("subtract-reduce-empty", lambda m, d: m.subtract.reduce(A(m, np.zeros(0), d)), "identity"),
    ("power-reduce-empty", lambda m, d: m.power.reduce(A(m, np.zeros(0), d)), None),
    ("divide-accumulate-int", lambda m, d: m.divide.accumulate(A(m, V5)), None),
    ("equal-reduce-ints", lambda m, d: m.equal.reduce(A(m, V5)), None),
    ("logical_and-at-float", lambda m, d: _at(m, "logical_and", A(m, V5 + 0.5), [0], 1), None),
    ("add-at-negative-out-of-range", lambda m, d: _at(m, "add", A(m, V5, d), [-6], 1), "out of bounds"),
    ("add-at-2d-out-of-range", lambda m, d: _at(m, "add", A(m, M23, d), ([0, 1], [0, 3]), 1), "out of bounds"),
    ("add-at-bool-mask", lambda m, d: _at(m, "add", A(m, V5, d), A(m, V5 > 2), 1), None),
    ("add-at-slice", lambda m, d: _at(m, "add", A(m, V5, d), slice(0, 2), 1), None),
    ("add-at-float-into-int", lambda m, d: _at(m, "add", A(m, V5, np.int32), [0], 1.5), None),
    ("sqrt-at-extra-value", lambda m, d: _at(m, "sqrt", A(m, V5 + 0.5), [0], 1.0), "second operand|unary"),
    ("negative-at-bool", lambda m, d: _at(m, "negative", A(m, V5 > 2), [0]), "boolean negative"),
]


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in CALLS + METHODS + KEYWORDS])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)
