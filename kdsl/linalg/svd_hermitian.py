"""NumPy's ``svd(a, hermitian=True)``: the SVD of a symmetric (complex: Hermitian) matrix from its
eigendecomposition (:func:`kdsl.linalg.eigh.eigh`, which reads the lower triangle only, as NumPy's does).

The singular values are the eigenvalues' magnitudes, in decreasing order (NumPy reverses an ascending sort, so
ties come out in reverse); ``U`` holds the matching eigenvectors and ``Vh`` is ``(U * sign(w))^H``: the
eigenvalues' signs (``copysign(1, w)``: a zero eigenvalue too, so ``Vh`` stays unitary) move into ``Vh``.

Example:
    >>> import kdsl as kd
    >>> u, s, vh = hermitian_svd(kd.asarray([[2.0, 0.0], [0.0, -3.0]]))
    >>> s.tolist(), (u @ (s[:, None] * vh)).tolist()
    ([3.0, 2.0], [[2.0, 0.0], [0.0, -3.0]])
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg.blocked import adjoint
from kdsl.linalg.common import SVDResult
from kdsl.linalg.eigh import eigh, eigvalsh


def _descending(magnitudes: kd.Array) -> kd.Array:
    """NumPy's order: an ascending (stable) argsort, reversed."""
    return kd.flip(kd.argsort(magnitudes, axis=-1, stable=True), axis=-1)


def hermitian_svd(a: kd.Array) -> SVDResult:
    """``U, S, Vh`` of each Hermitian matrix of the stack ``a`` from its eigenpairs."""
    w, v = eigh(a)
    order = _descending(kd.abs(w))
    w = kd.take_along_axis(w, order, axis=-1)
    u = kd.take_along_axis(v, kd.broadcast_to(order[..., None, :], v.shape), axis=-1)
    signs = kd.copysign(kd.ones((), dtype=w.dtype), w).astype(u.dtype)  # +-1, also for w = 0: Vh unitary
    return SVDResult(u, kd.abs(w), adjoint(u * signs[..., None, :]))


def hermitian_svdvals(a: kd.Array) -> kd.Array:
    """The singular values of each Hermitian matrix of ``a``: its eigenvalues' magnitudes, decreasing."""
    s = kd.abs(eigvalsh(a))
    return kd.take_along_axis(s, _descending(s), axis=-1)


__all__ = ["hermitian_svd", "hermitian_svdvals"]
