"""Several devices in one process: ``kd.devices()``, ``with kd.device(i):``, ``Array.to_device`` and the error
for arrays of two devices in one expression.

lavapipe is one physical device, so the tests make a second *logical* device of it with
``KDSL_VIRTUAL_DEVICES=2`` (its own VkDevice, memory and caches): everything multi-device code does - arrays
and kernels on either device, copies between them, the mixing errors - runs for real. On a machine with several
physical devices the logical ones follow all physical ones (``[p0, p1, p0, p1]``): the fixture takes the two
logical devices of the first physical device, wherever their indices are."""

import threading

import numpy as np
import pytest

import kdsl as kd


@pytest.fixture
def two(monkeypatch):
    monkeypatch.setenv("KDSL_VIRTUAL_DEVICES", "2")
    monkeypatch.delenv("KDSL_DEVICE", raising=False)
    devs = kd.devices()
    return devs[0], devs[len(devs) // 2]


def test_devices_lists_the_current_device_and_each_index_is_one_object():
    devs = kd.devices()
    assert kd.device() in devs
    assert all(d is kd.device(i) is kd.Device(i) for i, d in enumerate(devs))
    assert kd.device(0) is kd.device(0)


def test_virtual_devices_are_distinct_logical_devices(two):
    d0, d1 = two
    assert d0 is not d1 and d0.index == 0 and d1.index == len(kd.devices()) // 2
    assert d0.physical_index == d1.physical_index == 0 and d0.name == d1.name
    assert d0.manager is not d1.manager


def test_with_device_places_new_arrays_and_is_thread_local(two):
    d0, d1 = two
    seen = []
    with kd.device(d1.index) as d:
        assert d is d1 and kd.device() is d1
        a = kd.arange(5.0) * 2
        th = threading.Thread(target=lambda: seen.append(kd.device()))
        th.start()
        th.join()
        with kd.device(0):
            assert kd.zeros(2).device is d0
        assert kd.ones(2).device is d1
    assert seen == [d0] and kd.device() is d0
    assert a.device is d1 and (a + 1).device is d1
    np.testing.assert_array_equal(a.sum().numpy(), 20.0)


def test_to_device_copies_through_the_host(two):
    d0, d1 = two
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    a = kd.asarray(x)
    b = a.T.to_device(d1)  # a non-contiguous view moves by value
    assert b.device is d1 and b.shape == (4, 3)
    np.testing.assert_array_equal((b * 2).numpy(), x.T * 2)
    assert a.to_device(d0) is a
    back = (b + 1).to_device(0)
    assert back.device is d0
    np.testing.assert_array_equal((back + a.T).numpy(), x.T + 1 + x.T)
    with pytest.raises(ValueError, match="stream"):
        a.to_device(d1, stream=1)


@pytest.mark.parametrize("op", [lambda a, b: a + b, lambda a, b: a @ b, lambda a, b: kd.where(a > 0, a, b),
                                lambda a, b: kd.concatenate([a, b]), lambda a, b: kd.maximum(b, a)])
def test_mixing_devices_raises_naming_both(two, op):
    a = kd.ones((2, 2))
    with two[1]:
        b = kd.ones((2, 2))
    with pytest.raises(ValueError, match=r"different devices, Device\(\d.*and Device\(\d.*to_device"):
        op(a, b)


def test_kernels_run_on_their_arrays_device(two):
    _, d1 = two

    with d1:
        x = kd.arange(4.0)
        y = kd.zeros(4)
    _double[4](x, y)  # outside the with: the arrays choose the device
    assert y.device is d1
    np.testing.assert_array_equal(y.numpy(), [0, 2, 4, 6])
    with pytest.raises(ValueError, match=r"different devices.*to_device"):
        _double[4](kd.arange(4.0), y)


@kd.kernel
def _double(x: kd.f32[:], y: kd.f32[:]):
    i = kd.global_id(0)
    y[i] = x[i] * 2


def test_bad_virtual_device_count(monkeypatch):
    monkeypatch.setenv("KDSL_VIRTUAL_DEVICES", "two")
    with pytest.raises(ValueError, match="KDSL_VIRTUAL_DEVICES"):
        kd.devices()
