"""NumPy's ``eig`` and ``eigvals`` for general square matrices, batched over leading axes.

One read back decides the algorithm for the whole call: when every matrix equals its (conjugate) transpose,
the result is :func:`kdsl.linalg.eigh`'s (Jacobi; real eigenvalues ascending, orthonormal vectors; complex
dtype for complex input, as NumPy's ``eig`` always returns for it). Otherwise the complex Schur form
(:mod:`kdsl.linalg.schur`: Hessenberg reduction and shifted QR on the GPU, in complex128; float32/complex64
input's results rounded to complex64, as NumPy's) gives complex eigenvalues in the Schur form's diagonal
order, not sorted, and the eigenvectors ``Z X`` from the triangular factor's, each normalised to unit norm with
its largest component real and positive (LAPACK's convention). For real input, an eigenvalue whose imaginary
part is within rounding of 0 (``n eps max|a|``) is made real, its vector too, and when every eigenvalue is
real the results are real arrays (float32/float64), as NumPy returns them (one more read back); complex pairs
are made exact conjugates, as NumPy's are (:mod:`kdsl.linalg.conjugate_pairs`).

Example:
    >>> import kdsl as kd, numpy as np
    >>> w = eigvals(kd.asarray(np.array([[0.0, -2.0], [2.0, 0.0]])))
    >>> sorted(np.round(w.numpy(), 12).tolist(), key=lambda c: c.imag)
    [-2j, 2j]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.linalg.common import EigResult, LinAlgError, as_array, batch_copy, check_matrices, working_dtype
from kdsl.linalg.conjugate_pairs import exact_pairs
from kdsl.linalg.eigh import eigh, eigvalsh
from kdsl.linalg.jacobi import sweep_dtype
from kdsl.linalg.schur import check, schur, triangular_eigenvectors


def _hermitian(a: kd.Array, name: str) -> bool:
    """Whether every matrix of ``a`` equals its conjugate transpose exactly; LinAlgError for infs and NaNs
    (NumPy's check). One read back for both."""
    if a.size == 0:
        return True
    t = kd.matrix_transpose(a)
    same, finite = kd.all(a == (kd.conj(t) if a.dtype.kind == "c" else t)), kd.all(kd.isfinite(a))
    kd.realize(same, finite)
    if not bool(finite):
        raise LinAlgError(f"{name}: Array must not contain infs or NaNs")
    return bool(same)


def _complex(dtype: kd.DType) -> kd.DType:
    return kd.complex64 if dtype.name in ("float32", "complex64") else kd.complex128


def _normalised(v: kd.Array) -> kd.Array:
    """The columns of ``v`` scaled to unit norm, the phase making each one's largest component real > 0."""
    mag = kd.abs(v)
    v = v / kd.sqrt(kd.sum(mag * mag, axis=-2, keepdims=True)).astype(v.dtype)
    big = kd.take_along_axis(v, kd.argmax(mag, axis=-2, keepdims=True), axis=-2)
    return v * (kd.conj(big) / kd.abs(big).astype(v.dtype))


def _real_where_rounding(a: kd.Array, values: kd.Array, vectors: kd.Array | None,
                         ) -> tuple[kd.Array, kd.Array | None]:
    """For real ``a``: eigenvalues whose imaginary part is within rounding (``n eps max|a|``) of 0 made real
    (their vectors too), and real dtypes when all are, as LAPACK's real Schur form gives for real spectra
    (one read back)."""
    n = a.shape[-1]
    eps = float(kd.finfo(values.dtype).eps)
    scale = kd.max(kd.abs(a), axis=(-2, -1))[..., None]
    real = kd.abs(kd.imag(values)) <= n * eps * scale
    values = kd.where(real, kd.real(values).astype(values.dtype), values)
    if vectors is not None:
        vectors = kd.where(real[..., None, :], kd.real(vectors).astype(vectors.dtype), vectors)
    if bool(kd.all(real)):
        return kd.real(values), None if vectors is None else kd.real(vectors)
    return exact_pairs(values, vectors)


def _rounded(dtype: kd.DType, *results: kd.Array | None) -> tuple[Any, ...]:
    """Results computed in a wider dtype rounded to ``dtype``'s precision (complex64 or float32 for float32 and
    complex64 input), each keeping its kind (real or complex)."""
    if dtype.name not in ("float32", "complex64"):
        return results
    return tuple(None if r is None else r.astype(kd.complex64 if r.dtype.kind == "c" else kd.float32)
                 for r in results)


def _general(a: kd.Array, dtype: kd.DType, want_vectors: bool) -> tuple[kd.Array, kd.Array | None]:
    """The Schur form's eigenvalues (and vectors) of ``a``. float32 and complex64 matrices are computed in
    complex128 where the device has float64 (and, on a GPU, below ``WIDE_EIGH`` columns: :func:`sweep_dtype`,
    the Jacobi solvers' rule) and rounded, as NumPy computes them (LAPACK's ``dgeev`` on the converted matrix):
    in complex64 the QR sweeps' rounding is ``n eps`` of the *largest* eigenvalue, which left a stiff matrix's
    eigenvalue 1e-3 (beside 1e3) 1% off; a real spectrum is also recognised at double's rounding then."""
    ctype = _complex(sweep_dtype(dtype, a.shape[-1]))
    t, z, converged = schur(batch_copy(a, ctype), want_vectors)
    check(converged)
    values = kd.diagonal(t, 0, -2, -1).reshape(a.shape[:-1])
    vectors = None
    if want_vectors:
        vectors = _normalised(kd.matmul(z, triangular_eigenvectors(t))).reshape(a.shape)
    if dtype.kind != "c":
        values, vectors = _real_where_rounding(a, values, vectors)
    return _rounded(dtype, values, vectors)


def _diagonal_order(a: kd.Array, w: kd.Array, v: kd.Array | None) -> tuple[kd.Array, kd.Array | None]:
    """``eigh``'s results with each *diagonal* matrix of the Hermitian stack ``a`` given LAPACK's ``geev``
    answer instead: its diagonal in order and the identity's columns (``geev`` leaves a diagonal matrix as it
    is; NumPy's own example ``eig(np.diag((3, 1, 2)))`` gives ``[3, 1, 2]``, where eigh sorts to ``[1, 2, 3]``).
    Decided per matrix on the device: no read back.

    Example:
        >>> import kdsl as kd, numpy as np
        >>> w, v = eig(kd.asarray(np.diag([3.0, 1.0, 2.0])))
        >>> w.numpy().tolist(), v.numpy()[:, 0].tolist()
        ([3.0, 1.0, 2.0], [1.0, 0.0, 0.0])
    """
    n = a.shape[-1]
    eye = kd.eye(n, dtype=kd.bool)
    diagonal = kd.all(kd.where(eye, kd.zeros((), dtype=a.dtype), a) == 0, axis=(-2, -1))
    values = kd.diagonal(a, 0, -2, -1)
    values = (kd.real(values) if a.dtype.kind == "c" else values).astype(w.dtype)
    w = kd.where(diagonal[..., None], values, w)
    if v is not None:
        v = kd.where(diagonal[..., None, None], kd.eye(n, dtype=v.dtype), v)
    return w, v


def _eig_dtypes(dtype: kd.DType, *results: kd.Array) -> tuple[kd.Array, ...]:
    """``eigh``'s results in ``eig``'s dtypes: complex for complex input, else as they are (real: NumPy 2.4's rule;
    NumPy 2.5, unreleased, makes them complex, docs/numpy-api.md)."""
    if dtype.kind == "c":
        return tuple(r.astype(_complex(dtype)) for r in results)
    return results


def _prepared(x: Any, name: str) -> tuple[kd.Array, kd.DType]:
    a = as_array(x)
    check_matrices(a, name)
    return a, working_dtype(a, name)


def eig(a: Any) -> EigResult:
    """Eigenvalues and right eigenvectors (columns, unit norm) of each square matrix of ``a``: ``a @ v ==
    v * w[..., None, :]``. Symmetric/Hermitian input takes :func:`eigh` (eigenvalues ascending; a diagonal
    matrix keeps its diagonal's order and the identity's vectors, as LAPACK's ``geev``); other input
    the complex Schur form (complex results, real for real input with a real spectrum; the Schur diagonal's
    order). Reads back one flag (symmetric?), one per QR launch (done?) and, for real input, one (all real?);
    raises :class:`LinAlgError` for infs and NaNs (as NumPy) and if the QR iterations do
    not converge."""
    x, dtype = _prepared(a, "eig")
    if _hermitian(x, "eig"):
        w, v = eigh(x.astype(dtype))
        w, vectors = _diagonal_order(x, w, v)
        assert vectors is not None
        return EigResult(*_eig_dtypes(dtype, w, vectors))
    w, vectors = _general(x, dtype, True)
    assert vectors is not None
    return EigResult(w, vectors)


def eigvals(a: Any) -> kd.Array:
    """The eigenvalues of each square matrix of ``a``, as :func:`eig` computes them (without vectors)."""
    x, dtype = _prepared(a, "eigvals")
    if _hermitian(x, "eigvals"):
        return _eig_dtypes(dtype, _diagonal_order(x, eigvalsh(x.astype(dtype)), None)[0])[0]
    return _general(x, dtype, False)[0]


__all__ = ["eig", "eigvals"]
