"""``accumulate``/``reduceat`` take their one axis as NumPy's: an int, a 1-tuple (kdsl: TypeError), or None
on 1-d data; several axes (None on n-d data, which kdsl flattened for accumulate and failed on for reduceat)
are NumPy's ValueError, 0-d data its TypeError ("cannot accumulate on a scalar"; kdsl returned a 1-element
array or raised IndexError), an axis out of range its AxisError; reduceat's indices must be 1-d."""

import numpy as np
import pytest

import kdsl as kd


def _outcome(call):
    try:
        result = call()
    except (TypeError, ValueError, IndexError) as err:
        return type(err).__name__, str(err)
    return np.asarray(result).dtype.name, np.asarray(result).tolist()


def _host(shape, dtype):
    return (np.arange(int(np.prod(shape))) % 5 + 1).astype(dtype).reshape(shape)


AXES = [0, -1, 1, (0,), (1,), None, (0, 1), (), 2, -3, np.int64(0)]
UFUNCS = ["add", "multiply", "maximum", "subtract", "logical_or"]


@pytest.mark.parametrize("ufunc", UFUNCS)
@pytest.mark.parametrize("shape", [(5,), (2, 3), (), (0, 2), (1, 4)])
@pytest.mark.parametrize("axis", range(len(AXES)))
def test_accumulate_axis_as_numpy(ufunc, shape, axis):
    dtype = bool if ufunc == "logical_or" else np.float32
    host = _host(shape, dtype)
    want = _outcome(lambda: getattr(np, ufunc).accumulate(host, axis=AXES[axis]))
    got = _outcome(lambda: getattr(kd, ufunc).accumulate(kd.asarray(host), axis=AXES[axis]))
    assert got[0] == want[0]
    if got[0] in ("TypeError", "ValueError", "AxisError"):
        assert got[1] == want[1]
    else:
        np.testing.assert_allclose(got[1], want[1], rtol=1e-6)


@pytest.mark.parametrize("ufunc", ["add", "maximum", "multiply"])
@pytest.mark.parametrize("shape", [(6,), (2, 4), ()])
@pytest.mark.parametrize("axis", range(len(AXES)))
def test_reduceat_axis_as_numpy(ufunc, shape, axis):
    host = _host(shape, np.int32)
    want = _outcome(lambda: getattr(np, ufunc).reduceat(host, [0, 1], axis=AXES[axis]))
    got = _outcome(lambda: getattr(kd, ufunc).reduceat(kd.asarray(host), [0, 1], axis=AXES[axis]))
    assert got == want


def test_reduceat_strided_view_nan():
    host = np.array([3.0, np.nan, 1.0, -np.inf, 5.0, 2.0])[::-1]
    got = kd.maximum.reduceat(kd.asarray(np.array([3.0, np.nan, 1.0, -np.inf, 5.0, 2.0]))[::-1], (0, 3), axis=(0,))
    np.testing.assert_array_equal(got.numpy(), np.maximum.reduceat(host, (0, 3), axis=(0,)))


@pytest.mark.parametrize("indices", [1, np.array(1), [[0, 1]], np.zeros((1, 1), int)])
def test_reduceat_indices_depth(indices):
    with pytest.raises(ValueError):
        np.add.reduceat(np.arange(3), np.asarray(indices) if np.ndim(indices) < 2 else np.asarray(indices))
    with pytest.raises(ValueError):
        kd.add.reduceat(kd.arange(3), indices)
