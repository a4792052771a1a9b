"""kd.ma against numpy.ma: ``x **= y`` masks the non-finite results and writes the fill value under them (kd.ma
left them unmasked); ``% & | ^ << >>`` are ndarray's operators in NumPy, whose data under the mask is the plain
result (kd.ma kept the first operand's data); ``compress`` with a masked condition uses the condition's data
(it recursed without end)."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_inplace_power_masks_non_finite(dtype, layout):
    base = np.array([-1.1, -1.1, 1.1, 1.1, 0.0, np.inf, np.nan, 2.0], dtype)
    expo = np.array([0.5, 2.0, 0.5, 2.0, -1.0, 1.0, 1.0, 3.0], dtype)
    mask = np.array([0, 0, 0, 1, 0, 0, 0, 0], bool)
    n = np.ma.array(base, mask=mask)
    k = kd.ma.array(kd.asarray(base), mask=kd.asarray(mask))
    if layout == "strided":
        n, k, expo = n[::2], k[::2], expo[::2]
    with np.errstate(all="ignore"):
        n **= expo
    k **= kd.asarray(expo)
    assert_same(k, n, masked_data=True)


def test_inplace_power_empty_and_nomask():
    for shape in [(0,), (1,), (2, 3)]:
        n, k = pair(shape, np.float32, "nomask")
        n, k = abs(n) + 1, abs(k) + 1
        n **= 2.0
        k **= 2.0
        assert_same(k, n)


OPS = [lambda a, b: a % b, lambda a, b: a & b, lambda a, b: a | b, lambda a, b: a ^ b, lambda a, b: a << b,
       lambda a, b: a >> b, lambda a, b: b & a, lambda a, b: b % a]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("case", [((7,), np.int32, "some", "contiguous"), ((3, 4), np.int32, "some", "strided"),
                                  ((4, 3), np.int32, "all", "transposed"), ((0,), np.int32, "some", "contiguous"),
                                  ((1,), np.int32, "nomask", "contiguous")])
def test_ndarray_operators_data_under_the_mask(op, case):
    n, k = pair(*case)  # positive data (the views' own), the same masks
    n, k = np.ma.array(np.abs(n.data) + 1, mask=n.mask), kd.ma.array(kd.abs(k.data) + 1, mask=k.mask)
    other = np.arange(1, n.size + 1, dtype=np.int32).reshape(n.shape) % 5 + 1
    assert_same(op(k, kd.asarray(other)), op(n, other), masked_data=True)


def test_bool_operators_and_masked_condition_compress():
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0, np.nan])
    mask = np.array([0, 0, 1, 1, 0, 0], bool)
    n, k = np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))
    with np.errstate(invalid="ignore"):
        nc = (n > 1.5) & (n < 3.5)
    kc = (k > 1.5) & (k < 3.5)
    assert_same(kc, nc, masked_data=True)
    assert_same(k.compress(kc), n.compress(nc))
    assert_same(kd.ma.compress(kc, k), np.ma.compress(nc, n))
    assert_same(k.compress(k > 10), n.compress(n > 10))  # nothing selected: an empty result
