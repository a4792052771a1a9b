"""One VkBuffer with its own VkDeviceMemory, mapped when host-visible. Internal to Tensor and Image."""

from __future__ import annotations

from .vk import WHOLE_SIZE, check, destroy, ffi, lib, new, track, vulkan

STORAGE_USAGE = (vulkan.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vulkan.VK_BUFFER_USAGE_TRANSFER_SRC_BIT
                 | vulkan.VK_BUFFER_USAGE_TRANSFER_DST_BIT)
STAGING_USAGE = vulkan.VK_BUFFER_USAGE_TRANSFER_SRC_BIT | vulkan.VK_BUFFER_USAGE_TRANSFER_DST_BIT
DEVICE_LOCAL = vulkan.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
HOST_VISIBLE = vulkan.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vulkan.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
HOST_CACHED = vulkan.VK_MEMORY_PROPERTY_HOST_CACHED_BIT


def allocate_memory(ctx, requirements, required: int, preferred: int = 0):
    """vkAllocateMemory for ``requirements``; a too-large request becomes a clear RuntimeError."""
    index = ctx.memory_type(requirements.memoryTypeBits, required, preferred)
    heap = ctx.heap_sizes[ctx.memory_heaps[index]]
    if requirements.size > heap:
        raise RuntimeError(f"cannot allocate {requirements.size} bytes: the device's memory heap holds "
                           f"{heap} bytes; use smaller tensors")
    info = new("VkMemoryAllocateInfo", sType=vulkan.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
               allocationSize=requirements.size, memoryTypeIndex=index)
    out = ffi.new("VkDeviceMemory*")
    check(lib.vkAllocateMemory(ctx.device, info, ffi.NULL, out), f"allocating {requirements.size} bytes")
    track("VkDeviceMemory", 1)
    return out[0], ctx.memory_types[index]


def share_between_families(ctx, info):
    """Let every queue family of the Manager use the resource (no ownership transfers between sequences on
    queues of different families). Returns the index array, which must outlive the create call."""
    families = sorted(set(ctx.queue_families))
    if len(families) < 2:
        info.sharingMode = vulkan.VK_SHARING_MODE_EXCLUSIVE
        return None
    array = ffi.new("uint32_t[]", families)
    info.sharingMode = vulkan.VK_SHARING_MODE_CONCURRENT
    info.queueFamilyIndexCount, info.pQueueFamilyIndices = len(families), array
    return array


class Buffer:
    """A buffer of ``nbytes`` bytes; ``address`` is the host pointer when the memory is host-visible."""

    def __init__(self, ctx, nbytes: int, usage: int, required: int, preferred: int = 0):
        self.ctx, self.nbytes = ctx, nbytes
        self.handle = self.memory = None
        self.address = None
        info = new("VkBufferCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=nbytes,
                   usage=usage)
        families = share_between_families(ctx, info)
        out = ffi.new("VkBuffer*")
        check(lib.vkCreateBuffer(ctx.device, info, ffi.NULL, out), "vkCreateBuffer")
        del families
        self.handle = out[0]
        track("VkBuffer", 1)
        try:
            req = ffi.new("VkMemoryRequirements*")
            lib.vkGetBufferMemoryRequirements(ctx.device, self.handle, req)
            self.memory, flags = allocate_memory(ctx, req, required, preferred)
            check(lib.vkBindBufferMemory(ctx.device, self.handle, self.memory, 0), "vkBindBufferMemory")
            if flags & vulkan.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT:
                ptr = ffi.new("void**")
                check(lib.vkMapMemory(ctx.device, self.memory, 0, WHOLE_SIZE, 0, ptr), "vkMapMemory")
                self.address = int(ffi.cast("uintptr_t", ptr[0]))
        except BaseException:
            self.free()
            raise

    def free(self) -> None:
        """Unmap, destroy and free; safe to call twice. A no-op in a forked child (the parent owns them)."""
        if self.ctx.foreign:
            self.handle = self.memory = self.address = None
            return
        device = self.ctx.device
        if self.handle is not None:
            destroy(lib.vkDestroyBuffer, device, self.handle, "VkBuffer")
            self.handle = None
        if self.memory is not None:
            if self.address is not None:
                lib.vkUnmapMemory(device, self.memory)
                self.address = None
            destroy(lib.vkFreeMemory, device, self.memory, "VkDeviceMemory")
            self.memory = None
