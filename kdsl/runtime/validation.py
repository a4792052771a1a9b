"""The Khronos validation layer and debug layers, switched on by environment variables.

* ``KDSL_VALIDATION=1`` enables ``VK_LAYER_KHRONOS_validation`` on every instance kdsl creates, and a
  debug-utils messenger that collects the layer's error messages here (instead of letting them scroll past on
  stdout). :func:`errors` returns them; the test suite fails on any.
* ``KDSL_DEBUG_LAYERS=LAYER_A,LAYER_B`` adds more layers by name (Kompute's debug-layer switch).

Example:
    >>> from kdsl.runtime import validation
    >>> validation.errors() == [] or isinstance(validation.errors()[0], str)
    True
"""

from __future__ import annotations

import os
import warnings

from .layer_guard import guarded
from .vk import ffi, lib, vulkan

VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation"
_errors: list[str] = []
# Messages that are about the loader or layer set-up rather than kdsl's use of Vulkan.
_IGNORED = ("Loader Message", "vkCreateInstance(): to enable extension")
# A failed allocation's result, which the layer repeats as a message: kdsl raises it (OutOfMemoryError) itself.
_RESULTS = ("VK_ERROR_OUT_OF_DEVICE_MEMORY", "VK_ERROR_OUT_OF_HOST_MEMORY")


def enabled() -> bool:
    """True when ``KDSL_VALIDATION`` asks for the validation layer."""
    return os.environ.get("KDSL_VALIDATION", "").strip().lower() in ("1", "true", "yes", "on")


def errors() -> list[str]:
    """Validation errors reported since the last :func:`clear` (a copy)."""
    return list(_errors)


def clear() -> None:
    """Forget the collected validation errors."""
    _errors.clear()


def requested_layers(available: set[str]) -> list[str]:
    """Layers to enable: validation if asked for, plus ``KDSL_DEBUG_LAYERS``; missing ones are warned about."""
    wanted = [VALIDATION_LAYER] if enabled() else []
    wanted += [n.strip() for n in os.environ.get("KDSL_DEBUG_LAYERS", "").split(",") if n.strip()]
    layers = []
    for name in dict.fromkeys(wanted):
        if name in available:
            layers.append(name)
        else:
            warnings.warn(f"Vulkan layer {name} is not installed; running without it "
                          "(on Debian: apt-get install vulkan-validationlayers)", RuntimeWarning, stacklevel=3)
    return layers


@ffi.callback("VkBool32(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT, "
              "const VkDebugUtilsMessengerCallbackDataEXT*, void*)")
def _on_message(severity, types, data, user):
    text = ffi.string(data.pMessage).decode(errors="replace") if data.pMessage else ""
    if (severity >= vulkan.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT and not text.startswith(_IGNORED)
            and text not in _RESULTS):
        _errors.append(text)
        if os.environ.get("KDSL_DEBUG"):
            print(f"[kdsl validation] {text}")
    return 0  # never abort the call: the error is raised by whoever checks errors()


class Messenger:
    """A debug-utils messenger on one instance, forwarding errors to :func:`errors`."""

    def __init__(self, instance):
        self.instance = instance
        self.handle = None
        create = lib.vkGetInstanceProcAddr(instance, b"vkCreateDebugUtilsMessengerEXT")
        if create == ffi.NULL:
            return
        info = ffi.new("VkDebugUtilsMessengerCreateInfoEXT*")
        info.sType = vulkan.VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity = (vulkan.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                                | vulkan.VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        info.messageType = (vulkan.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
                            | vulkan.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)
        info.pfnUserCallback = _on_message
        out = ffi.new("VkDebugUtilsMessengerEXT*")
        fn = guarded("vkCreateDebugUtilsMessengerEXT", ffi.cast("PFN_vkCreateDebugUtilsMessengerEXT", create))
        if fn(instance, info, ffi.NULL, out) == 0:
            self.handle = out[0]

    def destroy(self) -> None:
        if self.handle is None:
            return
        raw = lib.vkGetInstanceProcAddr(self.instance, b"vkDestroyDebugUtilsMessengerEXT")
        fn = guarded("vkDestroyDebugUtilsMessengerEXT", ffi.cast("PFN_vkDestroyDebugUtilsMessengerEXT", raw))
        fn(self.instance, self.handle, ffi.NULL)
        self.handle = None
