"""A Sequence's fence wait: poll for the context's spin time, then block in the driver in slices; turn the two
fences over so that the waited one is reset while the next batch runs. (On every submission: the hot path.)

Example:
    >>> import numpy as np, kdsl.kp as kp
    >>> mgr = kp.Manager()
    >>> t = mgr.tensor_t(np.array([1, 2], dtype=np.float32))
    >>> seq = mgr.sequence().eval_async(kp.OpSyncDevice([t]))
    >>> seq.wait_fence(); seq._running, seq.is_running()
    (False, True)
"""

from __future__ import annotations

import time

from .sequence_state import SequenceState
from .sequence_threads import BLOCKING_WAITS, this, this_thread
from .vk import check, lib, vulkan

NO_TIMEOUT = 2**64 - 1
_SLICE_NS = 100_000_000  # blocking waits return to Python every 100 ms (signals, Ctrl-C)
_NOT_READY, _TIMEOUT = vulkan.VK_NOT_READY, vulkan.VK_TIMEOUT  # (module globals: read on every wait)


class SequenceFence(SequenceState):
    """The fence wait of ``Sequence``."""

    def wait_fence(self, timeout_ns: int = NO_TIMEOUT) -> None:
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
