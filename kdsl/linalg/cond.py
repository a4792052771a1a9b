"""NumPy's ``cond``: the condition number of each matrix of a stack in the norm ``p``, from the singular
values (``p`` None, 2, -2) or from the norms of the matrix and its inverse (the others), on the device.

The inverse is differentiable (:func:`inverse_or_zero`: ``inv``'s rule, ``-Y^H G Y^H``), so every order has a
gradient (``kd.grad``) wherever the matrix is invertible.

A singular matrix has condition number ``inf``, as NumPy's: its LU failure raises nothing but makes its result
NaN, and a NaN result becomes ``inf`` unless the matrix itself holds a NaN (all lazily, no read back).

Example:
    >>> import kdsl as kd
    >>> float(cond(kd.asarray([[2.0, 0.0], [0.0, 0.5]])))
    4.0
    >>> float(cond(kd.asarray([[1.0, 2.0], [2.0, 4.0]]), 1))
    inf
"""

from __future__ import annotations

import math
from typing import Any

import kdsl as kd
from kdsl.linalg.blocked import adjoint
from kdsl.linalg.common import LinAlgError, as_array, batch_copy, check_matrices, identity_batch, working_dtype
from kdsl.linalg.derivatives import svdvals  # (differentiable: cond(x) and cond(x, 2) get gradients)
from kdsl.linalg.lu import getrf, getrs
from kdsl.linalg.norms import matrix_norm

_ORDERS = (None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc")


def _inverse_or_zero(a: kd.Array, dtype: kd.DType) -> tuple[kd.Array, kd.Array]:
    """The inverse of each matrix of the stack ``a`` (zeros for the singular ones: no error, no read back,
    finite input for the norms) and the mask of the singular ones (``a``'s batch shape)."""
    n = a.shape[-1]
    batch = math.prod(a.shape[:-2])
    lu, piv, info = getrf(batch_copy(a, dtype))
    out = getrs(lu, piv, identity_batch(batch, n, dtype))
    singular = (info != 0)
    out = kd.where(singular[:, None, None], kd.zeros((), dtype=dtype), out)
    return out.reshape(a.shape), singular.reshape(a.shape[:-2])


def _inverse_bwd(y: kd.Array, g: tuple[kd.Array, kd.Array]) -> tuple[kd.Array]:
    return (-(adjoint(y) @ g[0] @ adjoint(y)),)  # inv's rule; a singular matrix's zeros give zero


inverse_or_zero = kd.custom_vjp(_inverse_or_zero).defvjp(lambda a, dtype: ((r := _inverse_or_zero(a, dtype)), r[0]),
                                                          _inverse_bwd)


def cond(x: Any, p: Any = None) -> kd.Array:
    """The condition number of each matrix of ``x`` (``(..., m, n)``; square unless ``p`` is None, 2 or -2)
    in the norm ``p``: ``None``/``2`` largest over smallest singular value, ``-2`` the reciprocal, else
    ``norm(x, p) * norm(inv(x), p)`` for ``'fro'``, ``'nuc'``, ``1``, ``-1``, ``inf``, ``-inf``. Singular
    matrices give ``inf`` (NumPy's rule), the result dtype is the input's real floating type."""
    a = as_array(x)
    if p not in _ORDERS:
        raise ValueError(f"cond: invalid norm order {p!r}; use None, 2, -2, 1, -1, inf, -inf, 'fro' or 'nuc'")
    check_matrices(a, "cond", square=p in _ORDERS[3:])
    if a.size == 0 and a.shape[-1] * a.shape[-2] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    dtype = working_dtype(a, "cond")
    a = a.astype(dtype)
    if p in (None, 2, -2):
        s = svdvals(a)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        inverse, singular = inverse_or_zero(a, dtype)
        r = matrix_norm(a, ord=p) * matrix_norm(inverse, ord=p)
        r = kd.where(singular, kd.asarray(math.nan, dtype=r.dtype), r)
    # NaN from a singular matrix (0/0, an inverse of NaNs) means infinite condition, unless x had a NaN itself
    bad = kd.isnan(r) & ~kd.any(kd.isnan(a), axis=(-2, -1))
    return kd.where(bad, kd.asarray(math.inf, dtype=r.dtype), r)


__all__ = ["cond"]
