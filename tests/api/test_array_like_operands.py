"""Array-likes NumPy reads as arrays where an operand goes: ``a[:, 0] = range(n)``, ``a + range(n)``,
``np.maximum(x, range(...))``, ``np.full(3, range(3))``, and buffers (``array.array``, ``memoryview``) or objects
with ``__array__``; against NumPy (tests/porting, porting7a)."""

import array
import operator
from collections import deque
from collections.abc import Sequence

import numpy as np
import pytest

import kdsl as kd


class _HasArray:
    """An object with ``__array__`` only (what a pandas Series offers NumPy)."""

    def __init__(self, values):
        self.values = values

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.values, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
@pytest.mark.parametrize("r", [range(4), range(3, -5, -2), range(0)])
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.eq, operator.lt])
def test_binary_op_with_range(dtype, r, op):
    a = (np.arange(len(r)) % 3).astype(dtype)
    for left, right in ((a, r), (r, a)):
        want = op(left, right)
        got = op(kd.asarray(left) if left is a else left, kd.asarray(right) if right is a else right)
        assert got.dtype.kind == want.dtype.kind
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 3)])
def test_setitem_range_value(shape):
    a, k = np.zeros(shape, np.float32), kd.zeros(shape)
    for x in (a, k):
        x[:] = range(shape[-1])
        x[..., 0] = range(3, 3 + shape[0]) if len(shape) > 1 else 7
        x[..., 1:] -= range(shape[-1] - 1, 0, -1)
    np.testing.assert_array_equal(k.numpy(), a)


def test_setitem_range_through_mask_index_and_augmented():
    a, k = np.zeros((2, 3)), kd.zeros((2, 3))
    for x in (a, k):
        x[x[:, 0] == 0] = range(3)
        x[[0, 1], 2] = range(2)
        x[1] += range(3)
        x[0, ::2] -= range(2)
    np.testing.assert_array_equal(k.numpy(), a)


@pytest.mark.parametrize("name,args", [("maximum", (np.zeros(4), range(-2, 2))), ("power", (2, range(5))),
                                       ("where", (np.arange(3) > 0, range(3), 0)),
                                       ("clip", (np.arange(4), 0, range(1, 5))), ("subtract", (range(3), 1.5))])
def test_functions_take_range_operands(name, args):
    want = getattr(np, name)(*args)
    got = getattr(kd, name)(*(kd.asarray(x) if isinstance(x, np.ndarray) else x for x in args))
    assert got.dtype.kind == want.dtype.kind
    np.testing.assert_allclose(got.numpy(), want)


def test_put_range_indices_and_values():
    a, k = np.zeros(4), kd.zeros(4)
    np.put(a, range(2), range(5, 7))
    kd.put(k, range(2), range(5, 7))
    np.testing.assert_array_equal(k.numpy(), a)


@pytest.mark.parametrize("shape,fill", [(3, range(3)), ((2, 3), range(3)), ((2, 0), range(0))])
def test_full_of_range(shape, fill):
    want = np.full(shape, fill)
    got = kd.full(shape, fill)
    assert got.shape == want.shape and got.dtype.kind == want.dtype.kind
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("make", [lambda v: array.array("d", v), lambda v: memoryview(np.asarray(v, np.float32)),
                                  lambda v: _HasArray(v)])
def test_buffers_and_array_objects(make):
    v = [1.5, -2.0, 3.0]
    want = np.arange(3.0) * make(v)
    got = kd.arange(3.0) * make(v)
    np.testing.assert_allclose(got.numpy(), want)
    np.testing.assert_allclose(kd.maximum(make(v), 0).numpy(), np.maximum(make(v), 0))


def test_bytes_and_other_objects_still_refused():
    with pytest.raises(TypeError, match="bytes"):
        kd.arange(2) + b"ab"
    with pytest.raises(TypeError, match="object"):
        kd.arange(2) + object()
    with pytest.raises(ValueError, match="broadcast"):
        kd.arange(3) + range(2)


class _Readings(Sequence):
    """A user's read-only Sequence (``collections.abc``): NumPy reads its items as an array."""

    def __init__(self, values):
        self.values = list(values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]


SEQUENCES = [lambda v: deque(v, maxlen=8), _Readings]


@pytest.mark.parametrize("make", SEQUENCES)
@pytest.mark.parametrize("values", [[1.5, -2.0, 0.1], [3, 1, 2], [True, False, True], [], [0.5]])
@pytest.mark.parametrize("op", [operator.add, operator.mul, operator.sub, operator.eq, operator.lt])
def test_binary_op_with_a_sequence(make, values, op):
    """``a + deque`` raised TypeError, and ``a == deque`` **gave all False** (the deque taken as one object). A
    sequence is its list of items: kdsl's result is exactly its result with the list (whose Python floats stay
    float32 next to float32 arrays: docs/numpy-api.md), and NumPy's to float32 rounding."""
    for dtype in (np.float32, np.float64, np.int16):
        a = np.arange(len(values)).astype(dtype) - 1
        for left, right in ((a, make(values)), (make(values), a)):
            want = op(left, right)
            k_left, k_right = (kd.asarray(x) if x is a else x for x in (left, right))
            got = op(k_left, k_right)
            as_list = op(*(x if x is a or isinstance(x, kd.Array) else list(x) for x in (k_left, k_right)))
            assert got.dtype == as_list.dtype and got.dtype.kind == want.dtype.kind
            np.testing.assert_array_equal(got.numpy(), as_list.numpy())
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("make", SEQUENCES)
def test_ufuncs_and_functions_take_sequences(make):
    buf = [0.25, 4.0, 9.0, 2.5]
    x = np.array([1.0, -1.0, 2.0, 0.5])
    calls = [lambda m, d: m.sqrt(d), lambda m, d: m.maximum(d, 2), lambda m, d: m.where(m.asarray(x) > 0, d, 0.0),
             lambda m, d: m.clip(d, 1.0, 5.0), lambda m, d: m.hypot(d, m.asarray(x)),
             lambda m, d: m.add(m.asarray(x), d, out=m.zeros(4)), lambda m, d: m.asarray(x, m.float64) - d]
    for call in calls:
        want = call(np, make(buf))
        got = call(kd, make(buf))
        assert got.dtype.kind == want.dtype.kind
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    a = kd.asarray(x)
    a += make(buf)
    np.testing.assert_allclose(a.numpy(), x + buf, rtol=1e-6)
