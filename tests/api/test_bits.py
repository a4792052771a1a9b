"""packbits and unpackbits against NumPy: axes, bit orders, counts, dtypes, views, empty and bad input."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64", "int64"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(xp, dtype, axis, bitorder):
    a = xp.asarray(sample((5, 13), dtype, low=-1 if dtype[0] == "i" else 0, high=1))
    return xp.packbits(a, axis=axis, bitorder=bitorder), xp.packbits(a.T[::2], axis=axis, bitorder=bitorder)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(), (0,), (8,), (3, 0), (1, 16), (2, 3, 9)])
def test_packbits_shapes(xp, shape):
    a = xp.asarray(sample(shape, "bool"))
    axis = None if len(shape) < 2 else 1
    return xp.packbits(a, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("axis", [None, 0, 1, -2])
@pytest.mark.parametrize("count", [None, 0, 5, 16, 40, -3, -24])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits(xp, axis, count, bitorder):
    a = xp.asarray(sample((3, 4), "uint8"))
    return xp.unpackbits(a, axis=axis, count=count, bitorder=bitorder), xp.unpackbits(a[:, ::-2], axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(), (0,), (2, 0), (1, 1)])
def test_unpackbits_shapes(xp, shape):
    return xp.unpackbits(xp.asarray(sample(shape, "uint8")))


@numpy_kdsl_allclose(accept_error=(np.exceptions.AxisError,))
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_zero_d_counts_as_one_d(xp, axis):
    a = xp.asarray(np.array(3, np.uint8))
    return xp.packbits(a, axis=axis), xp.unpackbits(a, axis=axis)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_round_trip(xp, bitorder):
    bits = xp.asarray(sample((4, 21), "bool", seed=5)).astype(xp.uint8)
    packed = xp.packbits(bits, axis=1, bitorder=bitorder)
    return packed, xp.unpackbits(packed, axis=1, count=21, bitorder=bitorder)


@numpy_kdsl_allclose(accept_error=(TypeError, ValueError, np.exceptions.AxisError))
@pytest.mark.parametrize("case", ["float_pack", "int8_unpack", "bitorder", "count", "axis"])
def test_bad_input(xp, case):
    a = xp.asarray(np.array([1, 2, 255], np.uint8))
    if case == "float_pack":
        return xp.packbits(xp.asarray(np.ones(3)))
    if case == "int8_unpack":
        return xp.unpackbits(xp.asarray(np.ones(3, np.int8)))
    if case == "bitorder":
        return xp.packbits(a, bitorder="middle")
    if case == "count":
        return xp.unpackbits(a, count=-25)
    return xp.packbits(a, axis=1)


def test_messages_name_the_problem():
    with pytest.raises(TypeError, match="integer or boolean"):
        kd.packbits(kd.asarray(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="unsigned byte"):
        kd.unpackbits(kd.asarray(np.ones(3, np.int16)))


def test_numpy_dispatches():
    a = kd.asarray(np.array([1, 0, 1], np.uint8))
    assert isinstance(np.packbits(a), kd.Array)
    assert np.unpackbits(np.packbits(a)).tolist() == [1, 0, 1, 0, 0, 0, 0, 0]
