"""Compute pipelines shared between Algorithms, and a small cache of idle ones.

Creating a pipeline is the costly step of an Algorithm (1-2 ms on lavapipe, which also never returns the ~80 KB
of JIT memory each one takes). Algorithms with the same SPIR-V, binding kinds, push-constant size and
specialization constants share one :class:`Pipeline`; when the last of them is destroyed the pipeline waits in
an LRU of idle pipelines, so a program that rebuilds the same algorithm (OpMult, a training loop) creates it once.

Example:
    >>> import kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> spirv = kp.compile_source("#version 450\\nlayout(local_size_x=1) in;\\nvoid main() {}")
    >>> a, b = mgr.algorithm([], spirv, (1, 1, 1)), mgr.algorithm([], spirv, (1, 1, 1))
    >>> a._pipeline is b._pipeline
    True
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict

import numpy as np

from .vk import check, ffi, lib, new, track, vulkan

IDLE_PIPELINES = 64  # the default bound of the idle LRU (``KDSL_PIPELINE_CACHE`` overrides it)
_default_size: int | None = None  # set by set_pipeline_cache_size


def _check_size(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{what} must be a non-negative int (the number of idle pipelines kept), got {n!r}")
    return int(n)


def pipeline_cache_size() -> int:
    """How many idle pipelines each Manager keeps: :func:`set_pipeline_cache_size`, else the environment
    variable ``KDSL_PIPELINE_CACHE``, else 64.

    Example:
        >>> from kdsl.runtime.pipeline import pipeline_cache_size
        >>> pipeline_cache_size() >= 0
        True
    """
    if _default_size is not None:
        return _default_size
    value = os.environ.get("KDSL_PIPELINE_CACHE", "").strip()
    if not value:
        return IDLE_PIPELINES
    try:
        return _check_size(int(value), "KDSL_PIPELINE_CACHE")
    except ValueError as exc:
        raise ValueError(f"KDSL_PIPELINE_CACHE must be a non-negative int, got {value!r}") from exc


def set_pipeline_cache_size(n: int | None) -> None:
    """Bound the LRU of idle pipelines (compiled shaders no live Algorithm uses) of every Manager that was not
    given its own ``pipeline_cache_size``; ``None`` goes back to ``KDSL_PIPELINE_CACHE`` / 64. Pipelines in
    use are never dropped; 0 keeps none (an Algorithm rebuilt with the same shader then rebuilds the pipeline).

    Example:
        >>> import kdsl.runtime as rt
        >>> rt.set_pipeline_cache_size(16); rt.pipeline_cache_size()
        16
        >>> rt.set_pipeline_cache_size(None)
    """
    global _default_size
    _default_size = None if n is None else _check_size(n, "the pipeline cache size")


class Pipeline:
    """Descriptor-set layout, pipeline layout, shader module and pipeline for one shader configuration."""

    def __init__(self, device, spirv: bytes, kinds: tuple[int, ...], push_size: int, spec: np.ndarray):
        self.device, self.users = device, 0
        self.handles: dict[str, object] = {}
        try:
            self._build(spirv, kinds, push_size, spec)
        except BaseException:
            self.destroy()
            raise

    def _create(self, kind: str, fn, info):
        out = ffi.new(f"{kind}*")
        check(fn(self.device, info, ffi.NULL, out), f"creating {kind}")
        self.handles[kind] = out[0]
        track(kind, 1)
        return out[0]

    def _build(self, spirv, kinds, push_size, spec) -> None:
        bindings = ffi.new("VkDescriptorSetLayoutBinding[]", max(len(kinds), 1))
        for i, kind in enumerate(kinds):
            bindings[i].binding, bindings[i].descriptorType = i, kind
            bindings[i].descriptorCount, bindings[i].stageFlags = 1, vulkan.VK_SHADER_STAGE_COMPUTE_BIT
        set_info = new("VkDescriptorSetLayoutCreateInfo",
                       sType=vulkan.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                       bindingCount=len(kinds), pBindings=bindings)
        self.set_layout = self._create("VkDescriptorSetLayout", lib.vkCreateDescriptorSetLayout, set_info)
        layouts = ffi.new("VkDescriptorSetLayout[1]", [self.set_layout])
        push_range = new("VkPushConstantRange", stageFlags=vulkan.VK_SHADER_STAGE_COMPUTE_BIT, offset=0,
                         size=push_size)
        layout_info = new("VkPipelineLayoutCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                          setLayoutCount=1, pSetLayouts=layouts,
                          pushConstantRangeCount=1 if push_size else 0, pPushConstantRanges=push_range)
        self.layout = self._create("VkPipelineLayout", lib.vkCreatePipelineLayout, layout_info)
        code = ffi.from_buffer("uint32_t[]", spirv)
        module_info = new("VkShaderModuleCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                          codeSize=len(spirv), pCode=code)
        module = self._create("VkShaderModule", lib.vkCreateShaderModule, module_info)
        spec_data = ffi.from_buffer(spec) if spec.size else ffi.NULL
        entries = ffi.new("VkSpecializationMapEntry[]", max(spec.size, 1))
        for i in range(spec.size):
            entries[i].constantID, entries[i].offset, entries[i].size = i, i * spec.itemsize, spec.itemsize
        spec_info = new("VkSpecializationInfo", mapEntryCount=spec.size, pMapEntries=entries,
                        dataSize=spec.nbytes, pData=spec_data)
        name = ffi.new("char[]", b"main")
        stage = new("VkPipelineShaderStageCreateInfo",
                    sType=vulkan.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    stage=vulkan.VK_SHADER_STAGE_COMPUTE_BIT, module=module, pName=name,
                    pSpecializationInfo=spec_info if spec.size else ffi.NULL)
        info = ffi.new("VkComputePipelineCreateInfo[1]")
        info[0].sType, info[0].stage, info[0].layout = (vulkan.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                                        stage[0], self.layout)
        out = ffi.new("VkPipeline*")
        check(lib.vkCreateComputePipelines(self.device, ffi.NULL, 1, info, ffi.NULL, out),
              "vkCreateComputePipelines (is the SPIR-V a valid compute shader for these bindings?)")
        self.handle = self.handles["VkPipeline"] = out[0]
        track("VkPipeline", 1)

    def destroy(self) -> None:
        for kind, fn in (("VkPipeline", lib.vkDestroyPipeline), ("VkShaderModule", lib.vkDestroyShaderModule),
                         ("VkPipelineLayout", lib.vkDestroyPipelineLayout),
                         ("VkDescriptorSetLayout", lib.vkDestroyDescriptorSetLayout)):
            handle = self.handles.pop(kind, None)
            if handle is not None:
                fn(self.device, handle, ffi.NULL)
                track(kind, -1)


class PipelineCache:
    """Pipelines of one device by configuration: shared while used, kept (up to a limit) while idle.

    One lock guards both tables: algorithms are built and destroyed from any thread (and by the garbage
    collector), and a pipeline must never be destroyed while another thread takes it from the idle LRU.
    """

    def __init__(self, device, size: int | None = None):
        self.device = device
        self.active: dict[tuple, Pipeline] = {}
        self.idle: OrderedDict[tuple, Pipeline] = OrderedDict()
        self.lock = threading.RLock()
        self.foreign = False
        self.size: int | None = None
        self.set_size(size)

    def set_size(self, size: int | None) -> None:
        """This cache's own bound (None: follow :func:`pipeline_cache_size`); trims the idle LRU at once."""
        self.size = None if size is None else _check_size(size, "pipeline_cache_size")
        self._trim()

    def limit(self) -> int:
        return pipeline_cache_size() if self.size is None else self.size

    def _trim(self) -> None:
        with self.lock:
            limit = self.limit()
            while len(self.idle) > limit:
                self.idle.popitem(last=False)[1].destroy()

    def mark_foreign(self) -> None:
        """In a forked child: forget the parent's pipelines without destroying them."""
        self.foreign = True
        self.lock = threading.RLock()
        self.active, self.idle = {}, OrderedDict()

    @staticmethod
    def key(spirv: bytes, kinds, push_size: int, spec: np.ndarray) -> tuple:
        return (hashlib.sha1(spirv).digest(), tuple(kinds), push_size, spec.dtype.str, spec.tobytes())

    def acquire(self, spirv: bytes, kinds, push_size: int, spec: np.ndarray) -> tuple[tuple, Pipeline]:
        key = self.key(spirv, kinds, push_size, spec)
        with self.lock:
            pipe = self.active.get(key) or self.idle.pop(key, None)
            if pipe is None:
                pipe = Pipeline(self.device, spirv, tuple(kinds), push_size, spec)
            self.active[key] = pipe
            pipe.users += 1
            return key, pipe

    def release(self, key: tuple) -> None:
        with self.lock:
            pipe = self.active.get(key)
            if pipe is None:  # the cache was destroyed (or forgotten after fork) first
                return
            pipe.users -= 1
            if pipe.users == 0:
                del self.active[key]
                self.idle[key] = pipe
                self._trim()

    def clear(self) -> None:
        """Destroy the idle pipelines (the Manager's destroy does; tests use it to count objects)."""
        with self.lock:
            while self.idle:
                self.idle.popitem()[1].destroy()

    def destroy(self) -> None:
        with self.lock:
            self.clear()
            for pipe in self.active.values():
                pipe.destroy()
            self.active.clear()
