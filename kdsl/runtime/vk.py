"""Thin helpers over the `vulkan` package's raw cffi layer (``vulkan.ffi`` / ``vulkan.lib``).

Every struct is made with :func:`new` and kept in a local (or an attribute) until the call that reads it returns:
the package's high-level wrappers free nested temporaries too early (docs/vulkan-notes.md, trap 1) and cost tens of
microseconds per call (trap 2), so kdsl uses them nowhere.

Example:
    >>> from kdsl.runtime import vk
    >>> info = vk.new("VkFenceCreateInfo", sType=vk.vulkan.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO)
    >>> int(info.flags)
    0
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import vulkan
from vulkan import ffi

from .layer_guard import GuardedLib
from .lifetime import after_fork_in_child

# vulkan.lib with every call guarded against instance and device creation while a layer is on (layer_guard)
lib: Any = GuardedLib(vulkan.lib, ffi)
WHOLE_SIZE = 2**64 - 1  # the package defines VK_WHOLE_SIZE as -1, which cffi rejects for a uint64

__all__ = ["WHOLE_SIZE", "ffi", "lib", "vulkan", "new", "check", "cstrings", "enumerate_", "VulkanError",
           "OutOfMemoryError", "OUT_OF_MEMORY", "live_objects"]

_RESULT_NAMES = {getattr(vulkan, n): n for n in dir(vulkan)
                 if n.startswith(("VK_ERROR_", "VK_TIMEOUT", "VK_NOT_READY", "VK_INCOMPLETE"))
                 and isinstance(getattr(vulkan, n), int)}


class VulkanError(RuntimeError):
    """A Vulkan call returned an error code. ``result`` is the VkResult number."""

    def __init__(self, what: str, result: int):
        self.what, self.result = what, result
        name = _RESULT_NAMES.get(result, f"VkResult {result}")
        hint = ""
        if result == vulkan.VK_ERROR_OUT_OF_DEVICE_MEMORY:
            hint = " (the device is out of memory: free tensors or allocate less)"
        elif result == vulkan.VK_ERROR_OUT_OF_HOST_MEMORY:
            hint = " (the host is out of memory)"
        elif result == vulkan.VK_ERROR_DEVICE_LOST:
            hint = " (the device was lost: a kernel may have faulted or run too long)"
        super().__init__(f"{what} failed with {name}{hint}")

    def __reduce__(self):  # picklable: multiprocessing sends a worker's exception to the parent
        return type(self), (self.what, self.result)


class OutOfMemoryError(VulkanError, MemoryError):
    """A Vulkan allocation failed for lack of device or host memory. A ``MemoryError`` too, as NumPy's "Unable
    to allocate" and CuPy's ``cupy.cuda.memory.OutOfMemoryError`` are, so ``except MemoryError`` catches it.

    Example:
        >>> issubclass(OutOfMemoryError, MemoryError) and issubclass(OutOfMemoryError, VulkanError)
        True
    """


OUT_OF_MEMORY = (vulkan.VK_ERROR_OUT_OF_DEVICE_MEMORY, vulkan.VK_ERROR_OUT_OF_HOST_MEMORY)


def check(result: int, what: str) -> int:
    """Raise :class:`VulkanError` (:class:`OutOfMemoryError` for a lack of memory) for a negative VkResult;
    return the result otherwise."""
    if result < 0:
        raise (OutOfMemoryError if result in OUT_OF_MEMORY else VulkanError)(what, result)
    return result


TYPES = ("VkApplicationInfo", "VkBool32", "VkBuffer", "VkBufferCopy", "VkBufferCreateInfo", "VkBufferImageCopy",
         "VkBufferMemoryBarrier", "VkCommandBuffer", "VkCommandBufferAllocateInfo", "VkCommandBufferBeginInfo",
         "VkCommandPool", "VkCommandPoolCreateInfo", "VkComputePipelineCreateInfo",
         "VkCooperativeMatrixPropertiesKHR", "VkDebugUtilsMessengerCreateInfoEXT", "VkDebugUtilsMessengerEXT",
         "VkDescriptorBufferInfo", "VkDescriptorImageInfo", "VkDescriptorPool", "VkDescriptorPoolCreateInfo",
         "VkDescriptorPoolSize", "VkDescriptorSet", "VkDescriptorSetAllocateInfo", "VkDescriptorSetLayout",
         "VkDescriptorSetLayoutBinding", "VkDescriptorSetLayoutCreateInfo", "VkDevice", "VkDeviceCreateInfo",
         "VkDeviceMemory", "VkDeviceQueueCreateInfo", "VkExtensionProperties", "VkFence", "VkFenceCreateInfo",
         "VkFormatProperties", "VkImage", "VkImageCopy", "VkImageCreateInfo", "VkImageMemoryBarrier",
         "VkImageSubresourceRange", "VkImageView", "VkImageViewCreateInfo", "VkInstance", "VkInstanceCreateInfo",
         "VkLayerProperties", "VkMemoryAllocateInfo", "VkMemoryBarrier", "VkMemoryRequirements", "VkPhysicalDevice",
         "VkPhysicalDeviceCooperativeMatrixFeaturesKHR", "VkPhysicalDeviceFeatures2",
         "VkPhysicalDeviceFloatControlsProperties", "VkPhysicalDeviceIDProperties",
         "VkPhysicalDeviceMemoryProperties", "VkPhysicalDeviceProperties2",
         "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", "VkPhysicalDeviceSubgroupProperties",
         "VkPhysicalDeviceVulkan11Features", "VkPhysicalDeviceVulkan12Features", "VkPipeline", "VkPipelineLayout",
         "VkPipelineLayoutCreateInfo", "VkPipelineShaderStageCreateInfo", "VkPushConstantRange", "VkQueryPool",
         "VkQueryPoolCreateInfo", "VkQueue", "VkQueueFamilyProperties", "VkResult", "VkShaderModule",
         "VkShaderModuleCreateInfo", "VkSpecializationInfo", "VkSpecializationMapEntry", "VkSubmitInfo",
         "VkWriteDescriptorSet")
"""The Vulkan types kdsl's runtime makes (tests/runtime/test_vk_types.py keeps the list whole). cffi works out a
struct's layout at its first use, and not re-entrantly: a garbage-collected object whose finaliser ran kdsl work
(a pipeline build) while the first use of a struct was being worked out failed with "array item of unknown size:
'struct VkComputePipelineCreateInfo'". So every layout is worked out here, at import, before any finaliser can
run kdsl code."""
for _name in TYPES:
    ffi.sizeof(_name)


def new(ctype: str, **fields):
    """``ffi.new(ctype + '*')`` with fields set. Keep the result alive while Vulkan reads it."""
    obj = ffi.new(ctype + "*")
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def cstrings(names):
    """A ``const char* const*`` array for a list of str, plus the list of buffers that keep it valid."""
    keep = [ffi.new("char[]", n.encode()) for n in names]
    arr = ffi.new("const char*[]", keep) if keep else ffi.NULL
    return arr, keep


def enumerate_(fn, ctype: str, *args) -> list:
    """Call a Vulkan ``vkEnumerate*``/``vkGet*`` two-step function and return the items as a list."""
    count = ffi.new("uint32_t*")
    res = fn(*args, count, ffi.NULL)
    if isinstance(res, int):
        check(res, fn.__name__ if hasattr(fn, "__name__") else "enumerate")
    items = ffi.new(f"{ctype}[]", count[0])
    res = fn(*args, count, items)
    if isinstance(res, int):
        check(res, "enumerate")
    return [items[i] for i in range(count[0])]


def cstr(chars) -> str:
    """A Python str from a fixed-size ``char[]`` field."""
    return ffi.string(chars).decode(errors="replace")


# Live Vulkan objects created by kdsl, by kind. Tests use it to prove that nothing leaks and nothing is freed twice.
_live: Counter = Counter()
_live_lock = threading.RLock()  # re-entrant: a garbage-collected object's destroy may run inside track()


def track(kind: str, delta: int) -> None:
    with _live_lock:
        _live[kind] += delta
        if _live[kind] < 0:  # a double free would show here before it crashed the driver
            raise AssertionError(f"kdsl freed more {kind} objects than it created")


def destroy(fn: Any, device: Any, handle: Any, kind: str) -> None:
    """Destroy (or free) ``handle`` with ``fn`` (a ``vkDestroy*`` or ``vkFreeMemory``) and count one ``kind`` fewer
    live (see :func:`track`)."""
    fn(device, handle, ffi.NULL)
    track(kind, -1)


def _new_lock_in_child() -> None:
    global _live_lock
    _live_lock = threading.RLock()


after_fork_in_child(_new_lock_in_child)


def live_objects() -> dict[str, int]:
    """The number of live Vulkan objects kdsl created, by kind (``{"VkBuffer": 3, ...}``); zero kinds omitted.

    Example:
        >>> import kdsl.runtime as rt
        >>> before = rt.live_objects()
        >>> isinstance(before, dict)
        True
    """
    with _live_lock:
        return {k: v for k, v in _live.items() if v}
