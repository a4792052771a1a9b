"""lstsq and the fits built on it with NaN or inf input, against NumPy: NaN/inf in ``a`` (a fit's ``x``) raise
NumPy's ``LinAlgError: SVD did not converge in Linear Least Squares``; an inf in ``b`` makes every solution NaN
(LAPACK scales ``b`` by its largest magnitude), a NaN only its own column's."""

import warnings

import numpy as np
import pytest

import kdsl as kd

MESSAGE = "SVD did not converge in Linear Least Squares"


def _numpy_error(call):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        with pytest.raises(np.linalg.LinAlgError) as info:
            call()
    return str(info.value)


@pytest.mark.parametrize(("fit", "dtype", "bad"), [
    ("polyfit", "float64", np.nan), ("polyfit", "float32", -np.inf), ("ma.polyfit", "float64", np.nan),
    ("Polynomial.fit", "float64", np.inf), ("chebfit", "float32", np.nan), ("legfit", "float64", np.nan),
    ("lstsq", "float64", np.nan)])  # (NumPy's own lstsq of an inf in a hangs in OpenBLAS here)
def test_non_finite_x_raises_numpys_linalg_error(fit, dtype, bad):
    """(Each case waits for the SVD's sweeps to give up: a few seconds on lavapipe.)"""
    x = np.arange(7.0, dtype=dtype)
    x[3] = bad
    y = np.linspace(-1, 2, 7).astype(dtype)
    calls = {"polyfit": lambda m, ma: m.polyfit(x if m is np else kd.asarray(x), y, 2),
             "ma.polyfit": lambda m, ma: ma.polyfit(x if m is np else kd.asarray(x), y, 2),
             "Polynomial.fit": lambda m, ma: m.polynomial.Polynomial.fit(x if m is np else kd.asarray(x), y, 2),
             "chebfit": lambda m, ma: m.polynomial.chebyshev.chebfit(x if m is np else kd.asarray(x), y, 2),
             "legfit": lambda m, ma: m.polynomial.legendre.legfit(x if m is np else kd.asarray(x), y, 2),
             "lstsq": lambda m, ma: m.linalg.lstsq(np.vander(x, 3) if m is np else kd.asarray(np.vander(x, 3)),
                                                   y, rcond=None)}
    expected = _numpy_error(lambda: calls[fit](np, np.ma))
    assert expected == MESSAGE
    with pytest.raises(kd.linalg.LinAlgError, match=f"^{MESSAGE}$"):
        calls[fit](kd, kd.ma)


@pytest.mark.parametrize("shape", [(6, 3), (40, 3), (3, 5)])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_b(shape, bad):
    a = np.random.default_rng(1).standard_normal(shape)
    b = np.random.default_rng(2).standard_normal((shape[0], 2))
    b[1, 0] = bad
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = np.linalg.lstsq(a, b, rcond=None)[0]
        expected_vector = np.linalg.lstsq(a, b[:, 0], rcond=None)[0]
    got = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b), rcond=None)[0].numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got[~np.isnan(got)], expected[~np.isnan(expected)], atol=1e-9)
    got_vector = kd.linalg.lstsq(kd.asarray(a), kd.asarray(b[:, 0]), rcond=None)[0].numpy()
    np.testing.assert_array_equal(np.isnan(got_vector), np.isnan(expected_vector))


def test_polyfit_with_inf_y_is_all_nan_as_numpys():
    x, y = np.arange(6.0), np.arange(6.0) ** 2
    y[2] = np.inf
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = np.polyfit(x, y, 2)
    got = kd.polyfit(kd.asarray(x), kd.asarray(y), 2).numpy()
    assert np.isnan(expected).all()
    np.testing.assert_array_equal(got, expected)
