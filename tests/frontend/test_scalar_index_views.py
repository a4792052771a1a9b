"""0-d integer kdsl arrays index as the NumPy scalars they stand for (``u = users[j]``, ``s = np.argmax(q)``,
``for u in users``): ``P[u]`` is a view, so ``P[u][1] = 7``, ``row = P[u]; row += 1`` and ``P[u][0] += 10`` write
into ``P`` and later writes to ``P`` show in ``P[u]``; slices with 0-d bounds (``P[i, j:] = 5``); against NumPy
with NumPy scalars (tests/porting, porting7a)."""

import numpy as np
import pytest

import kdsl as kd


def _scalar(xp, values, how):
    v = xp.asarray(values)
    return {"element": lambda: v[1], "max": lambda: v.max(), "argmax": lambda: xp.argmax(v),
            "sum": lambda: v[:2].sum()}[how]()


def _run(xp, program, how, shape, dtype):
    P = xp.asarray(np.arange(np.prod(shape), dtype=dtype).reshape(shape))
    u = _scalar(xp, np.array([0, 1, 0], np.int32 if xp is kd else np.int64), how)
    return program(P, u)


def _view_add(P, u):
    row = P[u]
    row += 1
    return P


def _chained(P, u):
    P[u][1] = 7
    P[u][0] += 10
    return P


def _later_write(P, u):
    v = P[u]
    P[1, 1] = 100
    return v


def _slices(P, u):
    P[u, u:] = 5
    sub = P[u, ::-1][: u + 1]
    sub *= 2
    return P


def _transposed(P, u):
    P.T[u][0] = 99
    return P[:, u]


def _mixed(P, u):
    P[u, [0, -1]] = 9
    return P[[u, 0]]


@pytest.mark.parametrize("program", [_view_add, _chained, _later_write, _slices, _transposed, _mixed])
@pytest.mark.parametrize("how", ["element", "max", "argmax", "sum"])
@pytest.mark.parametrize("shape,dtype", [((3, 4), np.float32), ((3, 2, 2), np.int32), ((2, 5), np.uint8)])
def test_like_numpy_scalars(program, how, shape, dtype):
    want = _run(np, program, how, shape, dtype)
    got = _run(kd, program, how, shape, dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_loop_over_index_array():
    for xp in (np, kd):
        P = xp.zeros((3, 2))
        for u in xp.asarray([2, 0, 2]):
            P[u] += 1
            P[u][0] += 10
        if xp is np:
            want = P
    np.testing.assert_array_equal(P.numpy(), want)


def test_element_reads_stay_copies_and_errors():
    a = kd.arange(5.0)
    i = kd.asarray([3, 1]).max()
    x = a[i]
    a[3] = 50  # NumPy's a[np.int64(3)] is a scalar: later writes leave it alone
    assert float(x) == 3.0
    with pytest.raises(IndexError):
        a[kd.asarray([7]).sum()]
    with pytest.raises(IndexError):
        a[kd.asarray(1.0)]
    m = kd.asarray(True)  # a 0-d bool stays a mask: a[True] is a[None]
    assert a[m].shape == (1, 5)
