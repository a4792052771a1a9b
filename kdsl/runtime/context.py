"""The logical device every runtime object hangs off: VkDevice, its queues, memory types and enabled features.

A :class:`Context` is shared by a Manager and everything it made. Objects keep a strong reference to it, so the
VkDevice outlives them; it is destroyed when the Manager is destroyed *and* no object still pins it (a NumPy view
of mapped memory pins its memory, and so the device, until the view is collected: reading such a view can then
never touch freed memory).
"""

from __future__ import annotations

import os
import threading
import weakref

from . import instance as instances  # queue_families read through the module: tests replace it
from . import lifetime
from .instance import COOPMAT_EXTENSION, FeatureChain, Instance, coopmat_usable, device_extensions, device_info
from .pipeline import PipelineCache
from .vk import check, cstrings, ffi, lib, new, track, vulkan

# One thread at a time creates or destroys a VkInstance and VkDevice: Managers made and destroyed by three threads
# at once crashed the process (SIGSEGV) on the H200 machine's NVIDIA driver with the validation layer on, though
# Vulkan lets different objects be created and destroyed concurrently (2026-12-04; lavapipe never crashed). Rare
# operations, so the lock costs nothing measurable. Reentrant: a finaliser run by a collection inside a
# creation may destroy another Manager's device on the same thread.
_lifecycle_lock = threading.RLock()

_OPTIONAL_EXTENSIONS = ("VK_EXT_shader_atomic_float", "VK_KHR_shader_non_semantic_info", COOPMAT_EXTENSION)


class Context:
    """Owns (or borrows, for BYOV) an instance, a device and its queues.

    Threads: ``lock`` guards the pin count and closing; ``submit_lock`` makes "check that the recorded objects
    are alive, register the sequence as running, vkQueueSubmit" one step against ``wait_for_users`` (so an
    object destroyed by another thread is either refused before submission or waited for), and gives every
    VkQueue the external synchronisation Vulkan requires. ``foreign`` is set in a forked child (see
    :mod:`kdsl.runtime.lifetime`): the child then never touches this device.
    """

    def __init__(self, instance: Instance | None, physical, device, queues: list, families: list[int],
                 features: set[str], owned: bool, extensions: list[str], info: dict | None = None,
                 pipeline_cache_size: int | None = None):
        self.instance, self.physical, self.device = instance, physical, device
        self.queues, self.queue_families, self.owned = queues, families, owned
        self.info = info or device_info(physical)
        # Subgroup operations need no enabling: what the device reports is usable.
        features = set(features) | {f for f in self.info["features"] if f.startswith("subgroup_")}
        self.info["features"] = features
        self.info["enabled_extensions"] = extensions
        self.features = features
        self.spin_ns = _spin_ns(self.info["device_type"])
        props = ffi.new("VkPhysicalDeviceMemoryProperties*")
        lib.vkGetPhysicalDeviceMemoryProperties(physical, props)
        self.memory_types = [int(props.memoryTypes[i].propertyFlags) for i in range(props.memoryTypeCount)]
        self.memory_heaps = [int(props.memoryTypes[i].heapIndex) for i in range(props.memoryTypeCount)]
        self.heap_sizes = [int(props.memoryHeaps[i].size) for i in range(props.memoryHeapCount)]
        self.pipelines = PipelineCache(device, pipeline_cache_size)
        # Sequences submitted and not awaited, as id -> weakref (a dropped one frees itself; a dict of prebuilt
        # weakrefs is cheaper on the hot path than a WeakSet).
        self.running: dict[int, weakref.ref] = {}
        # Objects destroyed so far (counted under submit_lock): a sequence re-checks the objects it uses only
        # when this changed since its last submission (Sequence._submit_batch)
        self.destroyed = 0
        # Both re-entrant: the garbage collector can run a dead tensor's destroy (which takes them) on a thread
        # that already holds them, at any point of Python code inside their critical sections.
        self.lock = threading.RLock()
        self.submit_lock = threading.RLock()
        self.pins = 0
        self.closed = False
        self.foreign = False
        lifetime.register_context(self)

    def mark_foreign(self) -> None:
        """In a forked child: forget the parent's device without touching it (called by the fork hook)."""
        self.foreign = True
        self.lock, self.submit_lock = threading.RLock(), threading.RLock()
        self.running = {}
        self.pipelines.mark_foreign()

    def check_usable(self) -> None:
        """Raise the fork error in a child process that inherited this context."""
        if self.foreign:
            raise RuntimeError(lifetime.FORK_ERROR)

    # ----- construction -----
    @classmethod
    def create(cls, device_index: int, family_indices: list[int], desired_extensions: list[str],
               pipeline_cache_size: int | None = None) -> Context:
        lifetime.check_device_allowed()
        with _lifecycle_lock:
            instance = Instance()
            try:
                ctx = cls._create_on(instance, device_index, family_indices, desired_extensions)
            except BaseException:
                instance.destroy()
                raise
        ctx.pipelines.set_size(pipeline_cache_size)
        return ctx

    @classmethod
    def _create_on(cls, instance, device_index, family_indices, desired_extensions) -> Context:
        physicals = instance.physical_devices()
        if not physicals:
            raise RuntimeError("no Vulkan device found: install a driver (on Debian: apt-get install "
                               "mesa-vulkan-drivers for the CPU device lavapipe)")
        if not isinstance(device_index, int) or not 0 <= device_index < len(physicals):
            raise RuntimeError(f"device index {device_index} is out of range: this machine has "
                               f"{len(physicals)} Vulkan device(s) (see kp.list_devices())")
        physical = physicals[device_index]
        families = _choose_families(physical, family_indices)
        available = device_extensions(physical)
        extensions = _choose_extensions(available, desired_extensions)
        info = device_info(physical, instance.handle)
        chain = FeatureChain.query(physical, extensions)  # the structs of the extensions being enabled only
        chain.keep_compute_only(_robust(info["device_type"]))
        device = _create_device(physical, families, extensions, chain)
        queues = []
        seen: dict[int, int] = {}
        for fam in families:
            out = ffi.new("VkQueue*")
            lib.vkGetDeviceQueue(device, fam, seen.get(fam, 0), out)
            seen[fam] = seen.get(fam, 0) + 1
            queues.append(out[0])
        features = chain.names()
        if "VK_EXT_shader_atomic_float" not in extensions:
            features -= {"atomic_float32_add", "atomic_float64_add", "shared_atomic_float32_add"}
        return cls(instance, physical, device, queues, families, features, True, extensions, info)

    # ----- memory types -----
    def memory_type(self, type_bits: int, required: int, preferred: int = 0) -> int:
        """Index of a memory type allowed by ``type_bits`` with ``required`` flags (``preferred`` ones if any)."""
        candidates = [i for i, flags in enumerate(self.memory_types)
                      if type_bits & (1 << i) and flags & required == required]
        if not candidates:
            raise RuntimeError("this device has no memory type with the properties this memory type needs "
                               f"(flags {required:#x}); choose another memory_type, e.g. kp.MemoryTypes.device")
        best = [i for i in candidates if self.memory_types[i] & preferred == preferred]
        return (best or candidates)[0]

    def has_memory(self, required: int) -> bool:
        return any(flags & required == required for flags in self.memory_types)

    # ----- lifetime -----
    def pin(self) -> None:
        with self.lock:
            self.pins += 1

    def unpin(self) -> None:
        with self.lock:
            self.pins -= 1
            if self.closed and self.pins == 0:
                self._free()

    def destroyed_why(self, default: str) -> str:
        """Why an object of this context is destroyed, for its error message: ``default`` (its own destroy()), or
        its Manager's end, which users often do not see coming: a Manager that no variable holds any more is
        garbage-collected, and its destroy() frees every object it made (Kompute's rule)."""
        if not self.closed:
            return default
        return ("its Manager was destroyed, by Manager.destroy(), at interpreter exit, or by garbage collection once "
                "no variable referenced the Manager (keep a reference to it while its objects are used)")

    def close(self) -> None:
        """Destroy the device once nothing pins it any more (idempotent)."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            if self.pins == 0:
                self._free()

    def _free(self) -> None:
        if self.device is None or self.foreign:
            return
        lib.vkDeviceWaitIdle(self.device)
        self.pipelines.destroy()
        if not self.owned:
            self.device = None
            return
        with _lifecycle_lock:
            lib.vkDestroyDevice(self.device, ffi.NULL)
            track("VkDevice", -1)
            self.device = None
            if self.instance is not None:
                self.instance.destroy()

    def wait_for_users(self, obj) -> None:
        """Wait until no running sequence uses ``obj``, so it can be freed without pulling memory from the GPU.

        The caller marked ``obj`` destroyed first; the count and the snapshot are taken under ``submit_lock``, so
        a sequence submitted by another thread is either in it or sees the new count, finds ``obj`` destroyed
        and refuses to submit.
        """
        if self.foreign:
            return
        with self.submit_lock:
            self.destroyed += 1
            refs = list(self.running.values())
        for ref in refs:
            seq = ref()
            if seq is not None and seq.uses(obj):
                seq.wait_fence()

    def one_shot(self, record) -> None:
        """Record commands with ``record(command_buffer)`` on queue 0, submit and wait (set-up work only).

        Each call has its own command pool (a VkCommandPool must not be used by two threads at once).
        """
        self.check_usable()
        fence = ffi.new("VkFence[1]")
        pool_info = new("VkCommandPoolCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                        queueFamilyIndex=self.queue_families[0],
                        flags=vulkan.VK_COMMAND_POOL_CREATE_TRANSIENT_BIT)
        pool = ffi.new("VkCommandPool*")
        check(lib.vkCreateCommandPool(self.device, pool_info, ffi.NULL, pool), "vkCreateCommandPool")
        try:
            alloc = new("VkCommandBufferAllocateInfo",
                        sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, commandPool=pool[0],
                        level=vulkan.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1)
            cmd = ffi.new("VkCommandBuffer[1]")
            check(lib.vkAllocateCommandBuffers(self.device, alloc, cmd), "vkAllocateCommandBuffers")
            begin = new("VkCommandBufferBeginInfo", sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                        flags=vulkan.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)
            check(lib.vkBeginCommandBuffer(cmd[0], begin), "vkBeginCommandBuffer")
            record(cmd[0])
            check(lib.vkEndCommandBuffer(cmd[0]), "vkEndCommandBuffer")
            submit = new("VkSubmitInfo", sType=vulkan.VK_STRUCTURE_TYPE_SUBMIT_INFO, commandBufferCount=1,
                         pCommandBuffers=cmd)
            check(lib.vkCreateFence(self.device, new("VkFenceCreateInfo",
                                                     sType=vulkan.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO),
                                    ffi.NULL, fence), "vkCreateFence")
            with self.submit_lock:
                check(lib.vkQueueSubmit(self.queues[0], 1, submit, fence[0]), "vkQueueSubmit")
            # Wait on our own fence outside the lock: other threads keep submitting meanwhile.
            check(lib.vkWaitForFences(self.device, 1, fence, 1, 2**64 - 1), "vkWaitForFences")
        finally:
            if fence[0]:
                lib.vkDestroyFence(self.device, fence[0], ffi.NULL)
            lib.vkDestroyCommandPool(self.device, pool[0], ffi.NULL)


def _robust(device_type: str) -> bool:
    """Bounds-checked buffer access: ``KDSL_ROBUST=0/1``, else on for CPU drivers only.

    On lavapipe an out-of-bounds write in a user's kernel lands in the process's own memory and can crash it;
    a GPU driver reports such a fault as a lost device (a Python exception), and robustness can cost speed there.
    """
    value = os.environ.get("KDSL_ROBUST", "").strip()
    if value in ("0", "1"):
        return value == "1"
    return device_type == "cpu"


def _spin_ns(device_type: str) -> int:
    """How long a wait polls its fence before blocking: ``KDSL_SPIN_US`` (µs), else 2 ms on GPUs, 0 on CPUs."""
    value = os.environ.get("KDSL_SPIN_US")
    if value is not None and value.strip().isdigit():
        return int(value) * 1000
    return 0 if device_type == "cpu" else 2_000_000


def _choose_families(physical, family_indices: list[int]) -> list[int]:
    families = instances.queue_families(physical)
    if not family_indices:
        compute = [i for i, f in enumerate(families) if f["compute"]]
        if not compute:
            raise RuntimeError("this Vulkan device has no compute queue family")
        return [compute[0]]
    counts: dict[int, int] = {}
    for fam in family_indices:
        if not isinstance(fam, int) or not 0 <= fam < len(families):
            raise RuntimeError(f"queue family index {fam} does not exist: this device has {len(families)} "
                               "families (see kp.list_devices()[i]['queue_families'])")
        if not families[fam]["compute"]:
            raise RuntimeError(f"queue family {fam} has no compute capability; kdsl records compute-stage barriers "
                               "in every sequence, so list compute-capable families only (see "
                               "kp.list_devices()[i]['queue_families'])")
        counts[fam] = counts.get(fam, 0) + 1
        if counts[fam] > families[fam]["queue_count"]:
            raise RuntimeError(f"queue family {fam} has only {families[fam]['queue_count']} queue(s) but is listed "
                               f"{counts[fam]} times in family_queue_indices")
    return list(family_indices)


def _choose_extensions(available: set[str], desired: list[str]) -> list[str]:
    import warnings

    chosen = [e for e in _OPTIONAL_EXTENSIONS if e in available and (e != COOPMAT_EXTENSION or coopmat_usable())]
    for ext in desired:
        if ext in available:
            chosen.append(ext)
        else:
            warnings.warn(f"device extension {ext} is not supported by this device; skipped", RuntimeWarning,
                          stacklevel=4)
    return list(dict.fromkeys(chosen))


def _create_device(physical, families, extensions, chain):
    priorities = ffi.new("float[]", [1.0] * len(families))
    per_family: dict[int, int] = {}
    for fam in families:
        per_family[fam] = per_family.get(fam, 0) + 1
    infos = ffi.new("VkDeviceQueueCreateInfo[]", len(per_family))
    for i, (fam, count) in enumerate(per_family.items()):
        infos[i].sType = vulkan.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
        infos[i].queueFamilyIndex = fam
        infos[i].queueCount = count
        infos[i].pQueuePriorities = priorities
    ext_arr, keep = cstrings(extensions)
    info = new("VkDeviceCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pNext=chain.root,
               queueCreateInfoCount=len(per_family), pQueueCreateInfos=infos,
               enabledExtensionCount=len(extensions), ppEnabledExtensionNames=ext_arr)
    out = ffi.new("VkDevice*")
    check(lib.vkCreateDevice(physical, info, ffi.NULL, out), "vkCreateDevice")
    del keep
    track("VkDevice", 1)
    return out[0]


def _new_lifecycle_lock_in_child() -> None:
    """A parent thread may have held the lock at fork time: the child would wait for it forever."""
    global _lifecycle_lock
    _lifecycle_lock = threading.RLock()


lifetime.after_fork_in_child(_new_lifecycle_lock_in_child)
