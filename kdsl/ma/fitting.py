"""``kd.ma.polyfit`` and ``kd.ma.vander``, as ``numpy.ma``'s: a point masked in ``x``, in ``y`` (any column of a
2-d ``y``) or in ``w`` is left out of the fit, which ``kd.polyfit`` then runs on the points left (choosing them
reads the mask's count back: the fit's size depends on it). ``vander``'s rows of masked entries are zeros.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([0.0, 1.0, 2.0, 3.0], mask=[0, 0, 1, 0])
    >>> y = kd.ma.array([1.0, 3.0, 100.0, 7.0])
    >>> [round(c, 6) for c in kd.ma.polyfit(x, y, 1).tolist()]
    [2.0, 1.0]
    >>> kd.ma.vander(x, 2).tolist()
    [[0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [3.0, 1.0]]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.operands import parts


def _points_mask(x: Any, y: Any, w: Any) -> Any:
    """The points to leave out (a kdsl bool array), or nomask: masked in x, in y's row, or in w."""
    _, mx = parts(x)
    yd, my = parts(y)
    out: Any = mx
    if kd.asarray(yd).ndim == 1:
        masks = [my]
    elif kd.asarray(yd).ndim == 2:
        masks = [nomask if my is nomask else kd.any(my, axis=1)]  # NumPy's mask_rows: a row with any masked
    else:
        raise TypeError("Expected a 1D or 2D array for y!")
    if w is not None:
        masks.append(parts(w)[1])
    for m in masks:
        if m is not nomask:
            out = m if out is nomask else out | m
    return out


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """NumPy's ``np.ma.polyfit``: ``np.polyfit`` of the points with nothing masked (module docstring)."""
    xd, yd = kd.asarray(parts(x)[0]), kd.asarray(parts(y)[0])
    wd: Any = None if w is None else kd.asarray(parts(w)[0])
    if wd is not None and wd.ndim != 1:
        raise TypeError("expected a 1-d array for weights")
    if wd is not None and wd.shape[0] != yd.shape[0]:
        raise TypeError("expected w and y to have the same length")
    drop = _points_mask(x, y, w)
    if drop is not nomask:
        keep = ~drop
        xd, yd = xd[keep], yd[keep]
        wd = None if wd is None else wd[keep]
    return kd.polyfit(xd, yd, deg, rcond, full, wd, cov)


def vander(x: Any, n: int | None = None) -> Any:
    """NumPy's ``np.ma.vander``: ``np.vander`` of the data (a plain array), rows of masked entries zeros."""
    xd, m = parts(x)
    v = kd.vander(kd.asarray(xd), n)
    if m is nomask:
        return v
    return kd.where(kd.asarray(m).reshape(-1, 1), kd.zeros((), dtype=v.dtype), v)


__all__ = ["polyfit", "vander"]
