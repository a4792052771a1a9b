"""MaskedArray.round(decimals, out=) as numpy.ma's: ``out`` (a kd.ma masked array or a kdsl array) receives the
rounded values and is returned; kd.ma ignored ``out`` and returned a new array. A NumPy ``out`` is refused
(TypeError), as kd.round's: it would mean a copy to the host."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("data_masked", [False, True])
@pytest.mark.parametrize("out_masked", [False, True])
def test_zero_d_into_masked_out(data_masked, out_masked):
    a, na = kd.ma.array(1.1, mask=[data_masked]), np.ma.array(1.1, mask=[data_masked])
    out, nout = kd.ma.array(-9999.0, mask=[out_masked]), np.ma.array(-9999.0, mask=[out_masked])
    assert a.round(out=out) is out
    na.round(out=nout)
    assert_same(out, nout, check_dtype=False)  # kdsl's Python float is float32


@pytest.mark.parametrize("decimals", [0, 1, -1])
@pytest.mark.parametrize("case", [((7,), np.float64, "some", "contiguous"), ((3, 4), np.float64, "all", "strided"),
                                  ((4, 3), np.float64, "nomask", "transposed"), ((0,), np.float64, "some",
                                                                                  "contiguous")])
def test_arrays_into_masked_and_plain_out(case, decimals):
    n, k = pair(*case)
    nout, kout = np.ma.zeros(n.shape), kd.ma.zeros(k.shape, dtype=kd.float64)
    n.round(decimals, out=nout)
    assert k.round(decimals, out=kout) is kout
    assert_same(kout, nout)
    plain = kd.zeros(k.shape, dtype=kd.float64)
    assert k.round(decimals, out=plain) is plain
    np.testing.assert_allclose(plain.numpy(), n.round(decimals, out=np.zeros(n.shape)))


def test_nan_inf_and_numpy_out():
    data = np.array([np.nan, np.inf, -np.inf, 2.55])
    k, n = kd.ma.array(kd.asarray(data), mask=[0, 0, 1, 0]), np.ma.array(data, mask=[0, 0, 1, 0])
    out, nout = kd.ma.zeros(4, dtype=kd.float64), np.ma.zeros(4)
    k.round(out=out)  # decimals=0: NumPy 2.4's masked out= with decimals=1 writes 1.0 for round(inf), not inf
    n.round(out=nout)
    assert_same(out, nout)
    with pytest.raises(TypeError):
        k.round(out=np.zeros(4))
