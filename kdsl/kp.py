"""Kompute-compatible names: ``import kdsl.kp as kp`` runs code written for Kompute's ``kp`` package.

Current names, the release 0.9.0 aliases (``OpTensorSyncDevice``, ``OpTensorSyncLocal``, ``OpTensorCopy``,
``TensorTypes``), the enum members as module attributes (``kp.device``, ``kp.float``, ...), and
``compile_source`` (GLSL -> SPIR-V in-process).

Example:
    >>> import kdsl.kp as kp
    >>> kp.OpTensorSyncDevice is kp.OpSyncDevice, kp.deviceAndHost.value, kp.double.value
    (True, 3, 4)
"""

from .runtime import (
                      Algorithm,
                      DataTypes,
                      Image,
                      Manager,
                      Memory,
                      MemoryTypes,
                      OpAlgoDispatch,
                      OpBase,
                      OpCopy,
                      OpMemoryBarrier,
                      OpMult,
                      OpSyncDevice,
                      OpSyncLocal,
                      OutOfMemoryError,
                      Sequence,
                      Tensor,
                      VulkanError,
                      list_devices,
                      live_objects,
)
from .runtime.compiler import ShaderCompileError, compile_source

# Kompute 0.9.0 names.
OpTensorSyncDevice = OpSyncDevice
OpTensorSyncLocal = OpSyncLocal
OpTensorCopy = OpCopy
TensorTypes = MemoryTypes

# Enum members as module attributes, as Kompute's pybind module exports them.
device, host, storage, deviceAndHost = (MemoryTypes.device, MemoryTypes.host, MemoryTypes.storage,
                                        MemoryTypes.deviceAndHost)
bool, int, uint, float, double, custom, short, ushort, char, uchar = (  # noqa: A001 - Kompute's names
    DataTypes.bool, DataTypes.int, DataTypes.uint, DataTypes.float, DataTypes.double, DataTypes.custom,
    DataTypes.short, DataTypes.ushort, DataTypes.char, DataTypes.uchar)

__all__ = ["Manager", "Memory", "Tensor", "Image", "Algorithm", "Sequence", "OpBase", "OpSyncDevice",
           "OpSyncLocal", "OpCopy", "OpAlgoDispatch", "OpMult", "OpMemoryBarrier", "MemoryTypes", "DataTypes",
           "OpTensorSyncDevice", "OpTensorSyncLocal", "OpTensorCopy", "TensorTypes", "compile_source",
           "ShaderCompileError", "list_devices", "live_objects", "VulkanError",
           "OutOfMemoryError"]
