"""NumPy's ``format_float_positional`` and ``format_float_scientific`` for kdsl values: the value (a Python or
NumPy number, or a 0-d/size-1 kdsl array, read back) formatted on the host by NumPy's Dragon4 with the same
keywords, so the digits are those of the value's own dtype (float32 stays float32).

Example:
    >>> import kdsl as kd, numpy as np
    >>> kd.format_float_positional(kd.asarray(np.float32(0.1))), kd.format_float_scientific(1234.5, precision=2)
    ('0.1', '1.23e+03')
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

Trim = Literal["k", ".", "0", "-"]


def _host(x: Any) -> Any:
    from kdsl.frontend.array.array import Array  # cycle: array.py is the base of this package

    if isinstance(x, Array):
        if x.size != 1:
            raise TypeError(f"format_float_*: only a single value can be formatted, not an array of shape "
                            f"{x.shape}")
        return x.numpy().reshape(())[()]  # a NumPy scalar of the array's dtype
    return x


def format_float_positional(x: Any, precision: int | None = None, unique: bool = True, fractional: bool = True,
                            trim: Trim = "k", sign: bool = False, pad_left: int | None = None,
                            pad_right: int | None = None, min_digits: int | None = None) -> str:
    """``x`` in positional notation (NumPy's keywords and digits).

    >>> import kdsl as kd
    >>> kd.format_float_positional(3.14159, precision=3)
    '3.142'
    """
    return np.format_float_positional(_host(x), precision, unique, fractional, trim, sign, pad_left, pad_right,
                                      min_digits)


def format_float_scientific(x: Any, precision: int | None = None, unique: bool = True, trim: Trim = "k",
                            sign: bool = False, pad_left: int | None = None, exp_digits: int | None = None,
                            min_digits: int | None = None) -> str:
    """``x`` in scientific notation (NumPy's keywords and digits).

    >>> import kdsl as kd
    >>> kd.format_float_scientific(0.000125)
    '1.25e-04'
    """
    return np.format_float_scientific(_host(x), precision, unique, trim, sign, pad_left, exp_digits, min_digits)


__all__ = ["format_float_positional", "format_float_scientific"]
