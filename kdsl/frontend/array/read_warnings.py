"""Warnings whose condition lies in the data on the device, given when the result is read back.

NumPy warns ``RuntimeWarning("All-NaN slice encountered")`` (``nanmin``, ``nanmedian``...), "Mean of empty slice"
(``nanmean``) or "Degrees of freedom <= 0 for slice." (``nanvar``) when some slice holds only NaNs. Deciding that
needs the values, and reading them back at the call would end kdsl's laziness. So the call attaches the condition
(a lazy bool) to its result, and the warning comes when that array is first read back (``np.asarray(r)``,
``r.tolist()``, ``float(r)``, printing): the condition is computed with it, one extra bool downloaded. Arrays
computed from the result (``r + 1``) do not carry it; writing into the result drops it.

    >>> import warnings, kdsl as kd
    >>> r = kd.nanmax(kd.asarray([[float("nan")], [1.0]]), axis=1)   # no warning yet: nothing was read
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     values = r.tolist()
    >>> values, [str(w.message) for w in caught]
    ([nan, 1.0], ['All-NaN slice encountered'])
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType
from typing import Any

from kdsl.frontend.array.array import Array, realize

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def defer(result: Array, condition: Array, message: str) -> Array:
    """``result``, which warns ``RuntimeWarning(message)`` when first read back if ``condition`` (a lazy bool
    array: any element true) holds."""
    # a condition of values since overwritten (another call's ``out=result``) can never warn: it goes, with the
    # graph it holds, so a loop writing into one unread ``out`` keeps one condition (and its inputs) per kind
    pending = tuple(p for p in getattr(result, "_read_warnings", ()) if p[0] == result._version)
    result._read_warnings = (*pending, (result._version, condition, message))
    return result


def carry(source: Array, result: Array) -> Array:
    """``result`` (computed elementwise from ``source``: ``nanstd`` is ``sqrt(nanvar)``) with ``source``'s
    pending warnings."""
    if result is source:  # (``out=None``: the same array)
        return result
    for version, condition, message in getattr(source, "_read_warnings", ()):
        if version == source._version:  # (one of values since overwritten never warns)
            defer(result, condition, message)
    return result


def give(a: Array) -> None:
    """Warn what ``a`` holds pending (once), before its values are read back; its values are computed in the
    same submission as the conditions."""
    pending = getattr(a, "_read_warnings", None)
    if not pending:
        return
    del a._read_warnings
    live = [(c, m) for version, c, m in pending if version == a._version]  # a write since replaced the values
    if not live:
        return
    realize(a, *[c for c, _ in live])
    for condition, message in live:
        if bool(condition.any()):
            warnings.warn(message, RuntimeWarning, stacklevel=_caller_stacklevel())


def _caller_stacklevel() -> int:
    """The ``stacklevel`` pointing at the first frame outside kdsl (the line that read the array back)."""
    level = 2
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    return level


def any_all_nan(x: Any, axis: Any) -> Array:
    """Whether some slice of ``x`` over ``axis`` holds only NaNs (a lazy bool)."""
    from kdsl.frontend.array import reductions as red
    from kdsl.frontend.array.ops import apply
    return red.any(red.all(apply("isnan", x), axis))


__all__ = ["any_all_nan", "carry", "defer", "give"]
