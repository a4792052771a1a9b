"""The Vulkan instance and what each physical device offers (properties, limits, features).

Example:
    >>> from kdsl.runtime.instance import list_devices
    >>> devices = list_devices()
    >>> {"device_name", "device_type", "features"} <= set(devices[0])
    True
"""

from __future__ import annotations

import copy
import threading
import uuid
import warnings

from . import layer_guard, validation
from .lifetime import after_fork_in_child
from .vk import check, cstr, cstrings, enumerate_, ffi, lib, new, track, vulkan

API_VERSION = (1 << 22) | (2 << 12)  # Vulkan 1.2: the 1.1/1.2 feature structs; every current driver has it
_DEVICE_TYPES = {0: "other", 1: "integrated_gpu", 2: "discrete_gpu", 3: "virtual_gpu", 4: "cpu"}


class Instance:
    """A VkInstance with the layers asked for by ``KDSL_VALIDATION`` / ``KDSL_DEBUG_LAYERS``."""

    def __init__(self):
        layers = validation.requested_layers(available_layers())
        extensions = [e for e in ("VK_EXT_debug_utils", "VK_KHR_portability_enumeration")
                      if e in available_instance_extensions()]
        app = new("VkApplicationInfo", sType=vulkan.VK_STRUCTURE_TYPE_APPLICATION_INFO, apiVersion=API_VERSION)
        app_name = ffi.new("char[]", b"kdsl")
        app.pApplicationName = app.pEngineName = app_name
        layer_arr, keep_l = cstrings(layers)
        ext_arr, keep_e = cstrings(extensions)
        info = new("VkInstanceCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                   pApplicationInfo=app, enabledLayerCount=len(layers), ppEnabledLayerNames=layer_arr,
                   enabledExtensionCount=len(extensions), ppEnabledExtensionNames=ext_arr)
        if "VK_KHR_portability_enumeration" in extensions:
            info.flags = 0x00000001  # VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR
        out = ffi.new("VkInstance*")
        layer_guard.activate(layers)
        check(lib.vkCreateInstance(info, ffi.NULL, out), "vkCreateInstance")
        del keep_l, keep_e
        self.handle = out[0]
        track("VkInstance", 1)
        self.layers = layers
        self.messenger = validation.Messenger(self.handle) if "VK_EXT_debug_utils" in extensions else None

    def physical_devices(self) -> list:
        return enumerate_(lib.vkEnumeratePhysicalDevices, "VkPhysicalDevice", self.handle)

    def destroy(self) -> None:
        if self.handle is None:
            return
        if self.messenger:
            self.messenger.destroy()
        lib.vkDestroyInstance(self.handle, ffi.NULL)
        track("VkInstance", -1)
        self.handle = None


def available_layers() -> set[str]:
    return {cstr(p.layerName) for p in enumerate_(lib.vkEnumerateInstanceLayerProperties, "VkLayerProperties")}


_COOPMAT_LAYER_MIN = (1 << 22) | (3 << 12) | 255  # VK_KHR_cooperative_matrix arrived in Vulkan 1.3.255
_coopmat_ok: bool | None = None


def coopmat_usable() -> bool:
    """False when a layer kdsl enables (the validation layer, with ``KDSL_VALIDATION=1``) predates
    ``VK_KHR_cooperative_matrix``: it would report the extension's structs as errors, so kdsl then neither
    queries nor enables cooperative matrices (the scalar matmul runs)."""
    global _coopmat_ok
    if _coopmat_ok is None:
        layers = {cstr(p.layerName): int(p.specVersion)
                  for p in enumerate_(lib.vkEnumerateInstanceLayerProperties, "VkLayerProperties")}
        with warnings.catch_warnings():  # a missing layer is warned about once, by Instance
            warnings.simplefilter("ignore")
            wanted = validation.requested_layers(set(layers))
        _coopmat_ok = all(layers[name] >= _COOPMAT_LAYER_MIN for name in wanted)
    return _coopmat_ok


def available_instance_extensions() -> set[str]:
    return {cstr(p.extensionName) for p in
            enumerate_(lib.vkEnumerateInstanceExtensionProperties, "VkExtensionProperties", ffi.NULL)}


def device_extensions(physical) -> set[str]:
    return {cstr(p.extensionName) for p in
            enumerate_(lib.vkEnumerateDeviceExtensionProperties, "VkExtensionProperties", physical, ffi.NULL)}


COOPMAT_EXTENSION = "VK_KHR_cooperative_matrix"


class FeatureChain:
    """VkPhysicalDeviceFeatures2 with the Vulkan 1.1 / 1.2, atomic-float and cooperative-matrix structs chained
    through ``pNext`` (an extension's struct only when the device has the extension).

    Filled by the driver to say what it supports; then (with unsupported bits left off) handed to
    vkCreateDevice to enable exactly that.
    """

    def __init__(self, with_atomic_float: bool, with_coopmat: bool = False):
        self.coopmat = None
        if with_coopmat:
            self.coopmat = new("VkPhysicalDeviceCooperativeMatrixFeaturesKHR",
                               sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR)
        self.atomic = None
        if with_atomic_float:
            self.atomic = new("VkPhysicalDeviceShaderAtomicFloatFeaturesEXT",
                              sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
                              pNext=self.coopmat if self.coopmat is not None else ffi.NULL)
        after_v12 = self.atomic if self.atomic is not None else self.coopmat
        self.v12 = new("VkPhysicalDeviceVulkan12Features",
                       sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                       pNext=after_v12 if after_v12 is not None else ffi.NULL)
        self.v11 = new("VkPhysicalDeviceVulkan11Features",
                       sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, pNext=self.v12)
        self.root = new("VkPhysicalDeviceFeatures2", sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                        pNext=self.v11)

    @classmethod
    def query(cls, physical, extensions: set[str] | list[str] | None = None) -> FeatureChain:
        """What the device supports, with the structs of ``extensions`` (default: every one it has)."""
        exts = device_extensions(physical) if extensions is None else set(extensions)
        chain = cls("VK_EXT_shader_atomic_float" in exts, COOPMAT_EXTENSION in exts and coopmat_usable())
        lib.vkGetPhysicalDeviceFeatures2(physical, chain.root)
        return chain

    def names(self) -> set[str]:
        """kdsl's feature names for what this chain has switched on."""
        f, v11, v12, a, cm = self.root.features, self.v11, self.v12, self.atomic, self.coopmat
        table = {
            "float64": f.shaderFloat64, "int64": f.shaderInt64, "int16": f.shaderInt16,
            "float16": v12.shaderFloat16, "int8": v12.shaderInt8,
            "storage_buffer_8bit": v12.storageBuffer8BitAccess,
            "storage_buffer_16bit": v11.storageBuffer16BitAccess,
            "int64_atomics": v12.shaderBufferInt64Atomics,
            "atomic_float32_add": a.shaderBufferFloat32AtomicAdd if a is not None else 0,
            "atomic_float64_add": a.shaderBufferFloat64AtomicAdd if a is not None else 0,
            "shared_atomic_float32_add": a.shaderSharedFloat32AtomicAdd if a is not None else 0,
            "vulkan_memory_model": v12.vulkanMemoryModel,
            # subgroup operations on 8/16/64-bit integers and float16 (the scans use them on int64); not named
            # subgroup_* so that a borrowed device (which enables its own features) does not get it by default
            "extended_subgroup_types": v12.shaderSubgroupExtendedTypes,
            # coopmat shaders use the Vulkan memory model (GL_KHR_memory_scope_semantics)
            "cooperative_matrix": cm.cooperativeMatrix and v12.vulkanMemoryModel if cm is not None else 0,
        }
        return {name for name, on in table.items() if on}

    def keep_compute_only(self, robust: bool) -> None:
        """Switch off graphics-only features we never use (sparse binding costs speed on some drivers).

        ``robust`` keeps ``robustBufferAccess`` (where offered): an out-of-bounds index in a user's kernel then
        reads zeros and drops its writes instead of corrupting memory or crashing a CPU driver.
        """
        f = self.root.features
        if not robust:
            f.robustBufferAccess = 0
        for name in ("sparseBinding", "sparseResidencyBuffer", "sparseResidencyImage2D",
                     "sparseResidencyImage3D", "sparseResidency2Samples", "sparseResidency4Samples",
                     "sparseResidency8Samples", "sparseResidency16Samples", "sparseResidencyAliased",
                     "geometryShader", "tessellationShader", "wideLines", "largePoints"):
            setattr(f, name, 0)


# VkComponentTypeKHR -> kdsl dtype name (VK_COMPONENT_TYPE_BFLOAT16_KHR is 1000141000)
_COMPONENT_TYPES = {0: "float16", 1: "float32", 2: "float64", 3: "int8", 4: "int16", 5: "int32", 6: "int64",
                    7: "uint8", 8: "uint16", 9: "uint32", 10: "uint64", 1000141000: "bfloat16"}
_SCOPES = {1: "device", 2: "workgroup", 3: "subgroup", 5: "queue_family"}


def cooperative_matrix_shapes(instance, physical) -> list[dict]:
    """The (M, N, K, types, scope) shapes ``vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR`` reports, as
    dicts ``{"m", "n", "k", "a", "b", "c", "result", "saturating", "scope"}`` with dtype names (unknown
    component types keep their number); [] when the device or the loader lacks the extension."""
    if instance is None or COOPMAT_EXTENSION not in device_extensions(physical) or not coopmat_usable():
        return []
    raw = lib.vkGetInstanceProcAddr(instance, b"vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    if raw == ffi.NULL:
        return []
    fn = layer_guard.guarded("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
                             ffi.cast("PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", raw))
    count = ffi.new("uint32_t*")
    check(fn(physical, count, ffi.NULL), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    props = ffi.new("VkCooperativeMatrixPropertiesKHR[]", count[0])
    for i in range(count[0]):
        props[i].sType = vulkan.VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR
    check(fn(physical, count, props), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    return [{"m": int(p.MSize), "n": int(p.NSize), "k": int(p.KSize),
             **{key: _COMPONENT_TYPES.get(int(v), int(v)) for key, v in
                (("a", p.AType), ("b", p.BType), ("c", p.CType), ("result", p.ResultType))},
             "saturating": bool(p.saturatingAccumulation), "scope": _SCOPES.get(int(p.scope), int(p.scope))}
            for p in props[0:count[0]]]


def device_info(physical, instance=None) -> dict:
    """Properties, limits and features of one physical device, as a plain dict (``instance``, the VkInstance
    handle, is needed to list the cooperative-matrix shapes)."""
    ids = new("VkPhysicalDeviceIDProperties", sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES)
    sub = new("VkPhysicalDeviceSubgroupProperties",
              sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, pNext=ids)
    props2 = new("VkPhysicalDeviceProperties2", sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                 pNext=sub)
    lib.vkGetPhysicalDeviceProperties2(physical, props2)
    p, limits = props2.properties, props2.properties.limits
    families = queue_families(physical)
    features = FeatureChain.query(physical).names()
    memory = ffi.new("VkPhysicalDeviceMemoryProperties*")
    lib.vkGetPhysicalDeviceMemoryProperties(physical, memory)
    local_heaps = [int(memory.memoryHeaps[i].size) for i in range(memory.memoryHeapCount)
                   if memory.memoryHeaps[i].flags & vulkan.VK_MEMORY_HEAP_DEVICE_LOCAL_BIT]
    ops = sub.supportedOperations
    for bit, name in ((vulkan.VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "subgroup_arithmetic"),
                      (vulkan.VK_SUBGROUP_FEATURE_BALLOT_BIT, "subgroup_ballot"),
                      (vulkan.VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "subgroup_shuffle")):
        if ops & bit and sub.supportedStages & vulkan.VK_SHADER_STAGE_COMPUTE_BIT:
            features.add(name)
    api = p.apiVersion
    return {
        "float_controls": float_controls(physical, api),
        "device_name": cstr(p.deviceName),
        # the same UUID nvidia-smi and CUDA show (GPU-...): which Vulkan device is which GPU
        "device_uuid": str(uuid.UUID(bytes=bytes(ffi.buffer(ids.deviceUUID, 16)))),
        "device_type": _DEVICE_TYPES.get(p.deviceType, "other"),
        "api_version": f"{api >> 22}.{(api >> 12) & 0x3FF}.{api & 0xFFF}",
        "driver_version": int(p.driverVersion),
        "vendor_id": int(p.vendorID),
        "max_work_group_count": tuple(int(x) for x in limits.maxComputeWorkGroupCount),
        "max_work_group_invocations": int(limits.maxComputeWorkGroupInvocations),
        "max_work_group_size": tuple(int(x) for x in limits.maxComputeWorkGroupSize),
        "max_storage_buffer_range": int(limits.maxStorageBufferRange),
        "max_memory_allocation_count": int(limits.maxMemoryAllocationCount),
        "device_memory": max(local_heaps, default=0),
        "max_shared_memory_size": int(limits.maxComputeSharedMemorySize),
        "max_push_constants_size": int(limits.maxPushConstantsSize),
        "max_bound_descriptor_sets": int(limits.maxBoundDescriptorSets),
        "max_per_stage_storage_buffers": int(limits.maxPerStageDescriptorStorageBuffers),
        "max_per_stage_storage_images": int(limits.maxPerStageDescriptorStorageImages),
        "max_per_stage_resources": int(limits.maxPerStageResources),
        "max_descriptor_set_storage_buffers": int(limits.maxDescriptorSetStorageBuffers),
        "max_image_dimension_2d": int(limits.maxImageDimension2D),
        "timestamps_supported": bool(limits.timestampComputeAndGraphics)
                                or any(f["timestamp_valid_bits"] for f in families),
        "timestamp_period": float(limits.timestampPeriod),
        "subgroup_size": int(sub.subgroupSize),
        "queue_families": families,
        "features": features,
        "cooperative_matrix_shapes": cooperative_matrix_shapes(instance, physical),
    }


def float_controls(physical, api: int) -> dict[str, tuple[int, ...] | str]:
    """The float widths (16, 32, 64) for which the device can keep signed zeros, infinities and NaNs
    (``"signed_zero_inf_nan"``: SPIR-V's SignedZeroInfNanPreserve), keep subnormals (``"denorm_preserve"``:
    DenormPreserve) and round to nearest even (``"rounding_rte"``: RoundingModeRTE) when a shader asks for it,
    and ``"denorm_independence"`` (``"all"``, ``"32_bit_only"`` or ``"none"``: which widths may differ in their
    denormal mode); empty tuples before Vulkan 1.2 (where float controls are an extension kdsl does not
    enable)."""
    if api < (1 << 22) | (2 << 12):
        return {"signed_zero_inf_nan": (), "denorm_preserve": (), "denorm_independence": "none", "rounding_rte": ()}
    fc = new("VkPhysicalDeviceFloatControlsProperties",
             sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES)
    props2 = new("VkPhysicalDeviceProperties2", sType=vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                 pNext=fc)
    lib.vkGetPhysicalDeviceProperties2(physical, props2)
    return {"signed_zero_inf_nan": tuple(w for w in (16, 32, 64)
                                         if getattr(fc, f"shaderSignedZeroInfNanPreserveFloat{w}")),
            "denorm_preserve": tuple(w for w in (16, 32, 64) if getattr(fc, f"shaderDenormPreserveFloat{w}")),
            "rounding_rte": tuple(w for w in (16, 32, 64) if getattr(fc, f"shaderRoundingModeRTEFloat{w}")),
            # which widths may have a denormal mode of their own (VkShaderFloatControlsIndependence)
            "denorm_independence": {0: "32_bit_only", 1: "all"}.get(int(fc.denormBehaviorIndependence), "none")}


def queue_families(physical) -> list[dict]:
    """Each queue family: flags as names, queue count, timestamp bits."""
    out = []
    for fam in enumerate_(lib.vkGetPhysicalDeviceQueueFamilyProperties, "VkQueueFamilyProperties", physical):
        flags = fam.queueFlags
        out.append({"compute": bool(flags & vulkan.VK_QUEUE_COMPUTE_BIT),
                    "graphics": bool(flags & vulkan.VK_QUEUE_GRAPHICS_BIT),
                    "transfer": bool(flags & vulkan.VK_QUEUE_TRANSFER_BIT),
                    "queue_count": int(fam.queueCount),
                    "timestamp_valid_bits": int(fam.timestampValidBits)})
    return out


_devices: list[dict] | None = None
_devices_lock = threading.RLock()  # re-entrant: a collection inside may run a finaliser that lists them


def list_devices() -> list[dict]:
    """Every Vulkan device on this machine, in the loader's order (index = ``Manager(device_index)``).

    Enumerated once per process (a VkInstance costs milliseconds, more with the validation layer); each call
    returns a fresh copy. The result is plain data, so a forked child keeps it (fork copies no devices).

    Example:
        >>> import kdsl.kp as kp
        >>> [d["device_name"] for d in kp.list_devices()]  # doctest: +SKIP
        ['NVIDIA H200', 'llvmpipe (LLVM 15.0.6, 256 bits)']
    """
    global _devices
    with _devices_lock:
        if _devices is None:
            instance = Instance()
            try:
                _devices = [device_info(p, instance.handle) for p in instance.physical_devices()]
            finally:
                instance.destroy()
        return copy.deepcopy(_devices)


def _new_lock_in_child() -> None:
    global _devices_lock
    _devices_lock = threading.RLock()


after_fork_in_child(_new_lock_in_child)
