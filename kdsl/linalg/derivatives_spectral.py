"""The derivatives of ``kd.linalg.svd``'s factors and of ``eig``/``eigvals`` (:func:`kdsl.custom_vjp`), PyTorch's
backward formulas (``svd_backward``, ``linalg_eig_backward``), batched over leading axes, complex-correct.

* ``svd`` (``A = U diag(S) Vh``, ``k = min(m, n)``, ``E_ij = s_j^2 - s_i^2``, ``skew(X) = X - X^H``):
  ``U [skew(U^H gU) S / E + S skew(Vh gVh^H) / E + diag(gS) + i Im diag(U^H gU) / S] Vh``, plus
  ``(I - U U^H) gU S^-1 Vh`` when ``m > k`` and ``U S^-1 gVh (I - Vh^H Vh)`` when ``n > k``;
* ``eig`` (``A V = V diag(w)``, ``E_ij = conj(w_j - w_i)``):
  ``V^-H [diag(gw) + (V^H gV - V^H V diag(Re diag(V^H gV))) / E] V^H``, its real part for real ``A``;
  ``eigvals``: ``V^-H diag(gw) V^H``.

Conventions. ``eig``'s eigenvectors have unit 2-norm (NumPy's convention; the ``Re diag`` term above keeps
them so). A complex singular vector or eigenvector is fixed only up to a phase ``exp(i phi)`` (kdsl, as LAPACK,
makes an eigenvector's largest component real): a loss that depends on that phase has no derivative. ``eig``
checks (``Im diag(V^H gV) != 0``) and raises ValueError, as PyTorch does (RuntimeError there). ``svd`` cannot:
the phases of ``U``'s and ``Vh``'s columns cancel only together (``Im diag(U^H gU + Vh gVh^H) = 0``), and
``kd.custom_vjp`` hands the backward one result's cotangent at a time, so a phase-invariant loss of both looks
phase-dependent to each call; a phase-dependent loss gets the gradient of the gauge that holds ``V``'s phases
(meaningless: do not rely on it). Repeated singular values (eigenvalues) give inf/NaN in the vectors'
gradients, as PyTorch's. ``full_matrices=True`` with ``m != n``: the last columns of ``U`` (rows of ``Vh``) are
any basis of a complement, not functions of ``A``; PyTorch ignores their cotangents, kdsl raises unless they
are zero (rather than a silently wrong gradient). ``hermitian=True`` takes the same rule, with respect to the
whole Hermitian matrix (as ``eigh``'s). ``eig`` of a symmetric input (computed by ``eigh``) is differentiated as
a general matrix's. Gradients of gradients work for ``svd`` and ``eig`` (their backward uses their results
only), not for ``eigvals`` (it uses the eigenvectors).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray([[3.0, 1.0], [0.0, 2.0]])
    >>> g = kd.grad(lambda m: (kd.linalg.eigvals(m) ** 2).sum())(a)  # sum of w^2 = trace(A^2): 2 A^T
    >>> (np.round(g.numpy(), 6) + 0.0).tolist()
    [[6.0, 0.0], [2.0, 4.0]]
"""

from __future__ import annotations

from typing import Any, cast

import kdsl as kd
from kdsl.linalg.blocked import adjoint as _h
from kdsl.linalg.common import EigResult, SVDResult
from kdsl.linalg.derivatives import solve, svdvals
from kdsl.linalg.eig import eig as _eig
from kdsl.linalg.eig import eigvals as _eigvals
from kdsl.linalg.svd import svd as _svd

# eig's |Im diag(V^H gV)| allowed, relative to the cotangent's size: rounding passes, a phase-dependent loss not
PHASE_TOL = 1e-4


def _diag(x: kd.Array) -> kd.Array:
    return kd.diagonal(x, 0, -2, -1)


def _check_phase(vhgv: kd.Array) -> None:
    """Raise if the loss depends on the arbitrary phases of complex eigenvectors: ``Im diag(V^H gV) != 0``
    beyond rounding (one read back)."""
    d = _diag(vhgv)
    if bool(kd.any(kd.abs(kd.imag(d)) > PHASE_TOL * (1 + kd.abs(d)))):
        raise ValueError("kd.grad: eig's eigenvectors are each determined up to a factor exp(i phi) only, and the "
                         "differentiated function depends on that phase, so it has no derivative (PyTorch raises "
                         "too). Differentiate a phase-invariant function of them (abs(v)**2, v v^H, ...)")


def _svd_fwd(a: Any, full_matrices: bool = True, hermitian: bool = False) -> tuple[SVDResult, Any]:
    r = cast(SVDResult, _svd(a, full_matrices=full_matrices, hermitian=hermitian))
    return r, r


def _svd_bwd(r: SVDResult, g: SVDResult) -> tuple[kd.Array]:
    k = r.S.shape[-1]
    gu, gvh = g.U, g.Vh
    if gu.shape[-1] > k or gvh.shape[-2] > k:  # full_matrices=True with m != n
        if bool(kd.any(gu[..., k:] != 0) | kd.any(gvh[..., k:, :] != 0)):
            raise ValueError("kd.grad: svd(full_matrices=True)'s last m - k columns of U (n - k rows of Vh, "
                             "k = min(m, n)) are any basis of a complement, not functions of the matrix, so they "
                             "have no derivative (PyTorch ignores their gradient; kdsl does not give a silently "
                             "wrong one). Use full_matrices=False, or only U[..., :k] and Vh[..., :k, :]")
        gu, gvh = gu[..., :k], gvh[..., :k, :]
    return (svd_cotangent(r.U[..., :k], r.S, r.Vh[..., :k, :], gu, g.S, gvh),)


def svd_cotangent(u: kd.Array, s: kd.Array, vh: kd.Array, gu: kd.Array, gs: kd.Array, gvh: kd.Array) -> kd.Array:
    """The cotangent of ``A = U diag(S) Vh`` (reduced factors) from those of ``U``, ``S`` and ``Vh``."""
    m, k, n = u.shape[-2], s.shape[-1], vh.shape[-1]
    j, kv = _h(u) @ gu, vh @ _h(gvh)  # U^H gU, V^H gV
    eye = kd.eye(k, dtype=kd.bool)
    s2 = s * s
    gap = kd.where(eye, 1, s2[..., None, :] - s2[..., :, None])  # s_j^2 - s_i^2
    off = ((j - _h(j)) * s[..., None, :] + s[..., :, None] * (kv - _h(kv))) / gap
    inner = kd.where(eye, 0, off) + gs[..., None, :] * eye
    if u.dtype.kind == "c":  # the phase of U's columns, V's held (one gauge; a phase-invariant loss sums to 0)
        inner = inner + (1j * kd.imag(_diag(j)) / s)[..., None, :] * eye
    ga = u @ inner @ vh
    if m > k:  # the part of gU outside U's span
        ga = ga + ((gu - u @ j) / s[..., None, :]) @ vh
    if n > k:
        ga = ga + u @ ((gvh - _h(kv) @ vh) / s[..., :, None])
    return ga


def _factors(a: Any, full_matrices: bool = True, hermitian: bool = False) -> SVDResult:
    """``svd``'s factors (the function differentiated)."""
    return cast(SVDResult, _svd(a, full_matrices=full_matrices, hermitian=hermitian))


_factors.__name__ = "svd"  # (custom_vjp's messages name it)
_svd_factors = kd.custom_vjp(_factors).defvjp(_svd_fwd, _svd_bwd)


def _hermitian_svdvals_fwd(a: Any) -> tuple[kd.Array, SVDResult]:
    r = cast(SVDResult, _svd(a, full_matrices=False, hermitian=True))
    return r.S, r


def _values(a: Any) -> kd.Array:
    """``svd(a, compute_uv=False, hermitian=True)`` (the function differentiated)."""
    return cast(kd.Array, _svd(a, compute_uv=False, hermitian=True))


_values.__name__ = "svd"
_hermitian_svdvals = kd.custom_vjp(_values).defvjp(_hermitian_svdvals_fwd,
                                                   lambda r, g: ((r.U * g[..., None, :]) @ r.Vh,))


def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any:
    """NumPy's ``svd``, differentiable in all its results."""
    if not compute_uv:
        return _hermitian_svdvals(a) if hermitian else svdvals(a)
    return _svd_factors(a, full_matrices=full_matrices, hermitian=hermitian)


svd.__doc__ = _svd.__doc__


def eig_cotangent(a_complex: bool, w: kd.Array, v: kd.Array, gw: kd.Array, gv: kd.Array | None) -> kd.Array:
    """The cotangent of ``A`` (``A V = V diag(w)``, unit columns) from those of ``w`` and ``V`` (None: zero)."""
    vh = _h(v)
    eye = kd.eye(w.shape[-1], dtype=kd.bool)
    inner = gw[..., None, :] * eye
    if gv is not None:
        vhgv = vh @ gv
        if v.dtype.kind == "c":
            _check_phase(vhgv)
        # the unit-norm constraint: each column's own component of gV only through Re diag(V^H gV)
        off = vhgv - (vh @ v) * kd.real(_diag(vhgv))[..., None, :]
        wc = kd.conj(w) if w.dtype.kind == "c" else w
        gap = kd.where(eye, 1, wc[..., None, :] - wc[..., :, None])  # conj(w_j - w_i)
        inner = inner + kd.where(eye, 0, off / gap)
    ga = solve(vh, inner @ vh)  # V^-H inner V^H
    return ga if a_complex or ga.dtype.kind != "c" else kd.real(ga)


def _eig_fwd(a: Any) -> tuple[EigResult, tuple[bool, EigResult]]:
    r = _eig(a)
    return r, (kd.asarray(a).dtype.kind == "c", r)


eig = kd.custom_vjp(_eig).defvjp(_eig_fwd, lambda res, g: (
    eig_cotangent(res[0], res[1].eigenvalues, res[1].eigenvectors, g.eigenvalues, g.eigenvectors),))


def _eigvals_fwd(a: Any) -> tuple[kd.Array, tuple[bool, EigResult]]:
    r = _eig(a)
    return r.eigenvalues, (kd.asarray(a).dtype.kind == "c", r)


eigvals = kd.custom_vjp(_eigvals).defvjp(_eigvals_fwd, lambda res, g: (
    eig_cotangent(res[0], res[1].eigenvalues, res[1].eigenvectors, g, None),))


__all__ = ["eig", "eig_cotangent", "eigvals", "svd", "svd_cotangent"]
