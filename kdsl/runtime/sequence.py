"""Sequence: records operations into one command buffer and submits them as a batch, sync or async.

Every mutating call returns the Sequence, so calls chain. The hot path (submit, wait, reset) calls
``vulkan.lib`` with structs built once in ``__init__``.

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> t = mgr.tensor_t(np.array([1, 2], dtype=np.float32))
    >>> seq = mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpSyncLocal([t]))
    >>> seq.eval().is_running()
    False
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from . import sequence_resources
from .lifetime import Destroyable
from .ops import OpBase
from .sequence_threads import BLOCKING_WAITS, enter_held, exclusive, this, this_thread
from .vk import check, lib, vulkan

_NO_TIMEOUT = 2**64 - 1
_SLICE_NS = 100_000_000  # blocking waits return to Python every 100 ms (signals, Ctrl-C)
_NOT_READY, _TIMEOUT = vulkan.VK_NOT_READY, vulkan.VK_TIMEOUT  # (module globals: read on every wait)


class Sequence(Destroyable):
    """A command buffer, a fence and the ops recorded into it. Made by ``Manager.sequence``."""

    # Set by sequence_resources.create: the command buffer and the structs of the hot path.
    _cmds: Any
    _cmd: Any
    _submit: Any
    _begin_info: Any
    _dev: Any

    def __init__(self, ctx, queue_index: int = 0, total_timestamps: int = 0):
        self._ctx = ctx
        self._destroyed = True
        queue_index, family = sequence_resources.checked_arguments(ctx, queue_index, total_timestamps)
        self._queue = ctx.queues[queue_index]
        self._ops: list[OpBase] = []
        self._batch_start = 0
        self._replayable = False
        self._pre: list[OpBase] = []
        self._post: list[OpBase] = []
        self._deps: list = []
        self._checked = -1  # the context's destruction count when _deps were last found alive (-1: never)
        self._record_checked = 0  # the destruction count when the open command buffer's objects were alive
        # _running: the fence is not yet waited for; _pending: submitted and eval_await (the host
        # steps) not yet done. Another thread may wait for the fence, never run the host steps.
        self._recording = self._running = self._pending = self._evaluated = False
        self._n_timestamps = total_timestamps + 1 if total_timestamps else 0
        self._pool = self._fence = self._query_pool = None
        # Two fences, used by turns: a waited batch's fence is reset while the next batch runs (see wait_fence),
        # not between the GPU finishing and Python going on. _fences is the turn's (a VkFence[1]), _stale the
        # other one while it still needs its reset.
        self._fence_pair: list[Any] = []
        self._fences: Any = None
        self._stale: Any = None
        self._busy = threading.RLock()  # held by the thread inside a public method (see sequence_threads.exclusive)
        self._destroying = False  # set by destroy() before it waits for _busy (sequence_threads.enter_held)
        self._fence_lock = threading.Lock()  # waiting on and resetting the fence: owner or a destroying thread
        ctx.pin()
        self._pinned = True
        self._destroyed = False
        try:
            self._create(family)
        except BaseException:
            self.destroy()
            raise

    def _create(self, family: int) -> None:
        sequence_resources.create(self, family)
        self._id, self._weak = id(self), weakref.ref(self)

    # ----- recording -----
    def _check_idle(self, action: str) -> None:
        self._ctx.check_usable()
        if self._destroyed:
            why = self._ctx.destroyed_why("")
            raise RuntimeError(f"cannot {action}: this sequence was destroyed{': ' + why if why else ''}")
        if self._pending:
            raise RuntimeError(f"cannot {action} while the sequence is running; call eval_await() first")

    @exclusive
    def begin(self) -> Sequence:
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
    def end(self) -> Sequence:
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
    def record(self, op: OpBase) -> Sequence:
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

    @property
    def _batch(self) -> list[OpBase]:
        """The ops in the current command buffer."""
        return self._ops[self._batch_start:]

    def _abandon(self) -> None:
        """A failed record leaves a half-written buffer: drop it, and re-record the batch that was there."""
        if self._recording:
            lib.vkEndCommandBuffer(self._cmd)
            self._recording = False
        batch, self._ops = self._batch, self._ops[:self._batch_start]
        for op in batch:
            self.record(op)

    @exclusive
    def rerecord(self) -> Sequence:
        """Record again every op recorded since the last ``clear()``."""
        self._check_idle("rerecord")
        ops = self._ops
        self.clear()
        for op in ops:
            self.record(op)
        return self

    @exclusive
    def clear(self) -> Sequence:
        """Forget the recorded ops (the command buffer is reset on the next record)."""
        self._check_idle("clear")
        self.end()
        self._ops, self._pre, self._post, self._deps = [], [], [], []
        self._replayable = False
        self._batch_start = 0
        self._evaluated = False
        return self

    # ----- evaluation -----
    def eval(self, op: OpBase | None = None, during: Callable[[], Any] | None = None) -> Sequence:
        """Submit and wait. ``eval(op)`` first clears and records ``op``; ``eval()`` replays what is recorded.

        ``during`` (a kdsl addition): called once the batch is submitted, before the wait, so that host work
        overlaps the device's; the batch is waited for even when it raises.

        One thread at a time, as every method (see ``exclusive``); the check is written out here because a
        replay is the hot path of every kdsl loop and the generic wrapper costs a frame and argument packing.
        So is the replay itself (an ended command buffer with no host steps: submit, ``during``, wait)."""
        busy = self._busy
        if not busy.acquire(blocking=False):
            enter_held(self, "eval")
        try:
            if op is None and self._replayable and not self._recording and not self._pending:
                if self._ctx.foreign:
                    self._ctx.check_usable()
                self._submit_batch()
                try:
                    if during is not None:
                        during()
                finally:
                    self.wait_fence()  # until it returns the sequence runs: an interrupted wait leaves it for
                    self._pending = False  # eval_await()
                    self._evaluated = True
                return self
            self.eval_async(op)
            try:
                if during is not None:
                    during()
            finally:
                self.eval_await()
            return self
        finally:
            busy.release()

    def _check_deps(self) -> None:
        """Refuse to submit commands that use a destroyed tensor, image or algorithm."""
        for obj in self._deps:
            if obj._destroyed:
                raise RuntimeError(f"cannot evaluate: {obj!r} used by a recorded operation was destroyed; "
                                   "record the operations again with live objects")

    def _submit_batch(self) -> None:
        """Check the recorded objects are alive, register as running and submit: one step under the context's
        submit lock, so another thread destroying an object either is seen here or waits for this batch.

        The objects are checked again only when one was destroyed since the last check (the context counts
        destructions, under the same lock): a replay loop then skips the walk over them."""
        ctx = self._ctx
        lock = ctx.submit_lock
        lock.acquire()  # (acquire/release rather than ``with`` on the hot path: cheaper)
        try:
            if self._checked != ctx.destroyed:
                self._check_deps()
                self._checked = ctx.destroyed
            res = lib.vkQueueSubmit(self._queue, 1, self._submit, self._fence)
            if res < 0:  # (check() only for an error: a call less on the hot path)
                check(res, "vkQueueSubmit")
            # Registered only once submitted: a destroy that the garbage collector runs on this thread inside
            # this block must not find, and wait on the fence of, a batch that is not on the queue yet.
            self._running = self._pending = True
            ctx.running[self._id] = self._weak
        finally:
            lock.release()

    @exclusive
    def eval_async(self, op: OpBase | None = None) -> Sequence:
        """Submit without waiting; ``eval_await`` finishes it."""
        self._check_idle("evaluate")
        if op is not None:
            self.clear()
            self.record(op)
        self.end()
        for o in self._pre:
            o.pre_eval()
        self._check_deps()
        if not self._batch:
            self._evaluated = True
            return self
        self._submit_batch()
        return self

    @exclusive
    def eval_await(self, timeout_ns: int = _NO_TIMEOUT) -> Sequence:
        """Wait for the submitted batch, then run the ops' host steps. A no-op when nothing runs.

        A timeout raises ``TimeoutError`` and leaves the sequence running; await again later.
        """
        if not isinstance(timeout_ns, (int, np.integer)) or timeout_ns < 0:
            raise ValueError(f"timeout_ns must be a non-negative integer number of nanoseconds, got {timeout_ns!r}")
        self._ctx.check_usable()
        if not self._pending:
            return self
        self.wait_fence(min(int(timeout_ns), _NO_TIMEOUT))
        self._pending = False
        self._evaluated = True
        for o in self._post:
            o.post_eval()
        return self

    def wait_fence(self, timeout_ns: int = _NO_TIMEOUT) -> None:
        """Wait for the GPU work of this sequence (no host steps); raise TimeoutError on timeout.

        Safe from any thread: a thread destroying a tensor waits here for the sequences that use it, and only
        one of the waiters turns the fences over.

        The wait polls the fence for up to the context's spin time, then blocks in the driver. A blocking wait
        wakes up tens of microseconds after the GPU finishes (an interrupt and a thread wake-up); polling
        notices at once, as CUDA's default synchronisation does. CPU devices spin 0 µs: the poller would take a
        core from the driver's own worker threads; nor does a thread inside :func:`blocking_waits`. Blocking
        happens in slices of ``_SLICE_NS`` so that Ctrl-C reaches Python during a long kernel (the sequence then
        stays running). (One function: this runs on every submission.)
        """
        if not self._running or self._ctx.foreign:
            return
        lock = self._fence_lock
        lock.acquire()  # (acquire/release rather than ``with`` on the hot path: cheaper)
        try:
            if not self._running:  # another thread waited for it meanwhile
                return
            dev, fence = self._dev, self._fence
            if self._stale is not None:  # the previous batch's fence: reset now, while the device runs this one
                lib.vkResetFences(dev, 1, self._stale)
                self._stale = None
            spin = self._ctx.spin_ns
            if spin:
                if getattr(this.thread or this_thread(), BLOCKING_WAITS, False):
                    spin = 0
                elif spin > timeout_ns:
                    spin = timeout_ns
            res = _NOT_READY
            if spin:
                status = lib.vkGetFenceStatus
                res = status(dev, fence)
                if res == _NOT_READY:
                    deadline = time.perf_counter_ns() + spin
                    while res == _NOT_READY and time.perf_counter_ns() < deadline:
                        res = status(dev, fence)
            if res == _NOT_READY:  # not signalled (nor an error such as a lost device): block
                left = timeout_ns - spin
                while True:
                    res = lib.vkWaitForFences(dev, 1, self._fences, 1, left if left < _SLICE_NS else _SLICE_NS)
                    left -= _SLICE_NS
                    if res != _TIMEOUT or left <= 0:
                        break
            if res == _TIMEOUT:
                raise TimeoutError(f"the sequence did not finish within {timeout_ns} ns; it is still running: "
                                   "call eval_await() again to wait for it")
            if res < 0:
                check(res, "vkWaitForFences")
            # The next batch signals the other fence (reset during the previous wait); this one is reset
            # during the next wait.
            self._stale = self._fences
            self._fences = self._fence_pair[self._fences is self._fence_pair[0]]  # (the other one)
            self._fence = self._fences[0]
            self._running = False
            self._ctx.running.pop(self._id, None)
        finally:
            lock.release()

    # ----- state -----
    def is_running(self) -> bool:
        """True from ``eval_async`` until ``eval_await`` (even when the GPU finished earlier)."""
        return self._pending

    def is_recording(self) -> bool:
        return self._recording

    def is_init(self) -> bool:
        return not self._destroyed

    def uses(self, obj) -> bool:
        """True when a recorded operation uses ``obj``."""
        return any(obj is o for op in self._batch for o in op.objects())

    @exclusive
    def get_timestamps(self) -> list[int]:
        """GPU timestamps (ticks): one before the first op and one after each op (up to total_timestamps)."""
        return sequence_resources.read_timestamps(self)

    def destroy(self) -> None:
        """Free the command pool, fence and query pool (idempotent); waits if still running.

        Another thread inside this sequence finishes its call first. In a forked child whose parent made the
        sequence, it only forgets the objects.
        """
        busy = getattr(self, "_busy", None)
        if busy is None:
            return
        self._destroying = True  # another thread's call waits for this one, then finds the sequence destroyed
        with busy:
            self._destroy()

    def _destroy(self) -> None:
        sequence_resources.free(self)

    def renew_locks(self) -> None:
        """In a forked child (called by the Manager's fork hook): a parent thread may have been inside this
        Sequence at fork time; its locks would stay held, and the child's destroy (at exit, or when the object
        is collected) would wait for them forever."""
        self._busy, self._fence_lock = threading.RLock(), threading.Lock()

    def __repr__(self) -> str:
        state = "destroyed" if self._destroyed else ("running" if self._running else f"{len(self._ops)} ops")
        return f"<kp.Sequence {state}>"
