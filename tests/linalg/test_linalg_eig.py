"""eig and eigvals against NumPy: the general (non-symmetric) path through the complex Schur form, checked by
``A v = w v``, unit-norm vectors and the eigenvalues matched to NumPy's (their order differs); the symmetric /
Hermitian path (eigh's results); dtypes, batches, empty input, views and errors."""

import numpy as np
import pytest
from linalg_testing import gaussian, layouts, matched, symmetric

import kdsl as kd
from kdsl.linalg import kernels, schur

RTOL = {"float32": 2e-4, "float64": 1e-10, "complex64": 2e-4, "complex128": 1e-10}
REAL_OF = {"float32": "float32", "float64": "float64", "complex64": "float32", "complex128": "float64"}
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64", "complex128": "complex128"}


def _numpy_dtype(a, w) -> str:
    """The dtype name NumPy 2.4 gives eig's results for input ``a`` with eigenvalues ``w`` (NumPy's own, of
    any version): real for real input whose eigenvalues are all real, kdsl's rule too. (A later NumPy on the GPU
    machine returns complex there: kdsl follows the released NumPy.)"""
    w = np.asarray(w)
    if np.asarray(a).dtype.kind != "c" and w.dtype.kind == "c" and not np.any(w.imag):
        return w.real.dtype.name
    return w.dtype.name




def _check_general(a, w, v, dtype, scale=1.0):
    r = RTOL[dtype] * scale * max(1.0, np.abs(a).max()) * a.shape[-1]
    a64 = a.astype(np.complex128)
    np.testing.assert_allclose(a64 @ v, v * w[..., None, :], rtol=r, atol=r)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1.0, rtol=RTOL[dtype] * 10)
    want = np.linalg.eigvals(a.astype(np.complex128))
    np.testing.assert_allclose(matched(w, want), want, rtol=r * 10, atol=r * 10)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(2, 2), (5, 5), (3, 7, 7), (2, 1, 12, 12), (33, 33)])
def test_eig_general_matches_numpy(shape, dtype):
    a = gaussian(shape, dtype, seed=len(shape) + shape[-1])
    w, v = kd.linalg.eig(kd.asarray(a))
    assert w.shape == shape[:-1] and v.shape == shape
    want = _numpy_dtype(a, np.linalg.eigvals(a))  # complex, or real for real input whose eigenvalues are all real
    assert want in (dtype, COMPLEX_OF[dtype]) and w.dtype.name == want and v.dtype.name == want
    _check_general(a, w.numpy(), v.numpy(), dtype)
    values = kd.linalg.eigvals(kd.asarray(a))
    assert values.dtype.name == want
    np.testing.assert_allclose(matched(values.numpy(), w.numpy()), w.numpy(), rtol=RTOL[dtype], atol=RTOL[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_real_spectrum_gives_real_arrays_like_numpy(dtype):
    rng = np.random.default_rng(3)
    q = rng.standard_normal((2, 6, 6)) + 3 * np.eye(6)
    a = (q @ np.diag([1.0, 2.0, -3.0, 4.0, 5.5, 0.5]) @ np.linalg.inv(q)).astype(dtype)
    a = np.concatenate([a, np.triu(rng.standard_normal((1, 6, 6))).astype(dtype)])
    w, v = kd.linalg.eig(kd.asarray(a))
    wn = np.linalg.eigvals(a)
    assert _numpy_dtype(a, wn) == dtype and w.dtype.name == dtype and v.dtype.name == dtype
    wn = wn.real
    np.testing.assert_allclose(np.sort(w.numpy()), np.sort(wn), rtol=RTOL[dtype] * 50, atol=RTOL[dtype] * 50)
    _check_general(a, w.numpy(), v.numpy(), dtype, scale=50)


@pytest.mark.parametrize("a", [[[0.0, -1.0], [1.0, 0.0]], [[2.0, 1.0], [0.0, 2.0]], np.diag(np.ones(4), 1),
                               [[1.0, 2.0], [3.0, 4.0]], [[0, 1], [-2, -3]]],
                         ids=["rotation", "jordan", "nilpotent", "small", "integers"])
def test_eig_special_matrices(a):
    a = np.asarray(a)
    w, v = kd.linalg.eig(kd.asarray(a))
    wn, _ = np.linalg.eig(a)
    assert w.dtype.name == _numpy_dtype(a, wn)
    np.testing.assert_allclose(matched(w.numpy(), wn), wn, atol=1e-7)
    a64 = a.astype(np.complex128)
    np.testing.assert_allclose(a64 @ v.numpy(), v.numpy() * w.numpy()[..., None, :], atol=1e-10)


def test_eig_complex_pairs_vectors_largest_component_real():
    a = gaussian((4, 5, 5), "float64", seed=11)
    _, v = kd.linalg.eig(kd.asarray(a))
    v = v.numpy()
    big = np.take_along_axis(v, np.abs(v).argmax(axis=-2)[..., None, :], axis=-2)
    np.testing.assert_allclose(big.imag, 0, atol=1e-12)
    assert (big.real > 0).all()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_eig_symmetric_or_hermitian_is_eigh(dtype):
    a = gaussian((3, 6, 6), dtype, seed=5)
    h = (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)
    w, v = kd.linalg.eig(kd.asarray(h))
    wh, vh = kd.linalg.eigh(kd.asarray(h))
    assert w.dtype.name == _numpy_dtype(h, np.linalg.eig(h)[0])  # real for real symmetric, complex for complex
    np.testing.assert_array_equal(w.numpy().real, wh.numpy())  # eigh's ascending order
    np.testing.assert_array_equal(v.numpy(), vh.numpy())
    np.testing.assert_allclose(kd.linalg.eigvals(kd.asarray(h)).numpy(), wh.numpy(), rtol=0, atol=0)
    r = RTOL[dtype] * np.abs(h).max()
    np.testing.assert_allclose(np.sort(w.numpy().real, axis=-1), np.sort(np.linalg.eigvals(h).real, axis=-1),
                               rtol=r, atol=r)


def test_eig_views_and_mixed_batch():
    s = symmetric((2, 5, 5), "float64", seed=1)
    mixed = np.concatenate([s, gaussian((1, 5, 5), "float64", seed=2)])  # one non-symmetric: all go general
    for _, view, host in layouts(mixed):
        w, v = kd.linalg.eig(view)
        assert w.dtype.name == "complex128"
        _check_general(host, w.numpy(), v.numpy(), "float64")
    for _, view, host in layouts(s):  # symmetric views: eigh's path
        assert kd.linalg.eig(view)[0].dtype.name == "float64"
        np.testing.assert_allclose(kd.linalg.eigvals(view).numpy(), np.linalg.eigvalsh(host), atol=1e-12)


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 0), (0, 0), (1, 1), (3, 1, 1)])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_eig_empty_and_one_by_one(shape, dtype):
    a = gaussian(shape, dtype)
    w, v = kd.linalg.eig(kd.asarray(a))
    wn, vn = np.linalg.eig(a)
    assert w.shape == wn.shape and v.shape == vn.shape and w.dtype.name == _numpy_dtype(a, wn)
    np.testing.assert_allclose(w.numpy(), wn)
    np.testing.assert_allclose(np.abs(v.numpy()), np.abs(vn))
    assert kd.linalg.eigvals(kd.asarray(a)).shape == wn.shape


def test_eig_large_order_spans_several_launches(monkeypatch):
    monkeypatch.setattr(kernels, "loop_budget", lambda: 2000)  # forces chunked Hessenberg, QR and trevc launches
    a = gaussian((2, 24, 24), "float64", seed=9)
    w, v = kd.linalg.eig(kd.asarray(a))
    _check_general(a, w.numpy(), v.numpy(), "float64")


def test_eig_integer_input_computes_in_float64():
    a = np.array([[1, 2, 0], [0, 3, 1], [4, 0, 1]])
    w = kd.linalg.eigvals(kd.asarray(a))
    assert w.dtype.name == np.linalg.eigvals(a).dtype.name == "complex128"
    np.testing.assert_allclose(matched(w.numpy(), np.linalg.eigvals(a)), np.linalg.eigvals(a), atol=1e-12)


def test_eig_errors():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        kd.linalg.eig(kd.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="two-dimensional"):
        kd.linalg.eigvals(kd.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        kd.linalg.eig(kd.asarray([[1.0, np.nan], [0.0, 1.0]]))
    with pytest.raises(TypeError, match="float16"):
        kd.linalg.eigvals(kd.ones((2, 2), dtype=kd.float16))


def test_eig_reports_non_convergence(monkeypatch):
    monkeypatch.setattr(schur, "MAX_ITS", 0)
    with pytest.raises(np.linalg.LinAlgError, match="did not converge"):
        kd.linalg.eigvals(kd.asarray(gaussian((4, 4), "float64")))


def test_numpy_eig_dispatches_to_kdsl():
    a = gaussian((3, 4, 4), "float64", seed=4)
    w, v = np.linalg.eig(kd.asarray(a))
    assert isinstance(w, kd.Array) and isinstance(v, kd.Array)
    _check_general(a, w.numpy(), v.numpy(), "float64")
    assert isinstance(np.linalg.eigvals(kd.asarray(a)), kd.Array)


def _grcar(n):
    return -np.eye(n, k=-1) + sum(np.eye(n, k=j) for j in range(4))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["defective", "nilpotent", "permutation", "grcar", "scaled_up", "scaled_down"])
def test_eig_hard_matrices_stay_finite_and_accurate(name, dtype):
    """Defective matrices (repeated eigenvalues with one vector: the back substitution's zero divisors),
    cyclic permutations (eigenvalues on the unit circle: exceptional shifts), and entries near float32's
    range ends (the shift and reflector computations are scaled)."""
    rng = np.random.default_rng(5)
    big = 1e18 if dtype == "float32" else 1e150
    a = {"defective": 2 * np.eye(8) + np.eye(8, k=1), "nilpotent": np.triu(np.ones((6, 6)), 1),
         "permutation": np.roll(np.eye(9), 1, axis=0), "grcar": _grcar(16),
         "scaled_up": rng.standard_normal((6, 6)) * big, "scaled_down": rng.standard_normal((6, 6)) / big}[name]
    a = a.astype(dtype)
    w, v = kd.linalg.eig(kd.asarray(a))
    w, v = w.numpy(), v.numpy()
    assert np.isfinite(w).all() and np.isfinite(v).all()
    scale = np.abs(a).max()
    r = RTOL[dtype] * 10 * scale
    np.testing.assert_allclose(a.astype(np.complex128) @ v, v * w[None, :], rtol=0, atol=r)
    if name not in ("defective", "nilpotent"):  # a defective eigenvalue is only eps**(1/n) accurate anywhere
        want = np.linalg.eigvals(a.astype(np.float64))
        np.testing.assert_allclose(matched(w, want), want, rtol=0, atol=r * a.shape[-1])
