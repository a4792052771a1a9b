"""``a.real`` and ``a.imag`` as NumPy has them on arrays: views that write through (``z.imag[1] = 5``,
``z.real *= 2``) and attributes that can be assigned (``z.real = x``, ``z.imag = 0``).

A write into a part rebuilds the complex base from the new part and the base's other part (one lazy
``complex`` node stored into the base); reading a part after the base changed reads the base's new values, as
any kdsl view does (:mod:`view_links`). ``kd.real(z)`` and ``kd.imag(z)`` are those views too, as NumPy's
``np.real(z)`` is ``z.real`` (``np.imag(z)[mask] = 0`` writes into ``z``).

Example:
    >>> import kdsl as kd
    >>> z = kd.zeros(3, dtype=kd.complex64)
    >>> z.real = kd.asarray([1.0, 2.0, 3.0])
    >>> z.imag[1] = 5
    >>> z.tolist()
    [(1+0j), (2+5j), (3+0j)]
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import complex_math
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.complex_math import complex_from_parts, imag, real, warn_discarded_imag


def write_real(base: Array, view: Array) -> None:
    base[...] = complex_from_parts(view, imag(base)).astype(base.dtype)


def write_imag(base: Array, view: Array) -> None:
    base[...] = complex_from_parts(real(base), view).astype(base.dtype)


def real_view(a: Array) -> Array:
    """``a.real``: for complex ``a`` a float view writing into ``a``; real ``a`` is its own real part."""
    if a.dtype.kind != "c":
        return a
    return real(a)._view_of(a, write_real, real)


def imag_view(a: Array) -> Array:
    """``a.imag``: for complex ``a`` a float view writing into ``a``; zeros (not writable into ``a``) for real
    ``a``, as NumPy's read-only zeros."""
    if a.dtype.kind != "c":
        return imag(a)
    return imag(a)._view_of(a, write_imag, imag)


def real_of(val: Any) -> Array:
    """``kd.real``: NumPy's ``np.real(val)``, which is ``val.real``: for a complex kdsl array a view that writes
    into it (a real array is its own real part); other values as :func:`complex_math.real`.

    >>> import kdsl as kd
    >>> z = kd.asarray([1 + 2j, 3 - 4j])
    >>> kd.real(z)[0] = 9
    >>> z.tolist()
    [(9+2j), (3-4j)]
    """
    return real_view(val) if isinstance(val, Array) else complex_math.real(val)


def imag_of(val: Any) -> Array:
    """``kd.imag``: NumPy's ``np.imag(val)``, which is ``val.imag``: for a complex kdsl array a view that writes
    into it; zeros for a real array; other values as :func:`complex_math.imag`.

    >>> import kdsl as kd
    >>> z = kd.asarray([1 + 2j, 3 - 4j])
    >>> kd.imag(z)[1] = 0
    >>> z.tolist()
    [(1+2j), (3+0j)]
    """
    return imag_view(val) if isinstance(val, Array) else complex_math.imag(val)


def _part(value: Any) -> Any:
    """A new part's values: the real part of complex ones (NumPy keeps it and warns: ComplexWarning)."""
    if isinstance(value, Array) and value.dtype.kind == "c":
        warn_discarded_imag(value.dtype, value.dtype.real_dtype)
        return real(value)
    return value


def set_real(a: Array, value: Any) -> None:
    """``a.real = value`` (broadcast to ``a``'s shape)."""
    if a.dtype.kind != "c":
        a[...] = value
        return
    write_real(a, _as_part(_part(value), a))


def set_imag(a: Array, value: Any) -> None:
    """``a.imag = value``; TypeError for real ``a``, as NumPy's."""
    if a.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    write_imag(a, _as_part(_part(value), a))


def _as_part(value: Any, a: Array) -> Array:
    from kdsl.frontend.array.creation import as_array
    from kdsl.frontend.array.shape_ops import broadcast_values_to

    v = as_array(value, a.device) if not isinstance(value, Array) else value
    return broadcast_values_to(v.astype(a.dtype.real_dtype), a.shape)
