"""``sig=``, NumPy's older spelling of a ufunc call's ``signature=`` (NumPy's test_ufunc.py: test_forced_sig)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("sig", ["ii->i", ("i", "i", "i"), (np.int32, None, np.int32)])
@pytest.mark.parametrize("shape", [(0,), (1,), (3,), (2, 3)])
def test_sig_forces_the_loop(sig, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    want = np.add(a, 0.5, sig=sig, casting="unsafe")
    got = kd.add(kd.asarray(a), 0.5, sig=sig, casting="unsafe")
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_sig_of_a_unary_ufunc_and_a_view():
    x = np.array([4.0, np.nan, np.inf, 2.25, -0.0, 9.0], dtype=np.float32)[::2]
    want = np.sqrt(x, sig="d->d")
    got = kd.sqrt(kd.asarray(np.array([4.0, np.nan, np.inf, 2.25, -0.0, 9.0], dtype=np.float32))[::2], sig="d->d")
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_sig_and_signature_together_refused():
    a = np.arange(3, dtype=np.int32)
    with pytest.raises(TypeError, match="both 'sig' and 'signature'"):
        np.add(a, 1, sig="ii->i", signature="ii->i")
    with pytest.raises(TypeError, match="both 'sig' and 'signature'"):
        kd.add(kd.asarray(a), 1, sig="ii->i", signature="ii->i")


def test_sig_naming_no_loop():
    with pytest.raises(TypeError):
        np.sqrt(np.arange(3.0), sig="i->i")
    with pytest.raises(TypeError):
        kd.sqrt(kd.arange(3.0), sig="i->i")
