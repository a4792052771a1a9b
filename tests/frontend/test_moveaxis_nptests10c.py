"""``moveaxis`` takes its axes as NumPy does: one integer or any iterable of them (a ``range``, a generator, a
1-d integer array), and an axis out of range is NumPy's AxisError naming ``source`` or ``destination``."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(1, 2, 3, 4), (2, 0, 3), (5, 1)]


def _cases(ndim):
    yield range(ndim), range(ndim)
    yield range(ndim - 1, -1, -1), range(ndim)
    yield (k for k in [0]), (k for k in [-1])
    yield np.arange(2), [1, 0]
    yield [0, -1], range(2)


@pytest.mark.parametrize("shape", SHAPES)
def test_iterable_axes(shape):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    for (src, dst), (nsrc, ndst) in zip(_cases(len(shape)), _cases(len(shape)), strict=True):
        got = kd.moveaxis(kd.asarray(host), src, dst)
        want = np.moveaxis(host, nsrc, ndst)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("src, dst, name", [(3, 0, "source"), (0, -4, "destination"), ([0, 5], [0, 1], "source")])
def test_out_of_range_axis_names_the_argument(src, dst, name):
    with pytest.raises(np.exceptions.AxisError, match=f"^{name}: axis"):
        kd.moveaxis(kd.zeros((1, 2, 3)), src, dst)
    with pytest.raises(np.exceptions.AxisError, match=f"^{name}: axis"):
        np.moveaxis(np.zeros((1, 2, 3)), src, dst)


def test_non_integer_axes_are_a_clear_type_error():
    with pytest.raises(TypeError, match="moveaxis: axes must be an int or a sequence of ints"):
        kd.moveaxis(kd.zeros((1, 2, 3)), None, 0)
