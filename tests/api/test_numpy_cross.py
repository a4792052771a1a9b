"""kd.cross (NumPy's np.cross) against NumPy: axisa/axisb/axisc/axis, 3- and 2-vectors, broadcasting, dtypes,
views, special values and errors."""

import warnings

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd


def _numpy_has_2_vectors() -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            np.cross(np.ones(2), np.ones(2))
    except ValueError:
        return False
    return True


# NumPy 2.0-2.4 deprecate 2-vectors (kd.cross keeps them, with the warning); a later NumPy refuses them, and
# then there is no oracle for these tests
TWO_VECTOR_ORACLE = pytest.mark.skipif(not _numpy_has_2_vectors(), reason="this NumPy refuses 2-vectors in cross")

CASES = [((3,), (3,), {}), ((4, 3), (3,), {}), ((2, 1, 3), (5, 3), {}), ((3, 4), (4, 3), {"axisa": 0}),
         ((3, 4), (3, 4), {"axis": 0}), ((2, 4, 3), (1, 4, 3), {"axisc": 0}),
         ((4, 3), (3, 4), {"axisb": 0, "axisc": 1}), ((3, 2, 2), (2, 3), {"axisa": 0, "axisc": -2}),
         ((0, 3), (3,), {}), ((1, 3), (3,), {})]
TWO = [((2,), (2,), {}), ((5, 2), (5, 2), {}), ((2,), (3,), {}), ((4, 3), (2,), {}), ((2, 4), (3, 4), {"axis": 0}),
       ((4, 2), (3,), {"axisc": 0})]


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("sa,sb,kw", CASES)
def test_cross3(xp, sa, sb, kw):
    a, b = xp.asarray(sample(sa, "float64", special=False)), xp.asarray(sample(sb, "float64", seed=1, special=False))
    return xp.cross(a, b, **kw)


@TWO_VECTOR_ORACLE
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")
@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("sa,sb,kw", TWO)
def test_cross_with_2_vectors(xp, sa, sb, kw):
    a, b = xp.asarray(sample(sa, "float64", special=False)), xp.asarray(sample(sb, "float64", seed=1, special=False))
    return xp.cross(a, b, **kw), xp.cross(b, a, **kw)


def test_2_vectors_warn_as_numpy():
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        kd.cross(kd.asarray([1.0, 2.0]), kd.asarray([3.0, 4.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kd.cross(kd.asarray([1.0, 2.0, 0.0]), kd.asarray([3.0, 4.0, 0.0]))


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")
@numpy_kdsl_allclose()
@pytest.mark.parametrize("da,db", [("int32", "int32"), ("int8", "int64"), ("float32", "float32"),
                                   ("float16", "float32"), ("uint8", "uint8"), ("int16", "float64")])
@pytest.mark.parametrize("n", [pytest.param(2, marks=TWO_VECTOR_ORACLE), 3])
def test_dtypes(xp, da, db, n):
    a, b = xp.asarray(sample((4, n), da)), xp.asarray(sample((4, 3), db, seed=1))  # extremes wrap as NumPy's
    return xp.cross(a, b)


@TWO_VECTOR_ORACLE
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")
@numpy_kdsl_allclose()
def test_special_values_and_views(xp):
    a = xp.asarray(sample((6, 3), "float32"))  # NaN, inf, -0.0
    b = xp.asarray(sample((6, 3), "float32", seed=3))
    z = xp.asarray(np.array([[-0.0, 1.0], [np.inf, 0.0]]))
    return xp.cross(a, b), xp.cross(a[::-2], b.T[:, ::2], axisb=0), xp.cross(z, xp.asarray(np.array([0.0, 1.0, 2.0])))


@numpy_kdsl_allclose(accept_error=(ValueError, TypeError, np.exceptions.AxisError))
@pytest.mark.parametrize("case", ["size4", "zero_dim", "axisa", "axisc", "bool", "bool_broadcast", "broadcast"])
def test_errors(xp, case):
    a = xp.asarray(np.ones((2, 3)))
    if case == "size4":
        return xp.cross(xp.asarray(np.ones(4)), xp.asarray(np.ones(4)))
    if case == "zero_dim":
        return xp.cross(xp.asarray(1.0), a)
    if case == "axisa":
        return xp.cross(a, a, axisa=2)
    if case == "axisc":
        return xp.cross(a, a, axisc=2)
    if case == "bool":
        return xp.cross(xp.asarray(np.ones(3, bool)), xp.asarray(np.ones(3, bool)))
    if case == "bool_broadcast":  # the shapes are checked first: ValueError, not the bool TypeError
        return xp.cross(xp.asarray(np.ones((2, 3), bool)), xp.asarray(np.ones((3, 3), bool)))
    return xp.cross(a, xp.asarray(np.ones((3, 3))))


def test_numpy_dispatches_and_linalg_cross_is_kept():
    a, b = kd.asarray(np.eye(3)), kd.asarray(np.ones((3, 3)))
    assert isinstance(np.cross(a, b), kd.Array)
    np.testing.assert_allclose(kd.linalg.cross(a, b).numpy(), np.cross(np.eye(3), np.ones((3, 3))))
