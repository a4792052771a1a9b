"""``kd.ma.convolve`` and ``kd.ma.correlate``, as ``numpy.ma``'s: ``kd.convolve``/``kd.correlate`` of the data
(masked entries as 0) with a mask that, by default (``propagate_mask=True``), covers every output a masked entry
of either input contributes to; with ``propagate_mask=False`` only the outputs no pair of unmasked entries
contributes to are masked. The masks come from convolving 0/1 counts (a count above one half is "some").

Example:
    >>> import kdsl as kd
    >>> a = kd.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    >>> kd.ma.convolve(a, kd.asarray([1.0, 1.0])).tolist()
    [1.0, None, None, 7.0, 4.0]
    >>> kd.ma.convolve(a, kd.asarray([1.0, 1.0]), propagate_mask=False).tolist()
    [1.0, 1.0, 3.0, 7.0, 4.0]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts


def _present(m: Any, shape: tuple[int, ...]) -> Any:
    """1.0 where an input entry is unmasked, 0.0 where masked (float32 counts for kd.convolve)."""
    if m is nomask:
        return kd.ones(shape, dtype=kd.float32)
    return (~kd.asarray(m)).astype(kd.float32)


def _masked_product(fn: Any, a: Any, v: Any, mode: str, propagate_mask: bool) -> MaskedArray:
    (ad, am), (vd, vm) = parts(a), parts(v)
    ad, vd = kd.asarray(ad), kd.asarray(vd)
    if am is not nomask:  # 0, not the data: a NaN under a mask must not reach an unmasked output
        ad = kd.where(am, kd.zeros((), dtype=ad.dtype), ad)
    if vm is not nomask:
        vd = kd.where(vm, kd.zeros((), dtype=vd.dtype), vd)
    data = fn(ad, vd, mode=mode)
    if am is nomask and vm is nomask:  # NumPy's result always has a mask array (all False here)
        return MaskedArray.wrap(data, kd.zeros(data.shape, dtype=kd.bool_))
    pa, pv = _present(am, tuple(ad.shape)), _present(vm, tuple(vd.shape))
    if propagate_mask:  # an output any masked entry reaches: its window's count falls short of the full one
        ones_a, ones_v = kd.ones(pa.shape, dtype=kd.float32), kd.ones(pv.shape, dtype=kd.float32)
        mask = (fn(1 - pa, ones_v, mode=mode) > 0.5) | (fn(ones_a, 1 - pv, mode=mode) > 0.5)
    else:  # an output no unmasked pair reaches
        mask = fn(pa, pv, mode=mode) < 0.5
    return MaskedArray.wrap(data, mask)


def convolve(a: Any, v: Any, mode: str = "full", propagate_mask: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.convolve``: the discrete convolution of two 1-d masked arrays (module docstring)."""
    return _masked_product(kd.convolve, a, v, mode, propagate_mask)


def correlate(a: Any, v: Any, mode: str = "valid", propagate_mask: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.correlate``: the cross-correlation of two 1-d masked arrays (module docstring)."""
    return _masked_product(kd.correlate, a, v, mode, propagate_mask)


__all__ = ["convolve", "correlate"]
