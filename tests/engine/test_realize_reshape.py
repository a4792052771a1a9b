"""Realising a reshape of a computed node (a 2-d matmul's result is a reshape of its (1, m, n) product): the
product is computed once, the reshape shares its buffer, and the fast paths of ``matmul`` and ``realize_nodes``
agree with NumPy on every dtype and layout."""

import numpy as np
import pytest

import kdsl as kd


def _kernels(fn):
    before = kd.stats()["kernels"]
    out = fn()
    return out, kd.stats()["kernels"] - before


@pytest.mark.parametrize("shape", [(4, 4), (2, 8), (16,)])
def test_reshape_of_an_elementwise_node_shares_its_buffer(shape):
    x = kd.asarray(np.arange(16, dtype=np.float32))
    y = x * 2 + 1
    z = y.reshape(shape)
    _, launched = _kernels(lambda: kd.realize(z))
    assert launched == 1
    _, again = _kernels(lambda: kd.realize(y))  # computed with z: nothing left to run
    assert again == 0
    np.testing.assert_array_equal(z.numpy(), (np.arange(16, dtype=np.float32) * 2 + 1).reshape(shape))
    np.testing.assert_array_equal(y.numpy(), np.arange(16, dtype=np.float32) * 2 + 1)


def test_a_realised_source_is_not_computed_again():
    x = kd.asarray(np.arange(6, dtype=np.float32))
    y = x + 1
    kd.realize(y)
    z = y.reshape(2, 3)
    _, launched = _kernels(lambda: kd.realize(z))
    assert launched == 0
    np.testing.assert_array_equal(z.numpy(), (np.arange(6) + 1).reshape(2, 3))


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int32", "int8", "bool", "complex64"])
@pytest.mark.parametrize("layout", ["plain", "a.T", "b.T", "slices"])
def test_two_dimensional_matmul_matches_numpy(dtype, layout):
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (20, 12)).astype(dtype)
    b = rng.integers(-3, 4, (12, 18)).astype(dtype)
    if layout == "a.T":
        a = np.ascontiguousarray(a.T).T
    elif layout == "b.T":
        b = np.ascontiguousarray(b.T).T
    ka, kb = kd.asarray(a), kd.asarray(b)
    if layout == "slices":  # strided views of bigger arrays
        big_a, big_b = np.zeros((40, 24), dtype), np.zeros((24, 36), dtype)
        big_a[::2, ::2], big_b[::2, ::2] = a, b
        ka, kb = kd.asarray(big_a)[::2, ::2], kd.asarray(big_b)[::2, ::2]
    got = ka @ kb
    want = a @ b
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-3 if dtype == "float16" else 1e-6)


@pytest.mark.parametrize("sa, sb", [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((1, 1), (1, 1)), ((3, 5), (5, 0)),
                                    ((2, 3, 5), (5, 4)), ((5,), (5, 3)), ((3, 5), (5,))])
def test_matmul_edge_shapes_match_numpy(sa, sb):
    a = np.arange(np.prod(sa), dtype=np.float32).reshape(sa)
    b = np.arange(np.prod(sb), dtype=np.float32).reshape(sb) - 2
    got = kd.asarray(a) @ kd.asarray(b)
    assert got.shape == (a @ b).shape
    np.testing.assert_allclose(got.numpy(), a @ b)


def test_mixed_dtypes_and_mismatched_shapes_take_the_general_path():
    a, b = np.ones((3, 4), np.float32), np.ones((4, 2), np.float64)
    got = kd.asarray(a) @ kd.asarray(b)
    assert got.dtype == (a @ b).dtype
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        kd.ones((3, 4)) @ kd.ones((5, 2))
