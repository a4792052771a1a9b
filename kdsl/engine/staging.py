"""Host-visible staging tensors for uploads and downloads, kept per device and reused.

Allocating and mapping host-visible memory is the slowest part of a small transfer on discrete GPUs: an H200
spent ~0.7 ms of a 16-float ``x.numpy()`` in ``vkAllocateMemory``/``vkFreeMemory`` of a fresh host tensor,
against ~20 us for the copy's submission. So a transfer of up to :data:`STAGING_BYTES` borrows a host tensor of
its exact element count and dtype (the copy ops want equal sizes) from a small LRU cache in the device's state,
and gives it back afterwards. Larger transfers allocate their own: their copy dwarfs the allocation.

Callers hold the device state's lock for the whole borrow (as uploads and downloads already do), so one tensor
per size is enough and no two transfers share one. The cached tensors belong to the device's manager, which
frees them with everything else when the device closes; after ``fork()`` the child starts with new, empty
states (:mod:`kdsl.engine.state`).

Example:
    >>> import numpy as np, kdsl as kd
    >>> from kdsl.engine.state import state
    >>> st = state(kd.device())
    >>> with borrow(st, 4, np.dtype(np.float32)) as host:
    ...     host.data()[:] = 1.5
    >>> with borrow(st, 4, np.dtype(np.float32)) as again:
    ...     again is host
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

STAGING_BYTES = 1 << 22  # transfers up to 4 MiB reuse a cached host tensor
STAGING_PER_DEVICE = 8  # cached host tensors per device (at most 32 MiB of host memory)


@contextmanager
def borrow(st: Any, count: int, dtype: np.dtype) -> Iterator[Any]:
    """A host tensor of ``count`` elements of ``dtype`` for the duration of the ``with`` block (``st.lock``
    held by the caller): a cached one when the size qualifies, otherwise a new one destroyed afterwards."""
    from kdsl.runtime import MemoryTypes
    if count * dtype.itemsize > STAGING_BYTES:
        host = st.device.manager.tensor_empty(count, dtype, memory_type=MemoryTypes.host)
        try:
            yield host
        finally:
            host.destroy()
        return
    key = (count, dtype.str)
    host = st.staging.pop(key, None)
    if host is None:
        host = st.device.manager.tensor_empty(count, dtype, memory_type=MemoryTypes.host)
    try:
        yield host
    finally:
        st.staging[key] = host  # most recently used last
        while len(st.staging) > STAGING_PER_DEVICE:
            _, old = st.staging.popitem(last=False)
            old.destroy()
