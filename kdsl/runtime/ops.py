"""Operations a Sequence records. Each has three steps, as in Kompute: ``record`` (into the command buffer),
``pre_eval`` (host work before submit) and ``post_eval`` (host work after the fence). Adding an op never touches
the Sequence.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> a, b = mgr.tensor([1, 2, 3]), mgr.tensor([0, 0, 0])
    >>> _ = mgr.sequence().eval(kp.OpCopy([a, b]))
    >>> b.data()
    array([1., 2., 3.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from .algorithm import Algorithm
from .buffer import Buffer
from .image import Image
from .memory import Memory, Tensor
from .shaders import mult_spirv
from .vk import WHOLE_SIZE, ffi, lib, new, vulkan

A, S = vulkan, vulkan  # access flags and stage flags live in the same module; the aliases read better below
# Host writes need no barrier: vkQueueSubmit makes them visible to the device.
_WRITES = A.VK_ACCESS_SHADER_WRITE_BIT | A.VK_ACCESS_TRANSFER_WRITE_BIT
_ALL_STAGES = S.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | S.VK_PIPELINE_STAGE_TRANSFER_BIT


class Barrier:
    """A global memory barrier built once and recorded many times."""

    def __init__(self, src_access: int, dst_access: int, src_stage: int, dst_stage: int):
        self.info = new("VkMemoryBarrier", sType=vulkan.VK_STRUCTURE_TYPE_MEMORY_BARRIER, srcAccessMask=src_access,
                        dstAccessMask=dst_access)
        self.src_stage, self.dst_stage = src_stage, dst_stage

    def record(self, cmd) -> None:
        lib.vkCmdPipelineBarrier(cmd, self.src_stage, self.dst_stage, 0, 1, self.info, 0, ffi.NULL, 0, ffi.NULL)


BEFORE_DISPATCH = Barrier(_WRITES, A.VK_ACCESS_SHADER_READ_BIT | A.VK_ACCESS_SHADER_WRITE_BIT, _ALL_STAGES,
                          S.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)
BEFORE_TRANSFER = Barrier(_WRITES, A.VK_ACCESS_TRANSFER_READ_BIT | A.VK_ACCESS_TRANSFER_WRITE_BIT, _ALL_STAGES,
                          S.VK_PIPELINE_STAGE_TRANSFER_BIT)
TO_HOST = Barrier(_WRITES, A.VK_ACCESS_HOST_READ_BIT, _ALL_STAGES, S.VK_PIPELINE_STAGE_HOST_BIT)


def _check_mems(mems, minimum: int, name: str) -> list[Memory]:
    if isinstance(mems, Memory):
        mems = [mems]
    if not isinstance(mems, (list, tuple)):
        raise TypeError(f"{name} takes a list of tensors/images, not {type(mems).__name__}")
    if len(mems) < minimum:
        raise RuntimeError(f"{name} needs at least {minimum} memory object(s), got {len(mems)}")
    for m in mems:
        if not isinstance(m, Memory):
            raise TypeError(f"{name} takes kp tensors/images, got {type(m).__name__}")
    return list(mems)


class OpBase:
    """The interface every operation implements."""

    def record(self, cmd) -> None:
        raise NotImplementedError

    def pre_eval(self) -> None:
        """Host work before submission (none by default)."""

    def post_eval(self) -> None:
        """Host work after the GPU finished (none by default)."""

    def objects(self) -> list:
        """The runtime objects the recorded commands use (so they are not freed under the GPU)."""
        return []

    has_pre_eval = has_post_eval = False


class _OpSync(OpBase):
    """A copy between each ``device`` memory and its staging buffer (images: always): the two directions,
    :class:`OpSyncDevice` and :class:`OpSyncLocal`, differ only in it and in what follows the copies."""

    _NAME = ""
    _TO_DEVICE = True

    def __init__(self, mems):
        self.mems = _check_mems(mems, 1, self._NAME)

    def objects(self):
        return self.mems

    def record(self, cmd) -> None:
        for m in self.mems:
            m.check_alive("sync")
        targets = [m for m in self.mems if m.staging is not None and _needs_copy(m)]
        if targets:
            BEFORE_TRANSFER.record(cmd)
        for m in targets:
            _copy(cmd, m, to_device=self._TO_DEVICE)


class OpSyncDevice(_OpSync):
    """Upload: staging -> device buffer for ``device`` memory (nothing to do for host-visible memory types)."""

    _NAME = "OpSyncDevice"


class OpSyncLocal(_OpSync):
    """Download: device buffer -> staging for ``device`` memory, then make the host copy visible."""

    _NAME = "OpSyncLocal"
    _TO_DEVICE = False

    def record(self, cmd) -> None:
        super().record(cmd)
        TO_HOST.record(cmd)


def _needs_copy(m: Memory) -> bool:
    """Tensors copy only for ``device`` memory; images always go through their staging buffer."""
    return isinstance(m, Image) or m.memory_type() == 0


def _tensor(m: Memory) -> Tensor:
    """``m`` where only a tensor can be (the image cases were handled before)."""
    assert isinstance(m, Tensor), m
    return m


def _staging(m: Memory) -> Buffer:
    """The staging buffer of memory that has one (the callers checked)."""
    assert m.staging is not None, m
    return m.staging


def _copy(cmd, m: Memory, to_device: bool) -> None:
    if isinstance(m, Image):
        region = m.copy_region()
        staging = _staging(m).handle
        if to_device:
            lib.vkCmdCopyBufferToImage(cmd, staging, m.image, vulkan.VK_IMAGE_LAYOUT_GENERAL, 1, region)
        else:
            lib.vkCmdCopyImageToBuffer(cmd, m.image, vulkan.VK_IMAGE_LAYOUT_GENERAL, staging, 1, region)
        return
    t = _tensor(m)
    region = new("VkBufferCopy", size=t.nbytes)
    src, dst = (_staging(t), t.primary) if to_device else (t.primary, _staging(t))
    lib.vkCmdCopyBuffer(cmd, src.handle, dst.handle, 1, region)


class OpCopy(OpBase):
    """Copy ``mems[0]`` into every other memory object, on the GPU and in host memory."""

    has_post_eval = True

    def __init__(self, mems):
        self.mems = _check_mems(mems, 2, "OpCopy")
        # A copy whose source and destination overlap is undefined in Vulkan (vkCmdCopyBuffer/Image), and two
        # copies into one destination race: every memory object may appear once.
        seen: dict[int, int] = {}
        for i, m in enumerate(self.mems):
            if id(m) in seen:
                first = seen[id(m)]
                role = "the source" if first == 0 else f"destination {first}"
                raise RuntimeError(f"OpCopy: {m!r} is both {role} and destination {i} (overlapping copy); every "
                                   "tensor/image may appear once: copy through a temporary tensor instead")
            seen[id(m)] = i

    def objects(self):
        return self.mems

    def record(self, cmd) -> None:
        src = self.mems[0]
        for dst in self.mems:
            dst.check_alive("copy")
        for dst in self.mems[1:]:
            shapes_differ = (isinstance(src, Image) and isinstance(dst, Image)
                             and (src.width(), src.height()) != (dst.width(), dst.height()))
            if dst.size() != src.size() or dst.dtype != src.dtype or shapes_differ:
                raise RuntimeError(f"OpCopy: cannot copy {src!r} into {dst!r}; source and destination must have "
                                   "the same size and dtype (and images the same width and height)")
        BEFORE_TRANSFER.record(cmd)
        for dst in self.mems[1:]:
            _copy_between(cmd, src, dst)
        TO_HOST.record(cmd)

    def post_eval(self) -> None:
        src = self.mems[0]
        if src.memory_type() == 2 or not src.is_init():
            return
        for dst in self.mems[1:]:
            # The GPU copy already reached host-visible memory types; a staging copy needs the host data too.
            if dst.is_init() and dst.staging is not None and dst.memory_type() != 2:
                np.asarray(dst)[...] = np.asarray(src)


def _copy_between(cmd, src: Memory, dst: Memory) -> None:
    """Record a GPU copy of all of ``src`` into ``dst`` (tensor or image on either side)."""
    general = vulkan.VK_IMAGE_LAYOUT_GENERAL
    if isinstance(src, Image) and isinstance(dst, Image):
        region = ffi.new("VkImageCopy*")
        for sub in (region.srcSubresource, region.dstSubresource):
            sub.aspectMask, sub.layerCount = vulkan.VK_IMAGE_ASPECT_COLOR_BIT, 1
        region.extent.width, region.extent.height, region.extent.depth = src.width(), src.height(), 1
        lib.vkCmdCopyImage(cmd, src.image, general, dst.image, general, 1, region)
    elif isinstance(src, Image):
        lib.vkCmdCopyImageToBuffer(cmd, src.image, general, _tensor(dst).primary.handle, 1, src.copy_region())
    elif isinstance(dst, Image):
        lib.vkCmdCopyBufferToImage(cmd, _tensor(src).primary.handle, dst.image, general, 1, dst.copy_region())
    else:
        region = new("VkBufferCopy", size=_tensor(src).nbytes)
        lib.vkCmdCopyBuffer(cmd, _tensor(src).primary.handle, _tensor(dst).primary.handle, 1, region)


class OpAlgoDispatch(OpBase):
    """Barrier, bind, push constants, dispatch. Push constants given here replace the algorithm's from now on.

    ``barrier=False`` (kdsl's addition) leaves the barrier out: the dispatch may then run while the ones recorded
    before it still run, so it must neither read what they write nor write what they read or write (kdsl.linalg
    overlaps a one-workgroup step with a large independent update this way).
    """

    def __init__(self, algorithm: Algorithm, push_consts=None, *, barrier: bool = True):
        if not isinstance(algorithm, Algorithm):
            raise TypeError(f"OpAlgoDispatch takes a kp.Algorithm, not {type(algorithm).__name__}")
        self.algorithm = algorithm
        self.push = push_consts
        self.barrier = barrier

    def objects(self):
        return [self.algorithm, *self.algorithm.get_mem_objects()]

    def record(self, cmd) -> None:
        algo = self.algorithm
        algo._check_alive()
        for m in algo.get_mem_objects():
            m.check_alive("dispatch with")
        push = None
        if self.push is not None and not (isinstance(self.push, (list, tuple)) and len(self.push) == 0):
            push = algo._checked_push(self.push)
            algo._push = push  # Kompute's rule: they replace the algorithm's from now on
        if self.barrier:
            BEFORE_DISPATCH.record(cmd)
        algo.record_dispatch(cmd, push)


class OpMult(OpAlgoDispatch):
    """``out[i] = a[i] * b[i]`` for three float32 tensors ``[a, b, out]``, rebuilding ``algorithm`` to do it."""

    def __init__(self, mems, algorithm: Algorithm):
        mems = _check_mems(mems, 3, "OpMult")
        if len(mems) != 3:
            raise RuntimeError(f"OpMult takes exactly 3 tensors [a, b, out], got {len(mems)}")
        if not all(isinstance(m, Tensor) and m.dtype == np.float32 for m in mems):
            raise RuntimeError("OpMult multiplies float32 tensors; convert the data to float32")
        if not isinstance(algorithm, Algorithm):
            raise TypeError(f"OpMult takes a kp.Algorithm, not {type(algorithm).__name__}")
        algorithm.rebuild(mems, mult_spirv(), (mems[2].size(), 1, 1))
        super().__init__(algorithm)


class OpMemoryBarrier(OpBase):
    """A buffer memory barrier on each tensor's primary (or staging) buffer, with the given masks."""

    def __init__(self, mems, src_access: int, dst_access: int, src_stage: int, dst_stage: int,
                 barrier_on_primary: bool = True):
        self.mems = _check_mems(mems, 1, "OpMemoryBarrier")
        self.masks = (int(src_access), int(dst_access))
        self.stages = (int(src_stage), int(dst_stage))
        self.on_primary = barrier_on_primary

    def objects(self):
        return self.mems

    def record(self, cmd) -> None:
        buffers = []
        for m in self.mems:
            m.check_alive("put a barrier on")
            if isinstance(m, Tensor):
                buffers.append(m.primary if self.on_primary or m.staging is None else m.staging)
        barriers = ffi.new("VkBufferMemoryBarrier[]", max(len(buffers), 1))
        for i, buf in enumerate(buffers):
            b = barriers[i]
            b.sType = vulkan.VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER
            b.srcAccessMask, b.dstAccessMask = self.masks
            b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = vulkan.VK_QUEUE_FAMILY_IGNORED
            b.buffer, b.offset, b.size = buf.handle, 0, WHOLE_SIZE
        lib.vkCmdPipelineBarrier(cmd, self.stages[0], self.stages[1], 0, 0, ffi.NULL, len(buffers), barriers,
                                 0, ffi.NULL)
