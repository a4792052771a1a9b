"""Symmetric eigendecomposition: ``eigh`` and ``eigvalsh`` by parallel cyclic Jacobi on the GPU
(:mod:`kdsl.linalg.jacobi`; block Jacobi for large matrices, :mod:`kdsl.linalg.jacobi_block`), eigenvalues
sorted ascending as LAPACK returns them. Only the lower triangle is read (NumPy's default ``UPLO='L'``): it is
mirrored before the sweeps.

Example:
    >>> import kdsl as kd, numpy as np
    >>> w, v = eigh(kd.asarray(np.array([[2.0, 1.0], [1.0, 2.0]])))
    >>> np.round(w.numpy(), 12).tolist()
    [1.0, 3.0]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import jacobi, jacobi_block
from kdsl.linalg.blocked import adjoint
from kdsl.linalg.common import EighResult, as_array, batch_copy, check_matrices, working_dtype
from kdsl.linalg.jacobi import eigh_jacobi

BLOCK_EIGH = 128  # matrices of this order and larger are diagonalised by block Jacobi


def _symmetric(a: kd.Array, uplo: str) -> kd.Array:
    uplo = uplo.upper() if isinstance(uplo, str) else uplo  # NumPy accepts 'l' and 'u'
    if uplo not in ("L", "U"):
        raise ValueError(f"UPLO argument must be 'L' or 'U', got {uplo!r}")
    strict = kd.tril(a, -1) if uplo == "L" else kd.triu(a, 1)
    if a.dtype.kind == "c":  # Hermitian: the diagonal's imaginary part is ignored, as LAPACK's zheevd
        diag = kd.real(kd.diagonal(a, 0, -2, -1)).astype(a.dtype)
        return strict + adjoint(strict) + kd.eye(a.shape[-1], dtype=a.dtype) * diag[..., None, :]
    tri = kd.tril(a) if uplo == "L" else kd.triu(a)
    return tri + kd.matrix_transpose(strict)


def _diagonalise(a: kd.Array, want_vectors: bool, threshold: kd.DType) -> tuple[kd.Array, kd.Array]:
    """Block Jacobi from :data:`BLOCK_EIGH` on (a sweep is n/b - 1 rounds of two fat dispatches), the scalar
    sweeps of one workgroup per matrix below (a few dispatches a sweep, whole batches in each); the rotation
    test at ``threshold``'s epsilon."""
    batch, n, _ = a.shape
    if n >= BLOCK_EIGH and jacobi_block.fits(batch):
        return jacobi_block.eigh_block(a, want_vectors, threshold)
    return eigh_jacobi(a, want_vectors, threshold)


def _decompose(x, uplo: str, want_vectors: bool, name: str) -> tuple[kd.Array, kd.Array, kd.Array]:
    """The input, its eigenvalues ascending, and the vectors (in the sweeps' dtype: float64 for float32 input
    where the device has it, :func:`kdsl.linalg.jacobi.sweep_dtype`) with the order that sorts them."""
    a = as_array(x)
    check_matrices(a, name)
    dtype = working_dtype(a, name)
    sweep = jacobi.sweep_dtype(dtype, a.shape[-1])
    d, v = _diagonalise(batch_copy(_symmetric(a.astype(sweep), uplo), sweep), want_vectors, dtype)
    values = kd.diagonal(d, 0, -2, -1)
    values = (kd.real(values) if dtype.kind == "c" else values).astype(kd.finfo(dtype).dtype)
    order = kd.argsort(values, axis=-1, stable=True)
    return a, kd.take_along_axis(values, order, axis=-1), (v, order)  # type: ignore[return-value]


def eigh(a, UPLO: str = "L") -> EighResult:  # noqa: N803 - NumPy's keyword
    """Eigenvalues (ascending, real) and orthonormal eigenvectors (columns) of each symmetric (complex:
    Hermitian) matrix of ``x``."""
    a, values, (v, order) = _decompose(a, UPLO, True, "eigh")
    n = a.shape[-1]
    cols = kd.broadcast_to(order[:, None, :], (order.shape[0], n, n))
    vectors = kd.take_along_axis(v, cols, axis=-1).astype(working_dtype(a, "eigh"))
    return EighResult(values.reshape(a.shape[:-1]), vectors.reshape(a.shape))


def eigvalsh(a, UPLO: str = "L") -> kd.Array:  # noqa: N803 - NumPy's keyword
    """Eigenvalues (ascending, real) of each symmetric (complex: Hermitian) matrix of ``x``."""
    a, values, _ = _decompose(a, UPLO, False, "eigvalsh")
    return values.reshape(a.shape[:-1])


__all__ = ["eigh", "eigvalsh"]
