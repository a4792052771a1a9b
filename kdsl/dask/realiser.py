"""Realising Dask's stored kdsl results in the background, in batches, while the tasks that follow run.

Dask keeps whatever a task returned. A lazy kdsl array kept there must be computed once - otherwise every task
that reads it (a persisted chunk, at every step) recomputes it - but computing it in the task, or in the
worker's event loop as it is stored, makes the device wait for Dask and Dask for the device: each result is one
submission waited on before the next task may start, and the scheduler's messages queue behind it. A
:class:`Realiser` instead takes stored results on one background thread of the process: it computes everything
queued so far in one submission (``kd.realize`` of the batch), so the device works on the first chunks while
Dask schedules and runs the next tasks (which only build lazy graphs: building takes no lock, see
docs/concurrency.md). A task that reads a result still queued simply waits on the device's lock, or computes it
itself; a result no longer referenced when its turn comes is skipped.

Example:
    >>> import kdsl as kd
    >>> r = Realiser()
    >>> y = kd.ones(4) * 3
    >>> r.put(y)
    >>> r.flush()
    True
    >>> y._node.realized, y.tolist()
    (True, [3.0, 3.0, 3.0, 3.0])
    >>> r.close()
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import weakref
from typing import Any

import dask
from dask.callbacks import Callback

import kdsl as kd

logger = logging.getLogger(__name__)


class Realiser:
    """A background thread computing the kdsl arrays given to :meth:`put`, all queued ones in one batch.

    ``batches`` and ``arrays`` count what it has computed (for tests and diagnostics). Errors are logged and
    the array stays lazy: the task that reads it recomputes it and raises the error where it belongs."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._queue: list[weakref.ref[kd.Array]] = []
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        _realisers.add(self)
        self.batches = 0
        self.arrays = 0

    def put(self, value: Any) -> None:
        """Queue ``value`` to be computed if it is a lazy kdsl array, or the lazy kdsl arrays in it if it is a
        list, tuple or dict (the partial results of some of Dask's reductions); anything else is ignored."""
        lazy = [weakref.ref(a) for a in _arrays(value) if not a._node.realized]
        if not lazy:
            return
        with self._cond:
            if self._closed:
                return
            self._start()
            self._queue.extend(lazy)
            self._cond.notify()

    def after_fork(self) -> None:
        """In a forked child (the module's fork hook calls it): the child has this object but not its thread, and
        what was queued belongs to the parent's devices: start afresh. The condition is new too: the parent's
        thread may have held its lock at fork time, and the child's first put or flush would wait forever."""
        self._cond = threading.Condition()
        self._thread, self._queue, self._busy, self._closed = None, [], False, False

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="kdsl-dask-realiser", daemon=True)
            # Its waits for the device block at once: a poll would keep taking the GIL from the threads that
            # run Dask while the device works (kdsl.runtime.sequence_threads.blocking_waits).
            setattr(self._thread, "kdsl_blocking_waits", True)  # noqa: B010 - an attribute Thread does not declare
            self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if self._closed and not self._queue:
                    return
                refs, self._queue, self._busy = self._queue, [], True
            try:
                self._realise([a for a in (r() for r in refs) if a is not None and not a._node.realized])
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _realise(self, arrays: list[kd.Array]) -> None:
        if not arrays:
            return
        try:
            kd.realize(*arrays)  # one submission per device for the whole batch
        except Exception:
            logger.exception("kdsl.dask: computing %d stored result(s) in the background failed; the tasks "
                             "that read them will compute them again", len(arrays))
            return
        self.batches += 1
        self.arrays += len(arrays)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued so far is computed; False if ``timeout`` seconds passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self, timeout: float | None = 30.0) -> None:
        """Compute what is queued, then stop the thread (it is started again by the next :meth:`put`)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout)
        with self._cond:
            self._closed = False
            if thread is None or not thread.is_alive():  # (one still busy past the timeout keeps its place)
                self._thread = None


_realisers: weakref.WeakSet[Realiser] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for realiser in list(_realisers):
        realiser.after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _arrays(value: Any) -> list[kd.Array]:
    if isinstance(value, kd.Array):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return [v for v in items if isinstance(v, kd.Array)]


_shared = Realiser()
atexit.register(_shared.close)  # finish (and stop submitting) before kdsl's devices are torn down


def shared() -> Realiser:
    """This process's :class:`Realiser` (Dask's workers and local schedulers use it)."""
    return _shared


def flush(dask_worker: Any = None, timeout: float | None = None) -> bool:
    """Wait until the stored results of this process are computed: ``client.run(kdsl.dask.flush)`` on every
    worker. False if ``timeout`` seconds passed first. (``dask_worker`` is what ``client.run`` passes.)"""
    return _shared.flush(timeout)


class TaskResults(Callback):
    """A callback of Dask's local schedulers (``threads``, ``sync``) giving each task's kdsl result to the
    process's :class:`Realiser`, so the device runs the first chunks while the next tasks are scheduled.
    :func:`kdsl.dask.register` registers one for every computation (see :func:`enabled`).

    A result that exactly one task of the computation reads - each partial sum of a tree reduction, each step
    of a chain of ``map_blocks`` - stays lazy: that task builds on its graph, so it is computed once, fused
    into what reads it, instead of in a submission of its own (the whole tree of a reduction becomes one
    submission, as the same reduction written in plain kdsl). Unless its graph reads at least
    :func:`background_bytes` of computed data: then the device has enough to do that starting it while Dask
    schedules the next tasks gains more than a submission costs. Results read by several tasks, and the
    computation's own results, are computed in the background as before."""

    def _posttask(self, key: Any, result: Any, dsk: Any, state: Any, worker_id: Any) -> None:
        if enabled() and (not read_once(key, state) or bytes_read(result, background_bytes()) >= background_bytes()):
            _shared.put(result)


def read_once(key: Any, state: Any) -> bool:
    """Whether exactly one task of a local scheduler's computation (``state``, Dask's ``get_async`` state)
    reads the result of ``key``: then it need not be computed on its own.

    >>> read_once("x", {"dependents": {"x": {"y"}, "y": set()}}), read_once("y", {"dependents": {"y": set()}})
    (True, False)
    """
    try:
        return len(state["dependents"][key]) == 1
    except (KeyError, TypeError):  # another scheduler's state: compute the result, as for any result
        return False


def bytes_read(value: Any, enough: int) -> int:
    """How many bytes of computed device data the lazy kdsl arrays in ``value`` read (their graphs' realised
    inputs, each counted once; a view counts its whole buffer), counted until ``enough`` is reached. Only the
    first few hundred nodes are visited: a reduction's partial result is a handful.

    >>> import kdsl as kd
    >>> x = kd.ones((1000, 4))
    >>> kd.realize(x)
    >>> bytes_read(x.sum(axis=0, keepdims=True), 1 << 30), bytes_read(x, 1 << 30)  # (x itself is computed)
    (16000, 0)
    """
    stack = [a._node for a in _arrays(value) if not a._node.realized]
    seen: set[int] = set()
    total = 0
    while stack and total < enough and len(seen) < 512:
        node = stack.pop()
        if node.id in seen:
            continue
        seen.add(node.id)
        if node.realized:
            total += node.size * node.dtype.itemsize
        else:
            stack.extend(node.srcs)
    return total


def background_bytes() -> int:
    """``kdsl.background-bytes`` in Dask's config (default 256 MiB): a result read by one task is still computed
    in the background when its graph reads at least this much computed data (see :class:`TaskResults`).

    >>> import dask
    >>> background_bytes() == 1 << 28
    True
    >>> with dask.config.set({"kdsl.background-bytes": 0}):
    ...     background_bytes()
    0
    """
    return int(dask.config.get("kdsl.background-bytes", 1 << 28))


def enabled() -> bool:
    """Whether Dask's stored kdsl results are computed in the background: ``kdsl.background-realise`` in
    Dask's config, default True. When False, a worker's :class:`~kdsl.dask.DevicePlugin` computes each result
    as it is stored (blocking the worker meanwhile) and the local schedulers leave results lazy, to be computed
    with what reads them.

    >>> import dask
    >>> with dask.config.set({"kdsl.background-realise": False}):
    ...     enabled()
    False
    """
    return bool(dask.config.get("kdsl.background-realise", True))
