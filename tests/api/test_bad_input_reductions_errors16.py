"""Reductions, scans, ufuncs and their methods, ``out=`` and calculus functions given bad input as users give
it: kdsl raises NumPy's exception (class or subclass, a message naming the problem), never an internal error
(tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])
E = np.zeros(0)

REDUCERS = ["sum", "prod", "mean", "std", "var", "max", "min", "any", "all", "ptp", "average", "count_nonzero",
            "nansum", "nanmean", "nanmax", "median"]
SCANS = ["argmax", "argmin", "cumsum", "cumprod", "nancumsum", "nanargmax", "sort", "argsort"]


def _axis_cases():
    cases = []
    for fn in REDUCERS + SCANS:
        f = lambda m, d, axis, fn=fn: getattr(m, fn)(A(m, M23, d), axis=axis)  # noqa: E731
        cases += [(f"{fn}-axis-2", lambda m, d, f=f: f(m, d, 2), "axis 2"),
                  (f"{fn}-axis--3", lambda m, d, f=f: f(m, d, -3), "axis -3"),
                  (f"{fn}-axis-float", lambda m, d, f=f: f(m, d, 1.0), "float|integer"),
                  (f"{fn}-axis-str", lambda m, d, f=f: f(m, d, "0"), "str")]
        if fn in REDUCERS:
            cases += [(f"{fn}-axis-repeated", lambda m, d, f=f: f(m, d, (0, 0)), "repeated|duplicate"),
                      (f"{fn}-axis-repeated-negative", lambda m, d, f=f: f(m, d, (1, -1)), "repeated|duplicate")]
    return cases


OTHERS = [
    ("argmax-empty", lambda m, d: m.argmax(A(m, E, d)), "empty"),
    ("argmin-empty", lambda m, d: m.argmin(A(m, E, d)), "empty"),
    ("max-empty", lambda m, d: m.max(A(m, E, d)), "identity|empty"),
    ("min-empty-axis", lambda m, d: m.min(A(m, np.zeros((0, 3)), d), axis=0), "identity|empty"),
    ("nanargmin-empty", lambda m, d: m.nanargmin(A(m, E, d)), "empty"),
    ("ptp-empty", lambda m, d: m.ptp(A(m, E, d)), "identity|empty"),
    ("std-ddof-str", lambda m, d: m.std(A(m, M23, d), ddof="1"), None),
    ("sum-keepdims-str", lambda m, d: m.sum(A(m, M23, d), axis=0, keepdims="yes"), "str"),
    ("max-keepdims-float", lambda m, d: m.max(A(m, M23, d), axis=0, keepdims=1.0), "float"),
    ("sum-keepdims-2", lambda m, d: m.sum(A(m, M23, d), axis=0, keepdims=2), None),
    ("argmax-keepdims-str", lambda m, d: m.argmax(A(m, M23, d), axis=0, keepdims="yes"), None),
    ("sum-unknown-dtype", lambda m, d: m.sum(A(m, M23, d), dtype="foo"), "foo"),
    ("sum-out-shape", lambda m, d: m.sum(A(m, M23, d), axis=0, out=m.zeros(2, d)), "shape"),
    ("mean-out-shape", lambda m, d: m.mean(A(m, M23, d), axis=1, out=m.zeros(3, np.float32)), "shape"),
    ("argmax-out-shape", lambda m, d: m.argmax(A(m, M23, d), axis=0, out=m.zeros(2, np.int64)), "shape"),
    ("argmax-out-float", lambda m, d: m.argmax(A(m, M23, d), axis=0, out=m.zeros(3, np.float32)), "cast"),
    ("argmin-out-uint64", lambda m, d: m.argmin(A(m, M23, d), axis=0, out=m.zeros(3, np.uint64)), "cast"),
    ("argmin-out-int32", lambda m, d: m.argmin(A(m, M23, d), axis=0, out=m.zeros(3, np.int32)), None),
    ("cumsum-out-shape", lambda m, d: m.cumsum(A(m, V5, d), out=m.zeros(3, d)), "shape"),
    ("cumsum-axis-tuple", lambda m, d: m.cumsum(A(m, M23, d), axis=(0, 1)), "tuple|integer"),
    ("average-weights-length", lambda m, d: m.average(A(m, M23, d), axis=1, weights=A(m, [1, 2], d)), "length|shape"),
    ("average-weights-sum-zero", lambda m, d: m.average(A(m, [1, 2], d), weights=A(m, [0, 0], d)), "zero"),
    ("average-weights-no-axis", lambda m, d: m.average(A(m, M23, d), weights=A(m, [1, 2, 3], d)), "axis"),
    ("percentile-over-100", lambda m, d: m.percentile(A(m, M23, d), 101), "Percentiles"),
    ("quantile-negative", lambda m, d: m.quantile(A(m, M23, d), -0.1), "Quantiles"),
    ("quantile-bad-method", lambda m, d: m.quantile(A(m, M23, d), 0.5, method="bad"), "method"),
    ("add-out-shape", lambda m, d: m.add(A(m, [1, 2], d), 1, out=m.zeros(3, d)), "shape"),
    ("add-out-cast", lambda m, d: m.add(A(m, [1, 2], d), 1.5, out=m.zeros(2, np.int32)), "cast"),
    ("sqrt-out-shape", lambda m, d: m.sqrt(A(m, [1, 2], d), out=m.zeros((2, 2), np.float32)), "shape"),
    ("clip-out-shape", lambda m, d: m.clip(A(m, [1, 2], d), 0, 1, out=m.zeros(3, d)), "shape"),
    ("clip-bounds-unbroadcastable", lambda m, d: m.clip(A(m, [1, 2], d), A(m, [0, 0, 0], d), 3), "broadcast"),
    ("clip-str-bound", lambda m, d: m.clip(A(m, [1, 2], d), "a", 3), "str"),
    ("add-str", lambda m, d: A(m, V5, d) + "1", "str"),
    ("less-str", lambda m, d: A(m, V5, d) < "1", "str"),
    ("maximum-str", lambda m, d: m.maximum(A(m, V5, d), "1"), "str"),
    ("where-str", lambda m, d: m.where(A(m, V5, d) > 1, "a", 3), "str"),
    ("matmul-out-shape", lambda m, d: m.matmul(A(m, M23, d), A(m, M23.T, d), out=m.zeros((3, 3), d)), "shape"),
    ("matmul-0d", lambda m, d: m.matmul(A(m, 1, d), A(m, [1, 2], d)), "scalar|0"),
    ("matmul-mismatch", lambda m, d: m.matmul(A(m, M23, d), A(m, M23, d)), "mismatch|shape"),
    ("dot-mismatch", lambda m, d: m.dot(A(m, M23, d), A(m, M23, d)), "align|shape|mismatch"),
    ("inner-mismatch", lambda m, d: m.inner(A(m, [1, 2], d), A(m, [1, 2, 3], d)), "align|shape"),
    ("tensordot-mismatch", lambda m, d: m.tensordot(A(m, M23, d), A(m, M23, d), axes=1), "mismatch|shape"),
    ("where-unbroadcastable", lambda m, d: m.where(A(m, [True, False]), A(m, [1, 2, 3], d), 0), "broadcast"),
    ("where-two-arguments", lambda m, d: m.where(A(m, [True, False]), 1), "either both or neither"),
    ("add.reduce-axis-2", lambda m, d: m.add.reduce(A(m, M23, d), axis=2), "axis 2"),
    ("add.reduce-axis-repeated", lambda m, d: m.add.reduce(A(m, M23, d), axis=(0, 0)), "duplicate|repeated"),
    ("add.reduce-out-shape", lambda m, d: m.add.reduce(A(m, M23, d), axis=0, out=m.zeros(2, d)), "shape"),
    ("add.accumulate-axis-2", lambda m, d: m.add.accumulate(A(m, M23, d), axis=2), "axis 2"),
    ("add.accumulate-axis-tuple", lambda m, d: m.add.accumulate(A(m, M23, d), axis=(0, 1)), "multiple|tuple"),
    ("subtract.reduce-two-axes", lambda m, d: m.subtract.reduce(A(m, M23, d), axis=(0, 1)), "reorderable"),
    ("maximum.reduce-empty", lambda m, d: m.maximum.reduce(A(m, E, d)), "identity"),
    ("maximum.reduce-where-no-initial",
     lambda m, d: m.maximum.reduce(A(m, V5, d), where=A(m, [True, False, True, True, True])), "initial"),
    ("add.at-out-of-range", lambda m, d: m.add.at(A(m, V5, d), [0, 7], 1), "out of bounds"),
    ("add.at-negative-out-of-range", lambda m, d: m.add.at(A(m, V5, d), [-7], 1), "out of bounds"),
    ("add.at-float-indices", lambda m, d: m.add.at(A(m, V5, d), A(m, [1.0]), 1), "integer"),
    ("add.at-values-shape", lambda m, d: m.add.at(A(m, V5, d), [0, 1], A(m, [1, 2, 3], d)), "shape|broadcast"),
    ("add.at-no-values", lambda m, d: m.add.at(A(m, V5, d), [0]), "second operand"),
    ("add.reduceat-out-of-range", lambda m, d: m.add.reduceat(A(m, V5, d), [0, 7]), "out of bounds|7"),
    ("add.reduceat-axis-1", lambda m, d: m.add.reduceat(A(m, V5, d), [0], axis=1), "axis 1"),
    ("sqrt.outer", lambda m, d: m.sqrt.outer(A(m, V5, d), A(m, V5, d)), "binary|outer"),
    ("sqrt.reduce", lambda m, d: m.sqrt.reduce(A(m, V5, d)), "binary|reduce"),
    ("add-one-operand", lambda m, d: m.add(A(m, V5, d)), "argument"),
    ("add-bad-casting", lambda m, d: m.add(A(m, V5, d), 1, casting="bad"), "casting"),
    ("add-unknown-dtype", lambda m, d: m.add(A(m, V5, d), 1, dtype="foo"), "foo"),
    ("add-unknown-keyword", lambda m, d: m.add(A(m, V5, d), 1, foo=1), "foo"),
    ("diff-n-negative", lambda m, d: m.diff(A(m, V5, d), n=-1), "order"),
    ("diff-axis-1", lambda m, d: m.diff(A(m, V5, d), axis=1), "axis 1"),
    ("diff-0d", lambda m, d: m.diff(A(m, 1, d)), "scalar|dimension"),
    ("gradient-one-element", lambda m, d: m.gradient(A(m, [1], d)), "at least"),
    ("gradient-edge-order-3", lambda m, d: m.gradient(A(m, [1, 2, 3], d), edge_order=3), "edge_order"),
    ("gradient-edge-order-2-short", lambda m, d: m.gradient(A(m, [1, 2], d), edge_order=2), "at least"),
    ("gradient-spacing-length", lambda m, d: m.gradient(A(m, [1, 2, 3], d), A(m, [1, 2], d)), "length"),
    ("gradient-too-many-spacings", lambda m, d: m.gradient(A(m, [1, 2, 3], d), 1, 2), "spacing|arguments"),
    ("gradient-axis-1", lambda m, d: m.gradient(A(m, [1, 2, 3], d), axis=1), "axis 1"),
    ("cross-length-4", lambda m, d: m.cross(A(m, [1, 2, 3, 4], d), A(m, [1, 2, 3, 4], d)), "dimension"),
    ("convolve-empty", lambda m, d: m.convolve(A(m, E, d), A(m, [1, 2], d)), "empty"),
    ("convolve-empty-kernel", lambda m, d: m.convolve(A(m, [1, 2], d), A(m, E, d)), "empty"),
    ("convolve-bad-mode", lambda m, d: m.convolve(A(m, [1, 2], d), A(m, [1], d), mode="bad"), "mode"),
    ("correlate-empty", lambda m, d: m.correlate(A(m, E, d), A(m, [1, 2], d)), "empty"),
    ("convolve-2d", lambda m, d: m.convolve(A(m, M23, d), A(m, [1], d)), "1-d|dimension"),
    ("astype-unknown", lambda m, d: A(m, V5, d).astype("foo"), "foo"),
    ("astype-float31", lambda m, d: A(m, V5, d).astype("float31"), "float31"),
    ("astype-safe-casting", lambda m, d: A(m, V5, d).astype(np.int8, casting="safe"), "cast"),
    ("astype-bad-casting", lambda m, d: A(m, V5, d).astype(np.int32, casting="nope"), "casting"),
]


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in _axis_cases() + OTHERS])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)
