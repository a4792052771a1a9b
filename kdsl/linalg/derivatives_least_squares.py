"""The derivatives of ``kd.linalg.pinv`` and ``lstsq`` (:func:`kdsl.custom_vjp`), batched, complex-correct.

``pinv`` takes the closed-form derivative of the pseudo-inverse (Golub & Pereyra, 1973; PyTorch's
``pinv_backward``): with ``X = pinv(A)``,
``dX = -X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X``, so the cotangent of ``A`` is
``-X^H G X^H + (I - A X) G^H X X^H + X^H X G^H (I - X A)``. It holds wherever the rank is locally constant,
so also at rank-deficient input (along the perturbations that keep the rank, the only ones along which the
pseudo-inverse is continuous), where a rule composed from ``svd``'s factors would divide by ``0 - 0`` (repeated
zero singular values) and give NaN. Singular values that ``rcond``/``rtol`` cut count as zero (the derivative
of the pseudo-inverse at that rank). ``hermitian=True``: the same rule with respect to the whole matrix.

``lstsq`` (``x, residuals, rank, s``): ``x = pinv(A) b`` (with ``lstsq``'s cutoff), so ``x`` takes the rule
above and ``b`` gets ``pinv(A)^H gx``; ``residuals = |A x - b|^2`` (summed over rows) give ``2 r x^H`` and
``-2 r`` (``r = A x - b``, times their cotangent); ``s`` takes ``svdvals``' rule; ``rank`` (an integer) has no
derivative. The backward recomputes the SVD with differentiable factors, so gradients of gradients work.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[2.0, 0.0], [0.0, 4.0], [0.0, 0.0]])
    >>> kd.grad(lambda m: kd.linalg.pinv(m)[0, 0])(a).tolist()  # pinv(a)[0, 0] = 1/a00 where it is not zero
    [[-0.25, 0.0], [0.0, 0.0], [0.0, 0.0]]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.linalg import jacobi
from kdsl.linalg.blocked import adjoint as _h
from kdsl.linalg.common import working_dtype
from kdsl.linalg.derivatives_spectral import svd
from kdsl.linalg.svd import lstsq as _lstsq
from kdsl.linalg.svd import lstsq_cutoff
from kdsl.linalg.svd import pinv as _pinv


def pinv_cotangent(a: kd.Array, x: kd.Array, g: kd.Array) -> kd.Array:
    """The cotangent of ``A`` from the cotangent ``g`` of its pseudo-inverse ``x`` (Golub & Pereyra)."""
    xh, gh = _h(x), _h(g)
    first = gh @ (x @ xh)  # (I - A X) G^H X X^H
    second = (xh @ x) @ gh  # X^H X G^H (I - X A)
    return -(xh @ g @ xh) + (first - a @ (x @ first)) + (second - (second @ x) @ a)


def _real_like(g: kd.Array, like: kd.Array) -> kd.Array:
    """``g`` as the cotangent of the real argument ``like`` (its real part), else as it is."""
    return kd.real(g) if g.dtype.kind == "c" and like.dtype.kind != "c" else g


def _pinv_fwd(a: Any, *args: Any, **kwargs: Any) -> tuple[kd.Array, tuple[kd.Array, kd.Array, int]]:
    x = _pinv(a, *args, **kwargs)
    return x, (kd.asarray(a), x, len(args))


def _pinv_bwd(res: tuple[kd.Array, kd.Array, int], g: kd.Array) -> tuple[Any, ...]:
    a, x, options = res
    return (_real_like(pinv_cotangent(a.astype(x.dtype), x, g), a), *[None] * options)


pinv = kd.custom_vjp(_pinv).defvjp(_pinv_fwd, _pinv_bwd)


def _lstsq_fwd(a: Any, b: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    out = _lstsq(a, b, *args, **kwargs)
    rcond = args[0] if args else kwargs.get("rcond")
    return out, (kd.asarray(a), kd.asarray(b), rcond, out[0], out[1], len(args))


def _lstsq_bwd(res: Any, g: Any) -> tuple[Any, ...]:
    a, b, rcond, x, resid, options = res
    gx, gres, _, gs = g
    dtype = x.dtype
    am, vector = a.astype(dtype), b.ndim == 1
    bm, xm, gxm = (b[:, None], x[:, None], gx[:, None]) if vector else (b, x, gx)
    bm = bm.astype(dtype)
    u, s, vh = svd(am, full_matrices=False)
    m, n = a.shape
    cut = lstsq_cutoff(jacobi.sweep_dtype(working_dtype(am), min(m, n)), m, n, rcond)  # the forward pass's cutoff
    keep = s > kd.max(s) * cut if s.size else s > 0
    sinv = kd.where(keep, 1.0 / kd.where(keep, s, 1.0), 0.0)
    pinv_a = (_h(vh) * sinv[None, :].astype(dtype)) @ _h(u)
    ga = (u * gs[None, :].astype(dtype)) @ vh
    gb = kd.zeros(bm.shape, dtype=dtype)
    if resid.size:  # residuals exist (full column rank, m > n): d|A x - b|^2 at the minimiser x
        wr = 2 * (am @ xm - bm) * gres[None, :].astype(dtype)
        ga, gb, gxm = ga + wr @ _h(xm), gb - wr, gxm + _h(am) @ wr
    ga = ga + pinv_cotangent(am, pinv_a, gxm @ _h(bm))
    gb = gb + _h(pinv_a) @ gxm
    return _real_like(ga, a), _real_like(gb[:, 0] if vector else gb, b), *[None] * options


lstsq = kd.custom_vjp(_lstsq).defvjp(_lstsq_fwd, _lstsq_bwd)

__all__ = ["lstsq", "pinv", "pinv_cotangent"]
