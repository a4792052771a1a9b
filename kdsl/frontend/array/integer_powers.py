"""NumPy's errors for an integer ``power``, raised when the op is built (``kdsl.frontend.array.ops``): a Python int
operand outside its integer dtype's range (OverflowError, checked first, as NumPy's), then a negative exponent
(ValueError, only when there is something to compute: NumPy's check is in its loop).

Example:
    >>> import kdsl as kd
    >>> try:
    ...     kd.asarray([2], dtype=kd.int16) ** 2**40
    ... except OverflowError as e:
    ...     print(e)
    Python integer 1099511627776 out of bounds for int16
"""

from __future__ import annotations

from kdsl.dtype import promotion


def check(operands, in_dtypes, shape: tuple[int, ...]) -> None:
    """The checks of an integer ``power`` of ``operands`` (base, exponent) in ``in_dtypes`` over ``shape``."""
    _check_python_ints(operands, in_dtypes)
    if 0 not in shape:
        check_integer_exponent(operands[1])


def check_integer_exponent(exponent) -> None:
    """NumPy's ValueError for an integer ``power`` with a negative exponent, raised when the op is built.

    A Python int is checked as it is; a signed-integer Array (a NumPy scalar or 0-d host value arrives here
    as one) is checked by reading one boolean, ``any(exponent < 0)``, to the host: that waits for the exponent
    to be computed (lavapipe: about 0.3 ms for 1000 elements, 12 ms for a million), and only integer
    bases with signed-integer exponent arrays pay it (float, unsigned and bool exponents cannot be negative
    or take the float loop).

    >>> import kdsl as kd
    >>> try:
    ...     kd.arange(3) ** kd.asarray([1, -1, 2])
    ... except ValueError as e:
    ...     print(e)
    Integers to negative integer powers are not allowed.
    """
    from kdsl.frontend.array.array import Array  # cycle: array.py imports ops, which imports this module

    if isinstance(exponent, bool):
        return
    if isinstance(exponent, int):
        negative = exponent < 0
    elif isinstance(exponent, Array) and exponent.dtype.kind == "i" and exponent.size:
        negative = bool((exponent < 0).any())  # a host read: the only way to match NumPy's error on data
    else:
        return
    if negative:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _check_python_ints(operands, in_dtypes) -> None:
    """NumPy's OverflowError for a Python int operand outside its integer dtype's range (``int16(2) ** 2**40``)."""
    for x, d in zip(operands, in_dtypes, strict=True):
        if isinstance(x, int) and not isinstance(x, bool) and d.is_int and not promotion.can_hold(d, x):
            raise OverflowError(f"Python integer {x} out of bounds for {d.name}")


__all__ = ["check", "check_integer_exponent"]
