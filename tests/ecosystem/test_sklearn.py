"""scikit-learn's array API dispatch on kdsl arrays: estimators fit, predict and transform on the device and match
the same estimators on NumPy arrays (docs/ecosystem.md lists what works and what does not, and why).

Tolerances: float64 to 1e-8 (relative) except iterative solvers (lbfgs: 1e-5); float32 to 2e-3, since kdsl's
float32 kernels (Jacobi SVD/eigh, tree reductions) round differently from LAPACK and NumPy's pairwise sums.
Components of PCA and LDA are compared up to the sign of each column (an SVD's signs are not unique).
"""

import os
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn", reason="scikit-learn is a test-only dependency (pip install kdsl[test])")
pytest.importorskip("array_api_compat", reason="array-api-compat is a test-only dependency (pip install kdsl[test])")
if os.environ.get("SCIPY_ARRAY_API") != "1":  # set by tests/conftest.py before anything imports SciPy
    pytest.skip("SCIPY_ARRAY_API=1 must be set before SciPy is imported", allow_module_level=True)

from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge, RidgeCV  # noqa: E402
from sklearn.metrics import accuracy_score, mean_absolute_error, mean_squared_error, r2_score  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.preprocessing import (  # noqa: E402
    Binarizer,
    KernelCenterer,
    LabelEncoder,
    MinMaxScaler,
    Normalizer,
    PolynomialFeatures,
    StandardScaler,
)

import kdsl as kd  # noqa: E402

DTYPES = [np.float64, np.float32]


def rtol(dtype, iterative=False):
    return 2e-3 if dtype == np.float32 else 1e-5 if iterative else 1e-8


@pytest.fixture(autouse=True)
def _dispatch():
    with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Array API does not support LU ...": sklearn's own notes
        yield


def data(dtype, n=40, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p)).astype(dtype)
    y = (X @ rng.standard_normal(p) + 0.1 * rng.standard_normal(n)).astype(dtype)
    labels = (X[:, 0] + X[:, 1] > 0).astype(np.int64) + (X[:, 2] > 1)
    return X, y, labels


def on_device(x):
    got = x
    assert isinstance(got, kd.Array), f"expected a kdsl array back, got {type(got).__name__}"
    return got.numpy()


def assert_close_up_to_sign(got, want, tol):
    signs = np.sign(np.sum(got * want, axis=0))
    np.testing.assert_allclose(got * signs, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "randomized"])
def test_pca(dtype, solver):
    X, _, _ = data(dtype)
    kw = {"random_state": 0, "power_iteration_normalizer": "QR"} if solver == "randomized" else {}
    want = PCA(3, svd_solver=solver, **kw).fit(X)
    got = PCA(3, svd_solver=solver, **kw).fit(kd.asarray(X))
    tol = rtol(dtype)
    np.testing.assert_allclose(on_device(got.explained_variance_), want.explained_variance_, rtol=tol)
    assert_close_up_to_sign(on_device(got.components_).T, want.components_.T, tol)
    assert_close_up_to_sign(on_device(got.transform(kd.asarray(X))), want.transform(X), tol)
    back = got.inverse_transform(got.transform(kd.asarray(X)))
    np.testing.assert_allclose(on_device(back), want.inverse_transform(want.transform(X)), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_linear_discriminant_analysis_svd(dtype):
    X, _, labels = data(dtype)
    want = LinearDiscriminantAnalysis(solver="svd").fit(X, labels)
    got = LinearDiscriminantAnalysis(solver="svd").fit(kd.asarray(X), kd.asarray(labels))
    Xd = kd.asarray(X)
    np.testing.assert_array_equal(on_device(got.predict(Xd)), want.predict(X))
    tol = rtol(dtype)
    np.testing.assert_allclose(on_device(got.predict_proba(Xd)), want.predict_proba(X), rtol=tol, atol=tol)
    assert_close_up_to_sign(on_device(got.transform(Xd)), want.transform(X), tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ridge_svd(dtype):
    X, y, _ = data(dtype)
    want = Ridge(alpha=0.5, solver="svd").fit(X, y)
    got = Ridge(alpha=0.5, solver="svd").fit(kd.asarray(X), kd.asarray(y))
    tol = rtol(dtype)
    np.testing.assert_allclose(on_device(got.coef_), want.coef_, rtol=tol, atol=tol)
    np.testing.assert_allclose(on_device(got.predict(kd.asarray(X))), want.predict(X), rtol=tol, atol=tol)


def test_ridge_cv_and_multi_target():
    X, y, _ = data(np.float64)
    Y = np.stack([y, 2 * y + 1], axis=1)
    want = RidgeCV(alphas=(0.1, 1.0, 10.0)).fit(X, Y)
    got = RidgeCV(alphas=(0.1, 1.0, 10.0)).fit(kd.asarray(X), kd.asarray(Y))
    assert float(got.alpha_) == want.alpha_
    np.testing.assert_allclose(on_device(got.predict(kd.asarray(X))), want.predict(X), rtol=1e-8)


@pytest.mark.parametrize("dtype", DTYPES)
def test_logistic_regression_lbfgs(dtype):
    X, _, labels = data(dtype)
    binary = (labels > 0).astype(np.int64)
    want = LogisticRegression().fit(X, binary)
    got = LogisticRegression().fit(kd.asarray(X), kd.asarray(binary))
    tol = rtol(dtype, iterative=True)
    np.testing.assert_allclose(on_device(got.predict_proba(kd.asarray(X))), want.predict_proba(X), rtol=tol,
                               atol=tol)
    np.testing.assert_array_equal(on_device(got.predict(kd.asarray(X))), want.predict(X))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gaussian_naive_bayes(dtype):
    X, _, labels = data(dtype)
    want = GaussianNB().fit(X, labels)
    got = GaussianNB().fit(kd.asarray(X), kd.asarray(labels))
    np.testing.assert_array_equal(on_device(got.predict(kd.asarray(X))), want.predict(X))
    tol = rtol(dtype)
    np.testing.assert_allclose(on_device(got.predict_log_proba(kd.asarray(X))), want.predict_log_proba(X),
                               rtol=tol, atol=tol)


TRANSFORMERS = {
    "StandardScaler": StandardScaler,
    "MinMaxScaler": MinMaxScaler,
    "Normalizer": Normalizer,
    "Binarizer": lambda: Binarizer(threshold=0.1),
    "PolynomialFeatures": lambda: PolynomialFeatures(2),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(TRANSFORMERS))
def test_preprocessors(name, dtype):
    X, _, _ = data(dtype)
    X[3, 1] = -0.0
    want = TRANSFORMERS[name]().fit(X).transform(X)
    got = on_device(TRANSFORMERS[name]().fit(kd.asarray(X)).transform(kd.asarray(X)))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=rtol(dtype), atol=rtol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_kernel_centerer(dtype):
    X, _, _ = data(dtype)
    K = X @ X.T
    want = KernelCenterer().fit(K).transform(K)
    got = on_device(KernelCenterer().fit(kd.asarray(K)).transform(kd.asarray(K)))
    np.testing.assert_allclose(got, want, rtol=rtol(dtype), atol=rtol(dtype) * np.abs(K).max())


def test_label_encoder():
    y = np.array([3, 1, 3, 7, 1, 1, 7], np.int64)
    enc = LabelEncoder().fit(kd.asarray(y))
    np.testing.assert_array_equal(on_device(enc.classes_), [1, 3, 7])
    np.testing.assert_array_equal(on_device(enc.transform(kd.asarray(y))), LabelEncoder().fit_transform(y))
    np.testing.assert_array_equal(on_device(enc.inverse_transform(kd.asarray(np.array([2, 0])))), [7, 1])


@pytest.mark.parametrize("dtype", DTYPES)
def test_metrics(dtype):
    X, y, labels = data(dtype)
    pred = y + X[:, 0].astype(dtype) * 0.3
    yd, pd = kd.asarray(y), kd.asarray(pred)
    for metric in (r2_score, mean_squared_error, mean_absolute_error):
        np.testing.assert_allclose(float(metric(yd, pd)), metric(y, pred), rtol=rtol(dtype))
    guess = np.roll(labels, 1)
    # kdsl's default float is float32 (as PyTorch's): the fraction is exact to float32's precision.
    np.testing.assert_allclose(accuracy_score(kd.asarray(labels), kd.asarray(guess)), accuracy_score(labels, guess),
                               rtol=1e-7)


def _more_metrics():
    from sklearn import metrics as m
    from sklearn.metrics import pairwise as pw

    rng = np.random.default_rng(1)
    X, Y = rng.standard_normal((20, 4)), rng.standard_normal((7, 4))
    y = rng.standard_normal(20)
    p = y + 0.3 * rng.standard_normal(20)
    yt, yp = rng.integers(0, 3, 20), rng.integers(0, 3, 20)
    yb, s = (yt > 0).astype(np.int64), rng.random(20)
    return {
        "explained_variance_score": (m.explained_variance_score, y, p),
        "mean_absolute_percentage_error": (m.mean_absolute_percentage_error, y, p),
        "mean_squared_log_error": (m.mean_squared_log_error, np.abs(y), np.abs(p)),
        "max_error": (m.max_error, y, p),
        "zero_one_loss": (m.zero_one_loss, yt, yp),
        "confusion_matrix": (m.confusion_matrix, yt, yp),
        "f1_score_macro": (lambda a, b: m.f1_score(a, b, average="macro"), yt, yp),
        "log_loss": (m.log_loss, yb, s),
        "roc_auc_score": (m.roc_auc_score, yb, s),
        "euclidean_distances": (pw.euclidean_distances, X, Y),
        "cosine_similarity": (pw.cosine_similarity, X, Y),
        "rbf_kernel": (pw.rbf_kernel, X, Y),
        "polynomial_kernel": (pw.polynomial_kernel, X, Y),
        "sigmoid_kernel": (pw.sigmoid_kernel, X, Y),
        "manhattan_distances": (pw.manhattan_distances, X, Y),
        "chi2_kernel": (pw.chi2_kernel, np.abs(X), np.abs(Y)),
        "pairwise_distances_cosine": (lambda a, b: m.pairwise_distances(a, b, metric="cosine"), X, Y),
    }


@pytest.mark.parametrize("name", sorted(_more_metrics()))
def test_more_metrics_and_pairwise_kernels(name):
    fn, a, b = _more_metrics()[name]
    want = fn(a, b)
    got = fn(kd.asarray(a), kd.asarray(b))
    got = on_device(got) if isinstance(want, np.ndarray) else float(got)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-12)
