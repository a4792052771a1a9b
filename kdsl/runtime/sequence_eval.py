"""Evaluating a Sequence: submit the recorded batch (checking its objects are alive), wait for it and run the
ops' host steps; synchronously (eval, with its replay fast path) or in two calls (eval_async, eval_await).

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> t = mgr.tensor_t(np.array([1, 2], dtype=np.float32))
    >>> seq = mgr.sequence().eval_async(kp.OpSyncDevice([t]))
    >>> seq.is_running(), seq.eval_await().is_running()
    (True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from . import lifetime
from .ops import OpBase
from .sequence_fence import NO_TIMEOUT, SequenceFence
from .sequence_recording import SequenceRecording
from .sequence_threads import enter_held, exclusive
from .vk import check, lib

# The chaining methods' return type: the Sequence itself (typing.Self is Python 3.11+).
_E = TypeVar("_E", bound="SequenceEval")


class SequenceEval(SequenceRecording, SequenceFence):
    """The evaluation methods of ``Sequence``."""

    def eval(self: _E, op: OpBase | None = None, during: Callable[[], Any] | None = None) -> _E:
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
                    # Until the wait returns the sequence runs: an interrupted wait (Ctrl-C) leaves it running,
                    # and the next call that needs it idle finishes it (_check_idle), not the caller.
                    self._resume = True
                    self.wait_fence()
                    self._pending = self._resume = False
                    self._evaluated = True
                return self
            self.eval_async(op)
            try:
                if during is not None:
                    during()
            finally:
                self._resume = True  # as above
                self.eval_await()
            return self
        finally:
            busy.release()

    def _check_deps(self) -> None:
        """Refuse to submit commands that use a destroyed tensor, image or algorithm."""
        for obj in self._deps:
            if obj._destroyed:
                raise lifetime.destroyed_error(f"cannot evaluate: {obj!r} used by a recorded operation was "
                                               "destroyed; record the operations again with live objects")

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
            try:
                res = lib.vkQueueSubmit(self._queue, 1, self._submit, self._fence)
            except KeyboardInterrupt:  # Python raises it as the call returns (it checks after calls): the batch
                # is on the queue. Unregistered, the next eval would submit the busy fence again (lavapipe then
                # aborts the process: "Promise already satisfied"); registered, the next call finishes it.
                self._running = self._pending = self._resume = True
                ctx.running[self._id] = self._weak
                raise
            if res < 0:  # (check() only for an error: a call less on the hot path)
                check(res, "vkQueueSubmit")
            # Registered only once submitted: a destroy that the garbage collector runs on this thread inside
            # this block must not find, and wait on the fence of, a batch that is not on the queue yet.
            self._running = self._pending = True
            self._resume = False
            ctx.running[self._id] = self._weak
        finally:
            lock.release()

    @exclusive
    def eval_async(self: _E, op: OpBase | None = None) -> _E:
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
    def eval_await(self: _E, timeout_ns: int = NO_TIMEOUT) -> _E:
        """Wait for the submitted batch, then run the ops' host steps. A no-op when nothing runs.

        A timeout raises ``TimeoutError`` and leaves the sequence running; await again later.
        """
        if not isinstance(timeout_ns, (int, np.integer)) or timeout_ns < 0:
            raise ValueError(f"timeout_ns must be a non-negative integer number of nanoseconds, got {timeout_ns!r}")
        self._ctx.check_usable()
        if not self._pending:
            return self
        self.wait_fence(min(int(timeout_ns), NO_TIMEOUT))
        self._pending = self._resume = False
        self._evaluated = True
        for o in self._post:
            o.post_eval()
        return self
