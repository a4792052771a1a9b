"""An empty boolean mask whose shape differs from the array's (found by the array API suite:
``x[kd.asarray([], dtype=bool)]`` of a (1, 3) array raised). NumPy lets a boolean axis of length 0 stand for an
axis of any length: it selects nothing; other lengths must match. Checked against NumPy for reading and writing,
kdsl and host masks."""

import numpy as np
import pytest

import kdsl as kd

CASES = [((5,), (0,)), ((2, 3), (0,)), ((2, 3), (0, 0)), ((2, 3), (0, 3)), ((2, 3), (2, 0)), ((1, 3), (0,)),
         ((2, 3, 4), (0,)), ((2, 3, 4), (2, 0)), ((0, 3), (0,)), ((2, 3), (1, 0)), ((2, 3), (0, 5)), ((0, 3), (1,)),
         ((2, 3), (0, 3, 1))]
VALUES = [1.5, (3,), (2,), (0, 3), (1, 1, 3), (2, 3), (1, 4), (4,)]


def _outcome(fn):
    try:
        return fn()
    except (IndexError, ValueError) as e:
        return type(e)


@pytest.mark.parametrize("xs, ks", CASES)
@pytest.mark.parametrize("host_mask", [False, True])
def test_getitem_like_numpy(xs, ks, host_mask):
    x = np.arange(float(np.prod(xs)), dtype=np.float32).reshape(xs)
    k = np.zeros(ks, bool)
    want = _outcome(lambda: x[k])
    got = _outcome(lambda: kd.asarray(x)[k if host_mask else kd.asarray(k)])
    if isinstance(want, type):
        assert got is want
    else:
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("xs, ks", CASES)
@pytest.mark.parametrize("value", VALUES)
def test_setitem_like_numpy(xs, ks, value):
    x = np.arange(float(np.prod(xs)), dtype=np.float32).reshape(xs)
    k = np.zeros(ks, bool)
    v = value if isinstance(value, float) else np.ones(value, np.float32)
    y, a = x.copy(), kd.asarray(x)

    def np_set():
        y[k] = v
        return y

    def kd_set():
        a[kd.asarray(k)] = v
        return a.numpy()

    want, got = _outcome(np_set), _outcome(kd_set)
    if isinstance(want, type):
        assert got is want
    else:
        np.testing.assert_array_equal(got, want)


def test_empty_mask_on_a_strided_view():
    x = np.arange(24.0, dtype=np.float32).reshape(4, 6)
    view = kd.asarray(x)[::2, ::3]  # (2, 2), not contiguous
    assert view[kd.asarray(np.zeros(0, bool))].shape == x[::2, ::3][np.zeros(0, bool)].shape == (0, 2)


@pytest.mark.parametrize("key", [np.array([]), (0, np.array([], np.float32)), (slice(None), np.array([0.0]))],
                         ids=["empty-float", "int-then-empty-float", "slice-then-float"])
def test_float_index_arrays_are_not_masks_even_when_empty(key):
    """NumPy refuses a float index array, an empty one too; kdsl took an empty one for an empty mask."""
    a = kd.arange(6).reshape(2, 3)
    with pytest.raises(IndexError, match="integer \\(or boolean\\) type"):
        a[key]
    with pytest.raises(IndexError, match="integer \\(or boolean\\) type"):
        a[key] = 1
    assert a[[]].shape == np.arange(6).reshape(2, 3)[[]].shape == (0, 3)  # an empty list stays an empty index
