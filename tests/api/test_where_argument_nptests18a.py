"""``where=`` of ufunc calls, ufunc methods, reductions and ``copyto`` casts to bool with NumPy's 'safe' rule: a
non-boolean array (kdsl or NumPy, 0-d included) is NumPy's TypeError; Python lists and scalars and NumPy scalars
are read as truth values. kdsl used to read any array as truth values (``where=np.array([1.0, 0.0])`` selected)."""

import numpy as np
import pytest

import kdsl as kd

CALLS = {
    "add": lambda m, x, w: m.add(x, 1, out=m.zeros_like(x), where=w),
    "negative": lambda m, x, w: m.negative(x, out=m.zeros_like(x), where=w),
    "sum": lambda m, x, w: m.sum(x, axis=-1, where=w),
    "max": lambda m, x, w: m.max(x, axis=-1, initial=-5.0, where=w),
    "add.reduce": lambda m, x, w: m.add.reduce(x, axis=-1, where=w),
    "subtract.reduce": lambda m, x, w: m.subtract.reduce(x, axis=-1, initial=1.0, where=w),
    "hypot.reduce": lambda m, x, w: m.hypot.reduce(x, axis=-1, where=w),
}
SHAPES = [(5,), (2, 3), (1, 4), (3, 1), (0, 2)]


def _data(shape, dtype):
    x = np.arange(np.prod(shape), dtype=dtype).reshape(shape) - 1
    if x.size and np.dtype(dtype).kind == "f":
        x.flat[0] = np.nan
        x.flat[-1] = np.inf
    return x


def _run(mod, name, x, w):
    conv = np.asarray if mod is np else kd.asarray
    got = CALLS[name](mod, conv(x), conv(w) if isinstance(w, np.ndarray) else w)
    return np.asarray(got)


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("wdtype", [np.float32, np.int32, np.uint8, np.float64])
def test_non_boolean_where_arrays_raise_as_numpy(name, shape, wdtype):
    x = _data(shape, np.float32)
    w = (np.arange(np.prod(shape)) % 2).astype(wdtype).reshape(shape)
    with pytest.raises(TypeError, match="according to the rule 'safe'") as want:
        _run(np, name, x, w)
    with pytest.raises(TypeError, match="according to the rule 'safe'") as got:
        _run(kd, name, x, w)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("name", ["add", "sum"])
def test_zero_d_non_boolean_where_is_numpys_scalar_error(name):
    x = _data((2, 3), np.float32)
    with pytest.raises(TypeError, match="Cannot cast scalar from dtype"):
        _run(kd, name, x, np.array(1))
    with pytest.raises(TypeError, match="Cannot cast scalar from dtype"):
        _run(np, name, x, np.array(1))


# (hypot has no integer loop in NumPy to compare with: its int32 case is left out)
@pytest.mark.parametrize("name,dtype", [(n, d) for n in CALLS for d in (np.float32, np.int32)
                                        if not (n == "hypot.reduce" and d == np.int32)])
@pytest.mark.parametrize("shape", SHAPES)
def test_boolean_arrays_and_python_data_select_as_numpy(name, shape, dtype):
    x = _data(shape, dtype)
    masks = [(np.arange(np.prod(shape)) % 2 == 0).reshape(shape), np.array(True), 1, np.float64(0.5)]
    if x.size:  # a nested list of ints (an empty one would lose the shape)
        masks.append((np.arange(x.size) % 3).reshape(shape).tolist())
    if name in ("add", "negative"):
        masks += [np.zeros(shape, bool)[..., ::-1] | True]  # a strided (reversed) view
    for w in masks:
        want = _run(np, name, x, w)
        got = _run(kd, name, x, w)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_copyto_where_keeps_numpys_rule():
    dst = kd.zeros((2, 2))
    with pytest.raises(TypeError, match="rule 'safe'"):
        kd.copyto(dst, 1.0, where=kd.asarray([[1, 0], [0, 1]]))
    kd.copyto(dst, 1.0, where=[[1, 0], [0, 2]])
    np.testing.assert_array_equal(dst.numpy(), [[1, 0], [0, 1]])
