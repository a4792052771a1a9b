"""Memory objects: the shared base :class:`Memory` and :class:`Tensor` (a typed 1-D storage buffer).

Memory is made by the Manager (``mgr.tensor(...)``, ``mgr.tensor_t(...)``), never constructed directly.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> t = mgr.tensor_t(np.array([1, 2, 3], dtype=np.int32))
    >>> t.data(), t.size(), t.data_type(), t.memory_type()
    (array([1, 2, 3], dtype=int32), 3, <DataTypes.int: 1>, <MemoryTypes.device: 0>)
"""

from __future__ import annotations

import weakref

import numpy as np

from . import lifetime
from .buffer import DEVICE_LOCAL, HOST_CACHED, HOST_VISIBLE, STAGING_USAGE, STORAGE_USAGE, Buffer
from .lifetime import Destroyable
from .types import MemoryTypes, data_type_of
from .vk import ffi, lib, new


def host_address(buf: Buffer) -> int:
    """The host pointer of a mapped buffer (only host-visible buffers are asked)."""
    if buf.address is None:
        raise RuntimeError("this memory has no host-visible buffer")
    return buf.address


def _host_array(buf: Buffer, dtype: np.dtype, count: int) -> np.ndarray:
    """A NumPy view of a mapped buffer (internal use: the caller keeps ``buf`` alive)."""
    return np.frombuffer(ffi.buffer(ffi.cast("void*", buf.address), count * dtype.itemsize), dtype=dtype)


class Memory(Destroyable):
    """What tensors and images share: size, dtype, memory type, host views, and the destroy rules."""

    _kind = "memory"

    def __init__(self, ctx, count: int, dtype: np.dtype, memory_type: MemoryTypes):
        self._ctx = ctx
        self._count, self._dtype, self._memory_type = count, np.dtype(dtype), MemoryTypes(memory_type)
        self._destroyed = False
        self._views = 0  # live NumPy views of mapped memory: freeing waits for them
        self._buffers: list[Buffer] = []
        ctx.pin()

    # ----- Kompute's accessors -----
    def size(self) -> int:
        """Number of elements (0 once destroyed)."""
        return 0 if self._destroyed else self._count

    def len(self) -> int:
        return self.size()

    def __len__(self) -> int:
        return self.size()

    def memory_type(self) -> MemoryTypes:
        return self._memory_type

    tensor_type = memory_type  # Kompute 0.9.0 name

    def data_type(self) -> object:
        return data_type_of(self._dtype)

    def data_type_memory_size(self) -> int:
        return self._dtype.itemsize

    def memory_size(self) -> int:
        return self.size() * self._dtype.itemsize

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype of the elements (a kdsl addition)."""
        return self._dtype

    def is_init(self) -> bool:
        return not self._destroyed

    def check_alive(self, action: str = "use") -> None:
        self._ctx.check_usable()
        if self._destroyed:
            why = self._ctx.destroyed_why("it was freed by destroy()")
            raise lifetime.destroyed_error(f"cannot {action} a destroyed {self._kind}: {why}; create a new one with "
                                           "the Manager")

    # ----- host access -----
    def _host_address(self) -> int:
        raise NotImplementedError

    @property
    def staging(self) -> Buffer | None:
        """The host-visible copy the device copies to and from (None when there is none)."""
        return None

    def data(self) -> np.ndarray:
        """A writable NumPy view of the host-visible copy; its ``.base`` is this object.

        For ``device`` memory that is the staging copy (``OpSyncLocal`` refreshes it, ``OpSyncDevice`` uploads
        it); ``storage`` memory has no host copy and raises.
        """
        self.check_alive("read")
        if self._memory_type == MemoryTypes.storage:
            raise RuntimeError(f"this {self._kind} has memory type 'storage' (device only): it has no host data; "
                               "copy it into a host or device tensor with OpCopy to read it")
        view = np.asarray(self)
        with self._ctx.lock:
            self._views += 1
        weakref.finalize(view, self._view_gone)
        return view

    @property
    def __array_interface__(self) -> dict:
        self.check_alive("read")
        return {"shape": (self._count,), "typestr": self._dtype.str, "version": 3,
                "data": (self._host_address(), False)}

    def _view_gone(self) -> None:
        lock = self._ctx.lock
        if not lifetime.finalizer_acquire(lock):
            return
        try:
            self._views -= 1
            free = self._destroyed and self._views == 0
        finally:
            lock.release()
        if free:
            self._free()

    # ----- lifetime -----
    def destroy(self) -> None:
        """Free the Vulkan objects (idempotent, from any thread). Waits for any running sequence that uses this
        memory; in a forked child whose parent made it, only forgets it."""
        with self._ctx.lock:  # two threads (or one and the garbage collector) may destroy at once
            if self._destroyed:
                return
            self._destroyed = True
        if self._ctx.device is None or self._ctx.foreign:
            return
        self._ctx.wait_for_users(self)
        with self._ctx.lock:
            free = self._views == 0
        if free:
            self._free()

    def _free(self) -> None:
        if self._ctx.foreign:
            self._buffers = []
            return
        for buf in self._buffers:
            buf.free()
        self._buffers = []
        self._free_extra()
        self._ctx.unpin()

    def _free_extra(self) -> None:
        """Subclasses free their own non-buffer objects here."""

    def __repr__(self) -> str:
        state = "destroyed" if self._destroyed else f"size={self._count}"
        return f"<kp.{type(self).__name__} {state} dtype={self._dtype} memory_type={self._memory_type.name}>"


class Tensor(Memory):
    """A typed 1-D buffer on the device. Made by ``Manager.tensor``/``tensor_t``/``tensor_empty``."""

    _kind = "tensor"

    def __init__(self, ctx, data: np.ndarray | None, count: int, dtype: np.dtype, memory_type: MemoryTypes):
        super().__init__(ctx, count, dtype, memory_type)
        try:
            self._allocate(count * self._dtype.itemsize)
            if data is not None:
                self._upload(np.ascontiguousarray(data, dtype=self._dtype))
        except BaseException:
            self._destroyed = True
            self._free()
            raise

    def _allocate(self, nbytes: int) -> None:
        ctx, mt = self._ctx, self._memory_type
        limit = ctx.info["max_storage_buffer_range"]
        if nbytes > limit:
            raise RuntimeError(f"a tensor of {nbytes} bytes is larger than this device's storage-buffer limit "
                               f"of {limit} bytes (maxStorageBufferRange); split the data into several tensors")
        if mt in (MemoryTypes.device, MemoryTypes.storage):
            self._buffers.append(Buffer(ctx, nbytes, STORAGE_USAGE, DEVICE_LOCAL))
            if mt == MemoryTypes.device:
                self._buffers.append(Buffer(ctx, nbytes, STAGING_USAGE, HOST_VISIBLE, HOST_CACHED))
        elif mt == MemoryTypes.host:
            self._buffers.append(Buffer(ctx, nbytes, STORAGE_USAGE, HOST_VISIBLE, HOST_CACHED))
        else:
            if not ctx.has_memory(DEVICE_LOCAL | HOST_VISIBLE):
                raise RuntimeError("this device has no memory that is both device-local and host-visible, "
                                   "so memory type deviceAndHost is unavailable; use MemoryTypes.device")
            self._buffers.append(Buffer(ctx, nbytes, STORAGE_USAGE, DEVICE_LOCAL | HOST_VISIBLE))

    def _upload(self, data: np.ndarray) -> None:
        """Initial data: written in place when the memory is host-visible, else through a temporary buffer."""
        if self._buffers[-1].address is not None:
            np.asarray(self)[...] = data
            return
        temp = Buffer(self._ctx, data.nbytes, STAGING_USAGE, HOST_VISIBLE)
        try:
            _host_array(temp, data.dtype, data.size)[...] = data
            region = new("VkBufferCopy", size=data.nbytes)
            self._ctx.one_shot(lambda cmd: lib.vkCmdCopyBuffer(cmd, temp.handle, self.primary.handle, 1, region))
        finally:
            temp.free()

    @property
    def primary(self) -> Buffer:
        """The buffer shaders bind."""
        return self._buffers[0]

    @property
    def staging(self) -> Buffer | None:
        """The host-visible copy of ``device`` memory (None for other memory types)."""
        return self._buffers[1] if len(self._buffers) > 1 else None

    def _host_address(self) -> int:
        return host_address(self._buffers[-1])

    @property
    def nbytes(self) -> int:
        return self._count * self._dtype.itemsize
