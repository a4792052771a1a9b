"""scikit-learn on the GPU through the array API: PCA and Ridge fit on kdsl arrays and agree with NumPy.

With ``sklearn.set_config(array_api_dispatch=True)`` scikit-learn asks each input for its namespace
(``array_api_compat.array_namespace(X)`` is ``kdsl``) and computes with it: the SVDs, products and reductions run
as kdsl kernels on the device, and fitted attributes and predictions come back as kdsl arrays.

    SCIPY_ARRAY_API=1 python3 examples/sklearn_array_api.py

(SciPy's own array API switch must be on before SciPy is imported; this script sets it when it is unset.)
"""

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402

import kdsl as kd  # noqa: E402


def main() -> None:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 8))
    X[:, 1] = X[:, 0] * 2 + 0.01 * X[:, 1]  # a strongly correlated pair: PCA should find it
    y = X @ rng.standard_normal(8) + 0.1 * rng.standard_normal(200)
    Xd, yd = kd.asarray(X), kd.asarray(y)  # float64 on the device (float32 works too)

    with sklearn.config_context(array_api_dispatch=True):
        pca = PCA(n_components=3).fit(Xd)
        Z = pca.transform(Xd)
        ridge = Ridge(alpha=1.0, solver="svd").fit(Xd, yd)
        pred = ridge.predict(Xd)
    assert isinstance(Z, kd.Array) and isinstance(pred, kd.Array), "results stay on the device"

    pca_np = PCA(n_components=3).fit(X)
    ridge_np = Ridge(alpha=1.0, solver="svd").fit(X, y)
    np.testing.assert_allclose(pca.explained_variance_ratio_.numpy(), pca_np.explained_variance_ratio_, rtol=1e-8)
    signs = np.sign(np.sum(Z.numpy() * pca_np.transform(X), axis=0))  # an SVD's column signs are not unique
    np.testing.assert_allclose(Z.numpy() * signs, pca_np.transform(X), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(pred.numpy(), ridge_np.predict(X), rtol=1e-8, atol=1e-10)
    print(f"device: {Xd.device}")
    print("PCA explained variance ratio:", np.round(pca.explained_variance_ratio_.numpy(), 4))
    print(f"Ridge R^2 on kdsl: {float(ridge.score(Xd, yd)):.4f} (NumPy {ridge_np.score(X, y):.4f})")
    print("PCA and Ridge on kdsl match NumPy")


if __name__ == "__main__":
    main()
