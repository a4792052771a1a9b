"""Pinning workers without starting any: host slots (lock files), the worker plugin's choice, and the
cluster helper's argument checks."""

import types

import pytest

import kdsl as kd
import kdsl.dask as kdd
from kdsl.dask import plugin


@pytest.fixture
def slots(tmp_path):
    yield str(tmp_path)
    plugin.release_slots()


def test_slots_are_distinct_and_freed_when_released(slots):
    assert [kdd.claim_slot(slots) for _ in range(3)] == [0, 1, 2]
    plugin._held.pop(-3).close()  # the holder of slot 0 ends
    assert kdd.claim_slot(slots) == 0
    assert kdd.claim_slot(slots) == 3


def test_the_plugin_pins_a_worker_to_a_device(monkeypatch, slots):
    monkeypatch.setenv("KDSL_VIRTUAL_DEVICES", "2")
    monkeypatch.setattr(plugin.tempfile, "gettempdir", lambda: slots)
    first, second = types.SimpleNamespace(), types.SimpleNamespace()
    monkeypatch.delenv("KDSL_DEVICE", raising=False)
    kdd.DevicePlugin().setup(first)  # claims slot 0 of this "host"
    monkeypatch.delenv("KDSL_DEVICE")
    kdd.DevicePlugin().setup(second)  # slot 1: the second device
    assert (first.kdsl_device, second.kdsl_device) == (0, 1)
    assert kd.device() is kd.device(1)
    kdd.DevicePlugin(device=0).setup(second)  # an explicit device wins
    assert second.kdsl_device == 0 and kd.device() is kd.device(0)


def test_a_worker_already_pinned_keeps_its_device(monkeypatch):
    monkeypatch.setenv("KDSL_VIRTUAL_DEVICES", "2")
    monkeypatch.setenv("KDSL_DEVICE", "1")
    worker = types.SimpleNamespace()
    kdd.DevicePlugin().setup(worker)
    assert worker.kdsl_device == 1


def test_cluster_arguments_are_checked():
    with pytest.raises(ValueError, match="process"):
        kdd.LocalVulkanCluster(processes=False)
    with pytest.raises(ValueError, match="at least one device"):
        kdd.local_cluster(devices=[])
