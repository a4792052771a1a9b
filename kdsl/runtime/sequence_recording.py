"""Recording into a Sequence: ops go into its command buffer (begin, record, end), and the recorded list is
replayed or forgotten (rerecord, clear). Every call returns the Sequence, so calls chain.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> t = mgr.tensor_t(np.array([1, 2], dtype=np.float32))
    >>> seq = mgr.sequence().record(kp.OpSyncDevice([t]))
    >>> seq.is_recording(), len(seq.end().clear()._ops)
    (True, 0)
"""

from __future__ import annotations

from typing import TypeVar

from . import sequence_resources
from .ops import OpBase
from .sequence_state import SequenceState
from .sequence_threads import exclusive
from .vk import check, lib, vulkan

# The chaining methods' return type: the Sequence itself (typing.Self is Python 3.11+).
_R = TypeVar("_R", bound="SequenceRecording")


class SequenceRecording(SequenceState):
    """The recording methods of ``Sequence``."""

    @exclusive
    def begin(self: _R) -> _R:
        """Start a fresh command buffer (what ``record`` does when needed)."""
        self._check_idle("begin recording")
        if not self._recording:
            check(lib.vkResetCommandBuffer(self._cmd, 0), "vkResetCommandBuffer")
            check(lib.vkBeginCommandBuffer(self._cmd, self._begin_info), "vkBeginCommandBuffer")
            self._recording = True
            if self._query_pool is not None:
                lib.vkCmdResetQueryPool(self._cmd, self._query_pool, 0, self._n_timestamps)
                lib.vkCmdWriteTimestamp(self._cmd, vulkan.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, self._query_pool, 0)
        return self

    @exclusive
    def end(self: _R) -> _R:
        """Close the command buffer (``eval`` does it when needed)."""
        if self._recording:
            self._recording = False
            # an object destroyed since it was recorded (an algorithm's descriptor set) makes the buffer invalid,
            # and ending it a Vulkan error: reset it instead (eval then refuses the dead objects)
            dead = sequence_resources.dead_object(self._batch) is not None
            check(lib.vkResetCommandBuffer(self._cmd, 0) if dead else lib.vkEndCommandBuffer(self._cmd),
                  "vkResetCommandBuffer" if dead else "vkEndCommandBuffer")
            self._prepare()
        return self

    def _prepare(self) -> None:
        """Work out once per recording what every eval needs: host steps and the objects to check alive."""
        batch = self._batch
        self._pre = [o for o in batch if o.has_pre_eval]
        self._post = [o for o in batch if o.has_post_eval]
        self._deps = list({id(obj): obj for o in batch for obj in o.objects()}.values())
        self._checked = -1  # new objects: check them on the next submission
        self._replayable = bool(batch) and not self._pre and not self._post

    @exclusive
    def record(self: _R, op: OpBase) -> _R:
        """Record ``op``. After an ``eval()`` recording starts a new command buffer that holds only the new ops
        (``rerecord()`` still replays everything recorded since the last ``clear()``)."""
        if not isinstance(op, OpBase):
            raise TypeError(f"Sequence.record takes a kp operation (OpSyncDevice, OpAlgoDispatch, ...), "
                            f"not {type(op).__name__}")
        self._check_idle("record")
        for obj in op.objects():
            if obj._ctx is not self._ctx:
                raise RuntimeError(f"{obj!r} belongs to another Manager; record it on a sequence of the Manager "
                                   "that made it")
        if not self._recording:
            # A new command buffer holds only what is recorded from now on; _ops keeps everything since the
            # last clear() for rerecord().
            self._batch_start = len(self._ops)
            self._evaluated = False
            self._record_checked = self._ctx.destroyed
        elif self._record_checked != self._ctx.destroyed:  # an object destroyed since: one of this buffer's?
            sequence_resources.refuse_dead(self)
        self.begin()
        try:
            op.record(self._cmd)
        except BaseException:
            self._abandon()
            raise
        self._ops.append(op)
        done = len(self._ops) - self._batch_start
        if self._query_pool is not None and done < self._n_timestamps:
            lib.vkCmdWriteTimestamp(self._cmd, vulkan.VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, self._query_pool, done)
        return self

    def _abandon(self) -> None:
        """A failed record leaves a half-written buffer: drop it, and re-record the batch that was there."""
        if self._recording:
            lib.vkEndCommandBuffer(self._cmd)
            self._recording = False
        batch, self._ops = self._batch, self._ops[:self._batch_start]
        for op in batch:
            self.record(op)

    @exclusive
    def rerecord(self: _R) -> _R:
        """Record again every op recorded since the last ``clear()``."""
        self._check_idle("rerecord")
        ops = self._ops
        self.clear()
        for op in ops:
            self.record(op)
        return self

    @exclusive
    def clear(self: _R) -> _R:
        """Forget the recorded ops (the command buffer is reset on the next record)."""
        self._check_idle("clear")
        self.end()
        self._ops, self._pre, self._post, self._deps = [], [], [], []
        self._replayable = False
        self._batch_start = 0
        self._evaluated = False
        return self
