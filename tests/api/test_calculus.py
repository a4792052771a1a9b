"""trapezoid and gradient against NumPy: spacings (scalars, coordinates on the host or the device), axes,
edge orders, dtypes, views, special values, and NumPy's errors."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd

Y = sample((4, 7), "float64", special=False)
X7 = np.cumsum(sample((7,), "float64", seed=2, special=False, low=0.1, high=1.0))
X4 = np.cumsum(sample((4,), "float64", seed=3, special=False, low=0.1, high=1.0))


def _on(xp, v):
    return xp.asarray(v) if isinstance(v, np.ndarray) else v


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("kwargs", [{}, {"dx": 0.25}, {"axis": 0}, {"x": X7}, {"x": X4, "axis": 0},
                                    {"x": np.broadcast_to(X7, (4, 7)).copy()}, {"dx": np.float64(2.0)}])
def test_trapezoid(xp, kwargs):
    kw = {k: _on(xp, v) for k, v in kwargs.items()}
    return xp.trapezoid(xp.asarray(Y), **kw)


def test_trapezoid_with_host_coordinates():
    np.testing.assert_allclose(kd.trapezoid(kd.asarray(Y), x=X7).numpy(), np.trapezoid(Y, x=X7), rtol=1e-12)
    # a list of Python floats beside float64 y is float64, as kdsl converts operands together (as_array_beside)
    expected = np.trapezoid(Y, x=X7)
    np.testing.assert_allclose(kd.trapezoid(kd.asarray(Y), x=X7.tolist()).numpy(), expected, rtol=1e-12)
    # beside float32 y it is float32 (kdsl's default float)
    y32 = Y.astype(np.float32)
    expected32 = np.trapezoid(y32, x=X7.astype(np.float32))
    np.testing.assert_allclose(kd.trapezoid(kd.asarray(y32), x=X7.tolist()).numpy(), expected32, rtol=1e-5)
    # a list of NumPy float64 scalars keeps float64, as np.array makes of it
    np.testing.assert_allclose(kd.trapezoid(kd.asarray(Y), x=list(X7)).numpy(), np.trapezoid(Y, x=X7), rtol=1e-12)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "bool", "float16", "float32"])
@pytest.mark.parametrize("dx", [1.0, 2, 0.5])
def test_trapezoid_dtypes(xp, dtype, dx):
    return xp.trapezoid(xp.asarray(sample((3, 9), dtype)), dx=dx)  # int8 pair sums wrap, as NumPy's


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("ydtype,xdtype", [("float32", "float64"), ("float32", "int32"), ("int16", "float32")])
def test_trapezoid_mixed_dtypes(xp, ydtype, xdtype):
    y = xp.asarray(sample((2, 6), ydtype, special=False))
    x = xp.asarray(np.cumsum(sample((6,), xdtype, seed=4, special=False, low=1, high=3)).astype(xdtype))
    return xp.trapezoid(y, x=x)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape,axis", [((0,), -1), ((1,), -1), ((3, 0), 0), ((2, 1), 1), ((5,), 0)])
def test_trapezoid_small(xp, shape, axis):
    return xp.trapezoid(xp.asarray(sample(shape, "float32")), axis=axis)  # NaN and inf propagate


@numpy_kdsl_allclose(rtol=1e-6)
def test_trapezoid_views(xp):
    a = xp.asarray(sample((6, 8), "float32", special=False))
    return xp.trapezoid(a.T[::2]), xp.trapezoid(a[::-1, 1:], axis=0)


@numpy_kdsl_allclose(accept_error=(ValueError, IndexError))  # NumPy: IndexError for the axis (AxisError is one)
@pytest.mark.parametrize("case", ["axis", "x_length"])
def test_trapezoid_errors(xp, case):
    y = xp.asarray(Y)
    if case == "axis":
        return xp.trapezoid(y, axis=2)
    return xp.trapezoid(y, x=xp.asarray(X4))


@numpy_kdsl_allclose(rtol=1e-12, atol=1e-12)
@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("args,kwargs", [((), {}), ((0.5,), {}), ((2.0, 3.0), {}), ((X4, X7), {}),
                                         ((X7,), {"axis": 1}), ((X7,), {"axis": -1}), ((0.5, X7), {}),
                                         ((X7, X4), {"axis": (1, 0)}), ((), {"axis": (0, 1)}),
                                         ((np.arange(4) * 3, 2), {})])
def test_gradient(xp, edge_order, args, kwargs):
    return xp.gradient(xp.asarray(Y), *(_on(xp, a) for a in args), edge_order=edge_order, **kwargs)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_with_host_coordinates(edge_order):
    got = kd.gradient(kd.asarray(Y), X4, list(X7), edge_order=edge_order)  # lists stay on the host: float64
    for g, e in zip(got, np.gradient(Y, X4, X7, edge_order=edge_order), strict=True):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-12, atol=1e-12)


def _gradients(xp, dtype, edge_order):
    f = xp.asarray(sample((5, 6), dtype, special=False))
    return xp.gradient(f, edge_order=edge_order), xp.gradient(f, xp.asarray(X7[:5]), 2.0, axis=(0, 1))


@numpy_kdsl_allclose(rtol=1e-5, atol=1e-5)
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes(xp, dtype, edge_order):
    return _gradients(xp, dtype, edge_order)


# float16 differences of values up to ~20: a device with float16 arithmetic (the H200) rounds each step
# otherwise than NumPy's float32-then-round loops, a few ulps of the data's scale (ulp(16) = 2**-6)
@numpy_kdsl_allclose(rtol=2e-3, atol=2e-2)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_float16(xp, edge_order):
    return _gradients(xp, "float16", edge_order)


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_special_values_and_views(xp, edge_order):
    f = xp.asarray(sample((6, 8), "float32"))  # NaN, inf, -0.0 propagate as in NumPy
    return xp.gradient(f.T[::2], edge_order=edge_order), xp.gradient(f[::-1, 0], 0.5, edge_order=edge_order)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("shape", [(), (2,), (3, 2)])
def test_gradient_small(xp, shape):
    return xp.gradient(xp.asarray(sample(shape, "float64")))


@numpy_kdsl_allclose(accept_error=(ValueError, TypeError, np.exceptions.AxisError))
@pytest.mark.parametrize("case", ["too_small", "edge_order", "nargs", "not_1d", "length", "bool", "axis"])
def test_gradient_errors(xp, case):
    f = xp.asarray(Y)
    if case == "too_small":
        return xp.gradient(xp.asarray(np.ones(2)), edge_order=2)
    if case == "edge_order":
        return xp.gradient(f, edge_order=3)
    if case == "nargs":
        return xp.gradient(f, 1.0, 2.0, 3.0)
    if case == "not_1d":
        return xp.gradient(f, xp.asarray(np.ones((4, 1))), 1.0)
    if case == "length":
        return xp.gradient(f, xp.asarray(X7), 1.0)
    if case == "bool":
        return xp.gradient(xp.asarray(np.array([True, False, True])))
    return xp.gradient(f, axis=3)


def test_numpy_dispatches():
    a = kd.asarray(Y)
    assert isinstance(np.trapezoid(a), kd.Array) and isinstance(np.gradient(a)[0], kd.Array)
