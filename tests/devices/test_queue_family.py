"""The queue family kdsl's arrays submit to: the first with compute, or ``KDSL_QUEUE_FAMILY`` (``kdsl.device``)."""

import importlib

import numpy as np
import pytest

import kdsl as kd

device_module = importlib.import_module("kdsl.device")
GRAPHICS = {"compute": True, "graphics": True}
COMPUTE = {"compute": True, "graphics": False}
TRANSFER = {"compute": False, "graphics": False}


@pytest.mark.parametrize("families, want", [([GRAPHICS], 0), ([GRAPHICS, TRANSFER, COMPUTE], 0),
                                            ([TRANSFER, GRAPHICS], 1), ([TRANSFER, COMPUTE, GRAPHICS], 1)])
def test_first_compute_family(families, want, monkeypatch):
    monkeypatch.delenv("KDSL_QUEUE_FAMILY", raising=False)
    assert device_module.queue_family({"queue_families": families}) == want


def test_override_and_its_errors(monkeypatch):
    info = {"queue_families": [GRAPHICS, TRANSFER, COMPUTE]}
    monkeypatch.setenv("KDSL_QUEUE_FAMILY", "0")
    assert device_module.queue_family(info) == 0
    for bad in ("1", "3", "x", "-1"):
        monkeypatch.setenv("KDSL_QUEUE_FAMILY", bad)
        with pytest.raises(ValueError, match=r"KDSL_QUEUE_FAMILY=.*one of \[0, 2\]"):
            device_module.queue_family(info)
    monkeypatch.delenv("KDSL_QUEUE_FAMILY")
    with pytest.raises(RuntimeError, match="no compute queue family"):
        device_module.queue_family({"queue_families": [TRANSFER]})


def test_arrays_run_on_the_chosen_family():
    dev = kd.device()
    fam = device_module.queue_family(dev.info)
    assert dev.manager._ctx.queue_families == [fam]
    np.testing.assert_array_equal((kd.arange(5) * 2).numpy(), np.arange(5) * 2)
