"""The Vulkan objects a Sequence owns: its command pool and buffer, its two fences and the timestamp query pool;
the checks of what they are made from, their creation, the timestamps read back, and their release.

None of this runs per submission: the hot path (submit, wait, reset) stays in ``sequence.py``.

Example:
    >>> import kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> seq = mgr.sequence(total_timestamps=2)
    >>> seq._query_pool is not None
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .vk import VulkanError, check, destroy, ffi, lib, new, track, vulkan

if TYPE_CHECKING:
    from .sequence import Sequence
    from .sequence_state import SequenceState

# A sane bound for timestamps: one per recorded op. Vulkan sets no query-count limit, but each query costs
# driver memory (10**9 of them took 3.6 GB on lavapipe before hanging); nobody records a million ops.
MAX_TIMESTAMPS = 1 << 20


def dead_object(batch: list) -> Any:
    """The first object the ops of ``batch`` use that was destroyed, or None."""
    return next((obj for o in batch for obj in o.objects() if obj._destroyed), None)


def refuse_dead(seq: SequenceState) -> None:
    """A RuntimeError when an object recorded earlier in ``seq``'s open command buffer was destroyed: Vulkan
    makes that buffer invalid, so recording more into it is an error (``clear()`` and record again)."""
    obj = dead_object(seq._batch)
    if obj is not None:
        raise RuntimeError(f"cannot record: {obj!r}, used by an operation recorded earlier in this command "
                           "buffer, was destroyed; clear() the sequence and record the operations again with live "
                           "objects")
    seq._record_checked = seq._ctx.destroyed


def checked_arguments(ctx: Any, queue_index: Any, total_timestamps: Any) -> tuple[int, int]:
    """(queue index, queue family) of a new Sequence on ``ctx``, after checking its arguments."""
    n_queues = len(ctx.queues)
    if isinstance(queue_index, np.integer):
        queue_index = int(queue_index)
    if not isinstance(queue_index, int) or isinstance(queue_index, bool) or not 0 <= queue_index < n_queues:
        raise RuntimeError(f"queue index {queue_index} is out of range: this Manager has {n_queues} queue(s) "
                           "(ask for more with Manager(device, family_queue_indices=[...]))")
    if isinstance(total_timestamps, bool) or not isinstance(total_timestamps, (int, np.integer)):
        raise TypeError(f"total_timestamps must be an int, not {type(total_timestamps).__name__}")
    if total_timestamps < 0:
        raise RuntimeError("total_timestamps must be >= 0")
    if total_timestamps > MAX_TIMESTAMPS:
        raise RuntimeError(f"total_timestamps={total_timestamps} is more than kdsl allows ({MAX_TIMESTAMPS}, "
                           "one timestamp per recorded operation); ask for as many as you will record")
    family = ctx.queue_families[queue_index]
    if total_timestamps and not ctx.info["queue_families"][family]["timestamp_valid_bits"]:
        raise RuntimeError(f"queue family {family} of this device does not support timestamps; "
                           "create the sequence with total_timestamps=0")
    return queue_index, family


def create(seq: Sequence, family: int) -> None:
    """Create ``seq``'s command pool and buffer, fences and query pool, and the structs of its hot path."""
    dev = seq._ctx.device
    pool_info = new("VkCommandPoolCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                    queueFamilyIndex=family, flags=vulkan.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT)
    pool = ffi.new("VkCommandPool*")
    check(lib.vkCreateCommandPool(dev, pool_info, ffi.NULL, pool), "vkCreateCommandPool")
    seq._pool = pool[0]
    track("VkCommandPool", 1)
    alloc = new("VkCommandBufferAllocateInfo", sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                commandPool=seq._pool, level=vulkan.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1)
    seq._cmds = ffi.new("VkCommandBuffer[1]")
    check(lib.vkAllocateCommandBuffers(dev, alloc, seq._cmds), "vkAllocateCommandBuffers")
    seq._cmd = seq._cmds[0]
    fence_info = new("VkFenceCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO)
    for _ in range(2):
        fence = ffi.new("VkFence[1]")
        check(lib.vkCreateFence(dev, fence_info, ffi.NULL, fence), "vkCreateFence")
        seq._fence_pair.append(fence)
        track("VkFence", 1)
    seq._fences, seq._fence = seq._fence_pair[0], seq._fence_pair[0][0]
    if seq._n_timestamps:
        info = new("VkQueryPoolCreateInfo", sType=vulkan.VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                   queryType=vulkan.VK_QUERY_TYPE_TIMESTAMP, queryCount=seq._n_timestamps)
        qp = ffi.new("VkQueryPool*")
        check(lib.vkCreateQueryPool(dev, info, ffi.NULL, qp), "vkCreateQueryPool")
        seq._query_pool = qp[0]
        track("VkQueryPool", 1)
    # Built once: the structs of the hot path.
    seq._submit = new("VkSubmitInfo", sType=vulkan.VK_STRUCTURE_TYPE_SUBMIT_INFO, commandBufferCount=1,
                      pCommandBuffers=seq._cmds)
    seq._begin_info = new("VkCommandBufferBeginInfo", sType=vulkan.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO)
    seq._dev = dev


def read_timestamps(seq: Sequence) -> list[int]:
    """``seq``'s GPU timestamps (ticks): one before the first op and one after each op (up to total_timestamps)."""
    if seq._query_pool is None:
        raise RuntimeError("timestamps are not enabled: create the sequence with "
                           "mgr.sequence(total_timestamps=N)")
    seq._check_idle("read timestamps")
    if not seq._evaluated:
        raise RuntimeError("no timestamps yet: evaluate the sequence first")
    count = min(len(seq._batch) + 1, seq._n_timestamps)
    data = ffi.new("uint64_t[]", count)
    check(lib.vkGetQueryPoolResults(seq._dev, seq._query_pool, 0, count, 8 * count, data, 8,
                                    vulkan.VK_QUERY_RESULT_64_BIT | vulkan.VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults")
    return [int(data[i]) for i in range(count)]


def free(seq: Sequence) -> None:
    """Free ``seq``'s Vulkan objects (idempotent), after waiting for a running batch; in a forked child whose
    parent made the sequence, only forget them."""
    if seq._destroyed and not getattr(seq, "_pinned", False):
        return
    if seq._ctx.foreign:
        seq._destroyed, seq._pinned, seq._running, seq._pending = True, False, False, False
        seq._ops, seq._fence_pair = [], []
        seq._pool = seq._fence = seq._fences = seq._stale = seq._query_pool = None
        return
    dev = seq._ctx.device
    if dev is not None and seq._running:
        try:
            seq.wait_fence()
        except VulkanError:  # a lost device finishes nothing: free the objects anyway
            seq._running = False
    seq._destroyed, seq._pending = True, False
    seq._ops, seq._replayable = [], False
    for fence in seq._fence_pair:
        if dev is not None:
            destroy(lib.vkDestroyFence, dev, fence[0], "VkFence")
    seq._fence_pair, seq._fence, seq._fences, seq._stale = [], None, None, None
    for attr, kind, fn in (("_query_pool", "VkQueryPool", lib.vkDestroyQueryPool),
                           ("_pool", "VkCommandPool", lib.vkDestroyCommandPool)):
        handle = getattr(seq, attr, None)
        if handle is not None and dev is not None:
            destroy(fn, dev, handle, kind)
        setattr(seq, attr, None)
    if getattr(seq, "_pinned", False):
        seq._pinned = False
        seq._ctx.unpin()
