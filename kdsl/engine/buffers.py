"""Device buffers: :class:`Buffer` (realised data) and the per-device pool of recycled tensors that
:func:`allocate` and :func:`take` draw from, so that a loop making arrays of the same sizes every step stops
allocating after its first steps.

Example:
    >>> import kdsl as kd
    >>> dev = kd.asarray([1.0]).device
    >>> buf = Buffer(allocate(dev, 4, kd.float32), 4, kd.float32, dev)
    >>> buf.size, buf.dtype.name
    (4, 'float32')
"""

from __future__ import annotations

import gc
import heapq
from collections.abc import Callable
from typing import Any

from kdsl import dtype as dt
from kdsl.device import device as default_device
from kdsl.engine.state import state
from kdsl.errors import TooLargeError
from kdsl.runtime.lifetime import finalizer_acquire
from kdsl.runtime.vk import OUT_OF_MEMORY, VulkanError

# Tensors kept per (dtype, size). A model's forward pass makes dozens of same-sized intermediates in one
# submission (MiniLM: ~50 of 8192 x 384): with 4 kept, each call re-allocated the rest, ~46 ms of its 67 on an
# H200. Each bucket is a heap ordered by id, so a pass that finds the same free tensors gets them in the same
# roles whatever order they were freed in: a kd.jit replay then finds its kernels bound to the same buffers
# and replays the recorded command buffer instead of rebinding and recording every kernel.
_POOL_PER_SIZE = 256
# ... and more of small ones, up to this many bytes per size: a loop of n steps realised at once holds n
# step results in one batch (500 steps of a 1000-point stencil: 500 buffers), and each one past the bucket's
# limit was allocated again at every call (and the batch, on new buffers, recorded again instead of replayed)
_POOL_BYTES_PER_SIZE = 16 << 20
# Pooled tensors may hold up to this share of the device's memory. Large arrays are where pooling pays most:
# allocating (and zeroing) 1 GiB costs a GPU driver ~35 ms, 30x the kernel that fills it.
_POOL_SHARE = 0.25
# ... and at most this many tensors in all (fewer where the driver allows fewer memory objects in all:
# maxMemoryAllocationCount, 4096 on some). A loop over distinct small sizes (varying sequence lengths) pooled
# two tensors a step until they filled the byte limit: 12 000 VkBuffers and 40 MB of host objects after 6 000
# steps on lavapipe, and growing. Past the count, the sizes used least recently go, as past the bytes.
_POOL_TENSORS = 4096


class Buffer:
    """Realised data: a runtime Tensor of ``size`` elements (None when the array is empty).

    Tensors kdsl allocated go back to a per-device pool when their Buffer dies, so a loop that makes arrays of
    the same sizes every step stops allocating after the first steps. (Every submission is waited on before
    Python continues, so a pooled tensor is never still in use by the GPU.) ``pool`` is the engine state whose
    pool takes the tensor back (None: never pooled), found when the Buffer is made: a Buffer a forked child
    inherited then returns its tensor to its parent's (orphaned) state, never to the child's.
    """

    __slots__ = ("tensor", "size", "dtype", "device", "pool")

    def __init__(self, tensor: Any, size: int, dtype: dt.DType, device: Any, pooled: bool = True, st: Any = None):
        self.tensor, self.size, self.dtype, self.device = tensor, size, dtype, device
        self.pool = (st or state(device)) if pooled and tensor is not None else None

    def __del__(self) -> None:
        st = self.pool
        if st is None:
            return
        try:
            tensor, size, name = self.tensor, self.size, self.dtype.name
            nbytes = size * self.dtype.np.itemsize
            dropped: list[Any] = []  # buckets let go of: freed after the lock is released (see _evict)
            pooled = False
            lock = st.lock
            # (not ``with``: this runs at every array's death, and the uncontended acquire costs least; at
            # interpreter exit a dead daemon thread may hold it: the tensor then goes unpooled)
            if not lock.acquire(False) and not finalizer_acquire(lock):
                return
            try:
                pool = st.pool
                key = (name, size)
                bucket = pool.get(key)
                if bucket is None:
                    bucket = pool[key] = []
                else:
                    pool.move_to_end(key)
                limit = st.pool_limit if st.pool_limit is not None and st.pool_count_limit else _pool_limit(st)
                if (len(bucket) < _POOL_PER_SIZE or len(bucket) * nbytes < _POOL_BYTES_PER_SIZE) and \
                        (_fits(st, nbytes, limit) or _evict(st, key, nbytes, limit, dropped)) and \
                        not tensor._destroyed:  # (is_init() without the call: every array's death)
                    heapq.heappush(bucket, (id(tensor), tensor))
                    st.pool_bytes += nbytes
                    st.pool_count += 1
                    pooled = True
            finally:
                lock.release()
            if dropped or not pooled:  # (the common death pools its tensor and frees nothing)
                _free(None if pooled else tensor, dropped)
        except Exception:  # interpreter shutdown: let the tensor go
            pass


def _fits(st: Any, nbytes: int, limit: float) -> bool:
    """Whether the pool of ``st`` has room for one more tensor of ``nbytes``: under both its byte limit and its
    tensor count (the device's allocation count, which a pool of many small tensors reaches first)."""
    return st.pool_bytes + nbytes <= limit and st.pool_count < st.pool_count_limit


def _free(tensor: Any, dropped: list[Any]) -> None:
    """Free the memory of a dead array's tensor the full pool did not take (``tensor``, or None) and of the
    buckets it let go of (``dropped``), now, outside the pool's lock.

    Dropping the last reference is not enough: the Algorithms of the batches recorded over them (16 kept per
    device, :mod:`kdsl.engine.programs`) still bind them, so 4 500 dead arrays past a full pool kept 404 buffers
    per batch alive until 16 later batches pushed it out, and ``kd.empty_cache()`` could not free them. No other
    array can use these tensors (a pooled Buffer owns its tensor; only the pool hands it on), and a batch that
    binds a destroyed tensor never replays: its key names tensors that no live array has any more (the Algorithm
    keeps the destroyed object, so its id is never reused while the key could hit)."""
    if tensor is not None:
        tensor.destroy()
    for bucket in dropped:
        for _, pooled in bucket:
            pooled.destroy()


def _evict(st: Any, keep: tuple[str, int], nbytes: int, limit: float, dropped: list[Any]) -> bool:
    """Make room for one more tensor of ``nbytes`` in the full pool of ``st`` (past its bytes or its tensor
    count) by letting go of the tensors of the sizes used least recently (never those of ``keep``, the size
    being returned); whether it now fits.

    Without this, a pool filled by sizes a program no longer uses took no new tensor for good: a loop then
    allocated its arrays again at every step and never replayed its recorded command buffer (a sort repeated
    after 41 000 other tests re-recorded every time). The buckets let go of go to ``dropped``, whose tensors
    the caller frees (by their own finalisers) once it no longer holds the pool's lock: a finaliser takes the
    runtime's lock, which must never wait on the pool's."""
    if nbytes > limit:
        return False
    pool = st.pool
    for key in list(pool):
        if _fits(st, nbytes, limit):
            break
        if key == keep:
            continue
        bucket = pool.pop(key)
        dropped.append(bucket)
        st.pool_bytes -= len(bucket) * key[1] * dt.as_dtype(key[0]).np.itemsize
        st.pool_count -= len(bucket)
    return _fits(st, nbytes, limit)


def _pool_limit(st: Any) -> float:
    """The bytes the pool of ``st``'s device may hold (worked out once per device, with the tensor count)."""
    info = st.device.info
    if not st.pool_count_limit:
        st.pool_count_limit = min(_POOL_TENSORS, info.get("max_memory_allocation_count", 1 << 32) // 4)
    limit = st.pool_limit
    if limit is None:
        limit = st.pool_limit = _POOL_SHARE * info.get("device_memory", 0)
    return float(limit)


def allocate(device: Any, size: int, dtype: dt.DType) -> Any:
    """A device tensor of ``size`` elements: a pooled one when available (it fitted when it was made)."""
    st = state(device)
    with st.lock:
        return take(st, size, dtype)


def take(st: Any, size: int, dtype: dt.DType) -> Any:
    """:func:`allocate` on the device of engine state ``st``, for a caller that holds ``st.lock`` (the
    runners hold it for the whole call)."""
    key = (dtype.name, size)
    bucket = st.pool.get(key)
    if bucket:
        st.pool.move_to_end(key)  # (the pool lets go of the sizes used least recently first: _evict)
    while bucket:
        st.pool_bytes -= size * dtype.np.itemsize
        st.pool_count -= 1
        _, tensor = heapq.heappop(bucket)  # the lowest id: see _POOL_PER_SIZE
        # A Buffer that died in a reference cycle pooled its tensor, but the garbage collector runs the
        # tensor's own finaliser too (same cycle): skip tensors destroyed after they were pooled.
        if not tensor._destroyed:  # (is_init(), without the call)
            return tensor
    device = st.device
    limit = device.info.get("max_storage_buffer_range", 1 << 32)
    if size * dtype.itemsize > limit or size >= 1 << 31:
        raise TooLargeError(f"an array of {size} {dtype.name} elements ({size * dtype.itemsize} bytes) does not fit "
                            f"one buffer on {device.name} (at most {limit} bytes and 2**31 elements); split it")
    return allocated(st, lambda: device.manager.tensor_empty(size, dtype.np))


def allocated(st: Any, make: Callable[[], Any]) -> Any:
    """``make()``, a new tensor of engine state ``st``'s device; out of memory, free what kdsl holds and try once
    more (as PyTorch's caching allocator does): the collector first returns the buffers of arrays that died in
    reference cycles, then the pool lets go of all. (Device buffers here, host staging buffers in staging.py.)"""
    try:
        return make()
    except VulkanError as exc:  # (OutOfMemoryError, or a VulkanError made elsewhere with its result)
        if exc.result not in OUT_OF_MEMORY:
            raise
    gc.collect()
    release(st)
    return make()



def release(st: Any) -> int:
    """Free the device memory of every tensor in the pool of engine state ``st``; the bytes freed. (Recorded
    batches that bound them can no longer replay: their Algorithms are rebound, with a new version, before a
    key naming other tensors can hit.)"""
    with st.lock:
        pooled = [tensor for bucket in st.pool.values() for _, tensor in bucket]
        freed = st.pool_bytes
        st.pool.clear()
        st.pool_bytes = st.pool_count = 0
    for tensor in pooled:  # an Algorithm may still hold the tensor: destroy() frees its memory now
        tensor.destroy()
    return int(freed)


def empty_cache(device: Any = None) -> int:
    """Free the memory of the tensors kdsl keeps for reuse on ``device`` (default: :func:`kdsl.device`) and
    return how many bytes that was; like PyTorch's ``torch.cuda.empty_cache()``. kdsl does this by itself when
    an allocation finds the device out of memory; call it to hand the memory to another library in the same
    process. Arrays alive keep their memory, and the next loop steps allocate again.

    >>> import kdsl as kd
    >>> kd.realize(kd.zeros(1000) + 1)
    >>> kd.empty_cache() >= 4000
    True
    >>> kd.empty_cache()
    0
    """
    return release(state(device if device is not None else default_device()))
