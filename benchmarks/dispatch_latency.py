"""Dispatch latency: what one ``eval()`` costs in kdsl's runtime, next to a bare Vulkan submit+wait loop.

Four loops run the same tiny kernel (``x[i] += 1`` over 1024 uints, 16 workgroups of 64):

* **bare vulkan.lib** — our own instance, device, pipeline, command buffer and fence, built with the
  ``vulkan`` package; the loop is ``vkQueueSubmit + vkWaitForFences + vkResetFences`` through ``vulkan.lib``
  with every struct built once. This is the floor any Python runtime can reach.
* **pre-recorded eval()** — ``seq.eval()`` of a sequence holding one ``OpAlgoDispatch`` (target: within 1.15x
  of the bare loop).
* **eval(OpAlgoDispatch)** — ``seq.eval(kp.OpAlgoDispatch(algo))``: clear, record, submit, wait each time.
* **sync round trip** — a pre-recorded ``OpSyncDevice + OpAlgoDispatch + OpSyncLocal``.

Each loop runs in several interleaved rounds and the best round is reported (µs per call), as ``timeit``
advises for latency floors: on a busy 2-core machine the slower rounds measure the neighbours, not the loop.
Run it with ``python benchmarks/dispatch_latency.py [iterations]``; validation stays off unless
``KDSL_VALIDATION=1`` is set (the layer costs far more than what is measured here).
"""

from __future__ import annotations

import sys
import time

import numpy as np
import vulkan as vk
from vulkan import ffi, lib

import kdsl.kp as kp

SHADER = """
#version 450
layout (local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint x[]; };
void main() { x[gl_GlobalInvocationID.x] += 1u; }
"""
N, GROUPS = 1024, 16
NO_TIMEOUT = 2**64 - 1


def new(ctype: str, **fields):
    """A zeroed ``ctype`` struct with ``fields`` set; the caller keeps it alive while Vulkan reads it."""
    obj = ffi.new(ctype + "*")
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def check(result: int, what: str) -> None:
    if result != vk.VK_SUCCESS:
        raise RuntimeError(f"{what} failed with VkResult {result}")


def create(fn, ctype: str, *args):
    """Call a ``vkCreate*``/``vkAllocate*`` function that writes one handle; return the handle."""
    out = ffi.new(ctype + "*")
    check(fn(*args, out), fn.__name__ if hasattr(fn, "__name__") else ctype)
    return out[0]


class BareVulkan:
    """The smallest Vulkan program that runs SHADER: every object made here, freed in :meth:`destroy`."""

    def __init__(self, spirv: bytes):
        app = new("VkApplicationInfo", sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO, apiVersion=(1 << 22) | (1 << 12))
        self.instance = create(lib.vkCreateInstance, "VkInstance",
                               new("VkInstanceCreateInfo", sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                   pApplicationInfo=app), ffi.NULL)
        count = ffi.new("uint32_t*", 1)
        physicals = ffi.new("VkPhysicalDevice[1]")
        lib.vkEnumeratePhysicalDevices(self.instance, count, physicals)
        self.physical = physicals[0]
        self.family = self._compute_family()
        priority = ffi.new("float[1]", [1.0])
        queue_info = new("VkDeviceQueueCreateInfo", sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                         queueFamilyIndex=self.family, queueCount=1, pQueuePriorities=priority)
        self.device = create(lib.vkCreateDevice, "VkDevice", self.physical,
                             new("VkDeviceCreateInfo", sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                 queueCreateInfoCount=1, pQueueCreateInfos=queue_info), ffi.NULL)
        queue = ffi.new("VkQueue*")
        lib.vkGetDeviceQueue(self.device, self.family, 0, queue)
        self.queue = queue[0]
        self._make_buffer(N * 4)
        self._make_pipeline(spirv)
        self._record()
        self.fences = ffi.new("VkFence[1]", [create(lib.vkCreateFence, "VkFence", self.device,
                                                    new("VkFenceCreateInfo",
                                                        sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO), ffi.NULL)])
        self.submit = new("VkSubmitInfo", sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO, commandBufferCount=1,
                          pCommandBuffers=self.cmds)

    def _compute_family(self) -> int:
        count = ffi.new("uint32_t*")
        lib.vkGetPhysicalDeviceQueueFamilyProperties(self.physical, count, ffi.NULL)
        props = ffi.new("VkQueueFamilyProperties[]", count[0])
        lib.vkGetPhysicalDeviceQueueFamilyProperties(self.physical, count, props)
        return next(i for i in range(count[0]) if props[i].queueFlags & vk.VK_QUEUE_COMPUTE_BIT)

    def _make_buffer(self, nbytes: int) -> None:
        self.buffer = create(lib.vkCreateBuffer, "VkBuffer", self.device,
                             new("VkBufferCreateInfo", sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=nbytes,
                                 usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), ffi.NULL)
        req = ffi.new("VkMemoryRequirements*")
        lib.vkGetBufferMemoryRequirements(self.device, self.buffer, req)
        mem = ffi.new("VkPhysicalDeviceMemoryProperties*")
        lib.vkGetPhysicalDeviceMemoryProperties(self.physical, mem)
        allowed = [i for i in range(mem.memoryTypeCount) if req.memoryTypeBits & (1 << i)]
        local = [i for i in allowed if mem.memoryTypes[i].propertyFlags & vk.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT]
        self.memory = create(lib.vkAllocateMemory, "VkDeviceMemory", self.device,
                             new("VkMemoryAllocateInfo", sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                 allocationSize=req.size, memoryTypeIndex=(local or allowed)[0]), ffi.NULL)
        check(lib.vkBindBufferMemory(self.device, self.buffer, self.memory, 0), "vkBindBufferMemory")

    def _make_pipeline(self, spirv: bytes) -> None:
        dev = self.device
        binding = new("VkDescriptorSetLayoutBinding", binding=0, descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                      descriptorCount=1, stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT)
        self.set_layout = create(lib.vkCreateDescriptorSetLayout, "VkDescriptorSetLayout", dev,
                                 new("VkDescriptorSetLayoutCreateInfo",
                                     sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, bindingCount=1,
                                     pBindings=binding), ffi.NULL)
        layouts = ffi.new("VkDescriptorSetLayout[1]", [self.set_layout])
        self.layout = create(lib.vkCreatePipelineLayout, "VkPipelineLayout", dev,
                             new("VkPipelineLayoutCreateInfo", sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                 setLayoutCount=1, pSetLayouts=layouts), ffi.NULL)
        code = ffi.new("char[]", spirv)
        self.module = create(lib.vkCreateShaderModule, "VkShaderModule", dev,
                             new("VkShaderModuleCreateInfo", sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                 codeSize=len(spirv), pCode=ffi.cast("uint32_t*", code)), ffi.NULL)
        name = ffi.new("char[]", b"main")
        stage = new("VkPipelineShaderStageCreateInfo", sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=self.module, pName=name)
        info = ffi.new("VkComputePipelineCreateInfo[1]")
        info[0].sType, info[0].stage, info[0].layout = (vk.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, stage[0],
                                                        self.layout)
        pipeline = ffi.new("VkPipeline[1]")
        check(lib.vkCreateComputePipelines(dev, ffi.NULL, 1, info, ffi.NULL, pipeline), "vkCreateComputePipelines")
        self.pipeline = pipeline[0]
        size = new("VkDescriptorPoolSize", type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount=1)
        self.pool = create(lib.vkCreateDescriptorPool, "VkDescriptorPool", dev,
                           new("VkDescriptorPoolCreateInfo", sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                               maxSets=1, poolSizeCount=1, pPoolSizes=size), ffi.NULL)
        sets = ffi.new("VkDescriptorSet[1]")
        check(lib.vkAllocateDescriptorSets(dev, new("VkDescriptorSetAllocateInfo",
                                                    sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                                    descriptorPool=self.pool, descriptorSetCount=1,
                                                    pSetLayouts=layouts), sets), "vkAllocateDescriptorSets")
        self.sets = sets
        buffer_info = new("VkDescriptorBufferInfo", buffer=self.buffer, offset=0, range=N * 4)
        write = new("VkWriteDescriptorSet", sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=sets[0],
                    dstBinding=0, descriptorCount=1, descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    pBufferInfo=buffer_info)
        lib.vkUpdateDescriptorSets(dev, 1, write, 0, ffi.NULL)

    def _record(self) -> None:
        """One command buffer: a memory barrier (as kdsl puts before each dispatch), bind, dispatch."""
        self.command_pool = create(lib.vkCreateCommandPool, "VkCommandPool", self.device,
                                   new("VkCommandPoolCreateInfo", sType=vk.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       queueFamilyIndex=self.family), ffi.NULL)
        self.cmds = ffi.new("VkCommandBuffer[1]")
        check(lib.vkAllocateCommandBuffers(self.device, new(
            "VkCommandBufferAllocateInfo", sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            commandPool=self.command_pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1),
            self.cmds), "vkAllocateCommandBuffers")
        cmd = self.cmds[0]
        check(lib.vkBeginCommandBuffer(cmd, new("VkCommandBufferBeginInfo",
                                                sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO)), "begin")
        barrier = new("VkMemoryBarrier", sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                      srcAccessMask=vk.VK_ACCESS_SHADER_WRITE_BIT,
                      dstAccessMask=vk.VK_ACCESS_SHADER_READ_BIT | vk.VK_ACCESS_SHADER_WRITE_BIT)
        lib.vkCmdPipelineBarrier(cmd, vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 0, 1, barrier, 0, ffi.NULL, 0, ffi.NULL)
        lib.vkCmdBindPipeline(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, self.pipeline)
        lib.vkCmdBindDescriptorSets(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, self.layout, 0, 1, self.sets, 0,
                                    ffi.NULL)
        lib.vkCmdDispatch(cmd, GROUPS, 1, 1)
        check(lib.vkEndCommandBuffer(cmd), "end")

    def loop(self, iterations: int) -> None:
        """The measured loop: submit, wait, reset — through ``vulkan.lib`` with structs built once."""
        queue, submit, dev, fences = self.queue, self.submit, self.device, self.fences
        submit_fn, wait_fn, reset_fn, fence = lib.vkQueueSubmit, lib.vkWaitForFences, lib.vkResetFences, fences[0]
        for _ in range(iterations):
            submit_fn(queue, 1, submit, fence)
            wait_fn(dev, 1, fences, 1, NO_TIMEOUT)
            reset_fn(dev, 1, fences)

    def destroy(self) -> None:
        dev = self.device
        lib.vkDeviceWaitIdle(dev)
        lib.vkDestroyFence(dev, self.fences[0], ffi.NULL)
        lib.vkDestroyCommandPool(dev, self.command_pool, ffi.NULL)
        lib.vkDestroyDescriptorPool(dev, self.pool, ffi.NULL)
        lib.vkDestroyPipeline(dev, self.pipeline, ffi.NULL)
        lib.vkDestroyShaderModule(dev, self.module, ffi.NULL)
        lib.vkDestroyPipelineLayout(dev, self.layout, ffi.NULL)
        lib.vkDestroyDescriptorSetLayout(dev, self.set_layout, ffi.NULL)
        lib.vkDestroyBuffer(dev, self.buffer, ffi.NULL)
        lib.vkFreeMemory(dev, self.memory, ffi.NULL)
        lib.vkDestroyDevice(dev, ffi.NULL)
        lib.vkDestroyInstance(self.instance, ffi.NULL)


def kdsl_loops(mgr: kp.Manager, spirv: bytes) -> tuple[dict, kp.Tensor]:
    """The three runtime loops, as ``name -> fn(iterations)``, over one device tensor."""
    t = mgr.tensor_t(np.zeros(N, np.uint32))
    algo = mgr.algorithm([t], spirv, workgroup=(GROUPS, 1, 1))
    mgr.sequence().eval(kp.OpSyncDevice([t]))
    recorded = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    single = mgr.sequence()
    round_trip = (mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo))
                  .record(kp.OpSyncLocal([t])))

    def pre_recorded(n):
        for _ in range(n):
            recorded.eval()

    def eval_op(n):
        for _ in range(n):
            single.eval(kp.OpAlgoDispatch(algo))

    def sync_round_trip(n):
        for _ in range(n):
            round_trip.eval()

    return {"pre-recorded eval()": pre_recorded, "eval(OpAlgoDispatch(...))": eval_op,
            "OpSyncDevice+dispatch+OpSyncLocal": sync_round_trip}, t


def measure(loops: dict, iterations: int, rounds: int = 7) -> dict[str, float]:
    """Best-round µs per call of each loop, rounds interleaved so drifting clocks hit every loop alike."""
    samples: dict[str, list[float]] = {name: [] for name in loops}
    for fn in loops.values():
        fn(max(iterations // 10, 10))  # warm-up
    for _ in range(rounds):
        for name, fn in loops.items():
            start = time.perf_counter()
            fn(iterations)
            samples[name].append((time.perf_counter() - start) / iterations * 1e6)
    return {name: min(values) for name, values in samples.items()}


def main(iterations: int = 2000) -> dict[str, float]:
    spirv = kp.compile_source(SHADER)
    bare = BareVulkan(spirv)
    mgr = kp.Manager()
    try:
        loops, tensor = kdsl_loops(mgr, spirv)
        results = measure({"bare vulkan.lib submit+wait": bare.loop, **loops}, iterations)
        mgr.sequence().eval(kp.OpSyncLocal([tensor]))
        assert tensor.data()[0] > 0, "the kernel did not run"
    finally:
        mgr.destroy()
        bare.destroy()
    floor = results["bare vulkan.lib submit+wait"]
    print(f"device: {kp.list_devices()[0]['device_name']}; {iterations} calls x 7 rounds, best round")
    print(f"{'loop':<36} {'µs/call':>9} {'vs bare':>8}")
    for name, us in results.items():
        print(f"{name:<36} {us:9.1f} {us / floor:7.2f}x")
    ratio = results["pre-recorded eval()"] / floor
    print(f"pre-recorded eval() is {ratio:.2f}x the bare loop (target <= 1.15x): "
          f"{'OK' if ratio <= 1.15 else 'ABOVE TARGET'}")
    return results


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
