"""kd.elementwise / kd.reduction (CuPy's shape), lowered with NumPy as the array library."""

import numpy as np
import pytest

from kdsl.frontend.lang.compute import KdslError
from kdsl.frontend.lang.factories import elementwise, reduction

rng = np.random.default_rng(3)
X = rng.standard_normal((3, 4)).astype(np.float32)
Y = rng.standard_normal(4).astype(np.float32)


def test_elementwise_placeholder_broadcast_and_multiple_outputs():
    k = elementwise("T x, T y", "T z, T w", "z = x > 0 ? x : 0.1 * x; w = z * y + 1", "leaky", xp=np)
    z, w = k(X, Y)
    expected = np.where(X > 0, X, np.float32(0.1) * X)
    np.testing.assert_allclose(z, expected, rtol=1e-6)
    np.testing.assert_allclose(w, expected * Y + 1, rtol=1e-6)
    assert z.dtype == np.float32 and z.shape == (3, 4)


def test_elementwise_concrete_types_scalars_and_casts():
    k = elementwise("float32 x, int32 n", "float64 y", "t = x * n; y = double(t) + sqrt(abs(x))", "mix", xp=np)
    y = k(X, 3)
    assert y.dtype == np.float64
    np.testing.assert_allclose(y, X * 3 + np.sqrt(np.abs(X)), rtol=1e-6)


def test_elementwise_constant_output_is_broadcast():
    k = elementwise("T x", "T y", "y = 2", "twos", xp=np)
    np.testing.assert_array_equal(k(X), np.full((3, 4), 2, np.float32))


def test_elementwise_errors():
    k = elementwise("T x, T y", "T z", "z = x + y", "add", xp=np)
    with pytest.raises(TypeError, match="T is float32 from an earlier argument but float64"):
        k(X, Y.astype(np.float64))
    with pytest.raises(TypeError, match="outputs are returned"):
        k(X, Y, X)
    with pytest.raises(KdslError, match="never assigns the output"):
        elementwise("T x", "T y", "z = x", "bad", xp=np)
    with pytest.raises(ValueError, match="raw"):
        elementwise("raw T x", "T y", "y = x", "bad", xp=np)
    with pytest.raises(KdslError) as info:
        elementwise("T x", "T y", "y = x +", "bad", xp=np)
    assert info.value.column == 8


@pytest.mark.parametrize(("reduce_expr", "np_fn"), [("a + b", np.sum), ("b * a", np.prod),
                                                     ("max(a, b)", np.max), ("min(b, a)", np.min)])
def test_reduction_forms(reduce_expr, np_fn):
    k = reduction("T x", "T y", "x * 2", reduce_expr, "y = a", None, "r", xp=np)
    np.testing.assert_allclose(k(X, axis=1), np_fn(X * 2, axis=1), rtol=1e-5)
    np.testing.assert_allclose(k(X), np_fn(X * 2), rtol=1e-5)


def test_reduction_l2norm_post_map_keepdims():
    l2 = reduction("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm", xp=np)
    out = l2(X, axis=0, keepdims=True)
    assert out.shape == (1, 4)
    np.testing.assert_allclose(out, np.sqrt((X * X).sum(0, keepdims=True)), rtol=1e-5)


def test_reduction_identity_joins_the_accumulator():
    k = reduction("T x", "T y", "x", "max(a, b)", "y = a", "10", "clamped_max", xp=np)
    np.testing.assert_allclose(k(X, axis=1), np.maximum(X.max(1), 10))
    s = reduction("T x", "T y", "x", "a + b", "y = a", "1.5", "offset_sum", xp=np)
    np.testing.assert_allclose(s(X), X.sum() + 1.5, rtol=1e-5)


def test_reduction_two_inputs_broadcast():
    dot = reduction("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rowdot", xp=np)
    np.testing.assert_allclose(dot(X, Y, axis=1), X @ Y, rtol=1e-5)


def test_unrecognised_reduce_expr():
    with pytest.raises(KdslError, match="reduce_expr must be one of"):
        reduction("T x", "T y", "x", "a - b", "y = a", "0", "bad", xp=np)
    with pytest.raises(KdslError, match="reduce_expr must be one of"):
        reduction("T x", "T y", "x", "a + c", "y = a", "0", "bad", xp=np)
