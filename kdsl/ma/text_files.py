"""``kd.genfromtxt(f, usemask=True)``: a text file with missing entries read as a ``kd.ma`` masked array, as
NumPy's ``np.genfromtxt(f, usemask=True)`` gives a ``np.ma`` one (the missing entries masked, their data the
filling value). NumPy's reader parses the text on the host (text is host data); data and mask are uploaded.

Example:
    >>> import io, kdsl as kd
    >>> x = kd.genfromtxt(io.StringIO("1,,3\\n4,5,6"), delimiter=",", usemask=True)
    >>> print(x)
    [[1.0 -- 3.0]
     [4.0 5.0 6.0]]
    >>> x.mean(axis=0).tolist()
    [2.5, 5.0, 4.5]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.errors import check_host_readable
from kdsl.ma.masked_array import MaskedArray


def read_masked(fname: Any, dtype: Any = float, *args: Any, **kwargs: Any) -> MaskedArray:
    """NumPy's ``np.genfromtxt(fname, dtype, ..., usemask=True)`` as a kd.ma masked array (same arguments)."""
    if kwargs.pop("like", None) is not None:  # as kd.genfromtxt's (NumPy's like= would dispatch back here)
        raise TypeError("genfromtxt: like= is NumPy's dispatch argument; kd.genfromtxt already returns kdsl arrays")
    host_dtype: Any = dtype.np if isinstance(dtype, kd.DType) else dtype  # kdsl's dtypes as NumPy's
    out: Any = np.genfromtxt(fname, host_dtype, *args, **{**kwargs, "usemask": True})  # a np.ma.MaskedArray
    check_host_readable(out.dtype, "genfromtxt", "kd.ma.array", unpack=False)  # kd.genfromtxt's refusal
    # NumPy's reader always gives a full mask (all False when nothing is missing): kept as NumPy's
    return MaskedArray(kd.asarray(np.ma.getdata(out)), mask=kd.asarray(np.ma.getmaskarray(out)),
                       fill_value=out.fill_value)


def genfromtxt(kd_fn: Callable[..., Any]) -> Callable[..., Any]:
    """``kd.genfromtxt`` that reads ``usemask=True`` as a masked array (``read_masked``)."""
    @functools.wraps(kd_fn)
    def fn(fname: Any, dtype: Any = float, *args: Any, usemask: bool = False, **kwargs: Any) -> Any:
        if usemask:
            return read_masked(fname, dtype, *args, **kwargs)
        return kd_fn(fname, dtype, *args, **kwargs)
    return fn
