"""``kd.info``: NumPy's ``np.info``, help on an object printed to stdout (or ``output``): a kdsl array's class,
shape, strides, itemsize and dtype; for anything else (a function, a class, a name to search for in kdsl) the
signature and docstring, as NumPy's (metadata only: nothing is computed or downloaded).

Example:
    >>> import kdsl as kd
    >>> kd.info(kd.arange(3))
    class:  Array
    shape:  (3,)
    strides:  (4,)
    itemsize:  4
    type: int32
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import numpy as np

from kdsl.frontend.array.array import Array


def _array_info(a: Array, output: TextIO) -> None:
    """The summary NumPy prints for an ndarray, from kdsl's metadata (no data pointer: kdsl's buffers live on
    the device)."""
    for label, value in (("class", type(a).__name__), ("shape", a.shape), ("strides", a.strides),
                         ("itemsize", a.itemsize)):
        print(f"{label}:  {value}", file=output)
    print(f"type: {a.dtype}", file=output)


_SEARCHED = ("kdsl", "kdsl.linalg", "kdsl.fft", "kdsl.random", "kdsl.polynomial")


def _search(name: str, maxwidth: int, output: TextIO) -> None:
    """Help on every object called ``name`` in kdsl's namespaces (NumPy walks every module it can import; kdsl
    looks in its NumPy-like ones)."""
    found = [(mod, getattr(sys.modules[mod], name)) for mod in _SEARCHED
             if mod in sys.modules and hasattr(sys.modules[mod], name)]
    if not found:
        print(f"Help for {name} not found.", file=output)
        return
    for mod, obj in found:
        print(f"     *** Found in {mod} ***", file=output)
        info(obj, maxwidth, output)
        print("-" * maxwidth, file=output)
    if len(found) > 1:
        print(f"\n     *** Total of {len(found)} references found. ***", file=output)


def info(object: Any = None, maxwidth: int = 76, output: TextIO | None = None,  # noqa: A002 - NumPy's name
         toplevel: str = "kdsl") -> None:
    """Help on ``object`` (NumPy's ``np.info``): a kdsl array's layout summary, else NumPy's help text for the
    object (``None``: help on ``info``; a string: the objects of that name in ``kd``, ``kd.linalg``, ``kd.fft``,
    ``kd.random``, ``kd.polynomial``). ``toplevel`` is accepted for NumPy's signature."""
    del toplevel
    out = sys.stdout if output is None else output
    if isinstance(object, Array):
        _array_info(object, out)
        return
    if isinstance(object, str):
        _search(object, maxwidth, out)
        return
    np.info(info if object is None else object, maxwidth=maxwidth, output=out)


__all__ = ["info"]
