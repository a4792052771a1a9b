"""NumPy's warnings around writes into ``broadcast_arrays`` results (NumPy 2's deprecation of their writeable
flag): the results of a broadcast are marked; the first write into one (or into a view of one) warns
``DeprecationWarning`` ("Numpy has detected that you (may be) writing to an array with overlapping memory from
np.broadcast_arrays...") and clears the mark, as NumPy warns once per array; reading
``flags.writeable`` of a marked array warns ``FutureWarning``; ``setflags(write=...)`` clears the mark.

kdsl's write changes that result only (NumPy's writes reach every element sharing the memory): the warning says
the code relies on something NumPy is taking away.

Example:
    >>> import warnings, kdsl as kd
    >>> u, v = kd.broadcast_arrays(kd.arange(2), kd.zeros((2, 2), dtype=kd.int64))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     u[0, 0] = 5
    >>> caught[0].category.__name__
    'DeprecationWarning'
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array

_WRITE = ("Numpy has detected that you (may be) writing to an array with\noverlapping memory from "
          "np.broadcast_arrays. If this is intentional\nset the WRITEABLE flag True or make a copy immediately "
          "before writing.")
_through = threading.local()  # depth of writes through views into their bases (per thread)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep  # kdsl/
_FLAG = ("future versions will not create a writeable array from broadcast_array. Set the writable flag "
         "explicitly to avoid this warning.")


def mark(a: Array) -> None:
    """``a`` is a result of ``broadcast_arrays`` that broadcast something."""
    a._warn_on_write = True


def _marked(a: Array) -> bool:
    """Whether ``a`` still carries the mark: its own (True, or False once warned or cleared), else the nearest
    array it is a view of that has one (a view taken before the first write inherits it, as NumPy's flags)."""
    x: Array | None = a
    while x is not None:
        own = getattr(x, "_warn_on_write", None)
        if own is not None:
            return own
        x = x._parent[0] if x._parent is not None else None
    return False


@contextlib.contextmanager
def writing_through() -> Iterator[None]:
    """A view's values carried into its base: one write in NumPy's memory, warned for the view already."""
    _through.depth = getattr(_through, "depth", 0) + 1
    try:
        yield
    finally:
        _through.depth -= 1


def before_write(a: Array) -> None:
    """NumPy's DeprecationWarning for the first write into a marked array (then not again for it)."""
    if getattr(_through, "depth", 0) == 0 and _marked(a):
        _warn(_WRITE, DeprecationWarning)
        clear(a)


def flag_read(a: Array) -> None:
    """NumPy's FutureWarning when ``flags.writeable`` of a marked array is read."""
    if _marked(a):
        _warn(_FLAG, FutureWarning)


def clear(a: Array) -> None:
    """Drop the mark of ``a`` (NumPy clears it along ``a.base``, the owner of the memory, which is never a
    broadcast result: a view's marked parent keeps its mark)."""
    a._warn_on_write = False


def _warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first frame outside kdsl (writes come through several helpers)."""
    level, frame = 1, sys._getframe(0)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    warnings.warn(message, category, stacklevel=level)


__all__ = ["before_write", "clear", "flag_read", "mark"]
