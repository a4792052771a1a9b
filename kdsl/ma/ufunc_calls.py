"""NumPy's unary ufuncs called on a masked array (``np.sqrt(x)``, ``kd.exp(x)``, ``-x``, ``~x``), as NumPy computes
them: the ufunc runs on the whole data and numpy.ma's ``__array_wrap__`` wraps the result. That differs from
numpy.ma's own functions (``np.ma.sqrt``, ``kd.ma.sqrt``: ``operators.py``), which keep the input's data under
the mask and mask every non-finite result: here the data under the mask is the function's value, the mask is the
input's (a full array even for ``nomask``) joined with the function's domain (``sqrt`` of x < 0, ``log`` of
x <= 0...: ``domains.py``), and where the domain fails or the input is masked the data is numpy.ma's fill for
the function (``sqrt``: 0, ``log``: 1). NaN and infinite results stay unmasked.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([4.0, -1.0, 9.0], mask=[0, 0, 1])
    >>> r = kd.sqrt(x)
    >>> r.data.tolist(), r.mask.tolist()
    ([2.0, 0.0, 0.0], [False, True, True])
    >>> kd.exp(kd.ma.array([0.0, 1.0], mask=[0, 1])).data.tolist()[1] > 2.7   # computed under the mask too
    True
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import masked, nomask
from kdsl.ma.domains import UNARY_DOMAINS, UNARY_FILLS
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import fill_of, parts

# the unary ufuncs whose call on a masked array takes this path (np.round and kd.round, which take decimals, do not)
UNARY_UFUNCS = frozenset(UNARY_DOMAINS) | {
    "exp", "sin", "cos", "tanh", "sinh", "cosh", "arctan", "arcsinh", "absolute", "abs", "fabs", "negative",
    "positive", "floor", "ceil", "trunc", "rint", "sign", "logical_not", "conjugate", "conj", "invert", "square",
    "exp2", "expm1", "log1p", "cbrt", "reciprocal", "isnan", "isinf", "isfinite", "angle"}


def unary_call(name: str, x: Any) -> Any:
    """``np.<name>(x)`` of a masked ``x`` as NumPy's ufunc and numpy.ma's ``__array_wrap__`` give it (see the
    module docstring): a masked array with ``x``'s fill value, or ``masked`` for a 0-d masked result."""
    d, m = parts(x)
    if not isinstance(d, kd.Array):
        d = kd.asarray(d)
    result = getattr(kd, name)(d)
    mask = kd.zeros(result.shape, dtype=kd.bool_) if m is nomask else m
    domain = UNARY_DOMAINS.get(name)
    if domain is not None:  # numpy.ma fills the domain test's masked entries with True: they take the fill too
        mask = domain(d) | mask
        result = kd.where(mask, UNARY_FILLS[name], result).astype(result.dtype)
    if result.ndim == 0 and bool(mask):
        return masked
    return MaskedArray.wrap(result, mask, fill_of(x))


__all__ = ["UNARY_UFUNCS", "unary_call"]
