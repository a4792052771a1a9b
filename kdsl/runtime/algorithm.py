"""Algorithm: a compute pipeline (SPIR-V + bindings + specialization and push constants + workgroup count).

Binding ``i`` of descriptor set 0 is ``mem_objects[i]``: a storage buffer for a Tensor, a storage image for an
Image. Constants given as Python lists are float32 (Kompute's rule); NumPy arrays keep their dtype.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> x = mgr.tensor_t(np.array([1, 2, 3], dtype=np.float32))
    >>> spirv = kp.compile_source('''#version 450
    ... layout(local_size_x = 1) in;
    ... layout(set = 0, binding = 0) buffer B { float v[]; };
    ... layout(push_constant) uniform P { float k; };
    ... void main() { v[gl_GlobalInvocationID.x] *= k; }''')
    >>> algo = mgr.algorithm([x], spirv, push_consts=[10.0])
    >>> _ = mgr.sequence().record(kp.OpSyncDevice([x])).record(kp.OpAlgoDispatch(algo)).record(
    ...     kp.OpSyncLocal([x])).eval()
    >>> x.data()
    array([10., 20., 30.], dtype=float32)
"""

from __future__ import annotations

import threading

import numpy as np

from . import interrupts, lifetime
from .image import Image
from .lifetime import Destroyable
from .memory import Memory, Tensor
from .spirv import check_interface, check_limits, check_spec_constants, check_spirv, spirv_bytes
from .vk import WHOLE_SIZE, check, destroy, ffi, lib, new, track, vulkan

_CONST_DTYPES = {np.dtype(t) for t in (np.float32, np.int32, np.uint32, np.float64, np.int64, np.uint64)}


def constants(values, what: str) -> np.ndarray:
    """Spec or push constants as a typed 1-D array: lists become float32, NumPy arrays keep their dtype."""
    if values is None:
        return np.zeros(0, np.float32)
    if isinstance(values, np.ndarray):
        arr = np.ascontiguousarray(values).reshape(-1)
    elif isinstance(values, (list, tuple)):
        try:
            arr = np.asarray(values, dtype=np.float32).reshape(-1)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{what} must be numbers; got {values!r}") from exc
    else:
        raise TypeError(f"{what} must be a list of numbers or a NumPy array, not {type(values).__name__}")
    if arr.size and arr.dtype not in _CONST_DTYPES and what == "spec_consts":
        raise TypeError(f"spec_consts of dtype {arr.dtype} are not supported; use float32, int32, uint32 or float64")
    return arr


class Algorithm(Destroyable):
    """A compute pipeline and its bindings. Made by ``Manager.algorithm``."""

    def __init__(self, ctx, mem_objects, spirv, workgroup=None, spec_consts=None, push_consts=None):
        self._ctx = ctx
        self._destroyed = True
        # Any thread may record a dispatch of a shared algorithm, rebuild it or destroy it: one at a time.
        self._lock = threading.RLock()
        ctx.pin()
        self._pinned = True
        try:
            self.rebuild(mem_objects, spirv, workgroup, spec_consts, push_consts)
        except BaseException:
            self.destroy()
            raise

    # ----- building -----
    def rebuild(self, mem_objects, spirv, workgroup=None, spec_consts=None, push_consts=None) -> None:
        """Replace everything: bindings, shader, workgroup and constants (Kompute's ``rebuild``).

        Every device limit the shader can exceed is checked here, before anything is recorded.
        """
        self._ctx.check_usable()
        mems = _check_mem_objects(mem_objects, self._ctx)
        code = spirv_bytes(spirv)
        check_spirv(code)
        spec = constants(spec_consts, "spec_consts")
        push = constants(push_consts, "push_consts")
        limit = self._ctx.info["max_push_constants_size"]
        if push.nbytes > limit:
            raise RuntimeError(f"push constants of {push.nbytes} bytes exceed this device's maxPushConstantsSize "
                               f"of {limit} bytes; pass large parameters in a tensor")
        check_interface(code, [isinstance(m, Image) for m in mems], push.nbytes,
                        [None if isinstance(m, Image) else m.dtype for m in mems])
        check_spec_constants(code, spec)
        check_limits(code, spec, self._ctx.info)
        _check_binding_counts(mems, self._ctx.info)
        group = self._workgroup(workgroup, mems)
        with self._lock:
            self._free_vulkan()
            self._mems, self._spirv, self._spec, self._push, self._group = mems, code, spec, push, group
            self._destroyed = False
            self._build()

    def _workgroup(self, workgroup, mems) -> tuple[int, int, int]:
        wg = list(workgroup) if workgroup is not None else []
        if len(wg) > 3 or not all(isinstance(v, (int, np.integer)) and v >= 0 for v in wg):
            raise RuntimeError(f"workgroup must be up to 3 non-negative integers (x, y, z), got {workgroup!r}")
        wg = [int(v) for v in wg] + [0] * (3 - len(wg))
        if wg[0] == 0:
            if not mems:
                raise RuntimeError("workgroup x is 0 and there is no memory object to take the size from")
            wg[0] = mems[0].size()
        wg = [wg[0], wg[1] or 1, wg[2] or 1]
        limits = self._ctx.info["max_work_group_count"]
        for axis, (v, lim) in enumerate(zip(wg, limits, strict=True)):
            if v > lim:
                raise RuntimeError(f"workgroup {tuple(wg)} is too large: axis {'xyz'[axis]} allows at most {lim} "
                                   "groups on this device; use a bigger local size or a loop in the shader")
        return tuple(wg)

    @interrupts.deferring  # (rebuild() runs it too, outside Manager.algorithm)
    def _build(self) -> None:
        dev = self._ctx.device
        kinds = [vulkan.VK_DESCRIPTOR_TYPE_STORAGE_IMAGE if isinstance(m, Image)
                 else vulkan.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER for m in self._mems]
        self._kinds = kinds
        self._key, self._pipeline = self._ctx.pipelines.acquire(self._spirv, kinds, self._push.nbytes, self._spec)
        self._layout = self._pipeline.layout
        if not kinds:
            return
        sizes = ffi.new("VkDescriptorPoolSize[]", 2)
        for i, kind in enumerate((vulkan.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, vulkan.VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)):
            sizes[i].type, sizes[i].descriptorCount = kind, max(kinds.count(kind), 1)
        pool_info = new("VkDescriptorPoolCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                        maxSets=1, poolSizeCount=2, pPoolSizes=sizes)
        out = ffi.new("VkDescriptorPool*")
        check(lib.vkCreateDescriptorPool(dev, pool_info, ffi.NULL, out), "vkCreateDescriptorPool")
        self._pool = out[0]
        track("VkDescriptorPool", 1)
        layouts = ffi.new("VkDescriptorSetLayout[1]", [self._pipeline.set_layout])
        alloc = new("VkDescriptorSetAllocateInfo", sType=vulkan.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                    descriptorPool=self._pool, descriptorSetCount=1, pSetLayouts=layouts)
        self._set = ffi.new("VkDescriptorSet[1]")
        check(lib.vkAllocateDescriptorSets(dev, alloc, self._set), "vkAllocateDescriptorSets")
        self._write_descriptors(self._mems)

    def _write_descriptors(self, mems) -> None:
        n = len(mems)
        writes = ffi.new("VkWriteDescriptorSet[]", n)
        infos = []
        for i, (mem, kind) in enumerate(zip(mems, self._kinds, strict=True)):
            w = writes[i]
            w.sType, w.dstSet, w.dstBinding = vulkan.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, self._set[0], i
            w.descriptorCount, w.descriptorType = 1, kind
            if kind == vulkan.VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
                info = new("VkDescriptorImageInfo", imageView=mem.image_view,
                           imageLayout=vulkan.VK_IMAGE_LAYOUT_GENERAL)
                w.pImageInfo = info
            else:
                info = new("VkDescriptorBufferInfo", buffer=mem.primary.handle, offset=0, range=WHOLE_SIZE)
                w.pBufferInfo = info
            infos.append(info)
        lib.vkUpdateDescriptorSets(self._ctx.device, n, writes, 0, ffi.NULL)

    # ----- use -----
    def update_bindings(self, mem_objects) -> None:
        """Bind new memory objects of the same kinds without rebuilding the pipeline (a kdsl addition).

        Cheap (one vkUpdateDescriptorSets): reuse a compiled kernel with new buffers. Call only while no
        sequence that dispatches this algorithm is running.
        """
        self._check_alive()
        mems = _check_mem_objects(mem_objects, self._ctx)
        kinds = [isinstance(m, Image) for m in mems]
        if kinds != [isinstance(m, Image) for m in self._mems]:
            raise RuntimeError(f"update_bindings needs {len(self._mems)} memory objects of the same kinds "
                               f"(tensor/image) as the algorithm was built with; got {len(mems)}")
        check_interface(self._spirv, kinds, self._push.nbytes,
                        [None if k else m.dtype for m, k in zip(mems, kinds, strict=True)])
        with self._lock:
            self._check_alive()
            self._write_descriptors(mems)
            self._mems = mems

    def record_dispatch(self, cmd, push: np.ndarray | None = None) -> None:
        """Bind pipeline and descriptors, push constants, dispatch (called by OpAlgoDispatch).

        ``push`` (None: the algorithm's own) is recorded as given; under the lock so that a rebuild in another
        thread cannot swap the pipeline half-way.
        """
        with self._lock:
            self._check_alive()
            self._record_dispatch(cmd, self._push if push is None else push)

    def _record_dispatch(self, cmd, push: np.ndarray) -> None:
        lib.vkCmdBindPipeline(cmd, vulkan.VK_PIPELINE_BIND_POINT_COMPUTE, self._pipeline.handle)
        if self._mems:
            lib.vkCmdBindDescriptorSets(cmd, vulkan.VK_PIPELINE_BIND_POINT_COMPUTE, self._layout, 0, 1, self._set,
                                        0, ffi.NULL)
        if push.nbytes:
            lib.vkCmdPushConstants(cmd, self._layout, vulkan.VK_SHADER_STAGE_COMPUTE_BIT, 0, push.nbytes,
                                   ffi.from_buffer(push))
        lib.vkCmdDispatch(cmd, *self._group)

    def _check_alive(self) -> None:
        self._ctx.check_usable()
        if self._destroyed:
            why = self._ctx.destroyed_why("")
            raise lifetime.destroyed_error(f"this algorithm was destroyed{': ' + why if why else ''}; create a new "
                                           "one with Manager.algorithm")

    # ----- Kompute's accessors -----
    def get_mem_objects(self) -> list[Memory]:
        return list(self._mems) if not self._destroyed else []

    get_tensors = get_mem_objects  # 0.9.0 name

    def is_init(self) -> bool:
        return not self._destroyed

    def get_workgroup(self) -> tuple[int, int, int]:
        return self._group

    def set_workgroup(self, workgroup, min_size: int = 0) -> None:
        self._group = self._workgroup(workgroup, self._mems)

    def get_push_constants(self) -> np.ndarray:
        return self._push.copy()

    def set_push_constants(self, values) -> None:
        push = self._checked_push(values)
        self._push = push

    def _checked_push(self, values) -> np.ndarray:
        push = constants(values, "push_consts")
        if push.nbytes != self._push.nbytes:
            raise RuntimeError(f"push constant total memory size provided is {push.nbytes} but expected "
                               f"{self._push.nbytes} bytes")
        return push

    def get_specialization_constants(self) -> np.ndarray:
        return self._spec.copy()

    def get_spirv(self) -> bytes:
        return self._spirv

    # ----- lifetime -----
    def destroy(self) -> None:
        """Free the pipeline and its objects (idempotent, from any thread; a no-op for the objects of a parent
        process after fork)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            was_alive = not self._destroyed
            self._destroyed = True
        if self._ctx.device is not None and was_alive:
            self._ctx.wait_for_users(self)
        with lock:
            self._free_vulkan()
            if self._pinned:
                self._pinned = False
                self._ctx.unpin()

    def renew_locks(self) -> None:
        """In a forked child (called by the Manager's fork hook): a parent thread recording a dispatch at fork
        time would leave the lock held, and the child's destroy would wait for it forever."""
        self._lock = threading.RLock()

    def _free_vulkan(self) -> None:
        if self._ctx.foreign:
            self._pool = self._key = self._pipeline = None
            return
        if getattr(self, "_pool", None) is not None:
            destroy(lib.vkDestroyDescriptorPool, self._ctx.device, self._pool, "VkDescriptorPool")
        self._pool = None
        if getattr(self, "_key", None) is not None:
            self._ctx.pipelines.release(self._key)
        self._key = self._pipeline = None

    def __repr__(self) -> str:
        if self._destroyed:
            return "<kp.Algorithm destroyed>"
        return f"<kp.Algorithm bindings={len(self._mems)} workgroup={self._group}>"


def _check_binding_counts(mems: list, info: dict) -> None:
    """More descriptors than the device binds in one stage is invalid (lavapipe crashed past 32 buffers)."""
    images = sum(isinstance(m, Image) for m in mems)
    for count, key, name in ((len(mems) - images, "max_per_stage_storage_buffers",
                              "maxPerStageDescriptorStorageBuffers"),
                             (len(mems) - images, "max_descriptor_set_storage_buffers",
                              "maxDescriptorSetStorageBuffers"),
                             (images, "max_per_stage_storage_images", "maxPerStageDescriptorStorageImages"),
                             (len(mems), "max_per_stage_resources", "maxPerStageResources")):
        if count > info[key]:
            raise RuntimeError(f"the algorithm binds {count} memory objects of this kind but this device's {name} "
                               f"is {info[key]}; split the work into several algorithms or pack the data into "
                               "fewer tensors")


def _check_mem_objects(mem_objects, ctx) -> list:
    if not isinstance(mem_objects, (list, tuple)):
        raise TypeError(f"memory objects must be a list of tensors/images, not {type(mem_objects).__name__}")
    for m in mem_objects:
        if not isinstance(m, (Tensor, Image)):
            raise TypeError(f"memory objects must be kp tensors or images, got {type(m).__name__}")
        m.check_alive("bind")
        if m._ctx is not ctx:
            raise RuntimeError(f"{m!r} belongs to another Manager; memory can only be used on the device "
                               "of the Manager that made it")
    return list(mem_objects)
