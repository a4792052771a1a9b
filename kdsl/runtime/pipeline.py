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
from collections import OrderedDict

import numpy as np

from .vk import check, ffi, lib, new, track, vulkan

IDLE_PIPELINES = 64


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
    """Pipelines of one device by configuration: shared while used, kept (up to a limit) while idle."""

    def __init__(self, device):
        self.device = device
        self.active: dict[tuple, Pipeline] = {}
        self.idle: OrderedDict[tuple, Pipeline] = OrderedDict()

    @staticmethod
    def key(spirv: bytes, kinds, push_size: int, spec: np.ndarray) -> tuple:
        return (hashlib.sha1(spirv).digest(), tuple(kinds), push_size, spec.dtype.str, spec.tobytes())

    def acquire(self, spirv: bytes, kinds, push_size: int, spec: np.ndarray) -> tuple[tuple, Pipeline]:
        key = self.key(spirv, kinds, push_size, spec)
        pipe = self.active.get(key) or self.idle.pop(key, None)
        if pipe is None:
            pipe = Pipeline(self.device, spirv, tuple(kinds), push_size, spec)
        self.active[key] = pipe
        pipe.users += 1
        return key, pipe

    def release(self, key: tuple) -> None:
        pipe = self.active[key]
        pipe.users -= 1
        if pipe.users == 0:
            del self.active[key]
            self.idle[key] = pipe
            while len(self.idle) > IDLE_PIPELINES:
                self.idle.popitem(last=False)[1].destroy()

    def clear(self) -> None:
        """Destroy the idle pipelines (the Manager's destroy does; tests use it to count objects)."""
        while self.idle:
            self.idle.popitem()[1].destroy()

    def destroy(self) -> None:
        self.clear()
        for pipe in self.active.values():
            pipe.destroy()
        self.active.clear()
