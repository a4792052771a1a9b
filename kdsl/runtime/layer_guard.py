"""Vulkan calls against instance and device creation and destruction, while a Vulkan layer is enabled.

The Khronos validation layer (1.3.239, Debian 12's, which the test suite runs with) keeps the state of every
instance and device in one global map, which it reads on every Vulkan call and writes, without a lock, in
``vkCreateInstance``, ``vkDestroyInstance``, ``vkCreateDevice`` and ``vkDestroyDevice`` (its own source says
"TODO: We probably should lock here, or have caller lock"). A Manager made or destroyed by one thread while
another thread called Vulkan corrupted the heap on the H200 machine (``corrupted size vs. prev_size in
fastbins``, 2026-12-05), though Vulkan allows it. So once an instance is created with a layer, every call through
:data:`kdsl.runtime.vk.lib` is a reader and those four are writers of one readers-writer lock. Without layers
nothing is wrapped: the calls cost what they cost before.

Example:
    >>> from kdsl.runtime import layer_guard, vk
    >>> read = layer_guard._ReadersWriter()
    >>> read.call(lambda x: x + 1, (1,), False)  # what the guarded vk.lib functions do once a layer is on
    2
    >>> vk.lib.VK_SUCCESS  # constants pass through
    0
"""

from __future__ import annotations

import os
import threading
from typing import Any

from .lifetime import after_fork_in_child

# layers a user can switch on through the Vulkan loader itself, unseen by kdsl
_LOADER_LAYER_VARIABLES = ("VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE")
WRITERS = frozenset({"vkCreateInstance", "vkDestroyInstance", "vkCreateDevice", "vkDestroyDevice"})


class _ReadersWriter:
    """Many readers or one writer, from plain locks: ``room`` is held by a writer, or by the readers together
    (the first one in takes it, the last one out gives it back); a writer holds ``turnstile`` while it waits
    and writes, so new readers queue behind it (a thread polling a fence cannot starve a Manager's creation).

    A garbage collection can run a finaliser that calls Vulkan (a tensor's destroy) wherever Python allocates an
    object. So from taking the locks until giving them back, :meth:`call` allocates nothing but inside ``fn``
    (explicit ``acquire``/``release``: a ``with`` looks up bound methods; no Python calls: a frame may be an
    object), and its thread counts as inside until it is out: such a finaliser's call passes straight through
    instead of waiting for locks its own thread holds (a ``threading.Condition`` version hung the suite on
    2026-12-05: its ``notify_all`` allocated, and the finaliser waited for the Condition's lock). The layer's
    message callback, which runs Python inside a call, passes through the same way."""

    def __init__(self) -> None:
        self.turnstile, self.room, self.count = threading.Lock(), threading.Lock(), threading.Lock()
        self.readers = 0
        self.inside = threading.local()

    def call(self, fn, args: tuple, write: bool) -> Any:
        mine = self.inside
        depth = getattr(mine, "depth", 0)  # (also makes this thread's dict before any lock is taken)
        if depth:
            mine.depth = depth + 1
            try:
                return fn(*args)
            finally:
                mine.depth = depth
        if write:
            self.turnstile.acquire()
            self.room.acquire()
        else:
            self.turnstile.acquire()  # waits while a writer waits or writes
            self.turnstile.release()
            self.count.acquire()
            self.readers += 1
            if self.readers == 1:
                self.room.acquire()
            self.count.release()
        mine.depth = 1
        try:
            return fn(*args)
        finally:
            if write:
                self.room.release()
                self.turnstile.release()
            else:
                self.count.acquire()
                self.readers -= 1
                if self.readers == 0:
                    self.room.release()
                self.count.release()
            mine.depth = 0


_lock = _ReadersWriter()
_active = False


def activate(layers: list[str]) -> None:
    """Guard every later Vulkan call when ``layers`` (an instance's, before it is created) or the loader's
    environment variables name any layer; never undone (a layer's map lives as long as the process)."""
    global _active
    if _active or not (layers or any(os.environ.get(v, "").strip() for v in _LOADER_LAYER_VARIABLES)):
        return
    _active = True
    for lib in _libs:
        lib.forget()


def active() -> bool:
    """Whether Vulkan calls are guarded."""
    return _active


def guarded(name: str, fn) -> Any:
    """``fn``, the Vulkan function ``name`` (a cffi function pointer), as a reader (a writer for :data:`WRITERS`)
    of the lock while :func:`active`; ``fn`` itself otherwise."""
    if not _active:
        return fn
    write = name in WRITERS

    def call(*args):
        return _lock.call(fn, args, write)

    call.__name__ = call.__qualname__ = name
    return call


class GuardedLib:
    """The ``vulkan`` package's cffi ``lib``, its functions through :func:`guarded`. Each name is looked up once
    and kept in the instance (as fast to find as on the cffi ``lib``) until :func:`activate` makes them anew."""

    def __init__(self, lib, ffi) -> None:
        self._lib, self._ffi = lib, ffi
        _libs.append(self)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._lib, name)
        if isinstance(value, self._ffi.CData) and self._ffi.typeof(value).kind == "function":
            value = guarded(name, value)
        setattr(self, name, value)
        return value

    def forget(self) -> None:
        """Drop the functions found so far (they are looked up, and guarded, again)."""
        for name in [n for n in vars(self) if not n.startswith("_")]:
            delattr(self, name)


_libs: list[GuardedLib] = []


def _new_lock_in_child() -> None:
    """A parent thread inside a Vulkan call at fork time would leave the lock held in the child."""
    global _lock
    _lock = _ReadersWriter()


after_fork_in_child(_new_lock_in_child)
