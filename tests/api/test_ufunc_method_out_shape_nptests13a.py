"""``out=`` of ``ufunc.reduce``/``accumulate``/``reduceat`` must have the result's shape, as NumPy's (kdsl
broadcast the result into a larger ``out``): NumPy's ValueError, through kdsl's ufuncs and NumPy's dispatch."""

import numpy as np
import pytest

import kdsl as kd

OUT_SHAPES = [(), (1,), (3,), (1, 1), (1, 3), (4, 3)]


def _outcome(fn, *args, **kwargs):
    try:
        return np.asarray(fn(*args, **kwargs))
    except ValueError:
        return ValueError


@pytest.mark.parametrize("out_shape", OUT_SHAPES, ids=str)
@pytest.mark.parametrize("keepdims", [True, False])
@pytest.mark.parametrize("name", ["add", "minimum", "subtract", "logaddexp", "equal"])
def test_reduce(name, keepdims, out_shape):
    host = np.arange(12.0).reshape(4, 3) if name != "equal" else np.arange(12).reshape(4, 3) % 3 == 0
    want = _outcome(getattr(np, name).reduce, host, axis=0, keepdims=keepdims,
                    out=np.zeros(out_shape, host.dtype))
    for call in (getattr(kd, name).reduce, getattr(np, name).reduce):  # kdsl's ufunc, NumPy's dispatch
        out = kd.zeros(out_shape, dtype=host.dtype)
        got = _outcome(call, kd.asarray(host), axis=0, keepdims=keepdims, out=out)
        if want is ValueError:
            assert got is ValueError
        else:
            np.testing.assert_allclose(got, want)
            np.testing.assert_allclose(out.numpy(), want)


@pytest.mark.parametrize("out_shape", [(4, 3), (1, 3), (4, 1), (3,), (2, 3)], ids=str)
def test_accumulate_and_reduceat(out_shape):
    host = np.arange(12.0).reshape(4, 3)
    for method, args in (("accumulate", ()), ("reduceat", ([0, 2],))):
        want = _outcome(getattr(np.add, method), host, *args, out=np.zeros(out_shape))
        for ufunc in (kd.add, np.add):
            out = kd.zeros(out_shape, dtype=np.float64)
            got = _outcome(getattr(ufunc, method), kd.asarray(host)[:, ::1], *args, out=out)
            if want is ValueError:
                assert got is ValueError
            else:
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(out.numpy(), want)


def test_messages():
    x = kd.asarray(np.ones((4, 3)))
    with pytest.raises(ValueError, match="wrong number of dimensions: Found 2 but expected 1"):
        kd.add.reduce(x, axis=0, out=kd.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"out has shape \(1,\) but the result has shape \(3,\)"):
        kd.add.reduce(x, axis=0, out=kd.zeros((1,)))  # NumPy 2.4: its iterator's "requires a reduction" message
    empty = kd.zeros((0, 3))
    np.testing.assert_array_equal(kd.add.reduce(empty, out=kd.ones((3,))).numpy(), np.zeros(3))
