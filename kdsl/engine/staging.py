"""Host-visible staging tensors for uploads and downloads, kept per device and reused.

Allocating and mapping host-visible memory is the slowest part of a small transfer on discrete GPUs: an H200
spent ~0.7 ms of a 16-float ``x.numpy()`` in ``vkAllocateMemory``/``vkFreeMemory`` of a fresh host tensor,
against ~20 us for the copy's submission. So a transfer of up to :data:`STAGING_BYTES` borrows a host tensor of
its exact element count and dtype (the copy ops want equal sizes) from a small LRU cache in the device's state,
and gives it back afterwards. Larger transfers allocate their own: their copy dwarfs the allocation.

:func:`take` lends one with a NumPy view of its memory and :func:`give` takes it back (:func:`borrow` is the two as
a ``with`` block). Callers hold the device state's lock for the whole borrow (as uploads and downloads already
do), so one tensor per size is enough and no two transfers share one. The cached tensors belong to the device's
manager, which frees them with everything else when the device closes; after ``fork()`` the child starts with
new, empty states (:mod:`kdsl.engine.state`).

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


def take(st: Any, count: int, dtype: np.dtype) -> tuple[Any, np.ndarray]:
    """(a host tensor of ``count`` elements of ``dtype``, a NumPy view of its memory) until :func:`give` returns
    it (``st.lock`` held by the caller throughout): a cached one when the size qualifies, else a new one.

    A cached tensor keeps its view (in ``st.staging_views``): a download copies out of the view directly, where
    ``np.array(tensor)`` would read the tensor's ``__array_interface__`` (five Python calls) on every transfer.
    The view is used only while its tensor is alive: a cached tensor found destroyed is replaced.
    """
    if count * dtype.itemsize > STAGING_BYTES:
        host = _new(st, count, dtype)
        return host, np.asarray(host)
    key = (count, dtype.str)
    host = st.staging.pop(key, None)
    if host is not None and not host._destroyed:
        seen = st.staging_views.get(key)
        if seen is not None and seen[0] is host:
            return host, seen[1]
    else:
        host = _new(st, count, dtype)
    view = np.asarray(host)
    st.staging_views[key] = (host, view)
    return host, view


def give(st: Any, count: int, dtype: np.dtype, host: Any) -> None:
    """Return a host tensor :func:`take` gave out (same ``count`` and ``dtype``): into the cache, most recently
    used last (the oldest past :data:`STAGING_PER_DEVICE` destroyed), or destroyed when it is too large."""
    if count * dtype.itemsize > STAGING_BYTES:
        host.destroy()
        return
    staged = st.staging
    key = (count, dtype.str)
    # A transfer inside another's borrow (a download fused into a realize whose uploads stage the same size)
    # cached a tensor of its own under this key meanwhile: that one goes, with its view.
    other = staged.pop(key, None)
    if other is not None and other is not host:
        _forget(st, key, other)
    staged[key] = host
    while len(staged) > STAGING_PER_DEVICE:
        _forget(st, *staged.popitem(last=False))


def _forget(st: Any, key: tuple[int, str], old: Any) -> None:
    """Destroy cached tensor ``old`` (no longer in the cache under ``key``) and drop its view."""
    seen = st.staging_views.get(key)
    if seen is not None and seen[0] is old:
        del st.staging_views[key]
    old.destroy()


def _new(st: Any, count: int, dtype: np.dtype) -> Any:
    from kdsl.runtime import MemoryTypes  # (here: building graphs must not import the runtime)

    from . import buffers

    return buffers.allocated(st, lambda: st.device.manager.tensor_empty(count, dtype, memory_type=MemoryTypes.host))


@contextmanager
def borrow(st: Any, count: int, dtype: np.dtype) -> Iterator[Any]:
    """A host tensor of ``count`` elements of ``dtype`` for the duration of the ``with`` block (``st.lock``
    held by the caller): :func:`take` and :func:`give` around the block."""
    host, _ = take(st, count, dtype)
    try:
        yield host
    finally:
        give(st, count, dtype, host)
