"""Views (reshape, transpose, slicing with any step, integer indexing, broadcast) and writes (setitem,
concatenate, stack) against NumPy."""

import numpy as np
import pytest
from kd_testing import ALL_DTYPES, numpy_kdsl_allclose, sample

import kdsl as kd


def base(xp, shape=(4, 5, 6), dtype="float32"):
    return xp.asarray(sample(shape, dtype, seed=1, special=False))


KEYS = [0, -1, (1, 2), (slice(None), 3), (slice(1, 3), slice(None, None, -1)), (Ellipsis, 2),
        (slice(None, None, -2), None, 1), (slice(3, 0, -2), slice(4, None), slice(None, None, 3)), (None, 2),
        (slice(10, 20),), (2, Ellipsis, slice(-3, None))]


@pytest.mark.parametrize("key", KEYS)
@numpy_kdsl_allclose()
def test_getitem(xp, key):
    a = base(xp)
    return [a[key], a[key] * 2 + 1]


@numpy_kdsl_allclose()
def test_views_of_views(xp):
    a = base(xp)
    v = a[::-1, 1:, ::2].transpose(2, 0, 1)[1:, ::-1]
    return [v, v.reshape(-1), xp.swapaxes(v, 0, 2), v[0, 0], xp.sin(v.T)]


@pytest.mark.parametrize("shape", [(120,), (6, 20), (2, 3, 4, 5), (-1, 4), (5, 1, 24)])
@numpy_kdsl_allclose()
def test_reshape(xp, shape):
    a = base(xp)
    return [a.reshape(shape), a.transpose(1, 0, 2).reshape(shape), a[:, ::2].reshape(-1)]


@numpy_kdsl_allclose()
def test_shape_functions(xp):
    a = base(xp, (3, 1, 4))
    return [xp.expand_dims(a, 0), xp.expand_dims(a, (1, -1)), xp.squeeze(a), xp.squeeze(a, axis=1),
            xp.broadcast_to(a, (2, 3, 5, 4)), xp.moveaxis(a, 0, -1), a.T, xp.ravel(a), xp.flip(a, 2)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@numpy_kdsl_allclose()
def test_concatenate_stack(xp, dtype):
    a = xp.asarray(sample((2, 3), dtype, seed=2))
    b = xp.asarray(sample((4, 3), dtype, seed=3))
    return [xp.concatenate([a, b]), xp.concatenate([a, b[:2]], axis=1), xp.stack([a, b[1:3]], axis=1),
            xp.concatenate([a, b], axis=None)]


@numpy_kdsl_allclose()
def test_concatenate_mixed_dtypes_and_empty(xp):
    a = xp.asarray(np.arange(4, dtype=np.int16).reshape(2, 2))
    b = xp.asarray(np.ones((1, 2), np.float32))
    e = xp.asarray(np.zeros((0, 2), np.int16))
    return [xp.concatenate([a, b, e]), xp.concatenate([e, e])]


@pytest.mark.parametrize("key", [0, (1, slice(None, None, 2)), (slice(None), -1), (slice(3, 0, -1), 2),
                                 Ellipsis, (slice(None, None, -1),)])
@numpy_kdsl_allclose()
def test_setitem(xp, key):
    a = base(xp, (4, 5))
    a = a * 1  # the same on both sides: a computed array, then written
    a[key] = -7.0
    b = base(xp, (4, 5))
    b = b + 0
    region = b[key]
    b[key] = region * 10 + 1
    return [a, b]


@numpy_kdsl_allclose()
def test_setitem_broadcast_and_cast(xp):
    a = xp.asarray(np.zeros((3, 4), np.int32))
    a[1] = xp.asarray(np.array([1.9, -2.5, 3.2, 4.0], np.float32))
    a[:, 0] = 5
    a[2, 1:3] = xp.asarray(np.array([[8], [9]], np.int32))[0]
    return a


@numpy_kdsl_allclose()
def test_views_see_later_writes_to_their_base(xp):
    a = xp.zeros((3, 4), dtype=xp.float32)
    row, col, t, flat = a[1], a[:, 2], a.T, a.reshape(12)
    a[1, 2] = 5.0
    a += 1
    t[0, 2] = -3.0  # through another view
    return [row * 1, col * 1, t * 1, flat * 1, a * 1]


@numpy_kdsl_allclose()
def test_views_of_views_and_bitcasts_follow_their_base(xp):
    a = xp.arange(12, dtype=xp.float32).reshape(3, 4)
    inner = a[1:][::-1, 1:3]
    bits = a[0].view(xp.int32)
    a[2, 1] = 100.0
    a[0, 0] = 1.0
    inner[0, 0] += 0.5  # through the chain: a[2, 1]
    return [inner * 1, bits * 1, a * 1]


@numpy_kdsl_allclose()
def test_a_reshaped_base_keeps_its_views_reading_the_same_elements(xp):
    a = xp.arange(6, dtype=xp.int32).reshape(2, 3)
    row = a[0]
    a.shape = (3, 2)
    a[0, 1] = 99
    return [row * 1, a * 1]


def test_index_errors():
    a = kd.zeros((2, 3))
    with pytest.raises(IndexError):
        a[2]
    with pytest.raises(IndexError):
        a[0, 0, 0]
    with pytest.raises(IndexError):
        a[kd.zeros(2)]
    with pytest.raises(ValueError):
        a.reshape(4, 2)
    with pytest.raises(ValueError):
        kd.concatenate([a, kd.zeros((2, 2))])
    with pytest.raises(ValueError):
        a + kd.zeros((3, 2))


def test_len_iter_and_scalars():
    a = kd.asarray(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert len(a) == 3 and [r.tolist() for r in a] == [[0, 1], [2, 3], [4, 5]]
    assert float(a[2, 1]) == 5.0 and int(a[1, 0]) == 2 and bool(a[0, 1])
    with pytest.raises(ValueError):
        bool(a)
    assert "kd.array(" in repr(a) and "float32" in repr(a)
    assert np.asarray(a).shape == (3, 2)


RESHAPES = [lambda x: x.T.reshape(-1), lambda x: x[:, :2].reshape(-1), lambda x: x.reshape(2, 6),
            lambda x: x[::2].reshape(2, 2, 2), lambda x: x.T.reshape(4, 3, 1), lambda x: x[:, 1:3].reshape(3, 2, 1),
            lambda x: x.T.ravel(), lambda x: x[1].reshape(2, 2)]


@pytest.mark.parametrize("make", RESHAPES)
@numpy_kdsl_allclose()
def test_reshape_is_a_view_exactly_where_numpys_is(xp, make):
    """Writes reach a reshape and come back from it only where NumPy's reshape is a view, not a copy."""
    a = xp.arange(12, dtype=xp.int32).reshape(3, 4)
    r = make(a)
    a[0, 0] = 100
    a[2, 1] = -5
    r[(0,) * r.ndim] = 7  # reaches ``a`` only through a view
    return [r * 1, a * 1]


_SHAPE_VIEWS = {"owner": lambda x: x, "rows": lambda x: x[::2], "T": lambda x: x.T, "first_col": lambda x: x[:, :1],
                "middle_rows": lambda x: x[1:3], "reversed": lambda x: x[::-1], "empty": lambda x: x[:0],
                "row": lambda x: x[1]}


@pytest.mark.parametrize("view", _SHAPE_VIEWS)
@pytest.mark.parametrize("shape", [(-1,), (2, -1), (-1, 1), (1, -1, 1)])
def test_shape_assignment_only_where_numpy_reshapes_in_place(view, shape):
    """a.shape = s raises AttributeError where NumPy's reshape would copy (ndarray.shape's docstring example)."""
    host = np.arange(8.0).reshape(4, 2)
    h, k = _SHAPE_VIEWS[view](host), _SHAPE_VIEWS[view](kd.asarray(host))
    try:
        h.shape = shape
    except (AttributeError, ValueError) as e:
        with pytest.raises(type(e)):
            k.shape = shape
        return
    k.shape = shape
    assert k.shape == h.shape
    np.testing.assert_array_equal(k.numpy(), h)
