"""Creation and shape functions given bad input as users give it: kdsl raises NumPy's exception (class or a
subclass, a message naming the problem), never an internal error (tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

M23 = np.arange(6).reshape(2, 3)
V5 = np.arange(5)

CREATION = [
    ("zeros-negative", lambda m, d: m.zeros((-1,), d), "negative"),
    ("zeros-float-shape", lambda m, d: m.zeros((2.5,), d), None),
    ("ones-negative-int", lambda m, d: m.ones(-3, d), "negative"),
    ("empty-negative", lambda m, d: m.empty((2, -1), d), "negative"),
    ("full-negative-shape", lambda m, d: m.full((2, -2), 1, d), "negative"),
    ("full-str-shape", lambda m, d: m.full("ab", 1, d), None),
    ("zeros-unknown-dtype", lambda m, d: m.zeros(3, dtype="foo"), "foo"),
    ("full_like-negative-shape", lambda m, d: m.full_like(A(m, [1, 2], d), 1, shape=(-1,)), "negative"),
    ("arange-step-0", lambda m, d: m.arange(0, 10, 0), None),
    ("arange-float-step-0", lambda m, d: m.arange(0.0, 1.0, 0.0), None),
    ("arange-inf", lambda m, d: m.arange(0, np.inf), None),
    ("arange-nan", lambda m, d: m.arange(np.nan), None),
    ("arange-None", lambda m, d: m.arange(None), None),
    ("linspace-num-negative", lambda m, d: m.linspace(0, 1, num=-1), "num"),
    ("linspace-num-float", lambda m, d: m.linspace(0, 1, num=2.5), None),
    ("logspace-num-negative", lambda m, d: m.logspace(0, 1, num=-1), "num"),
    ("geomspace-zero", lambda m, d: m.geomspace(0, 1, num=3), "zero"),
    ("eye-float-N", lambda m, d: m.eye(2.5), "float"),
    ("eye-negative", lambda m, d: m.eye(-1), "negative"),
    ("eye-float-M", lambda m, d: m.eye(2, 2.5), "float"),
    ("identity-float", lambda m, d: m.identity(2.5), "float"),
]

SHAPES = [
    ("reshape-wrong-size", lambda m, d: A(m, M23, d).reshape(4), "reshape"),
    ("reshape-two-unknowns", lambda m, d: A(m, M23, d).reshape(-1, -1), "unknown"),
    ("reshape-wrong-size-function", lambda m, d: m.reshape(A(m, M23, d), (5,)), "reshape"),
    ("reshape-float-dim", lambda m, d: A(m, M23, d).reshape(2.0, 3), None),
    ("reshape-bad-order", lambda m, d: A(m, M23, d).reshape(6, order="X"), "order"),
    ("ravel-bad-order", lambda m, d: A(m, M23, d).ravel(order="Z"), "order"),
    ("transpose-axis-out-of-range", lambda m, d: m.transpose(A(m, M23, d), (0, 2)), "axis 2"),
    ("transpose-repeated-axis", lambda m, d: m.transpose(A(m, M23, d), (0, 0)), "repeated"),
    ("transpose-too-few-axes", lambda m, d: m.transpose(A(m, M23, d), (0,)), "axes"),
    ("moveaxis-out-of-range", lambda m, d: m.moveaxis(A(m, M23, d), 0, 5), "axis 5"),
    ("moveaxis-repeated", lambda m, d: m.moveaxis(A(m, M23, d), [0, 0], [0, 1]), "repeated"),
    ("moveaxis-unequal-lengths", lambda m, d: m.moveaxis(A(m, M23, d), [0, 1], [0]), "same number"),
    ("swapaxes-out-of-range", lambda m, d: m.swapaxes(A(m, M23, d), 0, 2), "axis"),
    ("squeeze-axis-not-1", lambda m, d: m.squeeze(A(m, M23, d), axis=0), "size"),
    ("squeeze-out-of-range", lambda m, d: m.squeeze(A(m, M23, d), axis=3), "axis 3"),
    ("expand_dims-out-of-range", lambda m, d: m.expand_dims(A(m, M23, d), 4), "axis 4"),
    ("expand_dims-repeated", lambda m, d: m.expand_dims(A(m, M23, d), (0, 0)), "repeated"),
    ("concatenate-mismatch", lambda m, d: m.concatenate([A(m, M23, d), A(m, np.ones((2, 2)), d)]), "dimension"),
    ("concatenate-ndim", lambda m, d: m.concatenate([A(m, M23, d), A(m, np.ones(3), d)]), "dimensions"),
    ("concatenate-empty-list", lambda m, d: m.concatenate([]), "at least one"),
    ("concatenate-axis-out-of-range", lambda m, d: m.concatenate([A(m, M23, d)] * 2, axis=2), "axis 2"),
    ("concatenate-0d", lambda m, d: m.concatenate([A(m, 1, d), A(m, 2, d)]), "dimension"),
    ("stack-mismatch", lambda m, d: m.stack([A(m, [1, 2], d), A(m, [1, 2, 3], d)]), "same shape"),
    ("stack-empty-list", lambda m, d: m.stack([]), "at least one"),
    ("stack-axis-out-of-range", lambda m, d: m.stack([A(m, [1, 2], d)] * 2, axis=3), "axis 3"),
    ("vstack-mismatch", lambda m, d: m.vstack([A(m, [1, 2], d), A(m, [1, 2, 3], d)]), "dimension"),
    ("vstack-empty-list", lambda m, d: m.vstack([]), "at least one"),
    ("hstack-empty-list", lambda m, d: m.hstack([]), "at least one"),
    ("hstack-mismatch", lambda m, d: m.hstack([A(m, M23, d), A(m, np.ones((3, 1)), d)]), "dimension"),
    ("dstack-empty-list", lambda m, d: m.dstack([]), "at least one"),
    ("column_stack-mismatch", lambda m, d: m.column_stack([A(m, [1, 2], d), A(m, [1, 2, 3], d)]), "dimension"),
    ("split-unequal", lambda m, d: m.split(A(m, V5, d), 2), "equal division"),
    ("split-zero-sections", lambda m, d: m.split(A(m, V5, d), 0), "larger than 0"),
    ("array_split-zero-sections", lambda m, d: m.array_split(A(m, V5, d), 0), "larger than 0"),
    ("split-axis-out-of-range", lambda m, d: m.split(A(m, V5, d), 1, axis=1), "axis 1"),
    ("hsplit-0d", lambda m, d: m.hsplit(A(m, 1, d), 1), "dimension"),
    ("vsplit-1d", lambda m, d: m.vsplit(A(m, [1, 2], d), 1), "dimension"),
    ("tile-negative", lambda m, d: m.tile(A(m, [1, 2], d), -1), "negative"),
    ("repeat-negative", lambda m, d: m.repeat(A(m, [1, 2], d), -1), "negative"),
    ("repeat-negative-count", lambda m, d: m.repeat(A(m, [1, 2], d), [1, -1]), "negative"),
    ("repeat-counts-length", lambda m, d: m.repeat(A(m, [1, 2], d), [1, 2, 3]), "broadcast|counts"),
    ("repeat-float-count", lambda m, d: m.repeat(A(m, [1, 2], d), 1.5), None),
    ("repeat-float-counts", lambda m, d: m.repeat(A(m, [1, 2], d), [1.7, 2.2]), None),
    ("repeat-float32-count", lambda m, d: m.repeat(A(m, [1, 2], d), np.float32(2.9)), None),
    ("repeat-small-negative-float", lambda m, d: m.repeat(A(m, [1, 2], d), -0.5), None),
    ("repeat-negative-float", lambda m, d: m.repeat(A(m, [1, 2], d), -1.5), "negative"),
    ("repeat-nan-count", lambda m, d: m.repeat(A(m, [1, 2], d), np.nan), "NaN"),
    ("repeat-inf-count", lambda m, d: m.repeat(A(m, [1, 2], d), [0.5, np.inf]), "infinity"),
    ("repeat-complex-counts", lambda m, d: m.repeat(A(m, [1, 2], d), [1 + 1j, 1]), "complex"),
    ("repeat-axis-out-of-range", lambda m, d: m.repeat(A(m, [1, 2], d), 2, axis=1), "axis 1"),
    ("broadcast_to-impossible", lambda m, d: m.broadcast_to(A(m, [1, 2, 3], d), (2, 2)), "broadcast"),
    ("broadcast_to-fewer-dims", lambda m, d: m.broadcast_to(A(m, M23, d), (3,)), "dimensions|broadcast"),
    ("broadcast_to-negative", lambda m, d: m.broadcast_to(A(m, [1], d), (-1,)), "negative"),
    ("broadcast_arrays-mismatch", lambda m, d: m.broadcast_arrays(A(m, [1, 2], d), A(m, [1, 2, 3], d)), "shape"),
    ("operator-mismatch", lambda m, d: A(m, [1, 2], d) + A(m, [1, 2, 3], d), "broadcast"),
    ("flip-axis-out-of-range", lambda m, d: m.flip(A(m, M23, d), 2), "axis 2"),
    ("roll-axis-out-of-range", lambda m, d: m.roll(A(m, M23, d), 1, axis=2), "axis 2"),
    ("roll-shift-axis-lengths", lambda m, d: m.roll(A(m, M23, d), (1, 2, 3), axis=(0, 1)), "shape"),
    ("rot90-same-axes", lambda m, d: m.rot90(A(m, M23, d), axes=(0, 0)), "axes"),
    ("rot90-1d", lambda m, d: m.rot90(A(m, [1, 2], d)), "axes"),
    ("resize-negative", lambda m, d: m.resize(A(m, [1, 2], d), (-1,)), "negative"),
    ("append-mismatch", lambda m, d: m.append(A(m, M23, d), A(m, [1, 2], d), axis=0), "dimension"),
    ("delete-out-of-range", lambda m, d: m.delete(A(m, [1, 2], d), 5), "out of bounds"),
    ("insert-out-of-range", lambda m, d: m.insert(A(m, [1, 2], d), 5, 0), "out of bounds"),
    ("diagonal-same-axes", lambda m, d: m.diagonal(A(m, M23, d), axis1=0, axis2=0), "same"),
    ("diagonal-1d", lambda m, d: m.diagonal(A(m, [1, 2], d)), "2-d|dimension"),
    ("diag-3d", lambda m, d: m.diag(A(m, np.ones((2, 2, 2)), d)), "1-d or 2-d"),
    ("trace-1d", lambda m, d: m.trace(A(m, [1, 2], d)), "2-d|dimension"),
    ("tril-0d", lambda m, d: m.tril(A(m, 1, d)), "dimension"),
    ("triu-0d", lambda m, d: m.triu(A(m, 1, d)), "dimension"),
    ("meshgrid-bad-indexing", lambda m, d: m.meshgrid(A(m, [1], d), indexing="q"), "indexing"),
]


@pytest.mark.parametrize("d", [np.float32, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in CREATION + SHAPES])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)


@pytest.mark.parametrize("d", [np.float32, np.int64])
@pytest.mark.parametrize("condition", [[True], [False], [True, False]])
def test_compress_of_0d_treats_it_as_1d(condition, d):
    """NumPy's compress reads a 0-d array as 1-d, any axis 0/-1 taken; kdsl's raised AxisError there."""
    for axis in (None, 0, -1):
        check_like_numpy(lambda m, d, axis=axis: m.compress(condition, A(m, 7, d), axis=axis), None, d)
