"""Kompute's enums (``MemoryTypes``, ``DataTypes``) and the NumPy dtypes a tensor may hold.

Example:
    >>> from kdsl.runtime.types import MemoryTypes, DataTypes, data_type_of
    >>> MemoryTypes.device.value, data_type_of(__import__("numpy").dtype("uint32")) is DataTypes.uint
    (0, True)
"""

from __future__ import annotations

import enum

import numpy as np


class MemoryTypes(enum.IntEnum):
    """Where a tensor's memory lives (Kompute's ``MemoryTypes``; 0.9.0 called it ``TensorTypes``)."""

    device = 0  # device-local buffer + host-visible staging buffer
    host = 1  # one host-visible, coherent buffer
    storage = 2  # device-local only: no host copy
    deviceAndHost = 3  # one buffer that is device-local and host-visible


class DataTypes(enum.IntEnum):
    """Element types (Kompute's ``DataTypes``)."""

    bool = 0
    int = 1
    uint = 2
    float = 3
    double = 4
    custom = 5
    short = 6
    ushort = 7
    char = 8
    uchar = 9


# NumPy dtype -> (Kompute data type, device feature the shader needs to read it from a storage buffer).
DTYPES: dict[np.dtype, tuple[DataTypes, str | None]] = {
    np.dtype(np.float32): (DataTypes.float, None),
    np.dtype(np.int32): (DataTypes.int, None),
    np.dtype(np.uint32): (DataTypes.uint, None),
    np.dtype(np.float64): (DataTypes.double, "float64"),
    np.dtype(np.bool_): (DataTypes.bool, "storage_buffer_8bit"),
    np.dtype(np.int16): (DataTypes.short, "storage_buffer_16bit"),
    np.dtype(np.uint16): (DataTypes.ushort, "storage_buffer_16bit"),
    np.dtype(np.int8): (DataTypes.char, "storage_buffer_8bit"),
    np.dtype(np.uint8): (DataTypes.uchar, "storage_buffer_8bit"),
    np.dtype(np.float16): (DataTypes.custom, "storage_buffer_16bit"),
    np.dtype(np.int64): (DataTypes.custom, "int64"),
    np.dtype(np.uint64): (DataTypes.custom, "int64"),
    np.dtype(np.complex64): (DataTypes.custom, None),  # a vec2 per element
    np.dtype(np.complex128): (DataTypes.custom, "float64"),  # a dvec2 per element
}

# Kompute's original five types are accepted on every device (a shader need not read them as such).
KOMPUTE_BASE = {np.dtype(t) for t in (np.float32, np.int32, np.uint32, np.float64, np.bool_)}


def data_type_of(dtype: np.dtype) -> DataTypes:
    return DTYPES[np.dtype(dtype)][0]


def check_dtype(dtype, features: set[str]) -> np.dtype:
    """The NumPy dtype if a tensor may hold it on a device with ``features``; a clear error otherwise."""
    try:
        dt = np.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"{dtype!r} is not a NumPy dtype") from exc
    if dt not in DTYPES:
        supported = ", ".join(sorted(str(d) for d in DTYPES))
        raise RuntimeError(f"tensors cannot hold dtype {dt}; supported dtypes are {supported}")
    feature = DTYPES[dt][1]
    if feature and feature not in features and dt not in KOMPUTE_BASE:
        raise RuntimeError(f"this device does not support dtype {dt}: it lacks the Vulkan feature '{feature}' "
                           f"(device features: {', '.join(sorted(features)) or 'none'}); convert the data, "
                           "e.g. to float32 or int32")
    return dt
