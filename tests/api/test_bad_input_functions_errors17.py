"""More of kd's namespace given bad input as users give it (diff, clip, joins and splits, products, creation from
host data, copyto, broadcast_shapes, math ufuncs on kinds they do not take, gufunc methods): kdsl raises NumPy's
exception (class or a subclass, a message naming the problem), never an internal error
(tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])
W5 = np.array([1.0, 2.0, 0.5, 1.0, 3.0])


def _done(f, *args, **kw):
    f(*args, **kw)
    return args[0]


SHAPES = [
    ("diff-prepend-shape", lambda m, d: m.diff(A(m, M23, d), prepend=A(m, [1, 2], d)), "axis 1"),
    ("diff-axis", lambda m, d: m.diff(A(m, V5, d), axis=1), "axis 1"),
    ("diff-float-n", lambda m, d: m.diff(A(m, V5, d), n=1.5), "integer"),
    ("clip-out-shape", lambda m, d: m.clip(A(m, V5, d), 1, 2, out=A(m, [1, 2], d)), "broadcast"),
    ("linspace-axis", lambda m, d: m.linspace(A(m, [0, 1], d), 1, 3, axis=3), "axis 3"),
    ("concatenate-dtype-and-out", lambda m, d: m.concatenate([A(m, V5, d)], out=A(m, V5, d), dtype=np.float32),
     "`out` or `dtype`"),
    ("concatenate-out-shape", lambda m, d: m.concatenate([A(m, V5, d)] * 2, out=A(m, V5, d)), "wrong shape"),
    ("concatenate-casting", lambda m, d: m.concatenate([A(m, W5)], dtype=np.int32, casting="safe"), "cast"),
    ("stack-out-shape", lambda m, d: m.stack([A(m, V5, d)] * 2, out=A(m, V5, d)), "dimensionality"),
    ("array_split-negative", lambda m, d: m.array_split(A(m, V5, d), -1), "larger than 0"),
    ("split-float-indices", lambda m, d: m.split(A(m, V5, d), [1.5]), "integers"),
    ("array_split-float-indices", lambda m, d: m.array_split(A(m, V5, d), [1, 2.5]), "integers"),
    ("split-integer-indices", lambda m, d: m.split(A(m, V5, d), [np.int64(1), 3]), None),
    ("tile-float", lambda m, d: m.tile(A(m, V5, d), 1.5), "integer"),
    ("kron-0d", lambda m, d: m.kron(A(m, 2, d), A(m, V5, d)), None),
    ("inner-mismatch", lambda m, d: m.inner(A(m, M23, d), A(m, M23.T, d)), "mismatch|aligned"),
    ("outer-out-shape", lambda m, d: m.outer(A(m, V5, d), A(m, V5, d), out=A(m, V5, d)), "shape"),
    ("cross-axisa", lambda m, d: m.cross(A(m, [1, 2, 3], d), A(m, [1, 2, 3], d), axisa=2), "axis 2"),
    ("tensordot-bad-axes", lambda m, d: m.tensordot(A(m, M23, d), A(m, M23, d), axes=([0], [1])), "mismatch"),
    ("tensordot-axes-too-many", lambda m, d: m.tensordot(A(m, M23, d), A(m, M23, d), axes=3), "axis|range"),
    ("dot-out-wrong", lambda m, d: m.dot(A(m, M23, d), A(m, M23.T, d), out=A(m, V5, d)), "shape"),
    ("matmul-0d", lambda m, d: m.matmul(A(m, 2, d), A(m, V5, d)), "enough dimensions"),
    ("matmul-axes-bad", lambda m, d: m.matmul(A(m, M23, d), A(m, M23.T, d), axes=[(0,), (0,), (0,)]), "core"),
    ("vdot-sizes", lambda m, d: m.vdot(A(m, V5, d), A(m, [1, 2], d)), "size"),
    ("broadcast_shapes-mismatch", lambda m, d: m.broadcast_shapes((2,), (3,)), "broadcast"),
    ("broadcast_shapes-negative", lambda m, d: m.broadcast_shapes((-1,)), "negative"),
    ("broadcast_shapes-negative-with-one", lambda m, d: m.broadcast_shapes((1,), (2, -3)), "negative"),
]

CREATION_AND_COPIES = [
    ("full-str-fill", lambda m, d: m.full(3, "x", dtype=d), "x"),
    ("full-list-fill-shape", lambda m, d: m.full(3, [1, 2], dtype=d), "broadcast"),
    ("fromiter-bad", lambda m, d: m.fromiter([1, "a"], dtype=d), "a"),
    ("fromiter-count", lambda m, d: m.fromiter(iter([1, 2]), dtype=d, count=5), "too short"),
    ("array-ndmin-negative", lambda m, d: m.array(V5, ndmin=-1), None),
    ("array-ndmin-huge", lambda m, d: m.array(V5, ndmin=70), "64"),
    ("array-ragged", lambda m, d: m.array([[1, 2], [3]]), "inhomogeneous"),
    ("unique-bad-axis", lambda m, d: m.unique(A(m, M23, d), return_counts=True, axis=2), "axis 2"),
    ("setdiff1d-2d", lambda m, d: m.setdiff1d(A(m, M23, d), A(m, V5, d)), None),
    ("intersect1d-indices", lambda m, d: m.intersect1d(A(m, V5, d), A(m, V5, d), return_indices=True), None),
    ("count_nonzero-axis", lambda m, d: m.count_nonzero(A(m, M23, d), axis=2), "axis 2"),
    ("copyto-casting", lambda m, d: _done(m.copyto, A(m, V5, np.int32), A(m, W5)), "cast"),
    ("copyto-where-shape", lambda m, d: _done(m.copyto, A(m, V5, d), 1, where=A(m, [True, False])), "broadcast"),
    ("copyto-shape", lambda m, d: _done(m.copyto, A(m, V5, d), A(m, [1, 2], d)), "broadcast"),
    ("require-bad", lambda m, d: m.require(A(m, V5, d), requirements="Z"), "Z"),
    ("nan_to_num-copy-False-list", lambda m, d: m.nan_to_num([1.0, np.nan], copy=False), "avoid copy"),
    ("nan_to_num-copy-False-scalar", lambda m, d: m.nan_to_num(np.nan, copy=False), "avoid copy"),
    ("sort-order-without-fields", lambda m, d: m.sort(A(m, V5, d), order=["a"]), "field"),
    ("atleast_2d-nothing", lambda m, d: m.atleast_2d(), None),
]

UFUNC_KINDS = [
    ("ldexp-float-exponent", lambda m, d: m.ldexp(A(m, W5), A(m, W5)), "ldexp"),
    ("frexp-out-tuple", lambda m, d: m.frexp(A(m, W5), out=(A(m, W5),)), "out"),
    ("modf-int", lambda m, d: m.modf(A(m, V5)), None),
    ("gcd-float", lambda m, d: m.gcd(A(m, W5), 2), "gcd"),
    ("spacing-int", lambda m, d: m.spacing(A(m, V5)), None),
    ("heaviside-complex", lambda m, d: m.heaviside(A(m, W5 + 1j), 0.5), "heaviside"),
    ("i0-complex", lambda m, d: m.i0(A(m, W5 + 1j)), "complex"),
    ("real_if_close-negative-tol", lambda m, d: m.real_if_close(A(m, W5 + 0j), tol=-1), None),
    ("logspace-base-mismatch", lambda m, d: m.logspace(0, 1, 3, base=[2, 3]), "broadcast"),
    ("isfinite-str-list", lambda m, d: m.isfinite(["a"]), "<U1"),
    ("equal-str-list", lambda m, d: m.equal(A(m, V5, d), ["a"] * 5), "<U1"),
    ("absolute-str", lambda m, d: m.absolute("a"), "str|loop"),
    ("sinc-str", lambda m, d: m.sinc("a"), "<U1"),
    ("angle-str", lambda m, d: m.angle("a"), "<U1"),
    ("polyval-str-x", lambda m, d: m.polyval(A(m, W5), "x"), "<U1"),
    ("multiply-list-of-str", lambda m, d: A(m, V5, d) * ["a"], "<U1"),
    ("power-negative-base-fraction", lambda m, d: m.power(A(m, [-8.0]), 1 / 3), None),
    ("float_power-negative-int", lambda m, d: m.float_power(A(m, V5), -1), None),
    ("right_shift-negative", lambda m, d: m.right_shift(A(m, V5), -1), None),
    ("left_shift-bool", lambda m, d: m.left_shift(A(m, [True]), 1), None),
    ("invert-bool", lambda m, d: m.invert(A(m, [True])), None),
    ("remainder-int-by-zero", lambda m, d: m.remainder(A(m, V5), 0), None),
    ("floor_divide-int-by-zero", lambda m, d: m.floor_divide(A(m, V5), 0), None),
    ("divmod-int-by-zero", lambda m, d: m.divmod(A(m, V5), 0), None),
    ("true_divide-bool", lambda m, d: m.true_divide(A(m, [True]), A(m, [False])), None),
    ("subtract-bool", lambda m, d: m.subtract(A(m, [True]), A(m, [True])), "boolean subtract"),
    ("negative-bool", lambda m, d: m.negative(A(m, [True])), "boolean negative"),
    ("sign-bool", lambda m, d: m.sign(A(m, [True])), "sign"),
    ("exp-int-overflow", lambda m, d: m.exp(A(m, [1000])), None),
    ("add-reduce-unknown-dtype", lambda m, d: m.add.reduce(A(m, V5, d), dtype="bad"), "bad"),
    ("add-outer-out-shape", lambda m, d: m.add.outer(A(m, V5, d), A(m, V5, d), out=A(m, V5, d)), "broadcast"),
    ("matmul-reduce", lambda m, d: m.matmul.reduce(A(m, M23, d)), "signature"),
    ("vecdot-accumulate", lambda m, d: m.vecdot.accumulate(A(m, M23, d)), "signature"),
    ("matvec-reduceat", lambda m, d: m.matvec.reduceat(A(m, M23, d), [0]), "signature"),
    ("matmul-outer", lambda m, d: m.matmul.outer(A(m, M23, d), A(m, M23, d)), "signature"),
    ("vecdot-at", lambda m, d: m.vecdot.at(A(m, M23, d), [0], A(m, M23, d)), "signature"),
]


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in SHAPES + CREATION_AND_COPIES
                                             + UFUNC_KINDS])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)
