"""Call forms NumPy code uses that kdsl refused: several Python scalars in ``result_type``/``select``,
``tensordot(a, b, 1)``, ``astype(copy=, casting=)``, ``a.item(i)`` / ``a.item(i, j)``; against NumPy."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("operands,expected", [((1, 2, 3), kd.int32), ((True, False, True), kd.bool),
                                               ((1, 2.0, 3), kd.float32), ((1, 2.0, 1j), kd.complex64),
                                               ((kd.int8, 1, 2), kd.int8), ((kd.int8, 1, 2.5), kd.float32),
                                               ((kd.float64, 1, 2), kd.float64)])
def test_result_type_of_several_python_scalars(operands, expected):
    # kdsl's defaults for Python scalars (int32, float32, complex64: docs/numpy-api.md); NumPy's kinds
    assert kd.result_type(*operands) is expected
    assert np.result_type(*(o.np if isinstance(o, kd.DType) else o for o in operands)).kind == expected.kind


@pytest.mark.parametrize("choices,default", [([10, 20], 0), ([1.5, 2], -1), ([10, np.arange(4)], 7)])
def test_select_with_scalar_choices(choices, default):
    x = np.arange(4)
    conds = [x < 1, x < 3]
    got = kd.select([kd.asarray(c) for c in conds], choices, default=default)
    np.testing.assert_array_equal(got.numpy(), np.select(conds, choices, default=default))


@pytest.mark.parametrize("axes,b_shape", [(0, (2,)), (1, (4, 5)), (2, (3, 4, 5)), (([1], [0]), (3, 5)),
                                          (([0, 1], [1, 2]), (5, 2, 3))])
def test_tensordot_axes_positional(axes, b_shape):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 3, 4)).astype(np.float32), rng.normal(size=b_shape).astype(np.float32)
    got = kd.tensordot(kd.asarray(a), kd.asarray(b), axes)
    np.testing.assert_allclose(got.numpy(), np.tensordot(a, b, axes), rtol=1e-4, atol=1e-5)


def test_tensordot_axes_as_numpy_or_zero_d_integer():
    # `k = np.argmax(shape_a[::-1] == ...)`, `np.int64(1)`: one integer as NumPy takes it (was "must be an int")
    a, b = np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(4, 3)
    want = np.tensordot(a, b, 1)
    for axes in (np.int64(1), np.array(1), kd.asarray([0, 5]).argmax()):
        got = kd.tensordot(kd.asarray(a), kd.asarray(b), axes)
        np.testing.assert_allclose(got.numpy(), want)


def test_astype_copy_and_casting():
    a = kd.zeros(3)
    assert a.astype(kd.float32, copy=False) is a
    b = a.astype(kd.float32)  # copy=True (NumPy's default): writes stay in the copy
    b[0] = 5
    assert a.tolist() == [0.0, 0.0, 0.0]
    assert a.astype("int32", copy=False).dtype is kd.int32
    assert a.astype(kd.float64, casting="safe").dtype is kd.float64
    with pytest.raises(TypeError, match=r"Cannot cast array data from .*float32.* to .*int32.* .*rule 'safe'"):
        a.astype(kd.int32, casting="safe")


@pytest.mark.parametrize("args", [(3,), (-1,), (0,), ((1, 0),), (1, 1), ((-1, -2),)])
def test_item_with_indices(args):
    host = np.arange(4, dtype=np.int32).reshape(2, 2) * 3
    got = kd.asarray(host).item(*args)
    assert got == host.item(*args) and type(got) is type(host.item(*args))


def test_item_errors():
    with pytest.raises(IndexError, match="out of bounds"):
        kd.arange(4).item(4)
    with pytest.raises(ValueError, match="size 1"):
        kd.arange(4).item()


def test_zero_d_arrays_hash_as_numpy_scalars():
    import collections

    host = np.array([3, 1, 3, 2, 3], np.int32)
    y = kd.asarray(host)
    assert collections.Counter(y) == collections.Counter(host)  # iterating gives 0-d arrays, NumPy scalars
    counts: dict = {}
    for i in range(len(y)):
        counts[y[i]] = counts.get(y[i], 0) + 1
    assert counts == {3: 3, 1: 1, 2: 1} and {1.5: "a"}[kd.asarray(1.5)] == "a"
    assert hash(kd.asarray(2.5)) == hash(np.float32(2.5)) and len({kd.asarray(7), kd.asarray(7)}) == 1
    with pytest.raises(TypeError, match="unhashable"):
        hash(kd.zeros(1))


@pytest.mark.parametrize("value", [3.0, 100.0, -5, [1.0, 2.0, 3.0, -9.0], np.nan, True, 0])
@pytest.mark.parametrize("make", [lambda h: h, lambda h: h[::2], lambda h: h.T, lambda h: h[1], lambda h: h[0, 0],
                                  lambda h: h[:0], lambda h: (h > 0)])
def test_in_operator_is_numpys_any_equal(value, make):
    """``3.0 in a`` iterated the rows and compared each (ambiguous truth value) instead of NumPy's
    ``(a == value).any()``."""
    host = np.asarray(make(np.arange(12.0).reshape(3, 4) - 5))  # a 0-d array, as kdsl gives, not a scalar
    x = make(kd.asarray(np.arange(12.0).reshape(3, 4) - 5))
    try:
        want = value in host
    except ValueError as e:
        with pytest.raises(ValueError):
            value in x  # noqa: B015 - the membership test is what raises
        assert "broadcast" in str(e) or "shape" in str(e)
        return
    assert (value in x) is want


def test_in_operator_on_ints_and_bools():
    x = kd.asarray([1, 5, 7], dtype=kd.int16)
    assert 5 in x and 6 not in x and 5.0 in x and True not in kd.asarray([False, False])


RANGE_KEYS = [range(2), (range(3), [1, 0, 2]), (slice(None), range(0, 4, 2)), range(0), (range(3), range(3)),
              (0, range(1, 3)), (range(2, -1, -1),), (Ellipsis, range(1, 4))]


@pytest.mark.parametrize("key", RANGE_KEYS, ids=range(len(RANGE_KEYS)))
@pytest.mark.parametrize("dtype", ["float32", "int16"])
@pytest.mark.parametrize("strided", [False, True])
def test_range_objects_index_as_integer_arrays(key, dtype, strided):
    """``p[range(n), y]`` (cross-entropy) and ``g[range(n), y] -= 1`` were IndexErrors: NumPy reads a range
    as an integer array."""
    host = (np.arange(24).reshape(3, 8) - 7).astype(dtype)
    host = host[:, ::2] if strided else host[:, :4]
    x = kd.asarray(np.repeat(host, 2, axis=1))[:, ::2] if strided else kd.asarray(host)
    np.testing.assert_array_equal(x[key].numpy(), host[key])
    want = host.copy()
    want[key] -= 1
    x[key] -= 1
    np.testing.assert_array_equal(x.numpy(), want)
    want[key] = 9
    x[key] = 9
    np.testing.assert_array_equal(x.numpy(), want)


def test_range_index_out_of_bounds():
    with pytest.raises(IndexError):
        kd.zeros((2, 3))[range(3), 0]
