"""Ufuncs, in-place operators, assignments, copyto and reductions whose output overlaps an input (NumPy's
test_mem_overlap.py, on kdsl): the result must be NumPy's, which is as if the inputs were copied first.
Forward and backward shifts, reversed and strided views, transposes and broadcasts, several dtypes."""

import itertools

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.float32, np.int16, np.uint8, np.complex64, np.float64]

# (input view, output view) pairs over one 1-d buffer of 24 elements, all of length 10
PAIRS_1D = {
    "same": (np.s_[2:12], np.s_[2:12]),
    "forward_shift": (np.s_[0:10], np.s_[1:11]),
    "backward_shift": (np.s_[1:11], np.s_[0:10]),
    "reversed_on_itself": (np.s_[11:1:-1], np.s_[2:12]),
    "reversed_shifted": (np.s_[12:2:-1], np.s_[0:10]),
    "strided_into_contiguous": (np.s_[0:20:2], np.s_[3:13]),
    "contiguous_into_strided": (np.s_[3:13], np.s_[0:20:2]),
    "interleaved": (np.s_[1:21:2], np.s_[0:20:2]),
    "reversed_strided": (np.s_[21:1:-2], np.s_[4:14]),
}


def _buffers(dtype):
    host = (np.arange(24) % 7 + 1).astype(dtype)
    return host, kd.asarray(host.copy())


def _same(k, h):
    np.testing.assert_array_equal(k.numpy(), h)


# each op reads x and the output's old values y, and writes out; kdsl gets y = out (the overlapping views), the
# oracle NumPy with both copied first: NumPy's promise, which its 1-d assignment between views of different
# steps does not keep (np.copyto(h[0:20:2], h[3:13]) reads elements it has already written)
OPS_1D = {
    "negative": lambda m, x, y, out: m.negative(x, out=out),
    "add_self": lambda m, x, y, out: m.add(x, y, out=out),
    "multiply_reversed": lambda m, x, y, out: m.multiply(x, x[::-1], out=out),
    "subtract_where": lambda m, x, y, out: m.subtract(y, x, out=out, where=np.arange(10) % 3 != 0),
    "maximum": lambda m, x, y, out: m.maximum(x, y[::-1], out=out),
    "copyto": lambda m, x, y, out: m.copyto(out, x),
    "assign": lambda m, x, y, out: out.__setitem__(Ellipsis, x),
    "iadd": lambda m, x, y, out: out.__iadd__(x) if y is out else m.add(y, x, out=out),
    "accumulate": lambda m, x, y, out: m.add.accumulate(x, out=out),
    "cumsum": lambda m, x, y, out: m.cumsum(x, out=out),
}


@pytest.mark.parametrize("op", sorted(OPS_1D))
@pytest.mark.parametrize("pair", sorted(PAIRS_1D))
def test_one_dimensional_overlaps(op, pair):
    src, dst = PAIRS_1D[pair]
    for dtype in DTYPES:
        host, k = _buffers(dtype)
        with np.errstate(all="ignore"):
            OPS_1D[op](np, host[src].copy(), host[dst].copy(), host[dst])
        OPS_1D[op](kd, k[src], k[dst], k[dst])
        _same(k, host)


VIEWS_2D = {
    "itself": lambda x: x,
    "transposed": lambda x: x.T,
    "reversed_rows": lambda x: x[::-1],
    "reversed_both": lambda x: x[::-1, ::-1],
    "rotated": lambda x: x[::-1].T,
}


@pytest.mark.parametrize(("read", "write"), list(itertools.product(sorted(VIEWS_2D), repeat=2)))
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_square_views(read, write, dtype):
    host = np.arange(1, 26).reshape(5, 5).astype(dtype)
    k = kd.asarray(host.copy())
    for m, x in ((np, host), (kd, k)):
        m.multiply(VIEWS_2D[read](x), x.T, out=VIEWS_2D[write](x))
        VIEWS_2D[write](x)[1:] -= VIEWS_2D[read](x)[:-1]
        VIEWS_2D[write](x)[...] = VIEWS_2D[read](x)[:, :1] + x[0]  # broadcasts of overlapping views
    _same(k, host)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
@pytest.mark.parametrize("axis", [0, 1])
def test_reductions_into_their_input(dtype, axis):
    host = (np.arange(20) % 5 + 1).astype(dtype).reshape(4, 5)
    k = kd.asarray(host.copy())
    for m, x in ((np, host), (kd, k)):
        out = x[0] if axis == 0 else x[:, 0]
        m.add.reduce(x, axis=axis, out=out, dtype=x.dtype)
        out = x[-1, ::-1] if axis == 0 else x[::-1, -1]
        m.maximum.reduce(x, axis=axis, out=out)
        m.cumsum(x[::-1], axis=axis, out=x, dtype=x.dtype)
    _same(k, host)


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_fancy_index_assignments_read_before_writing(dtype):
    host = np.arange(1, 13).astype(dtype)
    k = kd.asarray(host.copy())
    idx = np.array([0, 3, 5, 7, 11])
    for x in (host, k):
        x[idx] = x[idx[::-1]]
        x[idx[1:]] = x[idx[:-1]] * 2
        x[x > 6] = x[::-1][x[::-1] > 6]
        x[2:8][::-1] = x[:6]
    _same(k, host)


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_empty_and_size_one_overlaps(dtype):
    host = np.arange(1, 7).astype(dtype)
    k = kd.asarray(host.copy())
    for m, x in ((np, host), (kd, k)):
        m.add(x[2:2], x[3:3], out=x[2:2])
        m.add(x[:1], x[1:2], out=x[1:2])
        x[-1:] += x[:1]
        m.negative(x[:1].reshape(()), out=x[1:2].reshape(()))
        x[...] += x[0]  # a 0-d view of the array itself, broadcast
    _same(k, host)


def test_nan_and_inf_overlaps():
    host = np.array([np.nan, 1.0, np.inf, -np.inf, -0.0, 2.0], dtype=np.float32)
    k = kd.asarray(host.copy())
    for m, x in ((np, host), (kd, k)):
        with np.errstate(all="ignore"):
            m.multiply(x[1:], x[:-1], out=x[:-1])
            m.fmax(x[::-1], x, out=x)
    np.testing.assert_array_equal(k.numpy(), host)  # NaN positions compare equal here
