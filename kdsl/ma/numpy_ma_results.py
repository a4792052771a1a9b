"""numpy.ma's comparisons with a kd.ma array on the right (``np.ma.masked < x``, ``host_masked == x``): numpy.ma
runs them itself (its comparisons never defer to the other operand), computes the data and mask with ufuncs (so
kdsl computes them: a lazy kdsl array and, for the mask, numpy.ma's host mask), and ends in numpy.ma's
``check.view(type(self))``, ``check._update_from(self)``, ``check._mask = mask``, ``check._fill_value = fill``.
``Array.view`` of a numpy.ma class hands the kdsl data to :func:`wrap` (installed by kdsl/__init__.py: kd.ma is
above the array layer), a kd.ma array; ``MaskedArray._update_from`` and ``MaskedArray.__setattr__`` take
numpy.ma's host mask and fill value as kd.ma's own.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> r = kd.ma.masked < x
    >>> type(r).__name__, r.mask.tolist(), r.dtype == kd.bool_, bool(r.fill_value)
    ('MaskedArray', [True, True, True], True, True)
"""

from __future__ import annotations

from typing import Any

from kdsl.ma.masked_array import MaskedArray


def wrap(data: Any) -> MaskedArray:
    """numpy.ma's ``data.view(MaskedArray)`` of a kdsl result: a kd.ma array of it, nothing masked yet."""
    return MaskedArray.wrap(data)
