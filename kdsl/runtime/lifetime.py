"""Object lifetime rules shared by the runtime: ``destroy()`` is idempotent and also runs on garbage
collection; after ``os.fork()`` every Vulkan object inherited from the parent is *foreign* in the child.

fork() copies the parent's memory but not its driver threads, and the Vulkan objects (device, fences, queues,
mapped memory) still belong to the parent's driver state: a child that waits on a parent's fence hangs forever.
So the child never waits on, submits to or destroys them: their ``destroy()``, ``__del__`` and the exit hook
become no-ops, and using one raises :data:`FORK_ERROR`. A Manager created in the child starts afresh.

Example:
    >>> import os
    >>> from kdsl.runtime import lifetime
    >>> seen = []
    >>> fn = lifetime.after_fork_in_child(lambda: seen.append(os.getpid()))
    >>> callable(fn)
    True
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from typing import Any

FORK_ERROR = ("this Manager was created in the parent process before fork(); create a new Manager in the "
              "child, or use the 'spawn' start method (multiprocessing.get_context('spawn'))")


class Destroyable:
    """Base of Manager, Memory, Algorithm and Sequence."""

    def destroy(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __del__(self) -> None:
        try:
            self.destroy()
        except Exception:  # pragma: no cover - interpreter shutdown: modules may already be gone
            pass


# Contexts (one per Manager) alive in this process: the fork hook marks each one foreign in the child.
_contexts: weakref.WeakSet[Any] = weakref.WeakSet()
_contexts_lock = threading.Lock()
_child_hooks: list[Callable[[], None]] = []


def register_context(ctx: Any) -> None:
    """Remember ``ctx`` so that a forked child marks it foreign (called by Context)."""
    with _contexts_lock:
        _contexts.add(ctx)


def after_fork_in_child(fn: Callable[[], None]) -> Callable[[], None]:
    """Run ``fn()`` in a child process right after ``os.fork()``, once the runtime has marked every inherited
    Vulkan object foreign (so ``fn`` may drop references to them: their ``destroy`` is then a no-op).

    Layers above the runtime use it to forget per-process state (cached Managers, sequences, buffer pools).
    Returns ``fn``, so it works as a decorator. Exceptions raised by ``fn`` are ignored (the child must live).
    """
    _child_hooks.append(fn)
    return fn


def _in_child() -> None:
    """os.register_at_fork(after_in_child=...): only the forking thread survives, and locks another thread
    held at fork time stay locked forever in the child, so every runtime lock is replaced, not reused."""
    global _contexts_lock
    _contexts_lock = threading.Lock()
    for ctx in list(_contexts):
        ctx.mark_foreign()
    _contexts.clear()
    for fn in list(_child_hooks):
        try:
            fn()
        except Exception:  # pragma: no cover - a failing hook must not kill the child
            pass


if hasattr(os, "register_at_fork"):  # not on Windows (no fork there)
    os.register_at_fork(after_in_child=_in_child)
