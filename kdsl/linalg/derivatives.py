"""The derivatives of ``kd.linalg``'s factorisations (:func:`kdsl.custom_vjp`): their kernels write results the
lazy graph has no path to, so ``kd.grad`` would otherwise stop at them (it raises there rather than give a
wrong gradient). The rules are PyTorch's (``torch.linalg``'s backward formulas), batched over leading axes:

* ``inv``: ``-Y^H G Y^H``;  ``solve``: ``B`` gets ``solve(A^H, G)``, ``A`` gets ``-gB X^H``;
* ``det``: ``G det(A) inv(A)^H``;  ``slogdet``: ``G_logabsdet inv(A)^H`` (singular ``A``: LinAlgError);
* ``cholesky``: ``L^-H Phi(L^H G) L^-1`` with ``Phi`` the Hermitian matrix of ``tril(L^H G)``'s lower half;
* ``qr`` (``mode='reduced'``, ``'r'``; ``'complete'`` when ``m <= n``): TensorFlow's and PyTorch's formula,
  ``Q (G_R + tril(Q^H G_Q - G_Q^H Q + R G_R^H - G_R R^H) R^-H) + (G_Q - Q Q^H G_Q) R^-H`` for ``m >= n``; a wide
  matrix ``[X | Y]`` as ``X``'s square case with ``G_Q + Y G_V^H``, and ``Y`` gets ``Q G_V``;
* ``eigh``: ``V (diag(G_w) + (V^H G_V) / (w_j - w_i) off the diagonal) V^H`` (repeated eigenvalues: inf or
  NaN, as PyTorch's); ``eigvalsh``: ``V diag(G_w) V^H``;  ``svdvals``: ``U diag(G_s) V^H``.

The backward passes call the differentiable versions, so gradients of gradients work too. The symmetric and
Hermitian factorisations read one triangle of their input; their gradients are PyTorch's, which treat the
input as the whole symmetric matrix (a perturbation must keep it symmetric). The 2-norms, the nuclear norm
and ``cond`` in them follow from ``svdvals``; ``cond`` in the other norms from ``inv``'s rule. ``svd``'s factors and
``eig``/``eigvals`` have theirs in :mod:`kdsl.linalg.derivatives_spectral`, ``pinv`` and ``lstsq`` in
:mod:`kdsl.linalg.derivatives_least_squares`.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[2.0, 1.0], [1.0, 3.0]])
    >>> kd.grad(lambda a: kd.linalg.det(a))(a).tolist()  # det(A) inv(A)^T: the cofactor matrix
    [[3.0, -1.0], [-1.0, 2.0]]
"""

from __future__ import annotations

from typing import Any, cast

import kdsl as kd
from kdsl.linalg.cholesky import cholesky as _cholesky
from kdsl.linalg.common import QRResult, SVDResult
from kdsl.linalg.eigh import eigh as _eigh
from kdsl.linalg.eigh import eigvalsh as _eigvalsh
from kdsl.linalg.lu import det as _det
from kdsl.linalg.lu import inv as _inv
from kdsl.linalg.lu import slogdet as _slogdet
from kdsl.linalg.lu import solve as _solve
from kdsl.linalg.qr import qr as _qr
from kdsl.linalg.svd import svd as _svd
from kdsl.linalg.svd import svdvals as _svdvals


def _h(x: kd.Array) -> kd.Array:
    """The conjugate transpose of each matrix of a stack."""
    t = kd.linalg.matrix_transpose(x)
    return kd.conj(t) if kd.isdtype(t.dtype, "complex floating") else t


def _mat(x: kd.Array) -> kd.Array:
    return x[..., None, None]


inv = kd.custom_vjp(_inv).defvjp(lambda a: (y := _inv(a), y), lambda y, g: (-(_h(y) @ g @ _h(y)),))


def _solve_fwd(a: Any, b: Any) -> tuple[kd.Array, tuple[Any, kd.Array, bool]]:
    x = _solve(a, b)
    return x, (a, x, kd.asarray(b).ndim == 1)


def _solve_bwd(res: tuple[Any, kd.Array, bool], g: kd.Array) -> tuple[kd.Array, kd.Array]:
    a, x, vector = res  # vector: b was one vector (NumPy 2's rule: only when 1-d), x one per matrix of a
    if vector:
        gb = solve(_h(kd.asarray(a)), g[..., None])
        return -(gb * kd.conj(x)[..., None, :]), gb[..., 0]
    gb = solve(_h(kd.asarray(a)), g)
    return -(gb @ _h(x)), gb


solve = kd.custom_vjp(_solve).defvjp(_solve_fwd, _solve_bwd)

det = kd.custom_vjp(_det).defvjp(lambda a: (d := _det(a), (a, d)), lambda r, g: (_mat(g * r[1]) * _h(inv(r[0])),))

slogdet = kd.custom_vjp(_slogdet).defvjp(lambda a: (_slogdet(a), a), lambda a, g: (_mat(g.logabsdet) * _h(inv(a)),))


def _cholesky_fwd(x: Any, upper: bool = False) -> tuple[kd.Array, tuple[kd.Array, bool]]:
    factor = _cholesky(x, upper=upper)
    return factor, (factor, upper)


def _cholesky_bwd(res: tuple[kd.Array, bool], g: kd.Array) -> tuple[kd.Array]:
    factor, upper = res
    low = _h(factor) if upper else factor
    t = kd.tril(_h(low) @ (_h(g) if upper else g))
    phi = 0.5 * (t + _h(kd.tril(t, -1)))  # Hermitian, from the lower triangle of L^H G
    left = solve(_h(low), phi)  # L^-H Phi
    return (_h(solve(_h(low), _h(left))),)  # (L^-H Phi) L^-1


cholesky = kd.custom_vjp(_cholesky).defvjp(_cholesky_fwd, _cholesky_bwd)


def _eigh_bwd(res: Any, g: Any) -> tuple[kd.Array]:
    w, v = res
    gap = w[..., None, :] - w[..., :, None]  # w_j - w_i
    off = _h(v) @ g.eigenvectors
    eye = kd.eye(w.shape[-1], dtype=kd.bool)
    inner = kd.where(eye, 0, off / kd.where(eye, 1, gap)) + g.eigenvalues[..., None, :] * eye
    return (v @ inner @ _h(v),)


eigh = kd.custom_vjp(_eigh).defvjp(lambda a, UPLO="L": (r := _eigh(a, UPLO), r), _eigh_bwd)  # noqa: N803 - NumPy's keyword

eigvalsh = kd.custom_vjp(_eigvalsh).defvjp(lambda a, UPLO="L": ((r := _eigh(a, UPLO)).eigenvalues, r.eigenvectors),  # noqa: N803
                lambda v, g: ((v * g[..., None, :]) @ _h(v),))


def _svdvals_fwd(a: Any) -> tuple[kd.Array, Any]:
    r = cast(SVDResult, _svd(a, full_matrices=False))  # (compute_uv: the factors)
    return r.S, r


svdvals = kd.custom_vjp(_svdvals).defvjp(_svdvals_fwd, lambda r, g: ((r.U * g[..., None, :]) @ r.Vh,))



def _qr_fwd(a: Any, mode: str = "reduced") -> tuple[Any, Any]:
    if mode not in ("reduced", "complete", "r"):  # 'raw', 'economic': Householder vectors, no rule
        return _qr(a, mode), None
    q, r = cast(QRResult, _qr(a, "reduced" if mode == "r" else mode))
    return (r if mode == "r" else QRResult(q, r)), (kd.asarray(a), q, r, mode)


def _qr_bwd(res: Any, g: Any) -> tuple[kd.Array]:
    m, n = res[0].shape[-2:] if res is not None else (0, 0)
    if res is None or (res[3] == "complete" and m > n):
        raise NotImplementedError("kd.grad: qr has a derivative for mode='reduced' and 'r' (and 'complete' when "
                                  "m <= n), as torch.linalg.qr; its other results do not determine one. Use one "
                                  "of those modes, or wrap the input in kd.stop_gradient if no derivative is needed")
    a, q, r, mode = res
    gq, gr = (kd.zeros_like(q), g) if mode == "r" else (g.Q, g.R)
    if m >= n:
        return (_qr_square_or_tall(q, r, gq, gr),)
    # wide: A = [X | Y] with X = Q U square (R = [U | V]); Y = Q V
    y, gv = a[..., :, m:], gr[..., :, m:]
    gx = _qr_square_or_tall(q, r[..., :, :m], gq + y @ _h(gv), gr[..., :, :m])
    return (kd.concatenate([gx, q @ gv], axis=-1),)


def _qr_square_or_tall(q: kd.Array, r: kd.Array, gq: kd.Array, gr: kd.Array) -> kd.Array:
    """The cotangent of ``A = Q R`` (``m >= n``, ``R`` square and invertible) from those of ``Q`` and ``R``."""
    qdq, rdr = _h(q) @ gq, r @ _h(gr)
    low = kd.tril(qdq - _h(qdq) + rdr - _h(rdr))

    def right_inv_h(x: kd.Array) -> kd.Array:  # x R^-H
        return _h(solve(r, _h(x)))
    return q @ (gr + right_inv_h(low)) + right_inv_h(gq - q @ qdq)


qr = kd.custom_vjp(_qr).defvjp(_qr_fwd, _qr_bwd)


__all__ = ["cholesky", "det", "eigh", "eigvalsh", "inv", "qr", "slogdet", "solve", "svdvals"]
