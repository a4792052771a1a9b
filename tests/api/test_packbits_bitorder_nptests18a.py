"""``packbits``/``unpackbits``' ``bitorder`` read as NumPy's: a non-str is a TypeError (kdsl: ValueError);
``packbits`` takes a str starting with ``'big'``/``'little'``, ``unpackbits`` one whose first letter is ``'b'``/
``'l'`` (``'l'`` and ``'b'`` were refused), with NumPy's ValueError messages otherwise."""

import numpy as np
import pytest

import kdsl as kd

ORDERS = ["big", "little", "l", "b", "bigger", "littlest", "L", "LITTLE", "r", "", 10, None, b"little", 1.5]
DATA = [np.array([[3, 200, 17]], np.uint8), np.array([[3, 200, 17]], np.uint8).T, np.zeros((0, 2), np.uint8),
        np.array(129, np.uint8), np.array([[1, 0, 1], [0, 0, 1]], bool)[:, ::-1]]


def _outcome(fn, data, **kw):
    try:
        return np.asarray(fn(data, **kw)).tolist()
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("order", ORDERS, ids=repr)
@pytest.mark.parametrize("which", range(len(DATA)))
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_bitorder_as_numpy(order, which, axis):
    x = DATA[which]
    if axis is not None and x.ndim == 0:
        axis = None
    for name in ("packbits", "unpackbits"):
        if name == "unpackbits" and x.dtype != np.uint8:
            continue
        want = _outcome(getattr(np, name), x, axis=axis, bitorder=order)
        got = _outcome(getattr(kd, name), kd.asarray(x), axis=axis, bitorder=order)
        if name == "unpackbits" and x.size == 0 and not isinstance(want, tuple):
            assert np.asarray(got).shape == np.asarray(want).shape  # NumPy leaves nothing uninitialised here
        else:
            assert got == want, name


def test_count_with_orders():
    x = np.array([[5, 250]], np.uint8)
    for order in ("b", "l"):
        for count in (-3, 0, 5, 20):
            want = np.unpackbits(x, axis=1, count=count, bitorder=order)
            got = kd.unpackbits(kd.asarray(x), axis=1, count=count, bitorder=order)
            np.testing.assert_array_equal(got.numpy(), want)
