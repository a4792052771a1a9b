"""``kd.isclose`` / ``kd.allclose`` (and NumPy's ``np.isclose`` / ``np.allclose``) of kd.ma masked arrays, as
NumPy's functions treat ``np.ma`` arrays: ``isclose`` is masked where either operand is (its arithmetic runs on
the masked arrays), and ``allclose`` is True when every unmasked entry is close (False when all are masked:
NumPy's ``bool(np.ma.masked)``). ``np.ma.allclose`` (``kd.ma.allclose``) differs: masked entries count as
equal there, with its own ``masked_equal`` argument.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 5.0, 3.0], mask=[False, True, False])
    >>> print(kd.isclose(x, 1.0))
    [True -- False]
    >>> kd.allclose(x, [1.0, 0.0, 3.0])
    True
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import masked, nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts
from kdsl.ma.reductions import all as all_of


def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> MaskedArray:
    """``kd.isclose`` of the data, masked where ``a`` or ``b`` is (the masks broadcast to the result)."""
    da, ma = parts(a)
    db, mb = parts(b)
    close = kd.isclose(da, db, rtol=rtol, atol=atol, equal_nan=equal_nan)
    mask = ma if mb is nomask else mb if ma is nomask else ma | mb
    if mask is not nomask:
        mask = kd.broadcast_to(mask, close.shape).copy()  # its own array: writes to the result stay there
    return MaskedArray.wrap(close, mask)


def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> bool:
    """NumPy's ``np.allclose`` of masked arrays: whether every unmasked entry is close; False when none is
    unmasked (NumPy's ``bool(np.ma.masked)``), True when empty (NumPy's result has no mask then: nothing is
    masked). One read back, as ``bool`` needs."""
    close = isclose(a, b, rtol, atol, equal_nan)
    if close.size == 0:
        return True
    every = all_of(close)
    return False if every is masked else bool(every)


def involved(args: tuple, kwargs: dict) -> bool:
    """Whether the compared operands (the first two, by position or name) hold a masked array."""
    operands = list(args[:2]) + [kwargs[k] for k in ("a", "b") if k in kwargs]
    return any(isinstance(x, MaskedArray) for x in operands)


__all__: list[str] = []
