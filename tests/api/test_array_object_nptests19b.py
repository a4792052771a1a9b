"""The array object's protocols, from NumPy's ``test_arrayobject.py`` and ``test_nditer.py`` (flatiter): the
errors of ``.mT``, ``bool`` and ``reshape`` in NumPy's words, ``a.flat`` as its own iterator (``next``, ``index``,
``coords``), and ``__array_wrap__``. Each case runs on NumPy and kdsl and compares."""

import re

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(), (4,), (2, 3), (2, 3, 4), (0, 3)]


def raised(f):
    """(type, message) of what ``f()`` raises."""
    try:
        f()
    except Exception as exc:  # noqa: BLE001 - the comparison is the test
        return type(exc), str(exc)
    raise AssertionError("nothing raised")


@pytest.mark.parametrize("shape", [(), (48,)])
def test_matrix_transpose_of_fewer_than_two_axes(shape):
    expected = raised(lambda: np.zeros(shape).mT)
    assert raised(lambda: kd.zeros(shape).mT) == expected
    with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):
        _ = kd.zeros(shape).mT


@pytest.mark.parametrize("shape", [(5, 2), (5, 2, 3), (5, 2, 3, 4)])
def test_matrix_transpose_equals_swapaxes(shape):
    arr = kd.broadcast_to(kd.arange(shape[-1]), shape)
    np.testing.assert_array_equal(np.asarray(arr.mT), np.swapaxes(np.broadcast_to(np.arange(shape[-1]), shape),
                                                                   -2, -1))


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3, 1)])
def test_truth_value_of_an_empty_array(shape):
    assert raised(lambda: bool(kd.zeros(shape))) == raised(lambda: bool(np.zeros(shape)))


@pytest.mark.parametrize("target", [(4,), (4, 2), (0, 3), (), (-1, 4), (2, -1, 4), (4, -1), 7])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reshape_error_message(target, dtype):
    expected = raised(lambda: np.arange(6, dtype=dtype).reshape(target))
    assert raised(lambda: kd.arange(6, dtype=dtype).reshape(target)) == expected
    assert raised(lambda: kd.reshape(kd.arange(6, dtype=dtype), target)) == expected


def flat_walk(xp, shape, dtype):
    """index, coords and value at each step of ``next(a.flat)``, and past the end."""
    f = xp.arange(int(np.prod(shape)), dtype=dtype).reshape(shape).flat
    steps = []
    while True:
        steps.append((int(f.index), f.coords))
        try:
            steps.append(next(f).item())
        except StopIteration:
            break
    return [*steps, (int(f.index), f.coords)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_flat_is_an_iterator(shape, dtype):
    assert flat_walk(kd, shape, dtype) == flat_walk(np, shape, dtype)


@pytest.mark.parametrize("shape", SHAPES)
def test_flat_pass_left_early_goes_on(shape):
    def run(xp):
        f = xp.arange(int(np.prod(shape))).reshape(shape).T.flat
        assert iter(f) is f
        first = [x.item() for _, x in zip(range(2), f, strict=False)]
        return first, [x.item() for x in f], list(f)

    assert run(kd) == run(np)


@pytest.mark.parametrize("index", [lambda f: f[4], lambda f: f.__setitem__(3, 30), lambda f: f[[1, 2]]])
def test_flat_indexing_restarts_the_pass(index):
    def run(xp):
        a = xp.arange(6).reshape(2, 3)
        f = a.flat
        out = [next(f).item(), next(f).item()]
        index(f)  # NumPy's flatiter goes back to the first element (and reads what was written)
        return out + [int(f.index)] + [x.item() for x in f]

    assert run(kd) == run(np)


@pytest.mark.parametrize("dtype", ["int8", "float32", "int32"])
@pytest.mark.parametrize("value", [3, [3], [[1, 2], [3, 4]]])
def test_array_wrap(dtype, value):
    for arr in (np.array(value, dtype=dtype), kd.array(value, dtype=dtype)):
        for rest in [(), (None, None), (None, False), (None, True)]:
            got = kd.arange(3).__array_wrap__(arr, *rest)
            expected = np.arange(3).__array_wrap__(np.asarray(arr), *rest)
            if isinstance(expected, np.ndarray):
                assert isinstance(got, kd.Array) and got.dtype == expected.dtype
                np.testing.assert_array_equal(np.asarray(got), expected)
            else:  # return_scalar=True on a 0-d array: NumPy's scalar
                assert type(got) is type(expected) and got == expected


def test_array_wrap_of_numpy_function_results():
    a = kd.asarray([[1.0, 2.0], [3.0, 4.0]])
    wrapped = a.__array_wrap__(np.linalg.inv(np.asarray(a)))
    np.testing.assert_allclose(np.asarray(wrapped), np.linalg.inv([[1.0, 2.0], [3.0, 4.0]]), rtol=1e-6)
    assert re.fullmatch(r"kd\.array\(.*", repr(wrapped), re.S)


@pytest.mark.parametrize("value,dtype", [([1, 2], "int16"), (3, "int32"), (True, "bool"), (1.5, "float32"),
                                         (np.arange(6).reshape(2, 3).T, "int16"), ([], "float32"),
                                         ([[1.0, -2.0]], "float32"), (7, "uint8")])
def test_bytes(value, dtype):
    """``bytes(a)``: the buffer's bytes in C order (a 0-d integer array: ``bytes(n)``, Python's ``__index__``
    rule); kdsl arrays have no buffer, so Python iterated them (one byte per element, or a TypeError)."""
    assert bytes(kd.asarray(value, dtype=dtype)) == bytes(np.asarray(value, dtype=dtype))


@pytest.mark.parametrize("value", [3, [3, 4]])
def test_three_argument_pow(value):
    def message(xp):
        with pytest.raises(TypeError) as info:
            pow(xp.asarray(value), 2, 5)
        return str(info.value).replace("kdsl.Array", "numpy.ndarray")

    assert message(kd) == message(np)
    assert pow(kd.asarray(value), 2).tolist() == pow(np.asarray(value), 2).tolist()


@pytest.mark.parametrize("shapes", [[(2, 3), (2,)], [(2, 3), (0,)], [(4, 1, 3), (2, 5)], [(), (2, 3), (4,)]])
@pytest.mark.parametrize("op", ["add", "multiply", "less"])
def test_broadcast_error_message(shapes, op):
    """NumPy's words for operands that do not broadcast: each shape without spaces, then a space."""
    def message(xp):
        arrays = [xp.zeros(s, dtype="float32") for s in shapes]
        return raised(lambda: getattr(xp, op)(getattr(xp, op)(arrays[0], arrays[1]), *arrays[2:])
                      if len(arrays) == 3 else getattr(xp, op)(*arrays))

    assert message(kd) == message(np)
