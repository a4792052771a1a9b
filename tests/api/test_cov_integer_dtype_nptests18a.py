"""``kd.cov``/``kd.corrcoef`` and ``kd.ma.cov``/``kd.ma.corrcoef`` of integer and bool data compute in float64 as
``kd.mean`` of them does (NumPy's dtype), float32 on a device without float64; float16 data in float32 in both
(kd.ma kept float16, kd.cov gave float32 for integers, kd.ma.cov float64 even without float64)."""

import numpy as np
import pytest

import kdsl as kd

DATA = {
    "ints": np.array([[1, 2, 3, 9], [2, 4, 7, -1]], np.int32),
    "int8 columns": np.array([[1, 2], [3, 4], [5, 7]], np.int8)[:, ::-1],
    "uint16 1-d": np.array([3, 1, 4, 1, 5], np.uint16),
    "bools": np.array([[True, False, True], [True, True, False]]),
    "one observation": np.array([[4], [2]], np.int64),
    "no observations": np.zeros((2, 0), np.int32),
}


def _expected_float() -> kd.dtype:
    return kd.asarray([1, 2]).mean().dtype  # kdsl's float for integer data on this device


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # degrees of freedom <= 0, as NumPy's
@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
def test_integer_data_takes_the_mean_float(name, fn):
    x = DATA[name]
    want = getattr(np, fn)(x)
    got = getattr(kd, fn)(kd.asarray(x))
    assert got.dtype == _expected_float()
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", ["ints", "int8 columns", "bools"])
@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
def test_masked_integer_data_takes_the_mean_float(name, fn):
    x = DATA[name]
    mask = np.zeros(x.shape, bool)
    mask.flat[1] = True
    want = getattr(np.ma, fn)(np.ma.array(x, mask=mask))
    got = getattr(kd.ma, fn)(kd.ma.array(kd.asarray(x), mask=mask))
    assert got.dtype == _expected_float()
    np.testing.assert_allclose(np.ma.filled(got.numpy() if hasattr(got, "numpy") else np.ma.asarray(got), np.nan),
                               np.ma.filled(want, np.nan), rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
def test_float16_computes_in_float32_in_both(fn):
    x = np.array([[1.0, 2.5, 3.0], [0.5, -1.0, 2.0]], np.float16)
    for mod in (kd, kd.ma):
        got = getattr(mod, fn)(kd.asarray(x))
        assert got.dtype == kd.float32
        np.testing.assert_allclose(np.asarray(got), getattr(np, fn)(x), rtol=1e-3)
