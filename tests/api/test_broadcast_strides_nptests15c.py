"""The strides and flags of a broadcast lazy constant are NumPy's: ``kd.broadcast_to(kd.asarray(1.0), (3, 4))``
and ``kd.broadcast_to(kd.ones(4), (3, 4))`` have zero strides on the broadcast axes (kdsl gave a new
C-ordered array's strides, as if they were ``kd.ones((3, 4))``), and so do their slices and transposes."""

import numpy as np
import pytest

import kdsl as kd

# (source, shape, then a view of the broadcast): each built the same way in kdsl and NumPy
CASES = [
    (lambda m: m.asarray(1.0), (3, 4), lambda b: b),
    (lambda m: m.ones(4), (3, 4), lambda b: b),
    (lambda m: m.zeros((3, 1)), (3, 5), lambda b: b),
    (lambda m: m.ones(4), (3, 4), lambda b: b[:, ::2]),
    (lambda m: m.ones(4), (3, 4), lambda b: b.T),
    (lambda m: m.ones(4), (2, 3, 4), lambda b: b[1]),
    (lambda m: m.full((4, 1), 2.0)[::2], (2, 2, 3), lambda b: b),
    (lambda m: m.ones(6)[::2], (2, 3), lambda b: b[:, ::-1]),
    (lambda m: m.ones(4), (4,), lambda b: b),
    (lambda m: m.ones(4), (0, 4), lambda b: b),
    (lambda m: m.ones((1, 1)), (1, 1), lambda b: b),
    (lambda m: m.asarray(np.nan), (1, 3), lambda b: b),
    (lambda m: m.arange(3.0), (2, 3), lambda b: b),  # not a constant: already right, kept so
]


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_broadcast_layout_as_numpy(case, dtype):
    make, shape, view = CASES[case]
    with np.errstate(invalid="ignore"):  # NaN to int64 (both sides cast the same way)
        got = view(kd.broadcast_to(make(kd).astype(dtype), shape))
        want = view(np.broadcast_to(make(np).astype(dtype), shape))
    assert got.shape == want.shape
    assert got.strides == want.strides
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    np.testing.assert_array_equal(got.numpy(), want)


def test_broadcast_arrays_of_constants():
    got = kd.broadcast_arrays(kd.zeros((3, 1), dtype=kd.float64), kd.ones(4, dtype=kd.float64))
    want = np.broadcast_arrays(np.zeros((3, 1)), np.ones(4))
    assert [g.strides for g in got] == [w.strides for w in want]


def test_new_constants_stay_c_ordered():
    for got, want in [(kd.full((3, 4), 2.0, dtype=kd.float64), np.full((3, 4), 2.0)),
                      (kd.zeros_like(kd.ones((3, 4), dtype=kd.float64)), np.zeros_like(np.ones((3, 4)))),
                      (kd.ones((2, 1, 3), dtype=kd.int8), np.ones((2, 1, 3), np.int8))]:
        assert got.strides == want.strides
        assert got.flags.c_contiguous


def test_reshape_of_broadcast_copies_as_numpy():
    b = kd.broadcast_to(kd.ones(4, dtype=kd.float64), (3, 4))
    flat = b.reshape(-1)
    assert flat.shape == (12,) and flat.strides == (8,)
    np.testing.assert_array_equal(flat.numpy(), np.ones(12))
