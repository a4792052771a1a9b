"""kdsl.runtime.layer_guard: while a Vulkan layer is on, instance and device creation and destruction exclude
every other Vulkan call (the validation layer's unlocked global map); other calls run side by side."""

from __future__ import annotations

import threading
import time

import vulkan

import kdsl.kp as kp
from kdsl.runtime import layer_guard, validation, vk
from kdsl.runtime.instance import available_layers


def _blocking(entered: threading.Event, release: threading.Event):
    def fn(*args):
        entered.set()
        assert release.wait(10)
        return args
    return fn


def _start(target) -> threading.Thread:
    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t


def _inside(lock, write: bool):
    """A thread inside a call of ``lock`` until the returned event is set."""
    entered, release = threading.Event(), threading.Event()
    t = _start(lambda: lock.call(_blocking(entered, release), (), write))
    assert entered.wait(10)
    return t, release


def test_a_writer_waits_for_readers_and_readers_wait_for_a_writer():
    lock = layer_guard._ReadersWriter()
    reader, release_reader = _inside(lock, write=False)
    other_reader, release_other = _inside(lock, write=False)  # readers together
    done = threading.Event()
    writer = _start(lambda: (lock.call(lambda: None, (), True), done.set()))
    time.sleep(0.05)
    assert not done.is_set(), "a writer ran while readers were inside"
    release_reader.set()
    release_other.set()
    assert done.wait(10)
    for t in (reader, other_reader, writer):
        t.join(10)

    writer, release_writer = _inside(lock, write=True)
    read = threading.Event()
    reader = _start(lambda: (lock.call(lambda: None, (), False), read.set()))
    time.sleep(0.05)
    assert not read.is_set(), "a reader ran while a writer was inside"
    release_writer.set()
    assert read.wait(10)
    writer.join(10)
    reader.join(10)


def test_a_thread_inside_a_call_passes_through():
    """The layer's message callback runs Python inside a call; a finaliser there may call Vulkan again."""
    lock = layer_guard._ReadersWriter()
    assert lock.call(lambda: lock.call(lambda: lock.call(lambda x: x + 1, (1,), False), (), True), (), False) == 2
    assert lock.readers == 0 and not lock.room.locked() and not lock.turnstile.locked()


def test_lib_wraps_functions_once_a_layer_is_on_and_passes_constants(monkeypatch):
    assert vk.lib.VK_SUCCESS == vulkan.VK_SUCCESS
    assert layer_guard.WRITERS == {"vkCreateInstance", "vkDestroyInstance", "vkCreateDevice", "vkDestroyDevice"}
    monkeypatch.setattr(layer_guard, "_libs", [])  # the test's lib registers there, not beside vk.lib
    lib = layer_guard.GuardedLib(vulkan.lib, vulkan.ffi)
    assert layer_guard._libs == [lib]
    monkeypatch.setattr(layer_guard, "_active", False)
    assert lib.vkCreateDevice is vulkan.lib.vkCreateDevice  # no layer: the cffi function itself
    layer_guard.activate(["VK_LAYER_KHRONOS_validation"])
    assert lib.vkCreateDevice.__name__ == "vkCreateDevice" and lib.vkCreateDevice is not vulkan.lib.vkCreateDevice
    assert lib.vkCreateDevice is lib.vkCreateDevice  # made once


def test_active_once_an_instance_has_the_validation_layer():
    mgr = kp.Manager()
    if validation.enabled() and validation.VALIDATION_LAYER in available_layers():
        assert layer_guard.active()
        assert vk.lib.vkCreateDevice.__name__ == "vkCreateDevice"
    mgr.destroy()


class _Collecting:
    """A lock whose next ``acquire`` first runs ``nested`` (what a garbage collection's finaliser would do on
    that thread at that moment)."""

    def __init__(self, lock):
        self.lock, self.nested = lock, None

    def acquire(self):
        nested, self.nested = self.nested, None
        if nested is not None:
            nested()
        return self.lock.acquire()

    def release(self):
        self.lock.release()


def test_a_finaliser_calling_vulkan_while_its_thread_leaves_passes_through():
    """A reader leaving while a writer waits: a finaliser run by a collection at that moment calls through the
    guard (a tensor's destroy). It must pass straight through, not queue behind the writer, which waits for this
    very reader (the suite hung so on 2026-12-05)."""
    lock = layer_guard._ReadersWriter()
    lock.count = _Collecting(lock.count)
    release = threading.Event()
    nested_ran = threading.Event()

    def read():
        release.wait(10)
        lock.count.nested = lambda: (lock.call(lambda: None, (), False), nested_ran.set())  # on its way out

    reader = _start(lambda: lock.call(read, (), False))
    time.sleep(0.05)
    wrote = threading.Event()
    writer = _start(lambda: (lock.call(lambda: None, (), True), wrote.set()))
    time.sleep(0.05)  # the writer now holds the turnstile and waits for the room
    release.set()
    assert nested_ran.wait(10) and wrote.wait(10), "the reader's finaliser waited behind the writer"
    reader.join(10)
    writer.join(10)
