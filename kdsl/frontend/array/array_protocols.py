"""The protocols an Array speaks: the array API standard's namespace and ``to_device``, DLPack (host copies),
NumPy's dispatch (``np.exp(a)``, ``np.sum(a)`` run kdsl's functions on the device), and the buffer
protocol of custom kernels (``__kdsl_buffer__``). These functions are
:class:`Array`'s methods.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray([1.0, 4.0])
    >>> a.__array_namespace__() is kd, type(np.sqrt(a)).__name__
    (True, 'Array')
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import TYPE_CHECKING

from kdsl.engine import realize as engine
from kdsl.ir import composite

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def __array_namespace__(self, /, *, api_version: str | None = None):
    """The namespace of the array API standard these arrays belong to: :mod:`kdsl` itself."""
    from kdsl.frontend.array.api_info import API_VERSIONS  # cycle: that module builds Arrays

    if api_version is not None and api_version not in API_VERSIONS:
        raise ValueError(f"kdsl implements the array API versions {', '.join(API_VERSIONS)}, "
                         f"not {api_version!r}")
    return sys.modules["kdsl"]  # the package is imported before any of its modules: no import cycle


def to_device(self, device, /, *, stream=None) -> Array:
    """This array on ``device`` (itself when it is already there; otherwise copied through the host)."""
    if stream is not None:
        raise ValueError("kdsl has no streams; call to_device without stream=")
    from kdsl.frontend.array.creation import asarray  # cycle: that module builds Arrays

    return asarray(self, device=device)


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of a host copy of this array (device memory cannot be exported: docs/array-api.md)."""
    from kdsl.frontend.array.dlpack import dlpack  # cycle: that module builds Arrays

    return dlpack(self, stream, max_version, dl_device, copy)


def __dlpack_device__(self) -> tuple[int, int]:
    """``(kDLCPU, 0)``: ``__dlpack__`` exports host copies."""
    from kdsl.frontend.array.dlpack import dlpack_device  # cycle: that module builds Arrays

    return dlpack_device(self)


def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
    from kdsl.frontend.array.numpy_protocol import array_ufunc  # it imports this module

    return array_ufunc(ufunc, method, inputs, kwargs)


def __array_function__(self, func, types, args, kwargs):
    from kdsl.frontend.array.numpy_protocol import array_function  # it imports this module

    return array_function(func, types, args, kwargs)


def __array_wrap__(self, array, context=None, return_scalar=False):
    """NumPy's ``ndarray.__array_wrap__``: ``array`` (a NumPy or kdsl array) as this array's type, a kdsl
    array; with ``return_scalar=True`` a 0-d result decays to NumPy's scalar, as ndarray's does.

    >>> import kdsl as kd, numpy as np
    >>> a = kd.arange(3)
    >>> type(a.__array_wrap__(np.arange(2))).__name__, a.__array_wrap__(np.array(3, np.int8), None, True)
    ('Array', np.int8(3))
    """
    import numpy as np

    from kdsl.frontend.array.creation import asarray  # cycle: that module builds Arrays

    if return_scalar and np.ndim(array) == 0:
        return np.asarray(array)[()]
    return asarray(array)


def buffer(self):
    """The runtime Tensor holding this array as C-contiguous ``size`` elements (copying a view first)."""
    return engine.buffer_of(self._n)


def __kdsl_buffer__(self, writable: bool = False):
    """The array protocol of custom kernels (``@kd.kernel``, ``kd.raw_kernel``): the runtime Tensor holding
    this array as C-contiguous data. ``writable=True``: the caller writes it in place, so lazy expressions
    that read this array are computed first (they keep the old values, as in NumPy)."""
    if composite.read_hooks:  # a gradient is being traced: the kernel's result has no path back to this array
        composite.note_read(self._n, _launcher())
    return engine.buffer_of(self._n, writable)


def _launcher() -> str:
    """The kdsl function the user called that is launching a custom kernel (the outermost kdsl frame below the
    caller's code), as ``kd.linalg.qr``: named in autodiff's error when the kernel reads a traced value."""
    frame: FrameType | None = sys._getframe(2)
    found = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module == "kdsl" or module.startswith("kdsl."):
            found = frame
        elif found is not None:
            break
        frame = frame.f_back
    if found is None or found.f_globals["__name__"].startswith("kdsl.frontend.kernels"):
        return "a custom kernel (@kd.kernel, kd.raw_kernel)"
    package = found.f_globals["__name__"].split(".")[1]  # kd.linalg.qr, kd.fft.rfft; kd.<name> for the rest
    public = package in ("linalg", "fft", "nn", "random", "ma", "polynomial")
    name = getattr(found.f_code, "co_qualname", found.f_code.co_name)  # (Python 3.11+: with the class)
    return f"kd.{package + '.' if public else ''}{name}"
