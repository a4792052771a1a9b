"""Integers written out as digit strings: NumPy's ``binary_repr`` and ``base_repr`` (plain Python: one number
in, one string out; a 0-d kdsl integer array is read back to the host first).

Example:
    >>> import kdsl as kd
    >>> kd.binary_repr(-5, width=8), kd.base_repr(255, 16), kd.base_repr(-7, 3, padding=2)
    ('11111011', 'FF', '-0021')
"""

from __future__ import annotations

import operator
from typing import Any

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _digits(n: int, base: int) -> str:
    """The digits of ``n >= 0`` in ``base``, most significant first."""
    out = []
    while True:
        n, d = divmod(n, base)
        out.append(_DIGITS[d])
        if n == 0:
            return "".join(reversed(out))


def binary_repr(num: Any, width: int | None = None) -> str:
    """``num`` in base 2 (NumPy's ``np.binary_repr``): with ``width``, zero-padded, and negative numbers in
    two's complement of that width (``ValueError`` if they do not fit); without, a ``-`` sign.

    >>> import kdsl as kd
    >>> kd.binary_repr(5), kd.binary_repr(-5), kd.binary_repr(5, width=6)
    ('101', '-101', '000101')
    """
    n = operator.index(num)
    if n == 0:
        return "0" * (width or 1)
    needed = (-n - 1).bit_length() + 1 if n < 0 else n.bit_length()
    if width is None:
        return ("-" if n < 0 else "") + _digits(abs(n), 2)
    if width < needed:
        raise ValueError(f"Insufficient bit width={width} provided for binwidth={needed}")
    return _digits(n % (1 << width), 2).zfill(width)


def base_repr(number: Any, base: int = 2, padding: int = 0) -> str:
    """``number`` in ``base`` (2 to 36, digits then capital letters), with ``padding`` zeros in front (NumPy's
    ``np.base_repr``).

    >>> import kdsl as kd
    >>> kd.base_repr(5), kd.base_repr(35, 36), kd.base_repr(6, 5, padding=1)
    ('101', 'Z', '011')
    """
    n = operator.index(number)
    if base > len(_DIGITS):
        raise ValueError("Bases greater than 36 not handled in base_repr.")
    if base < 2:
        raise ValueError("Bases less than 2 not handled in base_repr.")
    body = "0" * padding + (_digits(abs(n), base) if n else "")  # zero has no digits of its own, as in NumPy
    return ("-" if n < 0 else "") + (body or "0")
