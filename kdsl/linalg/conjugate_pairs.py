"""Exact conjugate pairs among a real matrix's complex eigenvalues (and their eigenvectors), as LAPACK's real
Schur form gives them: ``kd.linalg.eig`` works in complex arithmetic, so the two members of a pair come out
conjugate only to rounding, and ``w[0] == np.conj(w[1])``, ``np.isin(w, np.conj(w))`` or a set of the roots of
``x**2 + 2x + 5`` told them apart where NumPy's are equal.

Each complex eigenvalue is paired with the nearest conjugate of another one, where the two choose each other,
their imaginary parts have opposite signs and they lie within ``sqrt(eps) max|w|`` of each other's conjugate (a
real matrix's spectrum is closed under conjugation, so its pairs always do; a cluster of near-equal pairs still
pairs within its rounding). Both members then take the mean of the two real parts and of the two imaginary
magnitudes: exact conjugates, neither moved by more than the difference between them. The member with the
negative imaginary part takes the conjugate of its partner's eigenvector. All on the device, no read back.

Example:
    >>> import kdsl as kd, numpy as np
    >>> w = kd.asarray(np.array([[-1 + 2j, -1.0000000000000002 - 2.0000000000000004j, 3 + 0j]]))
    >>> p, _ = exact_pairs(w, None)
    >>> bool(p[0, 0] == kd.conj(p[0, 1])), p[0, 2].item()
    (True, (3+0j))
"""

from __future__ import annotations

import math

import kdsl as kd


def _partners(values: kd.Array) -> tuple[kd.Array, kd.Array]:
    """For each eigenvalue (last axis), the index of the nearest conjugate of another one, and whether the two
    form a pair (mutual choice, opposite nonzero imaginary parts)."""
    n = values.shape[-1]
    dist = kd.abs(values[..., None, :] - kd.conj(values)[..., :, None])  # [i, j]: |w_j - conj(w_i)|
    dist = kd.where(kd.eye(n, dtype=kd.bool_, device=values.device), kd.inf, dist)
    partner = kd.argmin(dist, axis=-1)
    back = kd.take_along_axis(partner, partner, axis=-1)
    im = kd.imag(values)
    im_partner = kd.take_along_axis(im, partner, axis=-1)
    # only partners within rounding of each other's conjugate: two real eigenvalues whose tiny imaginary parts
    # have opposite signs (0.1 and 0.4 of a companion matrix) are no pair and must not meet at their mean
    eps = float(kd.finfo(values.dtype).eps)
    close = kd.min(dist, axis=-1) <= math.sqrt(eps) * kd.max(kd.abs(values), axis=-1, keepdims=True)
    paired = (back == kd.arange(n, device=values.device)) & (im * im_partner < 0) & close
    return partner, paired


def exact_pairs(values: kd.Array, vectors: kd.Array | None) -> tuple[kd.Array, kd.Array | None]:
    """``values`` (complex, eigenvalues on the last axis) with each conjugate pair made exact; ``vectors``
    (columns on the last axis) with the negative member's column the conjugate of its partner's."""
    if values.shape[-1] < 2 or values.size == 0:
        return values, vectors
    partner, paired = _partners(values)
    other = kd.take_along_axis(values, partner, axis=-1)
    re = (kd.real(values) + kd.real(other)) / 2  # the same sum both ways: the members' real parts are equal
    mag = (kd.abs(kd.imag(values)) + kd.abs(kd.imag(other))) / 2
    im = kd.where(kd.imag(values) < 0, -mag, mag)
    exact = re.astype(values.dtype) + im.astype(values.dtype) * 1j
    values = kd.where(paired, exact, values)
    if vectors is not None:
        columns = kd.broadcast_to(partner[..., None, :], vectors.shape)
        mirrored = kd.conj(kd.take_along_axis(vectors, columns, axis=-1))
        lower = (paired & (kd.imag(values) < 0))[..., None, :]
        vectors = kd.where(lower, mirrored, vectors)
    return values, vectors


__all__ = ["exact_pairs"]
