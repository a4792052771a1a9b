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

import atexit
import os
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any, NoReturn

FORK_ERROR = ("this Manager was created in the parent process before fork(); create a new Manager in the "
              "child, or use the 'spawn' start method (multiprocessing.get_context('spawn'))")
FORK_DRIVER_ERROR = ("this process was forked from one that had a {driver} Vulkan device open, and that driver "
                     "cannot start a device in a forked child (it hangs or fails); use the 'spawn' start method "
                     "(multiprocessing.get_context('spawn')), or fork before the parent opens a device")
# Drivers that cannot open a device in a child forked from a process that had one open (seen: NVIDIA's crashes
# at exit, hangs or fails vkCreateDevice there, as CUDA refuses re-initialisation after fork).
_NO_FORK_VENDORS = {0x10DE: "NVIDIA"}
_inherited: list[dict] = []  # device info of the live devices this process inherited through fork()


class Destroyable:
    """Base of Manager, Memory, Algorithm and Sequence."""

    def destroy(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __del__(self) -> None:
        if sys.is_finalizing():  # the exit hook freed every Manager's objects; destroy() could wait forever
            return  # for a lock a daemon thread died holding (see finalizer_acquire)
        try:
            self.destroy()
        except Exception:  # pragma: no cover - interpreter shutdown: modules may already be gone
            pass


_exiting = False  # set by the exit hook before it destroys the devices


def mark_exiting() -> None:
    """Called by the runtime's exit hook: from now on :func:`destroyed_error` stops daemon threads quietly.

    CPython stops daemon threads at shutdown without a word; a daemon thread still computing when the exit hook
    destroys the devices gets ``SystemExit`` instead of an error about a destroyed object: ``threading`` ends the
    thread quietly (its excepthook ignores exactly ``SystemExit``: no subclass), and the thread's ``with`` and
    ``finally`` blocks release its locks, so no exit hook waits for it.
    """
    global _exiting
    _exiting = True


def destroyed_error(message: str) -> BaseException:
    """The error for using a destroyed object: a ``RuntimeError``, or ``SystemExit`` in a thread other than the
    main one once the exit hook has begun (see :func:`mark_exiting`; only daemon threads still run then: CPython
    joins the others before it runs exit hooks). In the main thread then (a later exit hook), the message says
    how to order the hooks.

    Example:
        >>> type(destroyed_error("this sequence was destroyed")).__name__
        'RuntimeError'
    """
    if not _exiting:
        return RuntimeError(message)
    if threading.current_thread() is not threading.main_thread():
        return SystemExit(f"{message} (the interpreter is exiting: this daemon thread stops here)")
    # an exit hook registered before kdsl's runs after it (atexit runs the latest first)
    return RuntimeError(f"{message} (but kdsl's exit hook freed the devices already: an exit hook that computes "
                        "with kdsl must run before it; register it with atexit after importing kdsl)")


def finalizer_acquire(lock: Any) -> bool:
    """Acquire ``lock`` in a finaliser (``__del__``, a weakref callback): True once held, False when the
    interpreter is finalizing and another thread holds it (the finaliser then gives up its work).

    After the exit hooks, CPython ends a daemon thread where it stands the next time the thread takes the GIL
    (back from a Vulkan wait or a compilation, say), with its locks still held; a finaliser run by the last
    garbage collection that waited for one of them hung the exit forever. The process is ending then, so what
    the finaliser would tidy goes with it.

    Example:
        >>> import threading
        >>> lock = threading.Lock()
        >>> finalizer_acquire(lock)
        True
        >>> lock.release()
    """
    if lock.acquire(False):
        return True
    if sys.is_finalizing():
        return False
    lock.acquire()
    return True


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


def check_device_allowed() -> None:
    """Raise before opening a device in a forked child whose parent had a device of a driver that cannot."""
    for info in _inherited:
        driver = _NO_FORK_VENDORS.get(info.get("vendor_id", 0))
        if driver:
            raise RuntimeError(FORK_DRIVER_ERROR.format(driver=driver))


class _ExitStatus:
    """The status a forked child exits with: what it passed to ``sys.exit``, 1 after an uncaught exception."""

    code: str | int | None = 0

    def __init__(self) -> None:
        real_exit, real_hook = sys.exit, sys.excepthook

        def exit(code: str | int | None = None) -> NoReturn:
            self.code = code
            real_exit(code)

        def hook(*args: Any) -> None:
            self.code = 1
            real_hook(*args)

        sys.exit, sys.excepthook = exit, hook

    def value(self) -> int:
        if self.code is None:
            return 0
        if isinstance(self.code, int):
            return self.code & 0xFF
        print(self.code, file=sys.stderr)  # sys.exit("message"): printed, status 1
        return 1


def _leave_without_driver_exit_handlers(status: _ExitStatus) -> None:
    """The child's last Python exit hook: run every other one, flush, then ``os._exit``.

    The C exit handlers of the drivers whose devices the child inherited would touch the parent's driver
    threads: Mesa's joins them and crashes, NVIDIA's crashes too. ``multiprocessing`` ends its forked workers
    with ``os._exit`` for the same kind of reason; this does it for a plain ``os.fork()`` child.
    """
    atexit.unregister(_leave_without_driver_exit_handlers)
    atexit._run_exitfuncs()  # the hooks registered before this one (they would run after it)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # pragma: no cover - a closed stream
            pass
    os._exit(status.value())


def _in_child() -> None:
    """os.register_at_fork(after_in_child=...): only the forking thread survives, and locks another thread
    held at fork time stay locked forever in the child, so every runtime lock is replaced, not reused."""
    global _contexts_lock
    _contexts_lock = threading.Lock()
    live = [ctx for ctx in list(_contexts) if getattr(ctx, "device", None) is not None]
    for ctx in list(_contexts):
        ctx.mark_foreign()
    _contexts.clear()
    if live:
        _inherited.extend(ctx.info for ctx in live)
        atexit.register(_leave_without_driver_exit_handlers, _ExitStatus())
    for fn in list(_child_hooks):
        try:
            fn()
        except Exception:  # pragma: no cover - a failing hook must not kill the child
            pass


if hasattr(os, "register_at_fork"):  # not on Windows (no fork there)
    os.register_at_fork(after_in_child=_in_child)
