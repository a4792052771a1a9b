"""kdsl's Vulkan runtime: Kompute's model (Manager, Tensor, Image, Algorithm, Sequence, Op*) in Python.

Importable as ``kdsl.kp`` too: code written for Kompute's Python package runs by changing its import.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> a, b, out = mgr.tensor([1, 2, 3]), mgr.tensor([4, 5, 6]), mgr.tensor([0, 0, 0])
    >>> algo = mgr.algorithm([a, b, out], b"")  # doctest: +SKIP
"""

from . import validation
from .algorithm import Algorithm
from .image import Image
from .instance import list_devices
from .lifetime import after_fork_in_child
from .manager import Manager
from .memory import Memory, Tensor
from .ops import OpAlgoDispatch, OpBase, OpCopy, OpMemoryBarrier, OpMult, OpSyncDevice, OpSyncLocal
from .pipeline import pipeline_cache_size, set_pipeline_cache_size
from .sequence import Sequence
from .types import DataTypes, MemoryTypes
from .vk import OutOfMemoryError, VulkanError, live_objects

__all__ = ["Manager", "Memory", "Tensor", "Image", "Algorithm", "Sequence", "OpBase", "OpSyncDevice",
           "OpSyncLocal", "OpCopy", "OpAlgoDispatch", "OpMult", "OpMemoryBarrier", "MemoryTypes", "DataTypes",
           "list_devices", "live_objects", "validation", "VulkanError", "OutOfMemoryError",
           "set_pipeline_cache_size",
           "pipeline_cache_size", "after_fork_in_child"]
