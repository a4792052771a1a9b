"""What every linalg function shares: the error type, the named results, the working dtype, and bringing an
input to a fresh C-contiguous ``(batch, m, n)`` copy that a kernel may overwrite.

Example:
    >>> import numpy as np
    >>> issubclass(LinAlgError, np.linalg.LinAlgError)
    True
    >>> working_dtype(kd.asarray([1, 2])).name
    'float64'
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import kdsl as kd


class LinAlgError(np.linalg.LinAlgError):
    """Raised where NumPy's ``linalg`` raises (singular matrix, not positive definite, no convergence)."""


class EigResult(NamedTuple):
    eigenvalues: kd.Array
    eigenvectors: kd.Array


class EighResult(NamedTuple):
    eigenvalues: kd.Array
    eigenvectors: kd.Array


class QRResult(NamedTuple):
    Q: kd.Array
    R: kd.Array


class SVDResult(NamedTuple):
    U: kd.Array
    S: kd.Array
    Vh: kd.Array


class SlogdetResult(NamedTuple):
    sign: kd.Array
    logabsdet: kd.Array


def as_array(x) -> kd.Array:
    return x if isinstance(x, kd.Array) else kd.asarray(x)


_WIDER = {"float32": "float64", "complex64": "complex128"}


def as_pair(a, b) -> tuple[kd.Array, kd.Array]:
    """``a`` and ``b`` as arrays (host data on the other's device), host floats beside a float64/complex128
    array at that precision (as kdsl converts operands together elsewhere): ``solve(a64, [0.1, 0.2])`` solves
    for 0.1, not its float32 rounding.

    >>> import kdsl as kd, numpy as np
    >>> as_pair(kd.asarray(np.eye(2)), [0.1, 0.2])[1].dtype.name
    'float64'
    """
    device = a.device if isinstance(a, kd.Array) else b.device if isinstance(b, kd.Array) else None
    x, y = (v if isinstance(v, kd.Array) else kd.asarray(v, device=device) for v in (a, b))
    if not isinstance(b, kd.Array) and x.dtype.name in ("float64", "complex128") and y.dtype.name in _WIDER:
        y = kd.asarray(b, dtype=_WIDER[y.dtype.name], device=device)
    if not isinstance(a, kd.Array) and y.dtype.name in ("float64", "complex128") and x.dtype.name in _WIDER:
        x = kd.asarray(a, dtype=_WIDER[x.dtype.name], device=device)
    return x, y


def working_dtype(x: kd.Array, name: str = "kd.linalg") -> kd.DType:
    """float32, float64, complex64 and complex128 stay; integers and booleans become float64 (float32 on devices
    without it), as NumPy's linalg computes them in double. float16 is refused (naming the function ``name``),
    as NumPy refuses it."""
    if x.dtype.name in ("float32", "float64", "complex64", "complex128"):
        return x.dtype
    if x.dtype.name == "float16":
        raise TypeError(f"{name}: array type float16 is unsupported in linalg (as in NumPy); convert it with "
                        "x.astype(kd.float32)")
    return kd.float64 if kd.device().supports(kd.float64) else kd.float32


def check_matrices(x: kd.Array, name: str, square: bool = True) -> None:
    if x.ndim < 2:
        raise LinAlgError(f"{name}: {x.ndim}-dimensional array given. Array must be at least two-dimensional")
    if square and x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"{name}: Last 2 dimensions of the array must be square, got shape {x.shape}")


def batch_copy(x: kd.Array, dtype: kd.DType) -> kd.Array:
    """A fresh contiguous ``(batch, m, n)`` copy of the stacked matrices ``x`` in ``dtype`` (kernels write it)."""
    m, n = x.shape[-2:]
    flat = x.astype(dtype).reshape((math.prod(x.shape[:-2]), m, n))
    return kd.asarray(flat, copy=True)


def check_info(info: kd.Array, message: str) -> None:
    """Raise :class:`LinAlgError` with ``message`` when any matrix's kernel reported failure (info != 0)."""
    if info.size and bool(kd.any(info != 0)):
        raise LinAlgError(message)


def identity_batch(batch: int, n: int, dtype: kd.DType, m: int | None = None) -> kd.Array:
    """A fresh ``(batch, n, m)`` stack of identity matrices (a kernel may overwrite it)."""
    eye = kd.eye(n, n if m is None else m, dtype=dtype)
    return kd.asarray(kd.broadcast_to(eye, (batch,) + eye.shape), copy=True)
