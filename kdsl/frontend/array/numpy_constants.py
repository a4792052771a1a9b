"""NumPy's module-level constants and scalar-type tables, for code that reads them through ``kd``:
``True_``/``False_`` (NumPy's boolean scalars), ``ScalarType`` (the tuple of scalar types ``isinstance``
tests use), ``typecodes`` (NumPy's type-character table), ``sctypeDict`` and ``little_endian``
(``kd.exceptions``, NumPy's exception classes, is :mod:`kdsl.exceptions`). They are NumPy's own objects:
metadata, no device data.

Example:
    >>> import kdsl as kd
    >>> bool(kd.True_), isinstance(1.5, kd.ScalarType), "f" in kd.typecodes["Float"], kd.little_endian
    (True, True, True, True)
"""

from __future__ import annotations

import sys

import numpy as np

True_ = np.True_
False_ = np.False_
ScalarType = np.ScalarType
typecodes = dict(np.typecodes)  # a copy: a program editing it does not change NumPy's
sctypeDict = np.sctypeDict  # NumPy's own table (extensions such as ml_dtypes register into it)
little_endian = sys.byteorder == "little"

__all__ = ["False_", "ScalarType", "True_", "little_endian", "sctypeDict", "typecodes"]
