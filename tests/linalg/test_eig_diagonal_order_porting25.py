"""``np.linalg.eig`` / ``eigvals`` of a diagonal matrix give its diagonal in order and the identity's columns, as
NumPy's (LAPACK's ``geev`` leaves a diagonal matrix as it is; NumPy's docstring shows ``eig(np.diag((1, 2, 3)))``).
kdsl's Hermitian path (``eigh``) sorted them: ``eig(np.diag([3.0, 1.0, 2.0]))`` gave ``[1, 2, 3]`` with permuted
vectors. Each diagonal matrix of a Hermitian stack now keeps NumPy's answer; other symmetric matrices keep eigh's
ascending order (a documented difference, docs/numpy-api.md)."""


import numpy as np
import pytest

import kdsl as kd


def _diagonals(seed):
    rng = np.random.default_rng(seed)
    out = [np.diag([3.0, 1.0, 2.0]), np.diag([1.0, -0.0, 5.0, 5.0, -2.0]), np.zeros((3, 3)), np.eye(1),
           np.diag([7.0, -7.0])]
    for n in (2, 4, 9):
        d = rng.standard_normal(n)
        d[rng.random(n) < 0.3] = 0.0
        out.append(np.diag(d))
    return out


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "complex128", "complex64"])
def test_eig_of_diagonal_matrices_is_numpys(dtype):
    for a in _diagonals(2501):
        host = a.astype(dtype)
        w, v = kd.linalg.eig(kd.asarray(host))
        ew, ev = np.linalg.eig(host)
        # NumPy 2.4's real arrays for real input with a real spectrum (2.5, unreleased: complex)
        if host.dtype.kind != "c" and ew.dtype.kind == "c" and not np.any(ew.imag):
            ew, ev = ew.real, ev.real
        assert w.dtype.name == ew.dtype.name and v.dtype.name == ev.dtype.name
        np.testing.assert_array_equal(w.numpy(), ew)
        np.testing.assert_array_equal(v.numpy(), ev)
        np.testing.assert_array_equal(kd.linalg.eigvals(kd.asarray(host)).numpy(), ew)


def test_complex_diagonal_non_hermitian_and_bool():
    z = np.diag([3.0 + 1j, 1.0, 2.0 - 2j])  # not Hermitian: the Schur path, already in order
    np.testing.assert_allclose(kd.linalg.eigvals(kd.asarray(z)).numpy(), np.linalg.eigvals(z))
    b = np.diag([True, False, True])
    np.testing.assert_array_equal(kd.linalg.eig(kd.asarray(b))[0].numpy(), np.linalg.eig(b)[0])


def test_stacks_decide_per_matrix_and_views():
    sym = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    stack = np.stack([np.diag([3.0, 1.0, 2.0]), sym, np.diag([-1.0, 5.0, 0.0])])
    w, v = kd.linalg.eig(kd.asarray(stack))
    ew, ev = np.linalg.eig(stack)
    np.testing.assert_array_equal(w.numpy()[[0, 2]], ew[[0, 2]])
    np.testing.assert_array_equal(v.numpy()[[0, 2]], ev[[0, 2]])
    np.testing.assert_allclose(w.numpy()[1], np.linalg.eigvalsh(sym), rtol=1e-12)  # eigh's ascending order
    np.testing.assert_allclose(stack[1] @ v.numpy()[1], v.numpy()[1] * w.numpy()[1], atol=1e-12)
    big = np.diag(np.arange(8.0)[::-1]).reshape(8, 8)
    view = kd.asarray(np.pad(big, 1))[1:-1, 1:-1].T  # a strided, transposed view of a diagonal matrix
    np.testing.assert_array_equal(kd.linalg.eigvals(view).numpy(), np.linalg.eigvals(big.T))


def test_empty_and_non_finite_unchanged():
    for shape in [(0, 0), (2, 0, 0)]:
        a = np.zeros(shape)
        assert kd.linalg.eig(kd.asarray(a))[0].shape == np.linalg.eig(a)[0].shape
    with pytest.raises(np.linalg.LinAlgError):
        kd.linalg.eig(kd.asarray(np.diag([np.nan, 1.0])))


def test_real_input_dtypes_are_numpy_2_4s():
    """Real input with a real spectrum gives real arrays, as NumPy 2.4 (the released NumPy) gives them; the
    unreleased NumPy 2.5 on the GPU machines gives complex ones (docs/numpy-api.md)."""
    sym = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    general = np.array([[1.0, 2.0], [0.5, 3.0]])
    for host, real in [(sym, "float32"), (np.diag([3.0, 1.0]), "float64"), (general, "float64")]:
        w, v = kd.linalg.eig(kd.asarray(host))
        assert (w.dtype.name, v.dtype.name, kd.linalg.eigvals(kd.asarray(host)).dtype.name) == (real,) * 3
        np.testing.assert_allclose(np.sort_complex(w.numpy().astype(complex)),
                                   np.sort_complex(np.linalg.eigvals(host).astype(complex)), rtol=1e-5)
