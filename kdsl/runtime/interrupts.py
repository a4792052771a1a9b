"""Ctrl-C deferred over the runtime's one-time set-ups, which an interrupt would leave half done for good.

A ``KeyboardInterrupt`` is raised between two bytecodes wherever the main thread is: inside an ``import`` it can
leave a package in ``sys.modules`` without its submodule attributes (seen: glslang's first load, where cffi
imports ``pycparser``, interrupted; every later compile then failed with ``AttributeError: module 'pycparser'
has no attribute 'c_ast'``), and between a Vulkan create call and the line that keeps its handle it leaks the
object. Inside :func:`deferred` the interrupt is remembered and raised when the block ends.

Only for short work that must not be cut: a deferred Ctrl-C cannot stop the block (the hot paths, such as a
sequence's wait, stay interruptible and repair their state instead). :func:`deferring` wraps the functions that
create Vulkan objects (a device, a pipeline, a tensor's memory, a sequence's command pool).

Example:
    >>> from kdsl.runtime import interrupts
    >>> with interrupts.deferred():
    ...     done = True
    >>> done
    True
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from types import FrameType
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])


@contextmanager
def deferred() -> Iterator[None]:
    """Run the block with SIGINT deferred to its end (a no-op off the main thread, which never gets signals,
    inside another :func:`deferred`, and when the SIGINT handler is not a Python function)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGINT)
    except ValueError:  # pragma: no cover - signals unavailable (a sub-interpreter)
        previous = None
    if not callable(previous) or getattr(previous, "_kdsl_deferring", False):
        yield
        return
    caught: list[tuple[int, FrameType | None]] = []

    def remember(signum: int, frame: FrameType | None) -> None:
        caught.append((signum, frame))

    remember._kdsl_deferring = True  # type: ignore[attr-defined]
    signal.signal(signal.SIGINT, remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            handler: Any = previous
            handler(*caught[0])  # the default handler raises KeyboardInterrupt here


def deferring(fn: _F) -> _F:
    """``fn`` run inside :func:`deferred`: for the functions that create Vulkan objects (a handle returned by
    the driver and not yet kept when the interrupt is raised would never be destroyed).

    Example:
        >>> from kdsl.runtime import interrupts
        >>> interrupts.deferring(abs)(-2)
        2
    """
    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with deferred():
            return fn(*args, **kwargs)

    return run  # type: ignore[return-value]
