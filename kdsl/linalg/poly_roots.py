"""NumPy's ``roots`` and ``poly``: a polynomial's roots as the eigenvalues of its companion matrix
(:func:`kdsl.linalg.eigvals`: the complex Schur form on the GPU), and the coefficients of the monic
polynomial with given roots (or of a square matrix's characteristic polynomial) by multiplying out
``(x - z_0)(x - z_1)...`` on the device.

Synchronisation: ``roots`` reads back where the first and last non-zero coefficients are (the companion
matrix's order, the number of zero roots) plus what ``eigvals`` reads; ``poly`` of complex roots reads back
whether they are closed under conjugation (then the coefficients are real, NumPy's rule).

Example:
    >>> import kdsl as kd
    >>> sorted(round(r, 5) for r in kd.roots(kd.asarray([1.0, -3.0, 2.0])).tolist())
    [1.0, 2.0]
    >>> kd.poly(kd.asarray([1.0, 2.0])).tolist()
    [1.0, -3.0, 2.0]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.linalg.derivatives_spectral import eigvals  # (differentiable: roots get gradients)

REALIZE_EVERY = 16  # factors multiplied in between realisations (no fused expression grows with the degree)


def _float64(device: Any) -> kd.DType:
    return kd.float64 if device.supports(kd.float64) else kd.float32


def _as_1d(p: Any) -> kd.Array:
    a = p if isinstance(p, kd.Array) else kd.asarray(p)
    return kd.atleast_1d(a)


def _companion(p: kd.Array) -> kd.Array:
    """The companion matrix of the coefficients ``p`` (``p[0] != 0``, order ``len(p) - 1``): first row
    ``-p[1:] / p[0]``, ones below the diagonal."""
    n = p.shape[0] - 1
    top = (-p[1:] / p[0])[None, :]
    return kd.concatenate([top, kd.eye(n - 1, n, dtype=p.dtype, device=p.device)], axis=0)


def _companion_roots(companion: kd.Array) -> kd.Array:
    """The eigenvalues of a float32/complex64 companion matrix computed in double where the device has it and
    rounded, as NumPy's ``roots`` computes them (LAPACK's ``dgeev``/``zgeev`` on the converted matrix): in
    float32 the Schur form loses roots far smaller than the largest (the charge balance ``h^3 + 0.059 h^2 +
    3.2e-7 h - 1.8e-19`` has a root 5.6e-13, which float32 arithmetic turned negative).

    >>> import kdsl as kd
    >>> r = _companion_roots(_companion(kd.asarray([1.0, 5.8976393e-02, 3.2250205e-07, -1.7999999e-19])))
    >>> r.dtype, f"{float(kd.max(r)):.4e}"
    (kdsl.float32, '5.5814e-13')
    """
    narrow = {"float32": kd.float64, "complex64": kd.complex128}.get(companion.dtype.name)
    if narrow is None or not companion.device.supports(kd.float64):
        return eigvals(companion)
    found = eigvals(companion.astype(narrow))
    return found.astype(kd.complex64 if found.dtype.kind == "c" else kd.float32)


def roots(p: Any) -> kd.Array:
    """The roots of the polynomial with coefficients ``p`` (1-D, highest power first): the eigenvalues of its
    companion matrix (leading zeros dropped, trailing zeros giving zero roots). Real when every root is real
    within rounding, else complex, as NumPy returns them; their order is the Schur form's (NumPy's differs:
    compare sorted values). Integer coefficients are computed in float64; float32 (complex64) ones in float64
    (complex128) where the device has it, the roots rounded to float32 (complex64), as NumPy's.

    >>> import kdsl as kd
    >>> sorted(round(r, 5) for r in kd.roots(kd.asarray([1.0, 0.0, -4.0, 0.0])).tolist())
    [-2.0, 0.0, 2.0]
    """
    c = _as_1d(p)
    if c.ndim != 1:
        raise ValueError(f"Input must be a rank-1 array; got coefficients of shape {c.shape}")
    if c.size == 0:
        return kd.zeros(0, dtype=_float64(c.device), device=c.device)
    nonzero = c != 0
    found, first, back = kd.any(nonzero), kd.argmax(nonzero), kd.argmax(nonzero[::-1])
    kd.realize(found, first, back)
    if not bool(found):
        return kd.zeros(0, dtype=_float64(c.device), device=c.device)
    start, stop = int(first), c.shape[0] - int(back)
    trailing = c.shape[0] - stop
    c = c[start:stop]
    if c.dtype.kind not in "fc":
        c = c.astype(_float64(c.device))
    if c.shape[0] > 1:
        found_roots = _companion_roots(_companion(c))
    else:
        found_roots = kd.zeros(0, dtype=_float64(c.device), device=c.device)
    if trailing == 0:
        return found_roots
    zero_roots = kd.zeros(trailing, dtype=found_roots.dtype, device=c.device)
    return kd.concatenate([found_roots, zero_roots])


def _root_dtype(dtype: kd.DType, device: Any) -> kd.DType:
    """NumPy's ``mintypecode``: float32, float64, complex64, complex128 stay, the rest become float64."""
    if dtype.name in ("float32", "float64", "complex64", "complex128"):
        return dtype
    return _float64(device)


def _multiplied_out(zeros: kd.Array) -> kd.Array:
    """The coefficients of ``prod (x - z)`` over the 1-D ``zeros``, one factor at a time."""
    one = kd.ones(1, dtype=zeros.dtype, device=zeros.device)
    c = one
    for k in range(zeros.shape[0]):
        # (x - z) c(x): c shifted up one power, minus z times c; the ends take one term each, as NumPy's
        # convolution (z times a padded 0 would make the leading 1 NaN for an inf or NaN root)
        z = zeros[k]
        c = kd.concatenate([c[:1], c[1:] - z * c[:-1], -z * c[-1:]])
        if (k + 1) % REALIZE_EVERY == 0:
            kd.realize(c)
    return c


def _closed_under_conjugation(z: kd.Array) -> bool:
    """Whether the complex values ``z`` equal their conjugates as a multiset (sorted, exactly; one read back)."""
    return bool(kd.all(kd.sort_complex(z) == kd.sort_complex(kd.conj(z))))


def poly(seq_of_zeros: Any) -> Any:
    """The coefficients (highest power first, leading 1) of the polynomial whose roots are the 1-D
    ``seq_of_zeros``, or the characteristic polynomial of a non-empty square matrix (of its eigenvalues,
    :func:`kdsl.linalg.eigvals`; real for a real matrix). Complex roots closed under conjugation give real
    coefficients, as NumPy's. No roots give the Python float ``1.0``, as NumPy's.

    >>> import kdsl as kd
    >>> [round(c, 5) for c in kd.poly(kd.asarray([[1.0, 2.0], [3.0, 4.0]])).tolist()]
    [1.0, -5.0, -2.0]
    """
    z = _as_1d(seq_of_zeros)
    real_matrix = False
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        real_matrix = z.dtype.kind != "c"
        z = eigvals(z)
    elif z.ndim == 1:
        z = z.astype(_root_dtype(z.dtype, z.device))
    else:
        raise ValueError(f"input must be 1d or non-empty square 2d array, not of shape {z.shape}")
    if z.shape[0] == 0:
        return 1.0
    c = _multiplied_out(z)
    if c.dtype.kind == "c" and (real_matrix or _closed_under_conjugation(z)):
        return kd.real(c)
    return c


__all__ = ["poly", "roots"]
