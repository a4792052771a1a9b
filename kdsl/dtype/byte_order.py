"""Dtypes of a byte order other than the machine's (``'>i2'``, ``np.dtype('<f8').newbyteorder()``) where an array
is *made* in them: kdsl's arrays are always native (its DType has no byte order), so ``a.astype('>i2')`` would be
native ``int16`` and its ``tobytes()`` little-endian where NumPy's are big-endian, and ``a.view('>i4')`` would read
the bytes in the wrong order. Those calls are refused with the way that gives NumPy's bytes or values. (Reading
big-endian data, ``kd.frombuffer(raw, kd.dtype('>u4'))`` or ``kd.asarray(fits_data)``, is NumPy's: the values
are converted on upload.)

Example:
    >>> native_only("<i4", "astype") is None, native_only("int16", "astype") is None
    (True, True)
    >>> native_only(">i2", "astype")
    Traceback (most recent call last):
    ...
    TypeError: astype('>i2'): kdsl arrays are stored in the machine's byte order (little-endian), so the \
result would hold little-endian int16 bytes where NumPy's hold big-endian ones; for NumPy's bytes use \
a.astype('int16').byteswap().tobytes(), or np.asarray(a).astype('>i2') on the host
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np


def _foreign(x: Any) -> np.dtype | None:
    """``x`` as a NumPy dtype when it names a byte order other than the machine's, else None."""
    if isinstance(x, (str, np.dtype)):
        try:
            npd = np.dtype(x)
        except TypeError:
            return None  # not a dtype: the caller's own check names it
        return None if npd.isnative else npd
    return None


def numpy_spelling(x: Any) -> np.dtype | None:
    """NumPy's dtype for ``x`` when it names a non-native byte order (``'>i8'``), so questions about dtypes alone
    (``can_cast(..., casting='no')``) see the byte order as NumPy does; None for any other spelling."""
    return _foreign(x)


def native_only(x: Any, what: str) -> None:
    """Refuse ``x`` (any dtype spelling) when it names a non-native byte order; ``what`` is ``"astype"`` or
    ``"view"``, the call that would make an array in it."""
    npd = _foreign(x)
    if npd is None:
        return
    plain = npd.newbyteorder("=").name
    order = "big" if npd.byteorder == ">" else "little"
    here = sys.byteorder
    if what == "view":
        fix = (f"for NumPy's values use a.view('{plain}').byteswap() (the bytes read in {order}-endian order), "
               f"or np.asarray(a).view('{npd.str}') on the host")
        raise TypeError(f"view('{npd.str}'): kdsl arrays are stored in the machine's byte order ({here}-endian), "
                        f"so the view would read the bytes {here}-endian where NumPy reads them {order}-endian; "
                        + fix)
    raise TypeError(f"{what}('{npd.str}'): kdsl arrays are stored in the machine's byte order ({here}-endian), "
                    f"so the result would hold {here}-endian {plain} bytes where NumPy's hold {order}-endian "
                    f"ones; for NumPy's bytes use a.astype('{plain}').byteswap().tobytes(), or "
                    f"np.asarray(a).astype('{npd.str}') on the host")


__all__ = ["native_only"]
