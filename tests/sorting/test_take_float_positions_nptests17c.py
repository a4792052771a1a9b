"""``take`` with float positions as NumPy 2 takes them (numpy/_core/tests/test_regression.py's test_take_refcount
expects TypeError for a float array): Python floats (lists, tuples, scalars, ``np.float64``) are truncated toward
zero as ``int()`` does, NaN/inf raise ``int()``'s errors; an array of floats (NumPy's or kdsl's, 0-d too) is
NumPy's TypeError. kdsl raised IndexError for all of them."""

import numpy as np
import pytest

import kdsl as kd

DATA = np.arange(24, dtype=np.float32).reshape(4, 6)


def _take(lib, a, idx, **kw):
    try:
        return lib.take(a, idx, **kw).tolist() if lib is kd else np.take(a, idx, **kw).tolist()
    except (TypeError, ValueError, OverflowError, IndexError) as e:
        return type(e)


@pytest.mark.parametrize("idx", [[1.7], [2.9, -1.2, 0.0], 2.7, np.float64(3.99), (1.5,), [[1.5, 0.2]], [-0.7],
                                 [np.nan], [np.inf], [7.5], [-6.5], [-4.5], np.array(2.7), np.array([1.5]),
                                 np.array([1.5], np.float16), [True, False, True], [], [1j]], ids=repr)
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_as_numpy(idx, axis, mode):
    expected = _take(np, DATA, idx, axis=axis, mode=mode)
    got = _take(kd, kd.asarray(DATA), idx, axis=axis, mode=mode)
    if expected is TypeError or got is TypeError:  # (complex: NumPy's int() error, kdsl's cast error)
        assert got is expected
    else:
        assert got == expected


def test_views_and_device_indices():
    a = kd.asarray(DATA)[::-1, 1::2]
    assert kd.take(a, [1.9, 0.1], axis=1).tolist() == np.take(DATA[::-1, 1::2], [1, 0], axis=1).tolist()
    with pytest.raises(TypeError, match="same_kind"):
        kd.take(a, kd.asarray([1.0, 0.0]), axis=1)
    with pytest.raises(TypeError, match="scalar"):
        a.take(kd.asarray(np.float32(1.0)))
    assert a.take(kd.asarray([1, 0]), axis=1).tolist() == np.take(DATA[::-1, 1::2], [1, 0], axis=1).tolist()
