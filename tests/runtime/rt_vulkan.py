"""A caller-owned Vulkan instance, device and queue, made with the ``vulkan`` package (for BYOV tests).

Every nested struct is bound to a local that outlives the call reading it (VULKAN_NOTES.md, trap 1).

Example:
    >>> own = OwnedDevice()
    >>> own.alive()
    True
    >>> own.destroy()
"""

from __future__ import annotations

import vulkan as vk


class OwnedDevice:
    """Instance + first physical device + a device with one queue of its first compute family.

    ``float64=True`` enables ``shaderFloat64`` when the device has it (to check BYOV feature passing).
    """

    def __init__(self, float64: bool = False):
        app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO, pApplicationName="byov",
                                   apiVersion=vk.VK_MAKE_VERSION(1, 2, 0))
        info = vk.VkInstanceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, pApplicationInfo=app)
        self.instance = vk.vkCreateInstance(info, None)
        self.physical = vk.vkEnumeratePhysicalDevices(self.instance)[0]
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(self.physical)
        self.family = next(i for i, f in enumerate(families) if f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT)
        priorities = [1.0]
        queue_info = vk.VkDeviceQueueCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                                queueFamilyIndex=self.family, queueCount=1,
                                                pQueuePriorities=priorities)
        supported = vk.vkGetPhysicalDeviceFeatures(self.physical)
        self.float64 = bool(float64 and supported.shaderFloat64)
        features = vk.VkPhysicalDeviceFeatures(shaderFloat64=self.float64)
        device_info = vk.VkDeviceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                            pQueueCreateInfos=[queue_info], pEnabledFeatures=features)
        self.device = vk.vkCreateDevice(self.physical, device_info, None)
        self.queue = vk.vkGetDeviceQueue(self.device, self.family, 0)

    def alive(self) -> bool:
        """True if the device still works: wait idle, create and destroy a fence."""
        if vk.lib.vkDeviceWaitIdle(self.device) != vk.VK_SUCCESS:
            return False
        info = vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO)
        fence = vk.vkCreateFence(self.device, info, None)
        vk.vkDestroyFence(self.device, fence, None)
        return len(vk.vkEnumeratePhysicalDevices(self.instance)) > 0

    def destroy(self) -> None:
        vk.vkDestroyDevice(self.device, None)
        vk.vkDestroyInstance(self.instance, None)
