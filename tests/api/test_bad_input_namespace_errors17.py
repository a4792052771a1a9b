"""The rest of kd's namespace (where, index tricks, edits, statistics, polynomials, kd.ma, file I/O) given bad
input as users give it: kdsl raises NumPy's exception (class or a subclass, a message naming the problem), never
an internal error (tests/api/bad_input_testing.py). errors16's tables hold the cases already covered there."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.array([3, 1, 4, 1, 5])
W5 = np.array([1.0, 2.0, 0.5, 1.0, 3.0])


def _done(f, x, *args):
    f(x, *args)
    return x


FUNCTIONS = [
    ("where-one-argument-0d", lambda m, d: m.where(A(m, 1, d)), None),
    ("where-two-arguments", lambda m, d: m.where(A(m, V5 > 2), A(m, V5, d)), "either both or neither"),
    ("where-unbroadcastable", lambda m, d: m.where(A(m, V5 > 2), A(m, M23, d), 0), "broadcast"),
    ("nonzero-0d", lambda m, d: m.nonzero(A(m, 1, d)), "0d|0-d"),
    ("argwhere-0d", lambda m, d: m.argwhere(A(m, 1, d)), None),
    ("flatnonzero-0d", lambda m, d: m.flatnonzero(A(m, 0, d)), None),
    ("meshgrid-bad-indexing-ij", lambda m, d: m.meshgrid(A(m, [1], d), A(m, [2], d), indexing="IJ"), "indexing"),
    ("meshgrid-unknown-keyword", lambda m, d: m.meshgrid(A(m, [1], d), foo=1), "foo"),
    ("unravel_index-negative", lambda m, d: m.unravel_index(-1, (2, 3)), "bounds"),
    ("unravel_index-bad-order", lambda m, d: m.unravel_index(1, (2, 3), order="X"), "order"),
    ("unravel_index-negative-dims", lambda m, d: m.unravel_index(1, (2, -3)), "negative|dimensions"),
    ("ravel_multi_index-bad-mode", lambda m, d: m.ravel_multi_index((1, 0), (2, 3), mode="bad"), "mode|clipmode"),
    ("ravel_multi_index-modes-length", lambda m, d: m.ravel_multi_index((1, 0), (2, 3), mode=("clip",)), "mode"),
    ("ravel_multi_index-negative", lambda m, d: m.ravel_multi_index((-1, 0), (2, 3)), "bounds|invalid entry"),
    ("ravel_multi_index-float", lambda m, d: m.ravel_multi_index((1.0, 0.0), (2, 3)), "int"),
    ("indices-negative", lambda m, d: m.indices((2, -1)), "negative"),
    ("indices-float", lambda m, d: m.indices((2.5,)), None),
    ("tri-negative", lambda m, d: m.tri(-1), "negative"),
    ("tril-1d", lambda m, d: m.tril(A(m, V5, d)), None),
    ("triu-1d-k", lambda m, d: m.triu(A(m, V5, d), k=1), None),
    ("diag-0d", lambda m, d: m.diag(A(m, 1, d)), "1-d or 2-d"),
    ("diagflat-float-k", lambda m, d: m.diagflat(A(m, V5, d), k=1.5), None),
    ("trace-same-axes", lambda m, d: m.trace(A(m, M23, d), axis1=1, axis2=1), "same"),
    ("trace-axis-out-of-range", lambda m, d: m.trace(A(m, M23, d), axis1=0, axis2=5), "axis 5"),
    ("roll-float-shift", lambda m, d: m.roll(A(m, V5, d), 1.5), "integer"),
    ("roll-shift-tuple-no-axis", lambda m, d: m.roll(A(m, V5, d), (1, 2)), None),
    ("rot90-axes-three", lambda m, d: m.rot90(A(m, M23, d), axes=(0, 1, 2)), "len"),
    ("rot90-axes-out-of-range", lambda m, d: m.rot90(A(m, M23, d), axes=(0, 2)), "axes|axis"),
    ("flip-repeated-axis", lambda m, d: m.flip(A(m, M23, d), (0, 0)), "repeated"),
    ("flip-float-axis", lambda m, d: m.flip(A(m, M23, d), 1.0), "int"),
    ("flipud-0d", lambda m, d: m.flipud(A(m, 1, d)), "1d|1-d|dimension"),
    ("fliplr-1d", lambda m, d: m.fliplr(A(m, V5, d)), "2-d|2d|dimension"),
    ("insert-axis-out-of-range", lambda m, d: m.insert(A(m, M23, d), 0, 1, axis=2), "axis 2"),
    ("insert-negative-out-of-range", lambda m, d: m.insert(A(m, V5, d), -7, 0), "out of bounds"),
    ("insert-values-shape", lambda m, d: m.insert(A(m, M23, d), 1, A(m, [1, 2], d), axis=1), "broadcast|shape"),
    ("insert-float-index", lambda m, d: m.insert(A(m, V5, d), 1.5, 0), "integer|index"),
    ("insert-2d-indices", lambda m, d: m.insert(A(m, V5, d), [[1]], 0), "dimension|1 or 0|index"),
    ("delete-axis-out-of-range", lambda m, d: m.delete(A(m, M23, d), 0, axis=2), "axis 2"),
    ("delete-negative-out-of-range", lambda m, d: m.delete(A(m, V5, d), -6), "out of bounds"),
    ("delete-float-index", lambda m, d: m.delete(A(m, V5, d), 1.5), "integer|index"),
    ("delete-mask-length", lambda m, d: m.delete(A(m, V5, d), [True, False]), "boolean|shape|length"),
    ("append-axis-out-of-range", lambda m, d: m.append(A(m, M23, d), A(m, M23, d), axis=2), "axis 2"),
    ("resize-float-shape", lambda m, d: m.resize(A(m, V5, d), 2.5), None),
    ("resize-empty-to-nonempty", lambda m, d: m.resize(A(m, np.zeros(0), d), 3), None),
    ("place-values-of-strings", lambda m, d: _done(m.place, A(m, V5, d), A(m, V5 > 2), ["a"]), None),
    ("putmask-values-empty", lambda m, d: _done(m.putmask, A(m, V5, d), A(m, V5 > 2), []), None),
    ("apply_along_axis-bad-axis", lambda m, d: m.apply_along_axis(np.sum, 2, A(m, M23, d)), "axis 2"),
    ("apply_along_axis-0d", lambda m, d: m.apply_along_axis(np.sum, 0, A(m, 1, d)), "axis"),
    ("piecewise-too-many-functions", lambda m, d: m.piecewise(A(m, V5, d), [A(m, V5 > 2)], [1, 2, 3]), "function"),
    ("piecewise-condlist-shape", lambda m, d: m.piecewise(A(m, V5, d), [A(m, [True, False])], [1]), "boolean"),
    ("piecewise-condlist-too-many-axes", lambda m, d: m.piecewise(A(m, V5, d), [A(m, [[[True]]])], [1]), "too many"),
    ("piecewise-condition-of-rows", lambda m, d: m.piecewise(A(m, M23, d), [A(m, [True, False])], [lambda v: v * 2, 7]),
     None),
    ("ediff1d-to_begin-float-into-int",
     lambda m, d: m.ediff1d(A(m, V5, np.int32), to_begin=1.5), "same_kind"),
    ("trapezoid-x-length", lambda m, d: m.trapezoid(A(m, V5, d), x=A(m, [1, 2], d)), "broadcast|shape"),
    ("trapezoid-axis", lambda m, d: m.trapezoid(A(m, V5, d), axis=1), "axis|index"),
    ("diff-negative-n", lambda m, d: m.diff(A(m, V5, d), n=-1), "order must be non-negative"),
    ("diff-0d", lambda m, d: m.diff(A(m, 1, d)), "scalar|at least"),
    ("gradient-too-short", lambda m, d: m.gradient(A(m, [1], d)), "too small|at least"),
    ("gradient-bad-edge_order", lambda m, d: m.gradient(A(m, V5, d), edge_order=3), "edge_order"),
    ("gradient-spacing-count", lambda m, d: m.gradient(A(m, V5, d), 1, 2), "spacing|invalid"),
    ("cross-bad-dimension", lambda m, d: m.cross(A(m, [1, 2, 3, 4], d), A(m, [1, 2, 3, 4], d)), "dimension"),
    ("convolve-empty", lambda m, d: m.convolve(A(m, np.zeros(0), d), A(m, V5, d)), "empty"),
    ("convolve-bad-mode", lambda m, d: m.convolve(A(m, V5, d), A(m, V5, d), mode="bad"), "mode"),
    ("correlate-2d", lambda m, d: m.correlate(A(m, M23, d), A(m, V5, d)), "object too deep|1-d|dimension"),
    ("clip-bad-bounds-shape", lambda m, d: m.clip(A(m, V5, d), A(m, [1, 2], d), 5), "broadcast"),
    ("around-float-decimals", lambda m, d: m.around(A(m, V5, d), 1.5), "integer"),
    ("nan_to_num-str-nan", lambda m, d: m.nan_to_num(A(m, W5), nan="x"), None),
    ("vectorize-bad-otypes", lambda m, d: m.vectorize(lambda v: v, otypes="q!")(A(m, V5, d)), "otype"),
    ("vectorize-bad-otypes-list", lambda m, d: m.vectorize(lambda v: v, otypes=[np.float32, "bad"]), "bad"),
    ("vectorize-bad-signature", lambda m, d: m.vectorize(lambda v: v, signature="bad")(A(m, V5, d)), "signature"),
    ("vectorize-wrong-arity", lambda m, d: m.vectorize(lambda v: v)(A(m, V5, d), A(m, V5, d)), "argument"),
]

STATISTICS = [
    ("cov-float-ddof", lambda m, d: m.cov(A(m, M23, d), ddof=1.5), "integer"),
    ("cov-fweights-negative", lambda m, d: m.cov(A(m, M23, d), fweights=A(m, [1, -1, 1])), "negative"),
    ("cov-fweights-float", lambda m, d: m.cov(A(m, M23, d), fweights=A(m, [1.5, 1.0, 1.0])), "integer"),
    ("cov-fweights-length", lambda m, d: m.cov(A(m, M23, d), fweights=A(m, [1, 1])), "incompatible|number"),
    ("cov-aweights-negative", lambda m, d: m.cov(A(m, M23, d), aweights=A(m, [1.0, -1.0, 1.0])), "negative"),
    ("cov-aweights-2d", lambda m, d: m.cov(A(m, M23, d), aweights=A(m, [[1.0, 1.0, 1.0]])), "multidimensional"),
    ("cov-3d", lambda m, d: m.cov(A(m, np.ones((2, 2, 2)), d)), "dimensions|2"),
    ("cov-y-mismatch", lambda m, d: m.cov(A(m, M23, d), A(m, V5, d)), "dimension|size"),
    ("corrcoef-3d", lambda m, d: m.corrcoef(A(m, np.ones((2, 2, 2)), d)), "dimensions|2"),
    ("percentile-over-100", lambda m, d: m.percentile(A(m, V5, d), 101), "range"),
    ("percentile-negative", lambda m, d: m.percentile(A(m, V5, d), [-1, 50]), "range"),
    ("percentile-nan-q", lambda m, d: m.percentile(A(m, V5, d), np.nan), "range"),
    ("quantile-over-1", lambda m, d: m.quantile(A(m, V5, d), 1.5), "range"),
    ("quantile-bad-method", lambda m, d: m.quantile(A(m, V5, d), 0.5, method="bad"), "method|bad"),
    ("nanquantile-over-1", lambda m, d: m.nanquantile(A(m, W5), 2), "range"),
    ("nanpercentile-bad-method", lambda m, d: m.nanpercentile(A(m, W5), 50, method="x"), "method|x"),
    ("median-bad-axis", lambda m, d: m.median(A(m, V5, d), axis=1), "axis 1"),
    ("quantile-weights-bad-method", lambda m, d: m.quantile(A(m, W5), 0.5, weights=A(m, W5)), "inverted_cdf|method"),
    ("average-weights-shape", lambda m, d: m.average(A(m, M23, d), weights=A(m, [1.0, 2.0])), "shape|length|axis"),
    ("average-weights-sum-zero", lambda m, d: m.average(A(m, [1.0, 2.0]), weights=A(m, [1.0, -1.0])),
     "zero"),
    ("average-weights-axis-length", lambda m, d: m.average(A(m, M23, d), axis=1, weights=A(m, [1.0, 2.0])),
     "length|shape|axis"),
    ("average-bad-axis", lambda m, d: m.average(A(m, V5, d), axis=1), "axis 1"),
    ("histogram2d-bins-list-of-three", lambda m, d: m.histogram2d(A(m, V5, d), A(m, V5, d), bins=[2, 2, 2]),
     "dimension|bins"),
    ("histogram2d-negative-bins", lambda m, d: m.histogram2d(A(m, V5, d), A(m, V5, d), bins=-1), "positive|bins"),
    ("histogramdd-bins-count", lambda m, d: m.histogramdd(A(m, np.ones((4, 2)), d), bins=[2, 2, 2]),
     "dimension|bins"),
    ("histogramdd-range-count", lambda m, d: m.histogramdd(A(m, np.ones((4, 2)), d), range=[(0, 1)]),
     "range|dimension"),
    ("histogram_bin_edges-bad-bins", lambda m, d: m.histogram_bin_edges(A(m, V5, d), bins="bad"), "bad"),
    ("lexsort-0d-key", lambda m, d: m.lexsort(A(m, 1, d)), "sequence of keys"),
    ("partition-kth-list-out-of-range", lambda m, d: m.partition(A(m, V5, d), [1, 7]), "out of bounds"),
    ("partition-kth-2d", lambda m, d: m.partition(A(m, V5, d), [[1]]), "dimension"),
    ("argpartition-kth-2d", lambda m, d: m.argpartition(A(m, V5, d), [[1, 2]]), "dimension"),
    ("ptp-bad-axis", lambda m, d: m.ptp(A(m, V5, d), axis=1), "axis 1"),
]

POLYNOMIALS_MA = [
    ("polyfit-negative-deg", lambda m, d: m.polyfit(A(m, W5), A(m, W5), -1), "deg"),
    ("polyfit-lengths", lambda m, d: m.polyfit(A(m, W5), A(m, [1.0, 2.0]), 1), "same length|shape"),
    ("polyfit-empty", lambda m, d: m.polyfit(A(m, np.zeros(0)), A(m, np.zeros(0)), 1), "empty"),
    ("polyfit-2d-x", lambda m, d: m.polyfit(A(m, np.ones((2, 2))), A(m, [1.0, 2.0]), 1), "1D|vector|x"),
    ("polyfit-3d-y", lambda m, d: m.polyfit(A(m, W5), A(m, np.ones((5, 1, 1))), 1), "1D|2D|y"),
    ("polyfit-w-length", lambda m, d: m.polyfit(A(m, W5), A(m, W5), 1, w=A(m, [1.0])), "same length|w"),
    ("polyval-2d-p", lambda m, d: m.polyval(A(m, np.ones((2, 2)), d), 1.0), None),
    ("roots-2d", lambda m, d: m.roots(A(m, np.ones((2, 2)), d)), "rank-1|1-d|dimension"),
    ("poly-3d", lambda m, d: m.poly(A(m, np.ones((2, 2, 2)), d)), "1-d|2-d|square|rank"),
    ("polyder-negative-m", lambda m, d: m.polyder(A(m, W5), -1), "negative|order"),
    ("polyint-negative-m", lambda m, d: m.polyint(A(m, W5), -1), "negative|order"),
    ("ma-mask-wrong-size", lambda m, d: m.ma.array(A(m, V5, d), mask=[True, False]), "mask|size|shape"),
    ("ma-mask-str", lambda m, d: m.ma.array(A(m, V5, d), mask="x"), None),
    ("ma-masked_where-shape", lambda m, d: m.ma.masked_where(A(m, [True, False]), A(m, V5, d)), "shape|mask"),
    ("ma-masked_values-str", lambda m, d: m.ma.masked_values(A(m, V5, d), "x"), "str|loop"),
    ("ma-masked_values-str-of-floats", lambda m, d: m.ma.masked_values(A(m, W5), "x"), "str|promot"),
    ("isclose-str", lambda m, d: m.isclose(A(m, W5), "x"), "str|promot"),
    ("ma-masked_outside-missing", lambda m, d: m.ma.masked_outside(A(m, V5, d), 1), "argument|v2"),
]


def _save_load(m, path, *args, **kw):
    return getattr(m, path)(*args, **kw)


FILES = [
    ("load-missing-file", lambda m, d: m.load("/nonexistent/dir/x.npy"), "nonexistent|No such file"),
    ("save-missing-dir", lambda m, d: m.save("/nonexistent/dir/x.npy", A(m, V5, d)), "nonexistent|No such file"),
    ("loadtxt-missing-file", lambda m, d: m.loadtxt("/nonexistent/dir/x.txt"), "not found|No such file"),
    ("savetxt-3d", lambda m, d: m.savetxt("/dev/null", A(m, np.ones((2, 2, 2)), d)), "1D or 2D|dimension"),
    ("savetxt-bad-fmt", lambda m, d: m.savetxt("/dev/null", A(m, M23, d), fmt="%d %d"), "fmt|format"),
    ("loadtxt-bad-values", lambda m, d: m.loadtxt(["1 2", "x 3"]), "x|could not convert"),
    ("loadtxt-ragged", lambda m, d: m.loadtxt(["1 2", "3"]), "columns|number"),
    ("genfromtxt-missing-file", lambda m, d: m.genfromtxt("/nonexistent/dir/x.txt"), "not found|No such file"),
    ("fromfile-missing", lambda m, d: m.fromfile("/nonexistent/dir/x.bin"), "nonexistent|No such file"),
    ("frombuffer-bad-size", lambda m, d: m.frombuffer(b"abc", dtype=np.int32), "multiple|size"),
    ("fromstring-bad-sep", lambda m, d: m.fromstring("1,2,x", sep=","), None),
]


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"),
                         [pytest.param(c, w, id=i) for i, c, w in FUNCTIONS + STATISTICS + POLYNOMIALS_MA + FILES])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)
