"""DLPack interchange: ``kd.from_dlpack(x)`` and the arrays' ``__dlpack__`` / ``__dlpack_device__``.

kdsl arrays live in Vulkan device memory that the host cannot address, and DLPack has no portable way to hand
out a Vulkan buffer, so both directions copy once (documented in docs/array-api.md):

* ``kd.from_dlpack(x)`` reads any host (CPU) DLPack producer through NumPy (``np.from_dlpack``, zero-copy) and
  uploads it to the device: one copy, as ``kd.asarray`` makes. A kdsl array is returned as it is.
* ``np.from_dlpack(a)`` (or any CPU consumer) gets a host copy of the kdsl array: ``a.__dlpack__()`` downloads
  it into a NumPy array and exports that array's capsule. ``a.__dlpack_device__()`` is therefore
  ``(kDLCPU, 0)``: the device where the exported tensor lives.

``copy=False`` asks for no copy, which kdsl cannot give: it raises ``BufferError`` (the standard's error).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.from_dlpack(np.arange(4, dtype=np.int16))
    >>> a.dtype.name, np.from_dlpack(a * 2).tolist()
    ('int16', [0, 2, 4, 6])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array import creation
from kdsl.frontend.array.array import Array

K_DL_CPU = 1  # DLPack's DLDeviceType for host memory
_NO_COPY = ("kdsl arrays live in Vulkan device memory, so a DLPack exchange with the host always copies once; "
            "pass copy=None (or True) to allow it")


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """A kdsl array holding the data of ``x``, any object with ``__dlpack__`` whose memory is on the host
    (NumPy, PyTorch CPU tensors, ...), or a kdsl array.

    The host data is read without a copy (``np.from_dlpack``) and uploaded once to ``device`` (default: the
    current device). ``copy=False`` raises ``BufferError`` for host data (the upload is a copy); ``copy=True``
    always gives a new array.

    >>> import kdsl as kd, numpy as np
    >>> kd.from_dlpack(np.array([[1.0, -0.0]], np.float32)).tolist()
    [[1.0, -0.0]]
    """
    if isinstance(x, Array):
        return creation.asarray(x, device=device, copy=copy)
    if copy is False:
        raise BufferError(f"from_dlpack(copy=False): {_NO_COPY}")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack takes an object with __dlpack__ (a NumPy array, a CPU tensor, a kdsl array), "
                        f"not {type(x).__name__}")
    try:
        host = np.from_dlpack(x)
    except (BufferError, RuntimeError, ValueError) as err:
        raise BufferError(f"kd.from_dlpack reads DLPack data in host (CPU) memory only; this producer's data could "
                          f"not be read there ({err}): move it to the CPU first") from err
    return creation.asarray(host, device=device)


class _StreamError(BufferError, RuntimeError, ValueError):
    """``__dlpack__(stream=...)``: a BufferError (the DLPack protocol's) that is also NumPy's error for it ("NumPy
    only supports stream=None": RuntimeError in NumPy 2.4, ValueError in 2.5), so code written for any catches it."""


def dlpack(a: Array, stream: Any = None, max_version: tuple[int, int] | None = None,
           dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
    """``a.__dlpack__(...)``: a DLPack capsule of a host copy of ``a`` (see the module's docstring)."""
    if stream is not None:
        raise _StreamError("kdsl arrays export host copies and have no streams; call __dlpack__ without stream=")
    if dl_device is not None and tuple(dl_device) != (K_DL_CPU, 0):
        raise BufferError(f"kdsl exports DLPack tensors in host memory only (dl_device=(1, 0)), not {dl_device}")
    if copy is False:
        raise BufferError(f"__dlpack__(copy=False): {_NO_COPY}")
    # a new array: NumPy's export of it is zero-copy (not ascontiguousarray, which makes a 0-d array 1-d)
    host = np.asarray(a.numpy(), order="C")
    if max_version is None:
        return host.__dlpack__()
    major, minor = max_version
    return host.__dlpack__(max_version=(int(major), int(minor)))


def dlpack_device(a: Array) -> tuple[int, int]:
    """``a.__dlpack_device__()``: ``(kDLCPU, 0)``, where the tensor ``__dlpack__`` exports lives."""
    return (K_DL_CPU, 0)
