"""tensordot's ``axes`` read as NumPy 2.4 reads them: a negative int is an outer product (kdsl raised
ValueError "axes must be non-negative"), a pair may hold single axes of any integer type (``np.int64``: kdsl
raised TypeError), a repeated axis is NumPy's "duplicate axes" ValueError, more axes than dimensions an
IndexError, a float a TypeError."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd


def _operand(xp, shape, dtype, seed, layout):
    data = sample(shape, dtype, seed=seed)
    if layout == "strided" and data.ndim:  # every other element of the last axis: a non-contiguous view
        return xp.asarray(np.repeat(data, 2, axis=-1))[..., ::2]
    return xp.asarray(data)


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("axes", [-1, -2, -5, 0], ids=str)
@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((3,), (3,)), ((1,), (1, 1)), ((0, 2), (2,)), ((), (4,))],
                         ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_zero_or_negative_int_axes_give_the_outer_product(xp, axes, shapes, dtype, layout):
    a = _operand(xp, shapes[0], dtype, 1, layout)
    b = _operand(xp, shapes[1], dtype, 2, layout)
    return xp.tensordot(a, b, axes=axes)


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("axes,shape_b", [((np.int64(1), np.int64(0)), (3, 2)), ((1, 0), (3, 5)),
                                          ((np.int32(-1), [0]), (4, 2)), (([1], np.intp(0)), (3,)),
                                          ((np.int64(2), np.int64(1)), (2, 4, 1))], ids=str)
def test_pairs_of_single_numpy_integer_axes(xp, axes, shape_b):
    a = _operand(xp, (2, 3, 4), "float32", 1, "strided")
    return xp.tensordot(a, _operand(xp, shape_b, "float32", 2, "contiguous"), axes=axes)


@pytest.mark.parametrize("axes,error,match", [
    (([0, 0], [0, 1]), ValueError, "duplicate axes are not allowed in tensordot"),
    (([0, 1], [1, 1]), ValueError, "duplicate axes are not allowed in tensordot"),
    (3, IndexError, None),  # more axes than a's dimensions: NumPy's "tuple index out of range"
    (1.0, TypeError, None),
    (None, TypeError, None),
    (([0, 1, 2], [0, 1]), ValueError, None),
], ids=str)
def test_errors_as_numpy(axes, error, match):
    a, b = np.ones((3, 3)), np.ones((3, 3, 3))
    with pytest.raises(error, match=match):
        np.tensordot(a, b, axes=axes)
    with pytest.raises(error, match=match):
        kd.tensordot(kd.asarray(a), kd.asarray(b), axes=axes)


def test_too_many_axes_for_b_is_an_index_error():
    a, b = np.ones((2, 2, 2)), np.ones((2, 2))
    with pytest.raises(IndexError):
        np.tensordot(a, b, axes=3)
    with pytest.raises(IndexError):
        kd.tensordot(kd.asarray(a), kd.asarray(b), axes=3)


def test_linalg_and_numpy_dispatch_take_negative_axes():
    a, b = sample((2, 3), "float64", seed=3), sample((4,), "float64", seed=4)
    want = np.tensordot(a, b, axes=-1)
    for got in (kd.linalg.tensordot(kd.asarray(a), kd.asarray(b), axes=-1),
                np.tensordot(kd.asarray(a), kd.asarray(b), axes=-1)):
        assert isinstance(got, kd.Array) and got.shape == want.shape == (2, 3, 4)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
