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
    lib = layer_guard.GuardedLib(vulkan.lib, vulkan.ffi)
    monkeypatch.setattr(layer_guard, "_active", False)
    assert lib.vkCreateDevice is vulkan.lib.vkCreateDevice  # no layer: the cffi function itself
    monkeypatch.setattr(layer_guard, "_libs", [lib])
    layer_guard.activate(["VK_LAYER_KHRONOS_validation"])
    assert lib.vkCreateDevice.__name__ == "vkCreateDevice" and lib.vkCreateDevice is not vulkan.lib.vkCreateDevice
    assert lib.vkCreateDevice is lib.vkCreateDevice  # made once


def test_active_once_an_instance_has_the_validation_layer():
    mgr = kp.Manager()
    if validation.enabled() and validation.VALIDATION_LAYER in available_layers():
        assert layer_guard.active()
        assert vk.lib.vkCreateDevice.__name__ == "vkCreateDevice"
    mgr.destroy()


def test_finalisers_that_call_vulkan_never_wait_for_their_own_thread():
    """A garbage collection may run anywhere, and a finaliser may destroy a Vulkan object (a call through the
    guard): with collections at nearly every allocation and such finalisers, readers and a writer on three
    threads all finish (a Condition-based lock deadlocked here: its notify_all allocated)."""
    from rt_util import run_python

    out = run_python("""
import gc, threading
from kdsl.runtime import layer_guard
lock = layer_guard._ReadersWriter()
done = []

class Finalised:
    def __init__(self):
        self.me = self  # a cycle: freed by the collector, whenever it runs
    def __del__(self):
        lock.call(lambda: None, (), False)

def work(write):
    for _ in range(3000):
        Finalised()
        lock.call(lambda: [Finalised() for _ in range(2)], (), write)
    done.append(write)

gc.set_threshold(1)
threads = [threading.Thread(target=work, args=(w,)) for w in (False, False, True)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
print(sorted(done))
""", timeout=90)
    assert out.stdout.strip() == "[False, False, True]"
