"""A Sequence and threads: one thread at a time inside a Sequence, and a thread's choice to block in its fence
waits at once (no polling first).

Example:
    >>> import threading
    >>> with blocking_waits():
    ...     getattr(threading.current_thread(), BLOCKING_WAITS)
    True
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

BLOCKING_WAITS = "kdsl_blocking_waits"  # a thread with this attribute true waits without polling (below)


@contextlib.contextmanager
def blocking_waits() -> Iterator[None]:
    """Inside this block the calling thread's fence waits block in the driver at once, without polling first.

    For background threads: a poll is a tight loop of short driver calls, and between them the poller takes the
    GIL back before a thread waiting for it wakes up, so the threads with Python to run (Dask's scheduler, a
    worker's event loop) would stall for as long as the device works. Nothing needs a background thread's
    wake-up to be fast. (The block sets the thread's ``kdsl_blocking_waits`` attribute; kdsl.dask's realiser,
    which may use only kdsl's public API, sets it on its thread directly.)

    >>> with blocking_waits():
    ...     getattr(threading.current_thread(), BLOCKING_WAITS)
    True
    >>> getattr(threading.current_thread(), BLOCKING_WAITS, False)
    False
    """
    thread = threading.current_thread()
    before = getattr(thread, BLOCKING_WAITS, False)
    setattr(thread, BLOCKING_WAITS, True)
    try:
        yield
    finally:
        setattr(thread, BLOCKING_WAITS, before)


class ThisThread(threading.local):
    """The calling thread's ``threading.Thread``, remembered per thread: a fence wait reads its
    ``kdsl_blocking_waits`` attribute on every submission, and a thread-local's attribute is a C lookup where
    ``threading.current_thread()`` is a Python call. (Thread-local: the entry dies with its thread, so a new
    thread that gets a dead one's ident never sees the dead one's object.)"""

    thread: threading.Thread | None = None


this = ThisThread()


def this_thread() -> threading.Thread:
    """The calling thread (read ``this.thread or this_thread()``: the call only on a thread's first wait)."""
    thread = this.thread
    if thread is None:
        thread = this.thread = threading.current_thread()
    return thread


def exclusive(method: _F) -> _F:
    """One thread at a time: a second thread calling into a Sequence that another thread is using gets a clear
    error instead of corrupting its command buffer (a VkCommandBuffer and its pool are not thread-safe)."""

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        if not self._busy.acquire(blocking=False):
            enter_held(self, method.__name__)
        try:
            return method(self, *args, **kwargs)
        finally:
            self._busy.release()

    return guarded  # type: ignore[return-value]


def enter_held(seq: Any, name: str) -> None:
    """Enter ``seq`` (call ``Sequence.<name>``) although another thread holds it: wait for that thread when it
    is destroying the Sequence (its own ``destroy()``, or its Manager's), so that the call then reports "this
    sequence was destroyed" rather than blaming a thread the caller never shared it with; otherwise raise
    :func:`busy_error`. (The destroying thread only waits for the device's current batch.)"""
    if not seq._destroying:
        raise busy_error(name)
    seq._busy.acquire()


def busy_error(name: str) -> RuntimeError:
    """The error of a second thread calling ``Sequence.<name>`` while another thread is inside the Sequence."""
    return RuntimeError(f"Sequence.{name}: this Sequence is being used by another thread; a Sequence is used by "
                        "one thread at a time: make one Sequence per thread (mgr.sequence()), they share the "
                        "Manager's tensors and algorithms")
