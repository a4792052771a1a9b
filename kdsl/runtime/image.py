"""Image: a 2-D storage image (1, 2 or 4 channels) bound to shaders as ``image2D``/``iimage2D``/``uimage2D``.

Images use optimal tiling (the only tiling every driver supports for storage images), which the host cannot
address, so every non-``storage`` image has a host-visible staging buffer: ``data()`` is that buffer as a flat
array of ``width * height * channels`` elements, ``OpSyncDevice`` uploads it and ``OpSyncLocal`` downloads into it,
whatever the memory type (kdsl's choice; Kompute maps linear-tiled memory for ``host`` images).

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> img = mgr.image(np.arange(8, dtype=np.float32), 2, 2, 2)
    >>> img.width(), img.height(), img.get_num_channels(), img.size()
    (2, 2, 2, 8)
"""

from __future__ import annotations

import numpy as np

from .buffer import (
    DEVICE_LOCAL,
    HOST_CACHED,
    HOST_VISIBLE,
    STAGING_USAGE,
    Buffer,
    allocate_memory,
    share_between_families,
)
from .memory import Memory, host_address
from .types import MemoryTypes
from .vk import check, destroy, ffi, lib, new, track, vulkan

_SUFFIX = {np.dtype(np.float32): ("32", "SFLOAT", "image2D"), np.dtype(np.int32): ("32", "SINT", "iimage2D"),
           np.dtype(np.uint32): ("32", "UINT", "uimage2D"), np.dtype(np.int16): ("16", "SINT", "iimage2D"),
           np.dtype(np.uint16): ("16", "UINT", "uimage2D"), np.dtype(np.int8): ("8", "SINT", "iimage2D"),
           np.dtype(np.uint8): ("8", "UINT", "uimage2D")}
_CHANNELS = {1: "R{b}", 2: "R{b}G{b}", 4: "R{b}G{b}B{b}A{b}"}


def image_format(dtype: np.dtype, channels: int) -> int:
    """The VkFormat for ``channels`` channels of ``dtype``; a clear error for anything else."""
    dt = np.dtype(dtype)
    if dt not in _SUFFIX:
        raise RuntimeError(f"images cannot hold dtype {dt}; use one of "
                           f"{', '.join(str(d) for d in _SUFFIX)}")
    if channels not in _CHANNELS:
        raise RuntimeError(f"images have 1, 2 or 4 channels, not {channels}")
    bits, kind, _ = _SUFFIX[dt]
    return getattr(vulkan, f"VK_FORMAT_{_CHANNELS[channels].format(b=bits)}_{kind}")


class Image(Memory):
    """A 2-D storage image made by ``Manager.image``/``image_t``."""

    _kind = "image"

    def __init__(self, ctx, data: np.ndarray | None, width: int, height: int, channels: int,
                 dtype: np.dtype, memory_type: MemoryTypes):
        fmt = image_format(dtype, channels)
        self._width, self._height, self._channels = width, height, channels
        super().__init__(ctx, width * height * channels, dtype, memory_type)
        self._image = self._image_memory = self._view = None
        try:
            self._create_image(fmt)
            staging = Buffer(ctx, self._count * self._dtype.itemsize, STAGING_USAGE, HOST_VISIBLE, HOST_CACHED)
            self._buffers.append(staging)
            if data is not None:
                np.asarray(self)[...] = data
                ctx.one_shot(lambda cmd: lib.vkCmdCopyBufferToImage(
                    cmd, staging.handle, self._image, vulkan.VK_IMAGE_LAYOUT_GENERAL, 1, self.copy_region()))
            if memory_type == MemoryTypes.storage:  # device only: the staging buffer served the upload alone
                self._buffers.remove(staging)
                staging.free()
        except BaseException:
            self._destroyed = True
            self._free()
            raise

    def _create_image(self, fmt: int) -> None:
        ctx = self._ctx
        props = ffi.new("VkFormatProperties*")
        lib.vkGetPhysicalDeviceFormatProperties(ctx.physical, fmt, props)
        if not props.optimalTilingFeatures & vulkan.VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT:
            raise RuntimeError(f"this device cannot use {self._channels}-channel {self._dtype} storage images; "
                               "try 1 or 4 channels or float32")
        limit = ctx.info["max_image_dimension_2d"]
        if not (0 < self._width <= limit and 0 < self._height <= limit):
            raise RuntimeError(f"image size {self._width}x{self._height} is outside this device's 1..{limit}")
        info = new("VkImageCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                   imageType=vulkan.VK_IMAGE_TYPE_2D, format=fmt, mipLevels=1, arrayLayers=1,
                   samples=vulkan.VK_SAMPLE_COUNT_1_BIT, tiling=vulkan.VK_IMAGE_TILING_OPTIMAL,
                   usage=(vulkan.VK_IMAGE_USAGE_STORAGE_BIT | vulkan.VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                          | vulkan.VK_IMAGE_USAGE_TRANSFER_DST_BIT),
                   initialLayout=vulkan.VK_IMAGE_LAYOUT_UNDEFINED)
        families = share_between_families(ctx, info)
        info.extent.width, info.extent.height, info.extent.depth = self._width, self._height, 1
        out = ffi.new("VkImage*")
        check(lib.vkCreateImage(ctx.device, info, ffi.NULL, out), "vkCreateImage")
        del families
        self._image = out[0]
        track("VkImage", 1)
        req = ffi.new("VkMemoryRequirements*")
        lib.vkGetImageMemoryRequirements(ctx.device, self._image, req)
        self._image_memory, _ = allocate_memory(ctx, req, DEVICE_LOCAL)
        check(lib.vkBindImageMemory(ctx.device, self._image, self._image_memory, 0), "vkBindImageMemory")
        view_info = new("VkImageViewCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                        image=self._image, viewType=vulkan.VK_IMAGE_VIEW_TYPE_2D, format=fmt)
        view_info.subresourceRange = self.subresource_range()[0]
        view = ffi.new("VkImageView*")
        check(lib.vkCreateImageView(ctx.device, view_info, ffi.NULL, view), "vkCreateImageView")
        self._view = view[0]
        track("VkImageView", 1)
        ctx.one_shot(self._to_general)

    def subresource_range(self):
        rng = ffi.new("VkImageSubresourceRange*")
        rng.aspectMask, rng.levelCount, rng.layerCount = vulkan.VK_IMAGE_ASPECT_COLOR_BIT, 1, 1
        return rng

    def _to_general(self, cmd) -> None:
        """Images live in the GENERAL layout from birth: shaders and copies all use it."""
        barrier = new("VkImageMemoryBarrier", sType=vulkan.VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                      oldLayout=vulkan.VK_IMAGE_LAYOUT_UNDEFINED, newLayout=vulkan.VK_IMAGE_LAYOUT_GENERAL,
                      srcQueueFamilyIndex=vulkan.VK_QUEUE_FAMILY_IGNORED,
                      dstQueueFamilyIndex=vulkan.VK_QUEUE_FAMILY_IGNORED, image=self._image,
                      dstAccessMask=vulkan.VK_ACCESS_SHADER_READ_BIT | vulkan.VK_ACCESS_TRANSFER_WRITE_BIT)
        barrier.subresourceRange = self.subresource_range()[0]
        lib.vkCmdPipelineBarrier(cmd, vulkan.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                 vulkan.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, ffi.NULL, 0, ffi.NULL, 1, barrier)

    def copy_region(self):
        """A VkBufferImageCopy covering the whole image (staging buffer <-> image)."""
        region = ffi.new("VkBufferImageCopy*")
        region.imageSubresource.aspectMask = vulkan.VK_IMAGE_ASPECT_COLOR_BIT
        region.imageSubresource.layerCount = 1
        region.imageExtent.width, region.imageExtent.height, region.imageExtent.depth = \
            self._width, self._height, 1
        return region

    def _free_extra(self) -> None:
        device = self._ctx.device
        if self._view is not None:
            destroy(lib.vkDestroyImageView, device, self._view, "VkImageView")
            self._view = None
        if self._image is not None:
            destroy(lib.vkDestroyImage, device, self._image, "VkImage")
            self._image = None
        if self._image_memory is not None:
            destroy(lib.vkFreeMemory, device, self._image_memory, "VkDeviceMemory")
            self._image_memory = None

    # ----- Kompute's accessors -----
    def width(self) -> int:
        return self._width

    def height(self) -> int:
        return self._height

    def get_num_channels(self) -> int:
        return self._channels

    @property
    def staging(self) -> Buffer | None:
        return self._buffers[0] if self._buffers else None

    @property
    def image_view(self):
        return self._view

    @property
    def image(self):
        return self._image

    def _host_address(self) -> int:
        return host_address(self._buffers[0])
