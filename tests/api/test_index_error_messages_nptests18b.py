"""Index and axis errors worded as NumPy's (numpy/_core/tests/test_indexerrors.py, ported to kdsl).

* ``a[1, 9]`` on a (3, 4) array said "for axis 0" (the view's axis after the integer index removed one);
  NumPy names the array's axis: "index 9 is out of bounds for axis 1 with size 4". So did ``a[1, 9] = v``.
* ``a.item(k)`` on an n-d array is NumPy's "index k is out of bounds for size n" ("for axis 0 with size n" on
  1-d arrays); ``a.item((k,))`` is a flat index (kdsl raised ValueError); ``a.item(i, j, k)`` on a 2-d array
  is ``ValueError: incorrect number of indices for array`` (kdsl: IndexError); floats are TypeError.
* ``a.flat[k]`` out of range is "for size n", as NumPy's flatiter (kdsl said "for axis 0").
* ``swapaxes``/``diagonal``/``trace`` name the bad argument: "axis2: axis 2 is out of bounds ...".
* ``take`` of Python ints past int64 is NumPy's OverflowError (kdsl: a TypeError about object arrays).
* Float keys (``a[1.0]``, ``a[[1.0]]``, float index arrays) raise IndexError with NumPy's words.
"""

import numpy as np
import pytest

import kdsl as kd


def _outcome(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        return type(e).__name__, str(e)
    return "ok", None


def _same_error(make, act):
    """``act`` on NumPy's array and on kdsl's raise the same class with the same message."""
    want = _outcome(lambda: act(make(np)))
    got = _outcome(lambda: act(make(kd)))
    assert want[0] != "ok"
    assert got == want


def _arange(shape, dtype="f8"):
    return lambda m: m.asarray(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


def _set(x, key, value):
    x[key] = value


GETITEM = [
    ((3, 4), (1, 9)), ((3, 4), (-1, -5)), ((3, 4), (slice(1, None), 5)), ((3, 4), (None, 1, Ellipsis, 7)),
    ((3, 4), (Ellipsis, 7)), ((2, 3, 4), (1, slice(None), 4)), ((2, 3, 4), (Ellipsis, 5, slice(None))),
    ((2, 3, 4), (0, 0, 9)), ((5,), 7), ((5,), -6), ((0, 4), 0), ((1, 0, 3), (0, 0, None, 2)), ((3, 4), 3),
]


@pytest.mark.parametrize("shape,key", GETITEM)
@pytest.mark.parametrize("dtype", ["f4", "i8", "c8"])
def test_getitem_and_setitem_name_the_arrays_axis(shape, key, dtype):
    make = _arange(shape, dtype)
    _same_error(make, lambda a: a[key])
    _same_error(make, lambda a: _set(a, key, 1))


def test_the_axis_of_a_non_contiguous_view():
    make = _arange((4, 6))
    _same_error(lambda m: make(m)[::2, ::-3], lambda a: a[1, 2])  # shape (2, 2): axis 1
    _same_error(lambda m: make(m).T, lambda a: a[0, 4])  # shape (6, 4)


ITEM = [
    ((5,), (7,)), ((5,), (-6,)), ((3, 4), (12,)), ((3, 4), (-13,)), ((3, 4), ((12,),)), ((3, 4), ((1, 9),)),
    ((3, 4), (1, -5)), ((3, 4), (1, 2, 3)), ((3, 4), ((1, 2, 3),)), ((3, 4), ()), ((0,), (0,)), ((), (1,)),
    ((3, 4), (1.0,)), ((3, 4), ((1, 2.0),)), ((2, 1, 3), (0, 1, 0)), ((3, 4), (2**70,)),
]


@pytest.mark.parametrize("shape,args", ITEM)
def test_item_errors(shape, args):
    _same_error(_arange(shape), lambda a: a.item(*args))


@pytest.mark.parametrize("shape,args", [((3, 4), ((5,),)), ((3, 4), (-1, -1)), ((3, 4), ((2, 3),)), ((), ()),
                                        ((), ((),)), ((), (0,)), ((1, 1), ()), ((5,), (np.int64(-2),))])
def test_item_values(shape, args):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = kd.asarray(a).item(*args)
    assert got == a.item(*args) and type(got) is type(a.item(*args))


@pytest.mark.parametrize("shape,key", [((3, 4), 12), ((3, 4), -13), ((1, 0, 3), 0), ((3, 4), [1, 12]),
                                       ((3, 4), np.array(12))])
def test_flat_errors(shape, key):
    make = _arange(shape)
    _same_error(make, lambda a: a.flat[key])
    _same_error(make, lambda a: _set(a.flat, key, 5))
    _same_error(lambda m: make(m).T, lambda a: a.flat[key])


@pytest.mark.parametrize("call", [
    lambda m, a: m.swapaxes(a, 0, 2), lambda m, a: m.swapaxes(a, -3, 0), lambda m, a: a.swapaxes(1, 5),
    lambda m, a: m.diagonal(a, axis1=0, axis2=2), lambda m, a: m.diagonal(a, axis1=3),
    lambda m, a: a.diagonal(0, 1, -3), lambda m, a: m.trace(a, axis1=0, axis2=2),
])
def test_axis_errors_name_the_argument(call):
    _same_error(_arange((3, 4)), lambda a: call(np if isinstance(a, np.ndarray) else kd, a))


def test_take_and_put_on_empty_axes():
    # numpy's test_indexerrors: nothing to take from, whatever the mode
    for mode in ("raise", "wrap", "clip"):
        with pytest.raises(IndexError):
            kd.zeros((2, 3, 0, 4)).take([0], axis=2, mode=mode)
        with pytest.raises(IndexError):
            kd.zeros((5, 0)).take([0], mode=mode)
    with pytest.raises(IndexError):
        kd.zeros((5, 5, 0)).put(100, 0)


@pytest.mark.parametrize("indices", [2**70, [1, 2**70], [-(2**70)]])
def test_take_of_ints_past_int64(indices):
    # NumPy converts them to intp: OverflowError (kdsl raised a TypeError about an object dtype)
    _same_error(_arange((5,)), lambda a: a.take(indices))
    _same_error(_arange((5,)), lambda a: (np if isinstance(a, np.ndarray) else kd).take(a, indices))


@pytest.mark.parametrize("key", [1.0, [1.0], [1, 2.5], (1, 1.0), "a", np.array([1.5, 2.0]), np.float64(2.0)])
def test_non_integer_keys(key):
    # NumPy's IndexError words for scalars and sequences of non-integers, and for float index arrays
    _same_error(_arange((5, 3)), lambda a: a[key])
    _same_error(_arange((5, 3)), lambda a: _set(a, key, 0))


def test_float_kdsl_index_array():
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        kd.arange(5.0)[kd.asarray([1.0, 2.0])]
