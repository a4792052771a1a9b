"""Sequence: records operations into one command buffer and submits them as a batch, sync or async.

Every mutating call returns the Sequence, so calls chain. The hot path (submit, wait, reset) calls
``vulkan.lib`` with structs built once in ``__init__``. The methods live by concept: recording in
``sequence_recording.py``, submission and waiting in ``sequence_eval.py``, the fence wait in ``sequence_fence.py``;
here, the creation, the state queries and the destruction.

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
import weakref
from typing import Any

from . import sequence_resources
from .ops import OpBase
from .sequence_eval import SequenceEval
from .sequence_threads import exclusive


class Sequence(SequenceEval):
    """A command buffer, a fence and the ops recorded into it. Made by ``Manager.sequence``."""

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
        self._recording = self._running = self._pending = self._evaluated = self._resume = False
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
